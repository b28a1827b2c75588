/**
 * docs/runtime.md stays true to the runtime: every exported value of the
 * runtime's entry point is documented, and every typed failure's plain-words
 * sentences are quoted exactly as the runtime writes them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as runtime from '../../src/runtime/index.js';
import { agentFailureMessage, toolFailureMessage } from '../../src/runtime/failure.js';
import type { FailureKind } from '../../src/runtime/types.js';
import { REPO } from '../robustness/workspace.js';

const PAGE = readFileSync(join(REPO, 'docs', 'runtime.md'), 'utf8');
const KINDS: FailureKind[] = ['timeout', 'error', 'budget_exceeded', 'depth_exceeded', 'tool_denied', 'schema_violation', 'data_unavailable'];

describe('docs/runtime.md', () => {
  it('documents every export of the runtime entry point', () => {
    const missing = Object.keys(runtime).filter((name) => !PAGE.includes(`\`${name}\``) && !PAGE.includes(`\`${name}(`));
    expect(missing.map((n) => `document ${n} (src/runtime/index.ts) in docs/runtime.md#public-api`)).toEqual([]);
  });

  it.each(KINDS)('quotes the sentences of %s exactly', (kind) => {
    const row = PAGE.split('\n').find((l) => l.startsWith(`| \`${kind}\` |`) && l.includes('specialist'));
    expect(row, `docs/runtime.md#typed-failures has no row for ${kind}`).toBeDefined();
    expect(row).toContain(agentFailureMessage(kind, '`<agent>`'));
    expect(row).toContain(toolFailureMessage(kind, '`<tool>`'));
  });
});
