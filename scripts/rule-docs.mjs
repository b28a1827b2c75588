#!/usr/bin/env node
// Writes a skeleton docs/rules/<rule-id>.md for every catalog rule that has no
// page yet (existing pages are never touched), and docs/rules/README.md, the
// index, always. A skeleton carries the catalog's header line, the rule's golden
// fixture (test/check/fixtures/<rule-id>/) as the failing example with the
// report agentc prints for it, and TODO markers where prose must be written:
// test/docs/rule-pages.test.ts fails while a page still holds a TODO.
//
// Usage: node scripts/build.mjs && node scripts/rule-docs.mjs [--refresh-examples]
// --refresh-examples also rewrites the "Failing example" section of existing
// pages from their fixtures (after a message or a fixture changed), except where
// the section starts with <!-- example: by hand -->; the rest of a page is never
// touched.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
const { CATALOG, RULE_IDS } = await import(dist('diagnostics/catalog.js'));
const { compile } = await import(dist('compile.js'));
const { renderPretty } = await import(dist('diagnostics/render/index.js'));
const { groupedRules } = await import(dist('cli/commands/rules.js'));

const docsDir = join(root, 'docs', 'rules');
const fixtures = join(root, 'test', 'check', 'fixtures');
mkdirSync(docsDir, { recursive: true });

/** The header line every page carries; the docs test parses it back. */
export function headerLine(id) {
  const e = CATALOG[id];
  return `**Code:** ${e.code} · **Default severity:** ${e.severity} · **Group:** ${e.group}`;
}

function materialize(name) {
  const dir = join(fixtures, name);
  const ws = mkdtempSync(join(tmpdir(), `agentc-rule-doc-${name}-`));
  cpSync(join(fixtures, '_base'), ws, { recursive: true });
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const rel = relative(dir, join(entry.parentPath, entry.name));
    if (rel === 'expected.json' || rel === '_delete' || rel === '_generate.json') continue;
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    cpSync(join(dir, rel), join(ws, rel));
  }
  if (existsSync(join(dir, '_delete'))) {
    for (const line of readFileSync(join(dir, '_delete'), 'utf8').split('\n')) if (line.trim()) rmSync(join(ws, line.trim()), { force: true, recursive: true });
  }
  if (existsSync(join(dir, '_generate.json'))) {
    const spec = JSON.parse(readFileSync(join(dir, '_generate.json'), 'utf8'));
    for (const [path, g] of Object.entries(spec)) {
      const files =
        g.count === undefined
          ? [[path, generated(g)]]
          : Array.from({ length: g.count }, (_, k) => [path.replaceAll('{i}', String(k + 1)), g.text.replaceAll('{i}', String(k + 1))]);
      for (const [rel, text] of files) {
        mkdirSync(dirname(join(ws, rel)), { recursive: true });
        writeFileSync(join(ws, rel), text);
      }
    }
  }
  return ws;
}

/** head + repeat until `bytes` (the fixture format of test/check/fixture-workspace.ts). */
function generated(g) {
  let text = g.head ?? '';
  while (Buffer.byteLength(text) < g.bytes) text += g.repeat;
  return text;
}

/** Long lines (generated files) are cut so that a page stays readable. */
function clip(text) {
  return text
    .split('\n')
    .map((l) => (l.length > 160 && /^[ >]/.test(l) ? `${l.slice(0, 157)}…` : l))
    .join('\n');
}

