/**
 * File names agentc writes or reads by id, shared by the emitter (which writes
 * them) and the check phase (which proves them portable before anything is
 * written). Plain functions, no imports: the runtime may use them too.
 *
 * Portability, decided here: a name is at most PORTABLE_NAME_MAX_BYTES UTF-8
 * bytes (file systems allow 255; the margin leaves room for agentc's temp-file
 * suffixes and for tools that add their own), and its first dot-separated part
 * is never a name Windows reserves for a device (`con`, `nul`, `com1`…), in any
 * case and with any extension — such a file cannot be checked out on Windows.
 */

export const PROMPTS_DIR = 'prompts';

/** Longest file name (one path segment, in UTF-8 bytes) a build may produce. */
export const PORTABLE_NAME_MAX_BYTES = 200;

/** A cohort's prompt file name: `<agent>.md` for the default cohort, `<agent>@<flag>+<flag>.md` otherwise. */
export function promptFileName(agentId: string, cohortKey: string): string {
  return cohortKey === '' ? `${agentId}.md` : `${agentId}@${cohortKey}.md`;
}

const WINDOWS_RESERVED = new Set(['con', 'prn', 'aux', 'nul', ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((i) => [`com${i}`, `lpt${i}`])]);

/** Whether Windows reserves this file name (`NUL`, `con.md`, `Com1.v2.yaml`…). */
export function isWindowsReservedName(fileName: string): boolean {
  // Every reserved name starts with a, c, l, n or p (any case): most names are decided by their first letter.
  if (!/^[aclnp]/i.test(fileName)) return false;
  const dot = fileName.indexOf('.');
  const stem = (dot === -1 ? fileName : fileName.slice(0, dot)).trimEnd();
  // Every reserved name has 3 or 4 letters.
  return stem.length <= 4 && WINDOWS_RESERVED.has(stem.toLowerCase());
}
