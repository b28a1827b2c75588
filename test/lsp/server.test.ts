import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CodeAction, CompletionItem, Hover, Location, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspClient } from './client.js';

const repo = join(import.meta.dirname, '..', '..');
let dir: string;
let client: LspClient;
let card: string;
const CARD = 'cards/ereceipts.yaml';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentc-lsp-'));
  for (const p of ['cards', 'blocks', 'schemas/tools', 'agentc.config.ts']) await cp(join(repo, p), join(dir, p), { recursive: true });
  card = await readFile(join(dir, CARD), 'utf8');
  client = new LspClient(dir);
  await client.initialize();
}, 60_000);

afterAll(async () => {
  await client?.close();
  await rm(dir, { recursive: true, force: true });
});

const typo = () => card.replace('tools: [list_receipts, get_receipt,', 'tools: [list_receipts, get_reciept,');
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));
const unknownTool = (ds: { code?: string | number; message: string }[]) => ds.find((d) => d.message.includes('get_reciept'));

test('a typo in an unsaved buffer is a diagnostic at the exact range, and clears when fixed', async () => {
  const text = typo();
  const shown = client.diagnostics(CARD, (ds) => unknownTool(ds) !== undefined);
  await client.open(CARD, text);
  const d = unknownTool(await shown)!;
  const line = lineOf(text, 'get_reciept');
  const character = text.split('\n')[line]!.indexOf('get_reciept');
  expect(d.range).toEqual({ start: { line, character }, end: { line, character: character + 'get_reciept'.length } });
  expect(d.source).toBe('agentc');
  expect(String(d.code)).toMatch(/^AGC\d{4}$/);
  expect(d.message).toContain('Did you mean "get_receipt"');

  const cleared = client.diagnostics(CARD, (ds) => unknownTool(ds) === undefined);
  await client.change(CARD, card);
  expect(unknownTool(await cleared)).toBeUndefined();
}, 60_000);

test('a quick fix from the did-you-mean hint, applied, clears the diagnostic', async () => {
  const text = typo();
  const shown = client.diagnostics(CARD, (ds) => unknownTool(ds) !== undefined);
  await client.change(CARD, text);
  const d = unknownTool(await shown)!;
  const actions = await client.conn.sendRequest<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri: client.uri(CARD) },
    range: d.range,
    context: { diagnostics: [d] },
  });
  const fix = actions.find((a) => a.title === 'Change to "get_receipt"')!;
  expect(fix.kind).toBe('quickfix');
  const edits = fix.edit!.changes![client.uri(CARD)]! as TextEdit[];
  expect(edits).toEqual([{ range: d.range, newText: 'get_receipt' }]);
  const fixed = applyEdits(text, edits);
  expect(fixed).toBe(card);
  const cleared = client.diagnostics(CARD, (ds) => unknownTool(ds) === undefined);
  await client.change(CARD, fixed);
  await cleared;
}, 60_000);

test('definition on a tool name is the tool contract file', async () => {
  const line = lineOf(card, 'tools: [');
  const loc = await client.request<Location>('textDocument/definition', CARD, line, card.split('\n')[line]!.indexOf('get_receipt') + 2);
  expect(loc.uri).toBe(client.uri('schemas/tools/get_receipt.json'));
  expect(loc.range).toEqual({ start: { line: 1, character: 10 }, end: { line: 1, character: 23 } });
}, 60_000);

test('hover on a block id shows its token counts and the agents that use it', async () => {
  const line = lineOf(card, '- persona-ereceipts');
  const hover = await client.request<Hover>('textDocument/hover', CARD, line, 6);
  const value = (hover.contents as { value: string }).value;
  expect(value).toMatch(/\*\*block\*\* `persona-ereceipts`/);
  expect(value).toMatch(/\d+ tokens \(o200k_base\), \d+ tokens \(cl100k_base\)/);
  expect(value).toMatch(/`ereceipts`: \d+ tokens rendered/);
}, 60_000);

test('completion inside `tools: [` offers the declared tool names', async () => {
  const text = card.replace('tools: [list_receipts, get_receipt, get_email_link_status]', 'tools: [');
  await client.change(CARD, text);
  const line = lineOf(text, 'tools: [');
  const items = await client.request<CompletionItem[]>('textDocument/completion', CARD, line, 'tools: ['.length);
  const tools = (await import('node:fs/promises')).readdir(join(dir, 'schemas/tools'));
  expect(items.map((i) => i.label)).toEqual((await tools).map((f) => f.replace(/\.(ya?ml|json)$/, '')).sort());
  await client.change(CARD, card);
}, 60_000);

