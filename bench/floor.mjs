#!/usr/bin/env node
// The floor: the least work any tool must do to check a workspace, and nothing
// else. It reads the same files agentc reads, parses cards and tool contracts as
// YAML (the `yaml` package), splits each block's front matter and parses it as
// YAML, and counts the tokens of every block body once (o200k_base). No
// validation, no linking, no rendering, no output beyond one summary line.
//
//   node bench/floor.mjs [--cwd DIR] [--parser yaml|js-yaml]
//
// --cwd defaults to the current directory. --parser picks the YAML parser: `yaml`
// (the default, and the floor every target is measured against) or `js-yaml`, the
// cheaper parser agentc's check reads clean files with (src/parse/fast-yaml.ts) —
// the bench prints cold check against that floor too, so a faster parser cannot
// flatter the ratio unseen.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CORE_SCHEMA, load } from 'js-yaml';
import { parse as parseYaml } from 'yaml';

const argv = process.argv.slice(2);
const at = argv.indexOf('--cwd');
const root = at === -1 ? process.cwd() : argv[at + 1];
const which = argv.indexOf('--parser');
const parser = which === -1 ? 'yaml' : argv[which + 1];
if (parser !== 'yaml' && parser !== 'js-yaml') throw new Error(`--parser: yaml or js-yaml, not ${parser}`);
const parse = parser === 'yaml' ? parseYaml : (text) => load(text, { schema: CORE_SCHEMA });

async function list(dir, recursive, pattern) {
  let entries;
  try {
    entries = await readdir(join(root, dir), { withFileTypes: true, recursive });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isFile() && pattern.test(e.name)).map((e) => join(e.parentPath ?? e.path, e.name));
}

const readAll = (paths) => Promise.all(paths.map((p) => readFile(p, 'utf8')));

const [cardPaths, blockPaths, toolPaths] = await Promise.all([
  list('cards', false, /\.ya?ml$/),
  list('blocks', true, /\.md$/),
  list(join('schemas', 'tools'), false, /\.(ya?ml|json)$/),
]);
const [cards, blocks, tools, config] = await Promise.all([
  readAll(cardPaths),
  readAll(blockPaths),
  readAll(toolPaths),
  readFile(join(root, 'agentc.config.ts'), 'utf8').catch(() => ''),
]);

let parsed = 0;
for (const text of cards) if (parse(text) != null) parsed++;
for (const text of tools) if (parse(text) != null) parsed++;

const FENCE = /^---[ \t]*$/m;
let tokens = 0;
for (const text of blocks) {
  const fmStart = text.indexOf('\n') + 1;
  const rest = text.slice(fmStart);
  const m = FENCE.exec(rest);
  if (!m) continue;
  if (parse(rest.slice(0, m.index)) != null) parsed++;
  tokens += countTokens(rest.slice(m.index + m[0].length + 1));
}

console.log(
  `floor (${parser}): ${cards.length} cards, ${blocks.length} blocks, ${tools.length} tools, config ${config.length} chars; ${parsed} documents parsed; ${tokens} body tokens (o200k_base)`,
);
