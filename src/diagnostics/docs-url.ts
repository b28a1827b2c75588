/**
 * Stable links to agentc's documentation. Invariant: `REPOSITORY_URL` equals the
 * `repository.url` of package.json (without `git+` / `.git`; a test checks it),
 * and every catalog rule has a page at docs/rules/<rule-id>.md (another test), so
 * `ruleDocUrl` never points at a missing page.
 */
export const REPOSITORY_URL = 'https://github.com/agentc-dev/agentc';

/** The branch the published links read from. */
export const DOCS_BRANCH = 'main';

/** The web address of a rule's page, e.g. for SARIF `helpUri`. */
export function ruleDocUrl(ruleId: string): string {
  return `${REPOSITORY_URL}/blob/${DOCS_BRANCH}/docs/rules/${ruleId}.md`;
}
