import type { Rule } from '../rule.js';
import { configRelated, sortedBlocks } from '../support.js';
import { classifiedRefs } from '../templates.js';

/** No block reads a per-request field (config.dynamicContext.fields): the cached prefix must not vary per request. */
export const dynamicInPrefix: Rule = {
  id: 'dynamic-in-prefix',
  needsConfig: true,
  run(program, report) {
    for (const block of sortedBlocks(program)) {
      for (const { ref, verdict } of classifiedRefs(program, block)) {
        if (verdict.kind !== 'dynamic') continue;
        report({
          file: block.file.path,
          range: ref.range,
          data: { block: block.data.id, name: verdict.name },
          hint: `Remove {{${ref.original}}} from the block: config.dynamicContext.template renders "${verdict.name}" into the per-request suffix.`,
          related: configRelated(program, ['dynamicContext', 'fields'], 'per-request fields declared here'),
        });
      }
    }
  },
};
