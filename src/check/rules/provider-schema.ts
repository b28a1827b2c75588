import { JSON_SCHEMA_KEYWORDS, STRICT_FORMATS, toAnthropic, toOpenAIStrict, type StrictNote } from '../../contracts/openai-strict.js';
import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { JsonSchema } from '../../parse/types.js';
import type { Program } from '../../resolve/types.js';
import { memoSlot } from '../../resolve/run-memo.js';
import { contractRange, contracts, metaSchemaErrorsOf, schemaKey, schemaPathText, type Contract } from '../contracts.js';
import type { Report, Rule } from '../rule.js';

/**
 * Every tool-shaped contract (tool parameters, card input fields) is expressed
 * exactly by the emitted provider shapes; where OpenAI strict mode can only
 * approximate it, the warning says where and what the emitted shape does instead.
 * Anthropic's input_schema carries the contract as written except at the top
 * level (no oneOf / allOf / anyOf there). The notes come from the emitter's own
 * transformations (src/contracts/openai-strict.ts).
 */
export const providerSchema: Rule<'provider-schema'> = {
  id: 'provider-schema',
  reads: ['cardTable', 'toolTable'],
  run(program, report) {
    for (const c of contracts(program)) {
      if (!c.toolShape) continue;
      if (metaSchemaErrorsOf(program, c.schema).length > 0) continue; // json-schema reports it; the shape is moot
      for (const note of notesOnce(program, c)) reportNote(note, c, report);
    }
  },
};

const NOTES = memoSlot<Map<string, StrictNote[]>>('provider-schema notes by contract kind and schema content');

/** notesOf, computed once per run for each distinct contract (tool parameters by schema; a handoff field by name and schema): many cards declare the same handoff fields. */
function notesOnce(program: Program, c: Contract): StrictNote[] {
  const byKey = program.memo.map(NOTES);
  const content = schemaKey(c.schema);
  if (content === undefined) return notesOf(c);
  const key = c.base[0] === 'parameters' ? `p${content}` : `f${String(c.base[1])}\u0000${content}`;
  let notes = byKey.get(key);
  if (!notes) byKey.set(key, (notes = notesOf(c)));
  return notes;
}

/** Notes with paths relative to the contract's schema. A card field is a property of the handoff object. */
function notesOf(c: Contract): StrictNote[] {
  if (c.base[0] === 'parameters') return [...toOpenAIStrict(c.schema as JsonSchema).notes, ...toAnthropic(c.schema as JsonSchema).notes];
  const name = String(c.base[1]);
  const wrapped = toOpenAIStrict({ type: 'object', properties: { [name]: c.schema }, additionalProperties: false }).notes;
  return wrapped.map((n) => ({ ...n, path: n.path.slice(2) }) as StrictNote);
}

/** One warning per note: where, what the emitted shape does instead, and how to say it exactly. */
function reportNote(note: StrictNote, c: Contract, report: Report<'provider-schema'>): void {
  // An open object is named by its own path, not by the keyword that opens it.
  const named = note.kind === 'open-object' && note.at !== 'schema' ? note.path.slice(0, -1) : note.path;
  const at = { where: schemaPathText([...c.base, ...named]), subject: c.subject };
  const place = (part: 'key' | 'value') => ({ file: c.file, range: contractRange(c, note.path, part) });
  switch (note.kind) {
    case 'open-object':
      report({ ...place(note.at === 'schema' ? 'value' : 'key'), message: 'openObject', data: at, hint: { id: 'closeObject' } });
      return;
    case 'dropped-keyword':
      if (!note.known) {
        report({
          ...place('key'),
          message: 'unknownKeyword',
          data: { ...at, keyword: note.keyword },
          hint: didYouMeanHint(note.keyword, JSON_SCHEMA_KEYWORDS) ?? { id: 'removeKeyword' },
        });
        return;
      }
      report({
        ...place('key'),
        message: 'droppedKeyword',
        data: { ...at, keyword: note.keyword },
        hint: { id: note.keyword === 'maxLength' || note.keyword === 'minLength' ? 'lengthAsPattern' : 'supportedKeyword' },
      });
      return;
    case 'dropped-format':
      report({
        ...place('value'),
        message: 'droppedFormat',
        data: { ...at, format: note.format, formats: [...STRICT_FORMATS].join(', ') },
        hint: { id: 'supportedFormat' },
      });
      return;
    case 'one-of':
      report({ ...place('key'), message: 'oneOf', data: at, hint: { id: 'useAnyOf' } });
      return;
    case 'tuple':
      report({ ...place('key'), message: 'tuple', data: at, hint: { id: 'namedFields' } });
      return;
    case 'boolean-schema':
      report({
        ...place('value'),
        ...(note.value
          ? ({ message: 'trueSchema', hint: { id: 'giveType' } } as const)
          : ({ message: 'falseSchema', hint: { id: 'removeProperty' } } as const)),
        data: at,
      });
      return;
    case 'root-combinator': {
      const merged = note.keyword === 'allOf';
      const message =
        note.provider === 'openai' ? (merged ? 'rootMergedOpenAI' : 'rootDroppedOpenAI') : merged ? 'rootMergedAnthropic' : 'rootDroppedAnthropic';
      report({ ...place('key'), message, data: { keyword: note.keyword, where: schemaPathText(c.base), subject: c.subject }, hint: { id: 'flattenRoot' } });
      return;
    }
    case 'too-deep':
      report({ ...place('value'), message: 'tooDeep', data: at });
      return;
  }
}
