/**
 * sameContent: the same bytes whatever the chunking, including when one side is
 * a prefix of the other or has empty chunks (watch compares bundle.json's chunk
 * lists with the last build's this way, without a total length first).
 */
import { describe, expect, it } from 'vitest';
import { sameContent, type FileContent } from '../../src/emit/content.js';

const b = (...parts: string[]): Uint8Array[] => parts.map((p) => Buffer.from(p, 'utf8'));

describe('sameContent', () => {
  const cases: [string, FileContent, FileContent, boolean][] = [
    ['the same chunks', b('ab', 'cd'), b('ab', 'cd'), true],
    ['split elsewhere', b('ab', 'cd'), b('a', 'bcd'), true],
    ['text against chunks', 'abcd', b('ab', 'c', 'd'), true],
    ['a prefix of the other', b('ab', 'cd'), b('ab', 'c'), false],
    ['the other a prefix', b('ab'), b('ab', 'c'), false],
    ['empty chunks anywhere', b('', 'ab', '', 'cd', ''), b('abcd'), true],
    ['one byte differs late', b('ab', 'cd', 'ef'), b('ab', 'cd', 'eg'), false],
    ['longer by an empty-looking tail', b('ab'), b('ab', '', 'x'), false],
    ['both empty', b(), b('', ''), true],
  ];
  for (const [name, x, y, same] of cases) {
    it(`${name}: ${same}`, () => {
      expect(sameContent(x, y)).toBe(same);
      expect(sameContent(y, x)).toBe(same);
    });
  }

  it('shares chunks by identity and still sees a difference in a shared-offset chunk', () => {
    const shared = Buffer.from('x'.repeat(1000), 'utf8');
    expect(sameContent([shared, Buffer.from('a')], [shared, Buffer.from('a')])).toBe(true);
    expect(sameContent([shared, Buffer.from('a')], [shared, Buffer.from('b')])).toBe(false);
  });
});
