#!/usr/bin/env node
// Builds dist/: TypeScript (tsc, incremental) and precompiled ajv validators for
// agentc's own formats (schemas/*.schema.json → dist/validators/*.js), which load
// far faster than compiling the schemas at start-up. Then the runtime package
// (packages/runtime/dist) from the same sources: src/runtime + src/bundle.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const tsc = require.resolve('typescript/bin/tsc');
// The build keeps its own incremental state, apart from the tsconfig's (which a
// `tsc --noEmit` type-check writes without emitting: sharing it made the next build
// skip files it never wrote). An output that is missing is rebuilt from scratch:
// tsc's incremental state never looks at the output files themselves.
const projects = [
  { config: join(root, 'tsconfig.json'), dist: join(root, 'dist'), dirs: [''], info: 'agentc-build-tsbuildinfo' },
  {
    config: join(root, 'packages', 'runtime', 'tsconfig.json'),
    dist: join(root, 'packages', 'runtime', 'dist'),
    dirs: ['runtime', 'bundle'],
    info: 'agentc-runtime-build-tsbuildinfo',
  },
];
/** Whether every src/<dir>/**.ts has its .js in `dist`. */
const outputsPresent = (dist, dirs) => {
  const walk = (rel) => {
    for (const e of readdirSync(join(root, 'src', rel), { withFileTypes: true })) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!walk(child)) return false;
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !existsSync(join(dist, child.replace(/\.ts$/, '.js')))) return false;
    }
    return true;
  };
  return dirs.every((d) => walk(d));
};
try {
  for (const p of projects) {
    const info = join(root, 'node_modules', '.cache', p.info);
    if (!outputsPresent(p.dist, p.dirs)) rmSync(info, { force: true });
    execFileSync(process.execPath, [tsc, '-p', p.config, '--tsBuildInfoFile', info], { stdio: 'inherit', cwd: root });
  }
} catch {
  process.exit(1);
}

const Ajv2020 = require('ajv/dist/2020').default;
const standalone = require('ajv/dist/standalone').default;
const outDir = join(root, 'dist', 'validators');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const schemaDir = join(root, 'schemas');
for (const name of readdirSync(schemaDir)
  .filter((f) => f.endsWith('.schema.json'))
  .sort()) {
  const schema = JSON.parse(readFileSync(join(schemaDir, name), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, code: { source: true, esm: false, lines: false } });
  const validate = ajv.compile(schema);
  const code = standalone(ajv, validate);
  writeFileSync(join(outDir, name.replace(/\.schema\.json$/, '.cjs')), code);
}

// The JSON Schema 2020-12 meta-schema (ajv's own copy), for checking contracts
// (tool parameters, card input/output) as JSON Schema: the `json-schema` rule.
{
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, code: { source: true, esm: false, lines: false } });
  const validate = ajv.getSchema('https://json-schema.org/draft/2020-12/schema');
  writeFileSync(join(outDir, 'json-schema-2020.cjs'), standalone(ajv, validate));
}

// dist/build-id.json: a hash of everything agentc runs (dist/**/*.{js,cjs}). The persistent
// result cache (src/cache/check-result.ts) keys on it, so a rebuilt agentc never reuses a
// result an earlier build computed — also between releases that keep the version number.
{
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(c|m)?js$/.test(e.name))
        hash
          .update(`${p.slice(root.length)}\0`)
          .update(readFileSync(p))
          .update('\0');
    }
  };
  walk(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'build-id.json'), JSON.stringify({ buildId: hash.digest('hex') }) + '\n');
}
