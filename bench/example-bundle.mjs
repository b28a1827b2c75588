// Shared by the runtime benchmarks (run `npm run build` first): the built runtime and
// the bundle of this repository's example workspace, compiled with dist/compile.js.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const runtime = await import(join(root, 'dist/runtime/index.js'));

/** The example workspace's bundle; exits 1 naming `bench` when it does not compile. */
export async function exampleBundle(bench) {
  const { compile } = await import(join(root, 'dist/compile.js'));
  const compiled = await compile({ root, bundle: true });
  if (!compiled.bundle) {
    console.error(`${bench}: the example workspace does not compile; run \`agentc check\`.`);
    process.exit(1);
  }
  return compiled.bundle;
}
