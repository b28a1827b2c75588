/**
 * The coverage matrix of an orchestrator's eval suites (issue 16, NFR-6): one
 * single-intent case per sub-agent and one mixed-intent case per unordered pair
 * of sub-agents. Shared by the `eval-coverage` rule and `agentc eval --scaffold`,
 * so the placeholders the scaffold writes are exactly what the rule asks for.
 *
 * Invariants: pure; deterministic (sub-agents sorted, pairs in lexicographic
 * order); a case with expect.agents [a] covers the single a; a case whose
 * expect.agents holds both a and b covers the pair (a, b).
 */
export interface CoverageMatrix {
  singles: string[];
  pairs: [string, string][];
}

export function coverageMatrix(subAgents: Iterable<string>): CoverageMatrix {
  const singles = [...new Set(subAgents)].sort();
  const pairs: [string, string][] = [];
  for (let i = 0; i < singles.length; i++) for (let j = i + 1; j < singles.length; j++) pairs.push([singles[i]!, singles[j]!]);
  return { singles, pairs };
}

/** What `cases` (each a case's expect.agents) leave uncovered of `matrix`. */
export function missingCoverage(matrix: CoverageMatrix, cases: Iterable<readonly string[]>): CoverageMatrix {
  const singles = new Set<string>();
  const pairs = new Set<string>();
  for (const agents of cases) {
    if (agents.length === 1) singles.add(agents[0]!);
    for (const a of agents) for (const b of agents) if (a < b) pairs.add(`${a}\u0000${b}`);
  }
  return { singles: matrix.singles.filter((s) => !singles.has(s)), pairs: matrix.pairs.filter(([a, b]) => !pairs.has(`${a}\u0000${b}`)) };
}
