import type { Rule } from '../rule.js';
import { caseLabel } from '../support.js';

/** A case's history is whole earlier turns: it starts with a user turn, alternates user/assistant, and ends with an assistant turn. */
export const evalHistory: Rule<'eval-history'> = {
  id: 'eval-history',
  run(program, report) {
    for (const suite of program.evals) {
      const file = suite.file.path;
      suite.data.cases.forEach((c, i) => {
        const history = c.history ?? [];
        if (history.length === 0) return;
        const label = caseLabel(i, c.name);
        const roleAt = (j: number) => suite.locate(['cases', i, 'history', j, 'role']);
        if (history[0]!.role !== 'user') {
          report({ file, range: roleAt(0), message: 'firstNotUser', data: { case: label, file }, hint: { id: 'pair' } });
          return;
        }
        for (let j = 1; j < history.length; j++) {
          if (history[j]!.role !== history[j - 1]!.role) continue;
          report({ file, range: roleAt(j), message: 'repeatedRole', data: { case: label, file, index: j + 1, role: history[j]!.role }, hint: { id: 'pair' } });
          return;
        }
        if (history[history.length - 1]!.role === 'user') {
          report({ file, range: roleAt(history.length - 1), message: 'endsWithUser', data: { case: label, file }, hint: { id: 'pair' } });
        }
      });
    }
  },
};
