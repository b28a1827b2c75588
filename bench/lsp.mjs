#!/usr/bin/env node
// Keystroke latency of `agentc lsp`: time from a textDocument/didChange to the
// publishDiagnostics for that version of the buffer, median over N edits.
//
//   node bench/lsp.mjs [--synthetic] [--edits N]
//
// Without --synthetic: this repository's workspace (read-only: edits stay in the
// buffer). With it: the 1,000-card synthetic workspace (bench/synth.mjs, generated
// when stale). Needs dist/ (node scripts/build.mjs).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { DEFAULT_OUT, isFresh, synthesize } from './synth.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const synthetic = process.argv.includes('--synthetic');
const at = process.argv.indexOf('--edits');
const edits = at === -1 ? 20 : Number(process.argv[at + 1]);
const root = synthetic ? DEFAULT_OUT : repo;
if (synthetic && !isFresh()) synthesize();

const proc = spawn(process.execPath, [join(repo, 'bin', 'agentc.js'), 'lsp', '--stdio', '--cwd', root], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
const waiting = new Map();
conn.onNotification('textDocument/publishDiagnostics', (p) => {
  const key = `${p.uri}@${p.version}`;
  waiting.get(key)?.(p);
  waiting.delete(key);
});
conn.listen();

const card = readdirSync(join(root, 'cards'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()[0];
const uri = pathToFileURL(join(root, 'cards', card)).href;
const text = readFileSync(join(root, 'cards', card), 'utf8');
const published = (version) => new Promise((resolve) => waiting.set(`${uri}@${version}`, resolve));

await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
await conn.sendNotification('initialized', {});
const first = performance.now();
let ready = published(1);
await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
await ready;
const coldMs = performance.now() - first;

const times = [];
for (let v = 2; v < edits + 2; v++) {
  // Alternate a misspelt card field and the original: every other edit adds and clears a diagnostic.
  const edited = v % 2 === 0 ? text.replace(/^description:/m, 'descriptoin:') : text;
  ready = published(v);
  const t0 = performance.now();
  await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text: edited }] });
  await ready;
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `${synthetic ? '1,000-card synthetic' : 'this repository'}: first publish ${coldMs.toFixed(0)} ms; didChange → publishDiagnostics median ${median.toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times.at(-1).toFixed(0)}, ${times.length} edits)`,
);
await conn.sendRequest('shutdown');
await conn.sendNotification('exit');
conn.dispose();
