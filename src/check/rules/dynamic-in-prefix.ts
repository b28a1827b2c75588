import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { configRelated } from '../support.js';
import { classifiedRefs } from '../templates.js';

/** No block reads a per-request field (config.dynamicContext.fields): the cached prefix must not vary per request. */
export const dynamicInPrefix: Rule<'dynamic-in-prefix'> = {
  id: 'dynamic-in-prefix',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_BLOCK), report);
  },
};

/** The block's reports (reads the block and the config). */
const BY_BLOCK = itemPass<'block', ReportInput<'dynamic-in-prefix'>>('block', (program, block, report) => {
  for (const { ref, verdict } of classifiedRefs(program, block)) {
    if (verdict.kind !== 'dynamic') continue;
    report({
      file: block.file.path,
      range: ref.range,
      message: 'dynamic',
      data: { block: block.data.id, name: verdict.name },
      hint: { id: 'remove', data: { ref: `{{${ref.original}}}`, name: verdict.name } },
      related: configRelated(program, ['dynamicContext', 'fields'], { message: 'dynamicFields' }),
    });
  }
});
