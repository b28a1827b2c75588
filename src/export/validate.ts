/**
 * Validates an AgentCard against the A2A AgentCard JSON Schema vendored in
 * schemas/vendor/ (generated from @a2a-js/sdk's AgentCard type; see its LICENSE
 * there). Resolved relative to this module, two levels below the package root in
 * both src/ and dist/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';

type AjvCtor = new (o: object) => { compile(s: object): ((v: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null } };
const Ajv: AjvCtor = (AjvModule as unknown as { default?: AjvCtor }).default ?? (AjvModule as unknown as AjvCtor);

export function a2aSchemaPath(): string {
  return fileURLToPath(new URL('../../schemas/vendor/a2a-agent-card.schema.json', import.meta.url));
}

export type CardCheck = { ok: true } | { ok: false; problems: string[] };

export function validateAgentCard(card: unknown, schemaText: string = readFileSync(a2aSchemaPath(), 'utf8')): CardCheck {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(schemaText) as object);
  if (validate(card)) return { ok: true };
  return { ok: false, problems: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`) };
}
