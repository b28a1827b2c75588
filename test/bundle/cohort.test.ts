/** Cohort selection, defined once (src/bundle/cohort.ts) for `agentc prompt` and the runtime. */
import { describe, expect, it } from 'vitest';
import { cohortKey, findPrefix } from '../../src/bundle/cohort.js';
import type { BundleAgent } from '../../src/bundle/types.js';
import { selectCohort } from '../../src/emit/prompts.js';
import { selectPrefix } from '../../src/runtime/cohort.js';

const agent = {
  flags: ['a', 'b'],
  prefixes: [
    { cohort: [], key: '' },
    { cohort: ['a'], key: 'a' },
    { cohort: ['b'], key: 'b' },
    { cohort: ['a', 'b'], key: 'a+b' },
  ],
} as unknown as BundleAgent;

describe('cohort selection', () => {
  it('only the agent’s flags count, in sorted order', () => {
    expect(cohortKey(['a', 'b'], ['zz', 'b', 'a'])).toBe('a+b');
    expect(cohortKey(['a', 'b'], ['zz'])).toBe('');
    expect(findPrefix(agent, ['b', 'other'])?.key).toBe('b');
  });

  it('agentc prompt and the runtime select the same prefix; the runtime falls back to the default', () => {
    for (const on of [[], ['a'], ['b', 'a'], ['c']]) expect(selectPrefix(agent, on)).toBe(selectCohort(agent, on));
    const partial = { ...agent, prefixes: agent.prefixes.slice(0, 1) } as BundleAgent;
    expect(selectCohort(partial, ['a'])).toBeUndefined();
    expect(selectPrefix(partial, ['a'])?.key).toBe('');
  });
});
