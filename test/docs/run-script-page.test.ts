/**
 * docs/run-script.md stays true to the script format: its full example is
 * examples/mixed-intent.yaml and parses; every key the parser accepts is
 * documented (the accepted keys are read from the parser's own "expected one
 * of …" messages, so a key added to src/runtime/script.ts fails here until
 * the page names it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseScript, scriptTurnContext } from '../../src/runtime/script.js';
import { REPO } from '../robustness/workspace.js';

const PAGE = readFileSync(join(REPO, 'docs', 'run-script.md'), 'utf8');

/** The keys parseScript accepts at the level `probe` puts an unknown key `zz_unknown`. */
function acceptedKeys(probe: unknown): string[] {
  const parsed = parseScript(probe);
  if (parsed.ok) throw new Error('probe was accepted');
  const m = parsed.problems.map((p) => /expected one of ([^.]+)\./.exec(p.message)).find((x) => x !== null);
  if (!m) throw new Error(`no key list in ${JSON.stringify(parsed.problems)}`);
  return m[1]!.split(', ');
}

describe('docs/run-script.md', () => {
  it('its full example is examples/mixed-intent.yaml, and it parses', () => {
    const block = /## A full example[\s\S]*?```yaml\n([\s\S]*?)```/.exec(PAGE)?.[1];
    expect(block).toBeDefined();
    const example = readFileSync(join(REPO, 'examples', 'mixed-intent.yaml'), 'utf8').replace(/^(#.*\n)+/, '');
    expect(block).toBe(example);
    expect(parseScript(parse(block!)).ok).toBe(true);
  });

  it('documents every key the parser accepts', () => {
    const levels: Record<string, unknown> = {
      top: { llm: {}, zz_unknown: 1 },
      reply: { llm: { a: [{ text: 'x', zz_unknown: 1 }] } },
      call: { llm: { a: [{ tool_calls: [{ name: 't', zz_unknown: 1 }] }] } },
      usage: { llm: { a: [{ text: 'x', usage: { zz_unknown: 1 } }] } },
      tool: { llm: {}, tools: { t: { result: 1, zz_unknown: 1 } } },
    };
    const missing: string[] = [];
    for (const [level, probe] of Object.entries(levels)) {
      for (const key of acceptedKeys(probe))
        if (!PAGE.includes(`\`${key}\``) && !PAGE.includes(`.${key}\``) && !PAGE.includes(`${key},`) && !PAGE.includes(` ${key} }`))
          missing.push(`${level}: ${key}`);
    }
    expect(missing.map((k) => `document script key ${k} in docs/run-script.md`)).toEqual([]);
  });

  it('documents the context defaults the CLI applies', () => {
    const { context, flags } = scriptTurnContext(undefined);
    expect(flags).toEqual([]);
    expect(PAGE).toContain(`| \`principal\` | \`${context.principal}\` |`);
    expect(PAGE).toContain(`| \`episode\` | \`${context.episode}\` |`);
  });
});