test('renaming a block id edits every reference and renames the file', async () => {
  const rewards = await readFile(join(dir, 'cards/rewards.yaml'), 'utf8');
  const line = lineOf(rewards, '- capabilities-points-math');
  const edit = await client.request<WorkspaceEdit>('textDocument/rename', 'cards/rewards.yaml', line, 6, { newName: 'points-math' });
  const changes = edit.documentChanges!;
  const renames = changes.filter((c) => 'kind' in c);
  expect(renames).toEqual([
    { kind: 'rename', oldUri: client.uri('blocks/shared/capabilities-points-math.md'), newUri: client.uri('blocks/shared/points-math.md') },
  ]);
  const edited = changes
    .filter((c) => 'textDocument' in c)
    .map((c) => (c as { textDocument: { uri: string } }).textDocument.uri)
    .sort();
  const { execFileSync } = await import('node:child_process');
  const users = execFileSync('grep', ['-rlw', '--', '- capabilities-points-math', 'cards'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
  const expected = [...users.map((p) => client.uri(p)), client.uri('blocks/shared/capabilities-points-math.md')].sort();
  expect(edited).toEqual(expected);
  for (const c of changes) if ('edits' in c) for (const e of c.edits) expect(e.newText).toBe('points-math');
}, 60_000);

function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  let out = text;
  for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)))
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

async function applyFirstFix(path: string, text: string, matches: (message: string) => boolean, title: RegExp): Promise<string> {
  const shown = client.diagnostics(path, (ds) => ds.some((d) => matches(d.message)));
  await client.change(path, text);
  const d = (await shown).find((x) => matches(x.message))!;
  const actions = await client.conn.sendRequest<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri: client.uri(path) },
    range: d.range,
    context: { diagnostics: [d] },
  });
  const fix = actions.find((a) => title.test(a.title))!;
  const fixed = applyEdits(text, fix.edit!.changes![client.uri(path)]! as TextEdit[]);
  const cleared = client.diagnostics(path, (ds) => !ds.some((x) => matches(x.message)));
  await client.change(path, fixed);
  await cleared;
  return fixed;
}

test('quick fix for platform-block-declared removes the line', async () => {
  const text = card.replace('  - safety-financial\n', '  - safety-financial\n  - safety-base\n');
  const fixed = await applyFirstFix(CARD, text, (m) => m.includes('required platform block "safety-base"'), /^Remove/);
  expect(fixed).toBe(card);
}, 60_000);

test('quick fix for tool-not-whitelisted adds the tool to policy.tool_whitelist', async () => {
  const text = card.replace('tool_whitelist: [list_receipts, get_receipt, get_email_link_status]', 'tool_whitelist: [list_receipts, get_email_link_status]');
  const fixed = await applyFirstFix(CARD, text, (m) => m.includes('missing from its policy.tool_whitelist'), /^Add "get_receipt"/);
  expect(fixed).toContain('tool_whitelist: [list_receipts, get_email_link_status, get_receipt]');
  await client.change(CARD, card);
}, 60_000);

test('completion inside {{ }} in a block offers the compile-time context', async () => {
  const path = 'blocks/ereceipts/persona-ereceipts.md';
  const text = await readFile(join(dir, path), 'utf8');
  const edited = `${text}\n{{agent.po`;
  await client.open(path, edited);
  const lines = edited.split('\n');
  const items = await client.request<CompletionItem[]>('textDocument/completion', path, lines.length - 1, lines.at(-1)!.length);
  expect(items.map((i) => i.label)).toContain('policy');
  expect(items.map((i) => i.label)).toContain('prompt_blocks');
  const roots = await client.request<CompletionItem[]>('textDocument/completion', path, lines.length - 1, 2);
  expect(roots.map((i) => i.label)).toEqual(expect.arrayContaining(['agent', 'dispatch', 'flags', 'model', 'sub_agents', 'tools']));
  await client.change(path, text);
}, 60_000);

