/**
 * Strict rendering is strict (issue 9, item 3): the reproductions on a
 * copy of the example workspace, as whole diagnostics.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { compileInMemory } from '../helpers/memory-workspace.js';
import { copyExample, edit, removeTempDirs, runCli } from '../robustness/workspace.js';

afterAll(removeTempDirs);

const ROUTING = 'blocks/orchestrator/instructions-routing.md';

/** A copy of the example with `text` appended to the orchestrator's routing block. */
async function withRouting(label: string, text: string, config?: (t: string) => string): Promise<string> {
  const dir = await copyExample(label);
  await edit(dir, ROUTING, (t) => `${t.trimEnd()}\n\n${text}\n`);
  if (config) await edit(dir, 'agentc.config.ts', config);
  return dir;
}

/** The diagnostics of `dir` (compiled in memory: the loader is not under test here) with the text each range covers. */
async function findings(dir: string): Promise<{ d: Diagnostic; covers: string }[]> {
  const r = await compileInMemory(dir);
  return r.diagnostics.map((d) => {
    const f = r.files.get(d.file ?? '');
    const { start, end } = d.range!;
    const covers = f && start.line === end.line ? f.lineText(start.line).slice(start.column - 1, end.column - 1) : '';
    return { d, covers };
  });
}

function lastLine(text: string): number {
  return text.trimEnd().split('\n').length;
}

