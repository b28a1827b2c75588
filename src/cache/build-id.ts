/**
 * Which build of agentc is running: the hash scripts/build.mjs writes to
 * dist/build-id.json over every file of dist/. Undefined when agentc runs from its
 * sources (tests): then nothing is reused from the persistent result cache.
 */
import { readFileSync } from 'node:fs';

export function readBuildId(url: URL = new URL('../build-id.json', import.meta.url)): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(url, 'utf8')) as { buildId?: unknown };
    return typeof parsed.buildId === 'string' && /^[0-9a-f]{64}$/.test(parsed.buildId) ? parsed.buildId : undefined;
  } catch {
    return undefined;
  }
}
