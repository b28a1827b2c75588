/**
 * The workspace layout is spelled out once (src/load/layout.ts): no other source
 * file writes a layout directory as a string literal. Prose inside a template
 * (a README's `cards/…` in backquotes) is documentation, not a path, and is
 * allowed; so is agentc's own package directory (`schemas` beside dist/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blockPath, cardPath, globsOf, hasExtension, sourceKindOf, toolPath, WORKSPACE_LAYOUT } from '../../src/load/layout.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(REPO, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** A quoted string that starts with a layout directory: 'cards/…', "blocks", `schemas/tools/…`, 'generated', … (not after a backslash). */
const LITERAL = /(?<!\\)['"`](cards|blocks|schemas|generated|evals)(?:\/|['"`])/g;

/**
 * Not layout: a heading in the prompt files, agentc's own schemas folder in its package, the
 * stored bundle's `blocks` member (a type index, not a folder), and the runtime's usage message
 * naming the generated files (the runtime may not import the compiler's layout module).
 */
const ALLOWED = new Set([
  "src/diff/partial-side.ts: 'blocks'",
  "src/diff/same-agents.ts: 'blocks'",
  "src/emit/fragments.ts: 'blocks'",
  "src/emit/prompts.ts: 'blocks'",
  "src/parse/validate.ts: 'schemas'",
  "src/runtime/load-bundle.ts: 'blocks'",
  'src/runtime/runtime.ts: "generated/',
]);

describe('workspace layout', () => {
  it('its directory literals appear only in src/load/layout.ts', () => {
    const found: string[] = [];
    for (const file of sources('src')) {
      if (file === 'src/load/layout.ts') continue;
      const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*(\*|\/\/|\/\*)/.test(line)) return; // comments
        for (const m of line.matchAll(LITERAL)) if (!ALLOWED.has(`${file}: ${m[0]}`)) found.push(`${file}:${i + 1}: ${m[0]}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the literal scan would catch a spelled-out directory', () => {
    expect("listFiles(root, 'cards', false)".match(LITERAL)).not.toBeNull();
    expect('path: `schemas/tools/${name}.yaml`'.match(LITERAL)).not.toBeNull();
    expect('| \\`cards/concierge.yaml\\` | the orchestrator |'.match(LITERAL)).toBeNull();
  });

  it('names paths the way the workspace is read', () => {
    expect(cardPath('concierge')).toBe('cards/concierge.yaml');
    expect(blockPath('platform', 'safety-base')).toBe('blocks/platform/safety-base.md');
    expect(toolPath('get_order')).toBe('schemas/tools/get_order.yaml');
    expect(toolPath('get_order', '.json')).toBe('schemas/tools/get_order.json');
    expect(globsOf(WORKSPACE_LAYOUT.cards)).toEqual(['cards/*.yaml', 'cards/*.yml']);
    expect(globsOf(WORKSPACE_LAYOUT.blocks)).toEqual(['blocks/**/*.md']);
    expect(sourceKindOf('cards/a.yaml')).toBe('card');
    expect(sourceKindOf('blocks/x/a.md')).toBe('block');
    expect(sourceKindOf('schemas/tools/t.json')).toBe('tool');
    expect(sourceKindOf('schemas/agent-card.schema.json')).toBeUndefined();
    expect(sourceKindOf('cardsx/a.yaml')).toBeUndefined();
    expect(hasExtension(WORKSPACE_LAYOUT.tools, 't.json')).toBe(true);
    expect(hasExtension(WORKSPACE_LAYOUT.cards, 'a.YAML')).toBe(false);
    expect(hasExtension(WORKSPACE_LAYOUT.cards, 'a.yaml.bak')).toBe(false);
  });
});