describe('constructs that would render nothing or nonsense are errors', () => {
  it('{{#each}} over a string', async () => {
    const dir = await withRouting('each-string', 'Agent: {{#each agent.id}}x{{/each}}');
    const ds = await findings(dir);
    expect(ds.map(({ d, covers }) => ({ rule: d.rule, severity: d.severity, message: d.message, covers }))).toEqual([
      {
        rule: 'template-unknown-variable',
        severity: 'error',
        message: 'Block "instructions-routing" iterates {{#each agent.id}}, which is a string: it would render nothing.',
        covers: 'agent.id',
      },
    ]);
  });

  it('{{#each}} over a number', async () => {
    const dir = await withRouting('each-number', '{{#each dispatch.fan_out_cap}}x{{/each}}');
    const ds = await findings(dir);
    expect(ds).toHaveLength(1);
    expect(ds[0]!.d.message).toBe('Block "instructions-routing" iterates {{#each dispatch.fan_out_cap}}, which is a number: it would render nothing.');
    expect(ds[0]!.covers).toBe('dispatch.fan_out_cap');
  });

  it('{{lookup agent "nope"}}', async () => {
    const dir = await withRouting('lookup', 'Owner: {{lookup agent "nope"}}');
    const ds = await findings(dir);
    expect(ds.map(({ d, covers }) => ({ rule: d.rule, message: d.message, covers }))).toEqual([
      {
        rule: 'template-unknown-variable',
        message: 'Block "instructions-routing" failed to render for "fetch_assistant": {{lookup}} finds no field "nope" in the value.',
        covers: '{{lookup agent "nope"}}',
      },
    ]);
  });

  it('{{this}} and a path to an object or a list', async () => {
    for (const [expr, what] of [
      ['this', 'an object: it would print "[object Object]"'],
      ['agent', 'an object: it would print "[object Object]"'],
      ['sub_agents', 'a list: it would print its items joined by commas'],
    ] as const) {
      const dir = await withRouting(`object-${expr}`, `Context: {{${expr}}}`);
      const ds = await findings(dir);
      expect(
        ds.map(({ d }) => d.rule),
        expr,
      ).toEqual(['template-unknown-variable']);
      expect(ds[0]!.d.message).toBe(`Block "instructions-routing" renders {{${expr}}}, which is ${what}.`);
      expect(ds[0]!.covers).toBe(expr);
      expect(ds[0]!.d.range!.start.line).toBe(lastLine(await import('node:fs/promises').then((fs) => fs.readFile(`${dir}/${ROUTING}`, 'utf8'))));
    }
  });

  it('{{log}} is not a helper: rejected statically, and `--format json` stays clean', async () => {
    const dir = await withRouting('log', '{{log "hello from a block"}}{{log}}');
    const ds = await findings(dir);
    expect(ds.map(({ d, covers }) => [d.rule, covers])).toEqual([
      ['template-unknown-variable', 'log'],
      ['template-unknown-variable', 'log'],
    ]);
    expect(ds[0]!.d.message).toBe('Block "instructions-routing" calls helper "log", which agentc does not provide (helpers: each, if, lookup, unless, with).');
    const r = await runCli(['check', '--cwd', dir, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('hello from a block');
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });

  it('found in a branch no agent takes, too (statically)', async () => {
    const dir = await withRouting('branch', '{{#if agent.fallback_model}}{{agent}}{{/if}}');
    const ds = await findings(dir);
    expect(ds.map(({ d, covers }) => [d.rule, d.message, covers])).toEqual([
      ['template-unknown-variable', 'Block "instructions-routing" renders {{agent}}, which is an object: it would print "[object Object]".', 'agent'],
    ]);
  });
});

describe('the renderers themselves refuse (whatever the static analysis says)', () => {
  const context = { agent: { id: 'a', tools: ['x'] }, n: 3, sub_agents: [{ id: 's' }] };
  const cases: [string, RegExp][] = [
    ['{{#each agent.id}}x{{/each}}', /^\{\{#each\}\} over a string \("a"\) renders nothing; iterate a list or a mapping$/],
    ['{{#each n}}x{{/each}}', /^\{\{#each\}\} over a number \(3\) renders nothing/],
    ['{{this}}', /^the value is an object, which would render as "\[object Object\]"/],
    ['{{agent.tools}}', /^the value is a list, which would render as its items joined by commas/],
    ['{{#each sub_agents}}{{this}}{{/each}}', /^the value is an object/],
  ];
  it.each(cases)('%s', async (src, message) => {
    const { tryInterpret } = await import('../../src/bundle/template/interpret.js');
    const { analyzeTemplate, standalonePlacer } = await import('../../src/parse/template.js');
    const { compileStrict, createStrictHandlebars } = await import('../template/strict-handlebars.js');
    const parsed = analyzeTemplate(standalonePlacer(src), src);
    if (!parsed.ok || !parsed.analysis.nodes) throw new Error(`not in the language: ${src}`);
    const mine = tryInterpret(parsed.analysis.nodes, context);
    expect(mine.ok).toBe(false);
    if (!mine.ok) expect(mine.message).toMatch(message);
    // The reference (Handlebars with agentc's strict helpers) refuses the same way.
    expect(() => compileStrict(createStrictHandlebars(), src)(context)).toThrow(message);
  });

  it('lookup of a missing field fails; the reference refuses log too', async () => {
    const { interpret } = await import('../../src/bundle/template/interpret.js');
    const { analyzeTemplate, standalonePlacer } = await import('../../src/parse/template.js');
    const { compileStrict, createStrictHandlebars } = await import('../template/strict-handlebars.js');
    const run = (src: string) => {
      const parsed = analyzeTemplate(standalonePlacer(src), src);
      if (!parsed.ok || !parsed.analysis.nodes) throw new Error(`not in the language: ${src}`);
      return interpret(parsed.analysis.nodes, context);
    };
    expect(() => run('{{lookup agent "nope"}}')).toThrow('{{lookup}} finds no field "nope" in the value');
    expect(() => run('{{lookup missing "id"}}')).toThrow('{{lookup}} of "id" on a missing value finds nothing');
    expect(run('{{lookup agent "id"}}')).toBe('a');
    const hb = createStrictHandlebars();
    expect(() => compileStrict(hb, '{{log "x"}}')(context)).toThrow('{{log}} is not available in blocks (it would write to stdout)');
    expect(() => compileStrict(hb, '{{log}}')(context)).toThrow('{{log}} is not available in blocks');
  });
});

describe('a block that cannot render is an error whatever the settings', () => {
  it("with the rule off, #each over a string is a template-render error (the render's own message)", async () => {
    const dir = await withRouting('off-each', 'Agent: {{#each agent.id}}x{{/each}}', (t) =>
      t.replace('defineConfig({', "defineConfig({\n  rules: { 'template-unknown-variable': 'off' },"),
    );
    const ds = await findings(dir);
    expect(ds.map(({ d, covers }) => [d.rule, d.severity, d.message, covers])).toEqual([
      [
        'template-render',
        'error',
        'Block "instructions-routing" cannot render for "fetch_assistant": {{#each}} over a string ("fetch_assistant") renders nothing; iterate a list or a mapping.',
        'agent.id',
      ],
    ]);
  });

  it("with rules: { 'template-unknown-variable': 'off' } the failure is a template-render error and build writes nothing", async () => {
    const dir = await withRouting('off', 'Agent: {{agent.descripton}}', (t) =>
      t.replace('defineConfig({', "defineConfig({\n  rules: { 'template-unknown-variable': 'off' },"),
    );
    const ds = await findings(dir);
    expect(ds.map(({ d, covers }) => ({ rule: d.rule, severity: d.severity, message: d.message, covers }))).toEqual([
      {
        rule: 'template-render',
        severity: 'error',
        message: 'Block "instructions-routing" cannot render for "fetch_assistant": {{agent.descripton}} reads "descripton", which is not defined there.',
        covers: 'agent.descripton',
      },
    ]);
    const build = await runCli(['build', '--cwd', dir, '--out', 'out']);
    expect(build.code).toBe(1);
  });

  it("'warning' keeps the finding and adds the error; template-render itself cannot be configured", async () => {
    const dir = await withRouting('warn', 'Agent: {{agent.descripton}}', (t) =>
      t.replace('defineConfig({', "defineConfig({\n  rules: { 'template-unknown-variable': 'warning', 'template-render': 'off' },"),
    );
    const ds = await findings(dir);
    expect(ds.map(({ d }) => `${d.severity} ${d.rule}`)).toEqual(['error schema', 'warning template-unknown-variable', 'error template-render']);
    expect(ds[0]!.d.message).toBe(
      'The config sets rule "template-render", which cannot be configured: it reports what would make the emitted bundle wrong (a prompt missing a block, an invalid schema), so it is always an error.',
    );
  });
});

describe('render size is bounded', () => {
  it('7 nested {{#each}} over the sub-agents stop at the limit with render-size, fast', async () => {
    const depth = 7;
    const bomb = `${'{{#each @root.sub_agents}}'.repeat(depth)}{{description}}${'{{/each}}'.repeat(depth)}`;
    const dir = await withRouting('bomb', bomb);
    const started = performance.now();
    const ds = await findings(dir);
    const ms = performance.now() - started;
    expect(ds.map(({ d }) => [d.rule, d.severity, d.message])).toEqual([
      [
        'render-size',
        'error',
        'Block "instructions-routing" renders to more than 1 MiB (1,048,576 characters) for "fetch_assistant"; rendering stopped there.',
      ],
    ]);
    expect(ms).toBeLessThan(2000);
    // The range is the outermost {{#each}} that overflowed: the whole bomb.
    expect(ds[0]!.covers).toBe(bomb);
  });

  it('the same bomb through block params and lookup stops too', async () => {
    const depth = 8;
    const bomb = `${'{{#each @root.sub_agents as |s|}}'.repeat(depth)}{{lookup s "description"}}${'{{/each}}'.repeat(depth)}`;
    const dir = await withRouting('bomb-hbs', bomb);
    const started = performance.now();
    const ds = await findings(dir);
    expect(ds.map(({ d }) => d.rule)).toEqual(['render-size']);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(ds[0]!.covers).toBe(bomb);
  });
});
