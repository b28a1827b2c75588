/** The emit fixture workspace (test/emit/fixtures/ws), compiled or copied to a temp dir. */
import { cp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bundle } from '../../../src/bundle/types.js';
import { compile } from '../../../src/compile.js';
import { tempDir } from '../../helpers/temp-dirs.js';

export const EMIT_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const FIXTURE_WS = join(EMIT_FIXTURES, 'ws');
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export async function fixtureBundle(root = FIXTURE_WS): Promise<Bundle> {
  const result = await compile({ root, bundle: true });
  if (!result.bundle) {
    throw new Error(
      `fixture ${root} does not compile:\n${result.diagnostics.map((d) => `${d.file}:${d.range?.start.line} ${d.rule} ${d.message}`).join('\n')}${result.fatal ?? ''}`,
    );
  }
  return result.bundle;
}

/** A private copy of the fixture workspace (tests may edit it), removed after the test file. */
export async function copyFixture(): Promise<string> {
  const dir = tempDir('agentc-emit-ws-');
  await cp(FIXTURE_WS, dir, { recursive: true });
  return dir;
}
