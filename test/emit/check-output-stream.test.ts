/**
 * `build --check`'s comparison (checkOutput) streams: a file is read a megabyte at a
 * time and compared with the content's chunks in place. It must still see every
 * differing byte — across chunk and read boundaries, in the last byte, in the length
 * — and still take a CRLF checkout as up to date.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileContent } from '../../src/emit/content.js';
import { checkOutput } from '../../src/emit/write.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'agentc-check-stream-'));
  await mkdir(out, { recursive: true });
});
afterAll(async () => rm(out, { recursive: true, force: true }));

const MB = 1 << 20;
/** 2.5 MB of text split into uneven chunks, so chunk edges and 1 MB read edges never line up. */
function bigText(): string {
  let s = '';
  for (let i = 0; s.length < 2.5 * MB; i++) s += `line ${i}: some prompt text, é and 漢字 included\n`;
  return s;
}
function chunked(text: string): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Uint8Array[] = [];
  for (let at = 0, n = 1; at < bytes.byteLength; n = (n * 7919) % 400_000) {
    const size = Math.max(1, n);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

async function check(onDisk: string | Buffer, content: FileContent): Promise<string[]> {
  await writeFile(join(out, 'bundle.json'), onDisk);
  return (await checkOutput(out, new Map([['bundle.json', content]]))).stale;
}

describe('checkOutput compares streaming', () => {
  const text = bigText();

  it('takes an identical file as up to date, as chunks and as a string', async () => {
    expect(await check(text, chunked(text))).toEqual([]);
    expect(await check(text, text)).toEqual([]);
  });

  it('sees one changed byte anywhere: first, at a 1 MB read edge, last', async () => {
    for (const at of [0, MB - 1, MB, 2 * MB + 3, Buffer.byteLength(text) - 2]) {
      const bytes = Buffer.from(text, 'utf8');
      bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
      expect(await check(bytes, chunked(text)), `byte ${at}`).toEqual(['bundle.json']);
    }
  });

  it('sees a longer or shorter file', async () => {
    expect(await check(`${text}x`, chunked(text))).toEqual(['bundle.json']);
    expect(await check(text.slice(0, -1), chunked(text))).toEqual(['bundle.json']);
    expect(await check('', chunked(text))).toEqual(['bundle.json']);
  });

  it('takes a CRLF checkout as up to date, and a CRLF file that differs as stale', async () => {
    const crlf = text.replace(/\n/g, '\r\n');
    expect(await check(crlf, chunked(text))).toEqual([]);
    expect(await check(crlf.replace('line 7:', 'line 8:'), chunked(text))).toEqual(['bundle.json']);
  });
});
