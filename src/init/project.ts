/**
 * The project files `agentc init` adds around the workspace so a team can commit
 * it as is: package.json (both agentc packages at this release, check/build
 * scripts), .gitattributes (generated bundle collapsed in PR diffs),
 * .vscode/settings.json (agentc's JSON Schemas mapped to cards and tool
 * contracts) and the GitHub workflow. Pure data; every command it writes uses
 * only our own packages (`@agentc/cli`, `@agentc/runtime`) or `npm`.
 */
import { globsOf, WORKSPACE_LAYOUT as LAYOUT } from '../load/layout.js';
import type { StarterFile } from './template.js';

export const CLI_PACKAGE = '@agentc/cli';
export const RUNTIME_PACKAGE = '@agentc/runtime';

export function projectFiles(name: string, version: string): StarterFile[] {
  return [
    { path: 'package.json', content: serialize(packageJson(name, version)) },
    { path: '.gitattributes', content: GITATTRIBUTES },
    { path: '.vscode/settings.json', content: VSCODE_SETTINGS },
    { path: '.github/workflows/agentc.yml', content: WORKFLOW },
  ];
}

type Json = Record<string, unknown>;

/** An npm package name from a directory name ("My Agents" → "my-agents"). */
export function packageName(dir: string): string {
  const name = dir
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '')
    .slice(0, 214);
  return name === '' ? 'agents' : name;
}

function packageJson(name: string, version: string): Json {
  return {
    name: packageName(name),
    version: '0.0.0',
    private: true,
    type: 'module',
    scripts: { ...SCRIPTS },
    dependencies: { [RUNTIME_PACKAGE]: `^${version}` },
    devDependencies: { [CLI_PACKAGE]: `^${version}` },
  };
}

const SCRIPTS = { check: 'agentc check', build: 'agentc build' } as const;

/**
 * An existing package.json with what init needs added: a name and `"type":
 * "module"` (the generated modules are ESM) when it has none, the two scripts
 * and the two dependencies, each only where the file does not already have it
 * (a dependency already declared — say, a tarball — is kept as it is). Undefined
 * when the text is not a JSON object: then it is a conflict like any other file.
 */
export function mergePackageJson(text: string, name: string, version: string): string | undefined {
  let existing: unknown;
  try {
    existing = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(existing)) return undefined;
  const ours = packageJson(name, version);
  const merged: Json = 'name' in existing ? { ...existing } : { name: ours.name, ...existing };
  if (!('type' in existing)) merged.type = ours.type;
  merged.scripts = { ...SCRIPTS, ...objectOr(existing.scripts) };
  const deps = objectOr(existing.dependencies);
  const devDeps = objectOr(existing.devDependencies);
  if (!(RUNTIME_PACKAGE in deps)) merged.dependencies = { ...deps, ...(ours.dependencies as Json) };
  if (!(CLI_PACKAGE in deps) && !(CLI_PACKAGE in devDeps)) merged.devDependencies = { ...devDeps, ...(ours.devDependencies as Json) };
  const out = serialize(merged);
  return out === serialize(existing) && text.endsWith('\n') ? text : out;
}

function serialize(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectOr(v: unknown): Json {
  return isObject(v) ? v : {};
}

const GITATTRIBUTES = `# The generated bundle is collapsed in pull-request diffs; reviewers read
# generated/prompts/*.md, the prompts exactly as the models see them.
generated/bundle.* linguist-generated=true
generated/orchestrator.ts linguist-generated=true
`;

const VSCODE_SETTINGS = `${JSON.stringify(
  {
    'json.schemas': [{ fileMatch: [`/${LAYOUT.tools.dir}/*.json`], url: `./${LAYOUT.schemas}/tool-contract.schema.json` }],
    'yaml.schemas': {
      [`./${LAYOUT.schemas}/agent-card.schema.json`]: globsOf(LAYOUT.cards),
      [`./${LAYOUT.schemas}/tool-contract.schema.json`]: globsOf(LAYOUT.tools).filter((g) => !g.endsWith('.json')),
    },
  },
  null,
  2,
)}
`;

const WORKFLOW = `# Checks every push and pull request: diagnostics as annotations, and a stale
# generated/ fails the build (run \`npm run build\` and commit generated/).
name: agentc
on:
  push:
  pull_request:
jobs:
  agentc:
    runs-on: ubuntu-latest
    env:
      # Optional: add an OPENAI_API_KEY repository secret to run the routing eval.
      OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npx --no-install agentc check --format github
      - run: npx --no-install agentc build --check
      # Routing regression suites (evals/*.yaml, docs/eval.md) against the real
      # model; skipped when there is no key or no suite.
      - name: agentc eval
        if: \${{ env.OPENAI_API_KEY != '' && hashFiles('${globsOf(LAYOUT.evals)[0]}') != '' }}
        run: npx --no-install agentc eval --min-accuracy 0.95
`;