test('hover on a Handlebars expression shows the value it renders for each agent using the block', async () => {
  const path = 'blocks/orchestrator/instructions-routing.md';
  const text = await readFile(join(dir, path), 'utf8');
  await client.open(path, text);
  const line = lineOf(text, '{{dispatch.fan_out_cap}}');
  const character = text.split('\n')[line]!.indexOf('{{dispatch.fan_out_cap}}') + 4;
  const hover = await client.request<Hover>('textDocument/hover', path, line, character);
  const value = (hover.contents as { value: string }).value;
  expect(value).toMatch(/^`\{\{dispatch\.fan_out_cap\}\}` renders:\n- `fetch_assistant`: \d+$/m);
  const inEach = lineOf(text, '{{tool_name}}');
  const scoped = await client.request<Hover>('textDocument/hover', path, inEach, text.split('\n')[inEach]!.indexOf('{{tool_name}}') + 3);
  expect((scoped.contents as { value: string }).value).toContain('depends on the iteration');
}, 60_000);

test("completion of status_rendering keys offers the sub-agents' status events", async () => {
  const path = 'cards/fetch_assistant.yaml';
  const text = await readFile(join(dir, path), 'utf8');
  const edited = text.replace('  status_rendering:\n', '  status_rendering:\n    sea\n');
  await client.open(path, edited);
  const line = lineOf(edited, '    sea');
  const items = await client.request<CompletionItem[]>('textDocument/completion', path, line, 7);
  expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(['searching_products', 'comparing_prices']));
  expect(items.every((i) => i.detail === 'status event of a sub-agent')).toBe(true);
  await client.change(path, text);
}, 60_000);

test('renaming a card id edits its id, the sub_agents lists and ask_ whitelist entries, and renames the file', async () => {
  const path = 'cards/fetch_assistant.yaml';
  const parent = await readFile(join(dir, path), 'utf8');
  const withAsk = parent.replace('tool_whitelist: [record_feedback]', 'tool_whitelist: [record_feedback, ask_rewards]');
  await client.change(path, withAsk);
  const rewards = await readFile(join(dir, 'cards/rewards.yaml'), 'utf8');
  const edit = await client.request<WorkspaceEdit>('textDocument/rename', 'cards/rewards.yaml', lineOf(rewards, 'id: rewards'), 5, { newName: 'points' });
  const changes = edit.documentChanges!;
  expect(changes.filter((c) => 'kind' in c)).toEqual([{ kind: 'rename', oldUri: client.uri('cards/rewards.yaml'), newUri: client.uri('cards/points.yaml') }]);
  const own = changes.find((c) => 'edits' in c && c.textDocument.uri === client.uri('cards/rewards.yaml'));
  expect(own && 'edits' in own ? applyEdits(rewards, own.edits as TextEdit[]) : '').toContain('id: points\n');
  const inParent = changes.find((c) => 'edits' in c && c.textDocument.uri === client.uri(path));
  const renamed = inParent && 'edits' in inParent ? applyEdits(withAsk, inParent.edits as TextEdit[]) : '';
  expect(renamed).toContain('tool_whitelist: [record_feedback, ask_points]');
  expect(renamed).toMatch(/^\s+- points$/m);
  expect(renamed).not.toMatch(/^\s+- rewards$/m);
  await client.change(path, parent);
}, 60_000);

test('definition and references of a model key: its entry in agentc.config.ts and every card naming it', async () => {
  const line = lineOf(card, 'model: gpt-5.4-mini-low');
  const def = await client.request<Location>('textDocument/definition', CARD, line, 'model: '.length + 3);
  expect(def.uri).toBe(client.uri('agentc.config.ts'));
  const config = await readFile(join(dir, 'agentc.config.ts'), 'utf8');
  expect(config.split('\n')[def.range.start.line]!.slice(def.range.start.character, def.range.end.character)).toBe('gpt-5.4-mini-low');
  const refs = await client.request<Location[]>('textDocument/references', CARD, line, 'model: '.length + 3, { context: { includeDeclaration: true } });
  const { execFileSync } = await import('node:child_process');
  const cards = execFileSync('grep', ['-rlE', '^(fallback_)?model: gpt-5.4-mini-low$', 'cards'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
  expect(new Set(refs.map((r) => r.uri))).toEqual(new Set([...cards.map((c) => client.uri(c)), client.uri('agentc.config.ts')]));
}, 60_000);
