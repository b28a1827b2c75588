/**
 * agentc's own JSON Schemas, as shipped in the package's schemas/ directory.
 * Resolved relative to this module, which sits two levels below the package root
 * both as source (src/init/) and as build output (dist/init/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKSPACE_LAYOUT } from '../load/layout.js';
import type { StarterFile } from './template.js';

export const AGENTC_SCHEMA_FILES = ['agent-card.schema.json', 'config.schema.json', 'prompt-block.schema.json', 'tool-contract.schema.json'] as const;

export function packageSchemasDir(): string {
  return fileURLToPath(new URL('../../schemas/', import.meta.url));
}

export type SchemaFilesResult = { ok: true; files: StarterFile[] } | { ok: false; message: string };

/** The four schema files, as workspace files under schemas/. */
export function readSchemaFiles(dir: string = packageSchemasDir()): SchemaFilesResult {
  const files: StarterFile[] = [];
  for (const name of AGENTC_SCHEMA_FILES) {
    try {
      files.push({ path: `${WORKSPACE_LAYOUT.schemas}/${name}`, content: readFileSync(join(dir, name), 'utf8') });
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      return { ok: false, message: `agentc's own schema ${name} could not be read from ${dir} (${detail}); the installation looks incomplete.` };
    }
  }
  return { ok: true, files };
}
