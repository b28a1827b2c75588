import { JSON_SCHEMA_KEYWORDS, STRICT_FORMATS, toAnthropic, toOpenAIStrict, type StrictNote } from '../../contracts/openai-strict.js';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { metaSchemaErrors } from '../../parse/validate.js';
import type { JsonSchema } from '../../parse/types.js';
import { contractRange, contracts, schemaPathText, type Contract } from '../contracts.js';
import type { Rule } from '../rule.js';

/**
 * Every tool-shaped contract (tool parameters, card input fields) is expressed
 * exactly by the emitted provider shapes; where OpenAI strict mode can only
 * approximate it, the warning says where and what the emitted shape does instead.
 * Anthropic's input_schema carries the contract as written except at the top
 * level (no oneOf / allOf / anyOf there). The notes come from the emitter's own
 * transformations (src/contracts/openai-strict.ts).
 */
export const providerSchema: Rule = {
  id: 'provider-schema',
  run(program, report) {
    for (const c of contracts(program)) {
      if (!c.toolShape) continue;
      if (metaSchemaErrors(c.schema).length > 0) continue; // json-schema reports it; the shape is moot
      for (const note of notesOf(c)) {
        // An open object is named by its own path, not by the keyword that opens it.
        const named = note.kind === 'open-object' && note.at !== 'schema' ? note.path.slice(0, -1) : note.path;
        const where = schemaPathText([...c.base, ...named]);
        const d = describe(note, where, c);
        report({ file: c.file, range: contractRange(c, note.path, d.part), data: { detail: d.message }, ...(d.hint ? { hint: d.hint } : {}) });
      }
    }
  },
};

/** Notes with paths relative to the contract's schema. A card field is a property of the handoff object. */
function notesOf(c: Contract): StrictNote[] {
  if (c.base[0] === 'parameters') return [...toOpenAIStrict(c.schema as JsonSchema).notes, ...toAnthropic(c.schema as JsonSchema).notes];
  const name = String(c.base[1]);
  const wrapped = toOpenAIStrict({ type: 'object', properties: { [name]: c.schema }, additionalProperties: false }).notes;
  return wrapped.map((n) => ({ ...n, path: n.path.slice(2) }) as StrictNote);
}

function describe(note: StrictNote, where: string, c: Contract): { message: string; hint?: string; part: 'key' | 'value' } {
  const strict = 'OpenAI strict mode';
  switch (note.kind) {
    case 'open-object':
      return {
        message: `Open object at ${where} in ${c.subject}: ${strict} requires additionalProperties: false; the emitted OpenAI tool closes it, so the model cannot send extra fields.`,
        hint: 'Declare every field under properties and set additionalProperties: false.',
        part: note.at === 'schema' ? 'value' : 'key',
      };
    case 'dropped-keyword':
      if (!note.known) {
        return {
          message: `Keyword "${note.keyword}" at ${where} in ${c.subject} is not a JSON Schema keyword; the emitted OpenAI tool drops it, and no provider or validator enforces it.`,
          hint: didYouMean(note.keyword, JSON_SCHEMA_KEYWORDS) ?? 'Remove it, or put the constraint in the description.',
          part: 'key',
        };
      }
      return {
        message: `Keyword "${note.keyword}" at ${where} in ${c.subject} is dropped in ${strict}; the model is not held to it (the runtime still rejects calls that break it).`,
        hint:
          note.keyword === 'maxLength' || note.keyword === 'minLength'
            ? 'Write the length limit as a pattern, e.g. pattern: "^[\\s\\S]{0,500}$" (strict mode keeps pattern), and state it in the description.'
            : 'Express the constraint with a supported keyword (enum, pattern, minimum/maximum, minItems/maxItems) or state it in the description.',
        part: 'key',
      };
    case 'dropped-format':
      return {
        message: `Format "${note.format}" at ${where} in ${c.subject} is dropped in ${strict}, which supports only ${[...STRICT_FORMATS].join(', ')}.`,
        hint: 'Use a supported format or a pattern.',
        part: 'value',
      };
    case 'one-of':
      return {
        message: `oneOf at ${where} in ${c.subject} is emitted as anyOf in ${strict}: the model is not held to exactly one branch (the runtime still is).`,
        hint: 'Use anyOf when the branches cannot overlap.',
        part: 'key',
      };
    case 'tuple':
      return {
        message: `Tuple items at ${where} in ${c.subject} are emitted as items: { anyOf: [...] } in ${strict}: positions are not enforced on the model.`,
        hint: 'Use an object with named fields instead of a tuple.',
        part: 'key',
      };
    case 'boolean-schema':
      return {
        message: `Boolean schema ${String(note.value)} at ${where} in ${c.subject} has no ${strict} form; the emitted OpenAI tool accepts any value there.`,
        hint: note.value ? 'Give the value a type.' : 'Remove the property instead of forbidding it with false.',
        part: 'value',
      };
    case 'root-combinator': {
      const does = note.keyword === 'allOf' ? 'merges it into the root' : 'drops it (the runtime still rejects calls that break it)';
      const rule = note.provider === 'openai' ? 'OpenAI strict mode requires a plain object at the root' : "Anthropic's input_schema does not accept oneOf, allOf or anyOf at the top level";
      const tool = note.provider === 'openai' ? 'OpenAI' : 'Anthropic';
      return {
        message: `${note.keyword} at the root of ${schemaPathText(c.base)} in ${c.subject}: ${rule}; the emitted ${tool} tool ${does}.`,
        hint: 'Declare every field under properties and state the combinations in the description (or split the tool in two).',
        part: 'key',
      };
    }
    case 'too-deep':
      return { message: `Schema at ${where} in ${c.subject} nests deeper than the OpenAI strict transformation follows; it is emitted as written and strict mode may reject it.`, part: 'value' };
  }
}

