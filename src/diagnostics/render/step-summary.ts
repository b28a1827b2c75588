/**
 * Appends a report to the file GitHub Actions names in `$GITHUB_STEP_SUMMARY`
 * (appending is the Actions convention: several tools may write one step's summary).
 */
import { appendFileSync } from 'node:fs';

export type StepSummaryResult = { written: true; path: string } | { written: false; path?: string; error?: string };

export function writeStepSummary(markdown: string, env: Record<string, string | undefined>): StepSummaryResult {
  const path = env.GITHUB_STEP_SUMMARY;
  if (path === undefined || path === '') return { written: false };
  try {
    appendFileSync(path, markdown.endsWith('\n') ? markdown : markdown + '\n');
    return { written: true, path };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return { written: false, path, error: `could not write the job summary to ${path}: ${detail}` };
  }
}
