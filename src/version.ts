import { readFileSync } from 'node:fs';

/** agentc's version, from its package.json (src/ and dist/ both sit one level below it). */
export const AGENTC_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
