/**
 * The JSON Schemas a workspace declares as contracts, each with where it sits in
 * its file: a tool's `parameters`, a card's `input` fields (the handoff a parent
 * sends as `ask_<id>` arguments) and a card's `output`. Shared by the
 * `json-schema` and `provider-schema` rules. Pure.
 */
import type { Range } from '../diagnostics/diagnostic.js';
import type { Locator, PathSegment } from '../parse/yaml.js';
import type { Program } from '../resolve/types.js';
import { memoSlot } from '../resolve/run-memo.js';
import { metaSchemaErrors, type MetaSchemaError } from '../parse/validate.js';
import { sortedCards, sortedTools } from './support.js';

const META_ERRORS = memoSlot<Map<string, MetaSchemaError[]>>('meta-schema errors by contract schema content');

/**
 * A contract schema's errors against the JSON Schema meta-schema, validated once per
 * run for each distinct schema (json-schema and provider-schema both ask, and many
 * cards declare the same handoff fields).
 */
export function metaSchemaErrorsOf(program: Program, schema: unknown): MetaSchemaError[] {
  const bySchema = program.memo.map(META_ERRORS);
  const key = schemaKey(schema);
  if (key === undefined) return metaSchemaErrors(schema);
  let errors = bySchema.get(key);
  if (!errors) bySchema.set(key, (errors = metaSchemaErrors(schema)));
  return errors;
}

/**
 * An exact content key of a parsed schema value (equal keys ⇔ equal values, key
 * order included): `p` + its JSON when that holds no `null` and no `0` (so no
 * number JSON cannot spell, ±Infinity, NaN or -0, was written as one); else `t` +
 * JSON with every string value tagged `s` and each such number written as a tagged string `n…`.
 * Undefined for a value JSON cannot hold (a cycle, built by YAML aliases): then nothing is shared.
 */
export function schemaKey(schema: unknown): string | undefined {
  if (schema === undefined) return 'u';
  try {
    // Plain JSON is exact unless a number JSON cannot spell is written as null or 0: only then are values tagged.
    const plain = JSON.stringify(schema);
    if (!/null|(?:^|[^0-9.])0(?:$|[^0-9.eE])/.test(plain)) return `p${plain}`;
    return `t${JSON.stringify(schema, (_k, v: unknown) => {
      if (typeof v === 'string') return `s${v}`;
      if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return `n${Object.is(v, -0) ? '-0' : String(v)}`;
      return v;
    })}`;
  } catch {
    return undefined;
  }
}

export interface Contract {
  file: string;
  /** `tool "lookup_order"` / `card "rewards"`, as messages name it mid-sentence. */
  subject: string;
  /** 'Tool' / 'Card' and the id, as a message that starts with the subject names it. */
  kind: 'Tool' | 'Card';
  id: string;
  /** The schema itself. */
  schema: unknown;
  /** Path of the schema in its file (e.g. ['parameters'], ['input', 'query'], ['output']). */
  base: PathSegment[];
  locate: Locator;
  /** Whether the schema is sent to providers as tool parameters (tool parameters, handoff fields). */
  toolShape: boolean;
  /** The document a local `$ref` ("#/…") resolves against: the schema itself, or for a handoff field the `ask_<id>` parameters. */
  root: unknown;
}

/** Every contract schema, tools first, each group sorted by file (once per run: json-schema and provider-schema both ask). */
export function contracts(program: Program): readonly Contract[] {
  return program.memo.get(CONTRACTS, () => findContracts(program));
}

const CONTRACTS = memoSlot<readonly Contract[]>('contracts');

function findContracts(program: Program): Contract[] {
  const out: Contract[] = [];
  for (const tool of sortedTools(program)) {
    out.push({
      file: tool.file.path,
      subject: `tool "${tool.data.name}"`,
      kind: 'Tool',
      id: tool.data.name,
      schema: tool.data.parameters,
      base: ['parameters'],
      locate: tool.locate,
      toolShape: true,
      root: tool.data.parameters,
    });
  }
  for (const card of sortedCards(program)) {
    const subject = `card "${card.data.id}"`;
    if (card.explicitInput) {
      const handoff = { type: 'object', properties: card.data.input };
      for (const [name, schema] of Object.entries(card.data.input)) {
        out.push({
          file: card.file.path,
          subject,
          kind: 'Card',
          id: card.data.id,
          schema,
          base: ['input', name],
          locate: card.locate,
          toolShape: true,
          root: handoff,
        });
      }
    }
    if (card.data.output !== undefined) {
      out.push({
        file: card.file.path,
        subject,
        kind: 'Card',
        id: card.data.id,
        schema: card.data.output,
        base: ['output'],
        locate: card.locate,
        toolShape: false,
        root: card.data.output,
      });
    }
  }
  return out;
}

/** `parameters.properties.ids[0]`: a schema path as the author reads it. */
export function schemaPathText(path: readonly PathSegment[]): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

/** The range of `path` in the contract's file. */
export function contractRange(c: Contract, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Range {
  return c.locate([...c.base, ...path], part);
}
