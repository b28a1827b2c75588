import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { configRelated } from '../support.js';

/** Every feature flag an eval suite (or one of its cases) switches on is declared in config.flags. */
export const evalUnknownFlag: Rule<'eval-unknown-flag'> = {
  id: 'eval-unknown-flag',
  needsConfig: true,
  run(program, report) {
    const flags = program.config.data.flags;
    for (const suite of program.evals) {
      const file = suite.file.path;
      const uses: { name: string; path: (string | number)[] }[] = suite.data.flags.map((name, i) => ({ name, path: ['flags', i] }));
      suite.data.cases.forEach((c, i) => (c.flags ?? []).forEach((name, j) => uses.push({ name, path: ['cases', i, 'flags', j] })));
      for (const { name, path } of uses) {
        if (flags.includes(name)) continue;
        report({
          file,
          range: suite.locate(path),
          message: 'unknown',
          data: { file, name },
          hint: didYouMeanHint(name, flags) ?? { id: 'declare', data: { name } },
          related: configRelated(program, ['flags'], { message: 'flagsDeclared' }, 'key'),
        });
      }
    }
  },
};
