// Regenerates schemas/vendor/a2a-agent-card.schema.json from the AgentCard type
// that @a2a-js/sdk (the A2A project's JavaScript SDK, Apache-2.0) ships.
// Run after upgrading @a2a-js/sdk: node scripts/gen-a2a-schema.mjs
// `--out FILE` writes the schema there instead (the test compares it with the committed one).
import { createGenerator } from 'ts-json-schema-generator';
import { writeFileSync, copyFileSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sdkDir = join(root, 'node_modules', '@a2a-js', 'sdk');
const pkg = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8'));
// The type is declared in a content-hashed chunk of dist/: find the file that declares it.
const dist = join(sdkDir, 'dist');
const declaring = readdirSync(dist)
  .filter((f) => f.endsWith('.d.ts'))
  .sort()
  .find((f) => /\binterface AgentCard \{/.test(readFileSync(join(dist, f), 'utf8')));
if (!declaring) throw new Error('@a2a-js/sdk no longer declares interface AgentCard in dist/*.d.ts');
const schema = createGenerator({
  path: join(dist, declaring),
  type: 'AgentCard',
  skipTypeCheck: true,
  expose: 'all',
  topRef: true,
}).createSchema('AgentCard');
schema.$comment = `Generated from the AgentCard type of @a2a-js/sdk ${pkg.version} by scripts/gen-a2a-schema.mjs; do not edit.`;
const outAt = process.argv.indexOf('--out');
const text = `${JSON.stringify(schema, null, 2)}\n`;
if (outAt > 0) writeFileSync(process.argv[outAt + 1], text);
else {
  writeFileSync(join(root, 'schemas', 'vendor', 'a2a-agent-card.schema.json'), text);
  copyFileSync(join(sdkDir, 'LICENSE'), join(root, 'schemas', 'vendor', 'LICENSE.a2a-js-sdk'));
}
