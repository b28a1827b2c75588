import { didYouMeanHint, didYouMeanOf, suggestions } from '../../diagnostics/did-you-mean.js';
import { BUILTIN_HELPERS } from '../../parse/template.js';
import type { Shape } from '../../resolve/context.js';
import type { Rule } from '../rule.js';
import { configAt } from '../support.js';
import { classifyRef } from '../template-scope.js';

const HELPERS = [...BUILTIN_HELPERS].sort();
const STRING: Shape = { kind: 'string' };

/**
 * The config's dynamicContext.template parses, uses only the template language
 * and reads only dynamicContext.fields (each a string, empty when a request lacks it).
 */
export const suffixTemplate: Rule<'suffix-template'> = {
  id: 'suffix-template',
  needsConfig: true,
  run(program, report) {
    const parsed = program.suffix.parsed;
    if (parsed.ok && parsed.analysis.refs.length === 0 && parsed.analysis.nodes) return;
    // Positions inside a string of the config's source are not mapped: every finding points at the value.
    const at = () => configAt(program, ['dynamicContext', 'template']);
    if (!parsed.ok) {
      const p = parsed.problem;
      switch (p.message) {
        case 'syntax':
          return report({ ...at(), message: 'syntax', data: p.data });
        case 'unexpected':
          return report({ ...at(), message: 'unexpected', data: p.data });
        case 'mismatch':
          return report({ ...at(), message: 'mismatch', data: p.data });
        case 'neverClosed':
          return report({ ...at(), message: 'neverClosed', data: p.data });
        case 'tooDeep':
          return report({ ...at(), message: 'tooDeep', data: p.data });
      }
    }
    const fields = program.config.data.dynamicContext.fields;
    const listed = fields.length === 0 ? 'none' : fields.join(', ');
    const root: Shape = { kind: 'object', fields: Object.fromEntries(fields.map((f) => [f, STRING])) };
    const none = { has: () => false };
    for (const ref of parsed.analysis.refs) {
      const verdict = classifyRef(ref, root, none, 'dynamicContext.template');
      if (verdict.kind === 'ok') continue;
      const shown = ref.original;
      if (verdict.kind === 'unknown' && verdict.message === 'notInContext') {
        const name = ref.parts[0] ?? '';
        const hint = didYouMeanOf(suggestions(name, fields)) ?? { id: 'declare' as const, data: { name } };
        report({ ...at(), message: 'unknownField', data: { ref: shown, fields: listed }, hint });
      } else {
        report({ ...at(), message: 'badRead', data: { ref: shown, fields: listed } });
      }
    }
    for (const h of parsed.analysis.unknownHelpers) {
      report({
        ...at(),
        message: 'unknownHelper',
        data: { name: h.name, helpers: HELPERS.join(', ') },
        hint: didYouMeanHint(h.name, HELPERS) ?? { id: 'noHelper' },
      });
    }
    for (const _ of parsed.analysis.partials) report({ ...at(), message: 'partial' });
    for (const u of parsed.analysis.unsupported) report({ ...at(), message: 'unsupported', data: { what: u.what } });
  },
};
