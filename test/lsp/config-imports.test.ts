/**
 * The language server watches the files the config imports itself (the editor
 * watches only cards, blocks and tools): editing one on disk re-checks with
 * the new config, with no notification from the client.
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CATALOG } from '../../src/diagnostics/catalog.js';
import { BASE_MODEL, makeWorkspace } from '../cache/workspace.js';
import { LspClient } from './client.js';

const BLOCK = 'blocks/rewards/persona-rewards.md';
let client: LspClient | undefined;
let root: string | undefined;
afterAll(async () => {
  await client?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('an edit on disk to a file the config imports re-checks with the new config', async () => {
  root = makeWorkspace({ ...BASE_MODEL, fields: ['date', 'location', 'user_id'] });
  appendFileSync(join(root, BLOCK), '\nAnswer in {{locale}}.\n');
  const has = (rule: 'template-unknown-variable' | 'dynamic-in-prefix') => (ds: { code?: string | number }[]) =>
    ds.some((d) => String(d.code) === CATALOG[rule].code);
  client = new LspClient(root);
  const unknown = client.diagnostics(BLOCK, has('template-unknown-variable'));
  await client.initialize();
  await unknown;

  const dynamic = client.diagnostics(BLOCK, (ds) => has('dynamic-in-prefix')(ds) && !has('template-unknown-variable')(ds));
  writeFileSync(join(root, 'config-fields.ts'), "export const extraFields: string[] = ['locale'];\n");
  expect(has('dynamic-in-prefix')(await dynamic)).toBe(true);
}, 60_000);