async function failingExample(id) {
  if (!existsSync(join(fixtures, id, 'expected.json'))) return 'TODO: a failing example (the rule has no golden fixture yet).';
  const ws = materialize(id);
  try {
    const result = await compile({ root: ws });
    const mine = result.diagnostics.filter((d) => d.rule === id).slice(0, 1);
    if (mine.length === 0) return 'TODO: a failing example (the fixture did not report this rule).';
    const d = mine[0];
    const report = renderPretty(mine, result.files, { color: false, toolVersion: '0' }).replace(/\n*Found .*\n*$/s, '\n');
    const full = d.file === undefined ? '' : (result.files.get(d.file)?.text ?? '');
    const text = full.length > 4000 ? `${clip(full.slice(0, 400))}\n…` : full;
    const lang = d.file?.endsWith('.md') ? 'markdown' : d.file?.endsWith('.ts') ? 'ts' : d.file?.endsWith('.json') ? 'json' : 'yaml';
    const listing = text === '' ? [] : [`\`${d.file ?? 'agentc.config.ts'}\`:`, '', '```' + lang, text.replace(/\n$/, ''), '```', ''];
    return [...listing, '`agentc check` reports:', '', '```text', clip(report.trimEnd()), '```'].join('\n');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

function configureSection(id) {
  if (CATALOG[id].configurable === false) {
    return `This rule is not configurable: \`rules: { '${id}': … }\` in \`agentc.config.ts\` is rejected, because TODO (why it must stay an error).`;
  }
  const other = CATALOG[id].severity === 'error' ? 'warning' : 'error';
  return [
    `Change the severity or turn the rule off in \`agentc.config.ts\`:`,
    '',
    '```ts',
    `rules: { '${id}': '${other}' },   // 'error' | 'warning' | 'off'`,
    '```',
  ].join('\n');
}

const refresh = process.argv.includes('--refresh-examples');
let written = 0;
for (const id of RULE_IDS) {
  const page = join(docsDir, `${id}.md`);
  if (existsSync(page)) {
    if (refresh) refreshExample(page, await failingExample(id));
    continue;
  }
  const e = CATALOG[id];
  const body = [
    `# ${id}`,
    '',
    headerLine(id),
    '',
    `> ${e.summary}`,
    '',
    '## What it checks',
    '',
    'TODO',
    '',
    '## Why',
    '',
    'TODO',
    '',
    '## Failing example',
    '',
    await failingExample(id),
    '',
    '## Fixed example',
    '',
    'TODO',
    '',
    '## Configure',
    '',
    configureSection(id),
    '',
  ].join('\n');
  writeFileSync(page, body);
  written++;
  console.log(`wrote docs/rules/${id}.md (skeleton: replace every TODO)`);
}

/** --refresh-examples: rewrites only the "Failing example" section of an existing page from its fixture. */
function refreshExample(page, example) {
  if (example.startsWith('TODO')) return;
  const text = readFileSync(page, 'utf8');
  if (/\n## Failing example\n\n<!-- example: by hand -->/.test(text)) return;
  const next = text.replace(/(\n## Failing example\n\n)[\s\S]*?(\n\n## Fixed example\n)/, (_, head, tail) => `${head}${example}${tail}`);
  if (next !== text) {
    writeFileSync(page, next);
    console.log(`refreshed the failing example of ${relative(root, page)}`);
  }
}

const index = [
  '# Rules',
  '',
  'Every diagnostic agentc reports belongs to one rule. Each page says what the rule checks, why, shows a failing and a fixed example, and how to configure it. `agentc explain <rule|code>` prints a page in the terminal; `agentc rules` lists the severities in effect.',
  '',
];
for (const g of groupedRules()) {
  index.push(`## ${g.title}`, '', '| Code | Rule | Default severity | Enforces |', '| --- | --- | --- | --- |');
  for (const id of g.rules)
    index.push(`| ${CATALOG[id].code} | [\`${id}\`](${id}.md) | ${CATALOG[id].severity} | ${CATALOG[id].summary.replace(/\|/g, '\\|')} |`);
  index.push('');
}
index.push('This index is generated by `node scripts/rule-docs.mjs`; the pages are written by hand.', '');
writeFileSync(join(docsDir, 'README.md'), index.join('\n'));
console.log(`${written} skeleton(s) written; docs/rules/README.md updated.`);
