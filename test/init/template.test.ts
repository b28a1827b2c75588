import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { AGENTC_SCHEMA_FILES, packageSchemasDir, readSchemaFiles } from '../../src/init/schemas.js';
import { mergePackageJson, packageName } from '../../src/init/project.js';
import { starterFiles, STARTER_ORCHESTRATOR } from '../../src/init/template.js';

const files = starterFiles({ name: 'my-agents', version: '1.2.3' });
const byPath = new Map(files.map((f) => [f.path, f.content]));
const schemaDir = packageSchemasDir();
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validator = (name: string) => ajv.compile(JSON.parse(readFileSync(join(schemaDir, name), 'utf8')));

function frontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error('no front matter');
  return { data: parseYaml(m[1]!) as Record<string, unknown>, body: m[2]! };
}

const cards = files.filter((f) => f.path.startsWith('cards/')).map((f) => ({ path: f.path, data: parseYaml(f.content) as Record<string, any> }));
const blocks = files.filter((f) => f.path.startsWith('blocks/')).map((f) => ({ path: f.path, ...frontMatter(f.content) }));
const tools = files.filter((f) => f.path.startsWith('schemas/tools/')).map((f) => ({ path: f.path, data: parseYaml(f.content) as Record<string, any> }));
const stem = (p: string) => p.replace(/^.*\//, '').replace(/\.[^.]+$/, '');

describe('starter template', () => {
  it('has the documented file set, sorted', () => {
    expect(files.map((f) => f.path)).toEqual([
      '.gitattributes',
      '.github/workflows/agentc.yml',
      '.gitignore',
      '.vscode/settings.json',
      'README.md',
      'agentc.config.ts',
      'blocks/catalog/instructions-catalog.md',
      'blocks/concierge/instructions-routing.md',
      'blocks/orders/instructions-orders.md',
      'blocks/platform/persona-assistant.md',
      'blocks/platform/safety-base.md',
      'cards/catalog.yaml',
      'cards/concierge.yaml',
      'cards/orders.yaml',
      'package.json',
      'schemas/tools/get_order_status.yaml',
      'schemas/tools/search_products.yaml',
    ]);
  });

  it('writes LF text that ends with a newline', () => {
    for (const f of files) {
      expect(f.content, f.path).not.toContain('\r');
      expect(f.content.endsWith('\n'), f.path).toBe(true);
      expect(f.content.endsWith('\n\n'), f.path).toBe(false);
    }
  });

  it('imports defineConfig from @agentc/cli in the config', () => {
    expect(byPath.get('agentc.config.ts')).toMatch(/^import \{ defineConfig \} from '@agentc\/cli';\n/);
    expect(byPath.get('agentc.config.ts')).toContain('export default defineConfig({');
  });

  it('writes a package.json with both packages at this release and check/build scripts', () => {
    expect(JSON.parse(byPath.get('package.json')!)).toEqual({
      name: 'my-agents',
      version: '0.0.0',
      private: true,
      type: 'module',
      scripts: { check: 'agentc check', build: 'agentc build' },
      dependencies: { '@agentc/runtime': '^1.2.3' },
      devDependencies: { '@agentc/cli': '^1.2.3' },
    });
  });

  it('marks the generated bundle linguist-generated, and not the prompts', () => {
    const lines = byPath
      .get('.gitattributes')!
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(lines).toContain('generated/bundle.* linguist-generated=true');
    expect(lines.some((l) => l.includes('prompts'))).toBe(false);
  });

  it('maps the JSON Schemas to cards and tool contracts for VS Code', () => {
    const settings = JSON.parse(byPath.get('.vscode/settings.json')!);
    expect(settings['yaml.schemas']['./schemas/agent-card.schema.json']).toContain('cards/*.yaml');
    expect(settings['yaml.schemas']['./schemas/tool-contract.schema.json']).toContain('schemas/tools/*.yaml');
    expect(settings['json.schemas']).toEqual([{ fileMatch: ['/schemas/tools/*.json'], url: './schemas/tool-contract.schema.json' }]);
    for (const path of [...Object.keys(settings['yaml.schemas']), settings['json.schemas'][0].url]) {
      expect(AGENTC_SCHEMA_FILES).toContain(path.replace('./schemas/', ''));
    }
  });

  it('has a GitHub workflow that runs only the installed CLI', () => {
    const workflow = parseYaml(byPath.get('.github/workflows/agentc.yml')!) as { jobs: { agentc: { steps: { run?: string }[] } } };
    const runs = workflow.jobs.agentc.steps.flatMap((s) => (s.run ? [s.run] : []));
    expect(runs).toEqual([
      'npm ci',
      'npx --no-install agentc check --format github',
      'npx --no-install agentc build --check',
      'npx --no-install agentc eval --min-accuracy 0.95',
    ]);
    const evalStep = (workflow.jobs.agentc.steps as { name?: string; if?: string }[]).find((s) => s.name === 'agentc eval');
    expect(evalStep?.if).toBe("${{ env.OPENAI_API_KEY != '' && hashFiles('evals/*.yaml') != '' }}");
  });

  it('never tells anyone to install or npx a package that is not ours', () => {
    for (const f of files) {
      expect(f.content, f.path).not.toMatch(/npx agentc|npm (i|install)[^\n]* agentc\b|npx (?!--no-install)/);
    }
  });

  it('derives an npm package name from the directory name', () => {
    expect(packageName('My Agents')).toBe('my-agents');
    expect(packageName('...')).toBe('agents');
  });

  it('merges into an existing package.json, keeping what it declares', () => {
    const existing = JSON.stringify({ name: 'svc', dependencies: { '@agentc/runtime': 'file:../rt.tgz' }, scripts: { build: 'tsc' } }, null, 2) + '\n';
    expect(JSON.parse(mergePackageJson(existing, 'x', '1.2.3')!)).toEqual({
      name: 'svc',
      type: 'module',
      dependencies: { '@agentc/runtime': 'file:../rt.tgz' },
      devDependencies: { '@agentc/cli': '^1.2.3' },
      scripts: { check: 'agentc check', build: 'tsc' },
    });
    expect(JSON.parse(mergePackageJson('{"type":"commonjs"}', 'My X', '1.2.3')!)).toMatchObject({ name: 'my-x', type: 'commonjs' });
    expect(mergePackageJson('not json', 'x', '1.2.3')).toBeUndefined();
    expect(mergePackageJson('[]', 'x', '1.2.3')).toBeUndefined();
  });

  it('does not ignore generated/', () => {
    const active = byPath
      .get('.gitignore')!
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(active.some((l) => /generated/.test(l))).toBe(false);
  });

  it('titles the README with the workspace name', () => {
    expect(byPath.get('README.md')).toMatch(/^# my-agents\n/);
  });

  it('cards carry the schema modeline, match the card schema, and are named by their id', () => {
    const validate = validator('agent-card.schema.json');
    for (const c of cards) {
      expect(byPath.get(c.path)!.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/agent-card.schema.json');
      expect(validate(c.data), `${c.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(c.data.id).toBe(stem(c.path));
    }
  });

  it('blocks match the block schema; tools match the tool schema and are named by their file', () => {
    const validateBlock = validator('prompt-block.schema.json');
    for (const b of blocks) expect(validateBlock(b.data), `${b.path}: ${JSON.stringify(validateBlock.errors)}`).toBe(true);
    const validateTool = validator('tool-contract.schema.json');
    for (const t of tools) {
      expect(byPath.get(t.path)!.split('\n')[0]).toBe('# yaml-language-server: $schema=../tool-contract.schema.json');
      expect(validateTool(t.data), `${t.path}: ${JSON.stringify(validateTool.errors)}`).toBe(true);
      expect(t.data.name).toBe(stem(t.path));
    }
  });

  it('is wired together: one orchestrator reaching every card, every block and tool used, tools whitelisted, events rendered', () => {
    const orchestrator = cards.find((c) => c.data.role === 'orchestrator')!;
    expect(orchestrator.data.id).toBe(STARTER_ORCHESTRATOR);
    const subs = cards.filter((c) => c !== orchestrator);
    expect(new Set(orchestrator.data.sub_agents)).toEqual(new Set(subs.map((c) => c.data.id)));

    const config = byPath.get('agentc.config.ts')!;
    const required = ['persona-assistant', 'safety-base'];
    expect(config).toContain(`requiredBlocks: ${JSON.stringify(required).replace(/"/g, "'").replace(/,/g, ', ')}`);
    const usedBlocks = new Set([...required, ...cards.flatMap((c) => c.data.prompt_blocks as string[])]);
    expect(new Set(blocks.map((b) => stem(b.path)))).toEqual(usedBlocks);

    const usedTools = new Set(cards.flatMap((c) => (c.data.tools ?? []) as string[]));
    expect(new Set(tools.map((t) => t.data.name))).toEqual(usedTools);
    for (const c of cards) for (const t of c.data.tools ?? []) expect(c.data.policy.tool_whitelist).toContain(t);

    const events = new Set([...subs.flatMap((c) => c.data.status_events), ...tools.flatMap((t) => t.data.status_events)]);
    expect(new Set(Object.keys(orchestrator.data.dispatch.status_rendering))).toEqual(events);

    for (const model of new Set(cards.flatMap((c) => [c.data.model, c.data.fallback_model].filter(Boolean)))) {
      expect(config).toContain(`'${model}': {`);
    }
    expect([...config.matchAll(/^ {4}'([^']+)': \{$/gm)].map((m) => m[1]).sort()).toEqual(
      [...new Set(cards.flatMap((c) => [c.data.model, c.data.fallback_model].filter(Boolean)))].sort(),
    );
  });

  it('blocks read only compile-time variables and no per-request field', () => {
    for (const b of blocks) {
      for (const m of b.body.matchAll(/\{\{[#/]?\s*([^}\s]+)/g)) {
        expect(['each', 'sub_agents', 'tool_name', 'description', 'dispatch.fan_out_cap', 'agent.id', 'each sub_agents'], b.path).toContain(m[1]);
      }
      expect(b.body).not.toMatch(/\{\{[^}]*\b(date|locale|location|user_id)\b/);
      expect(b.body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
  });
});

describe('package schemas', () => {
  it('reads the four agentc schemas, byte for byte', () => {
    const result = readSchemaFiles();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.files.map((f) => f.path)).toEqual(AGENTC_SCHEMA_FILES.map((n) => `schemas/${n}`));
    for (const f of result.files) expect(f.content).toBe(readFileSync(join(schemaDir, f.path.slice('schemas/'.length)), 'utf8'));
  });

  it('reports a missing schema directory instead of throwing', () => {
    const result = readSchemaFiles('/nonexistent-agentc-dir');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/agent-card\.schema\.json could not be read/);
  });
});
