import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
const OPTS = { uniqueKeys: true, prettyErrors: false, strict: true, version: '1.2', logLevel: 'error' };
let n = 0, bad = 0;
function walk(d) { for (const e of readdirSync(d, { withFileTypes: true })) { if (['node_modules', '.git', 'dist'].includes(e.name)) continue; const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith('.json')) { const t = readFileSync(p, 'utf8'); let j; try { j = JSON.parse(t); } catch { continue; } n++; const doc = parseDocument(t, OPTS); const v = doc.errors.length ? 'error: ' + doc.errors[0].message.split('\n')[0] : doc.toJS(); if (!isDeepStrictEqual(v, j)) { bad++; console.log(p, typeof v === 'string' ? v : 'value differs'); } } } }
walk('.'); walk('../shared');
console.log('json', n, 'bad', bad);
