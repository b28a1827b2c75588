import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { configRelated } from '../support.js';

/** A block's feature_flag is declared in config.flags. */
export const unknownFlag: Rule<'unknown-flag'> = {
  id: 'unknown-flag',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_BLOCK), report);
  },
};

/** The block's report (reads the block and the config). */
const BY_BLOCK = itemPass<'block', ReportInput<'unknown-flag'>>('block', (program, block, report) => {
  const flags = program.config.data.flags;
  const name = block.data.feature_flag;
  if (name === undefined || flags.includes(name)) return;
  report({
    file: block.file.path,
    range: block.locate(['feature_flag']),
    message: 'unknown',
    data: { block: block.data.id, name },
    hint: didYouMeanHint(name, flags) ?? { id: 'declare', data: { name } },
    related: configRelated(program, ['flags'], { message: 'flagsDeclared' }, 'key'),
  });
});
