/**
 * Quick fixes for published diagnostics: each "Did you mean" suggestion replaces
 * the flagged range; `platform-block-declared` removes the declaring list item;
 * `tool-not-whitelisted` appends the tool to `policy.tool_whitelist`.
 */
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic, type TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

export function quickFixes(doc: TextDocument, diagnostics: readonly LspDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    const data = d.data as { rule?: string; hint?: string | null } | undefined;
    if (!data?.rule) continue;
    const fix = (title: string, edits: TextEdit[]) =>
      out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: out.length === 0, edit: { changes: { [doc.uri]: edits } } });
    if (data.hint?.startsWith('Did you mean')) {
      for (const m of data.hint.matchAll(/"([^"]+)"/g)) fix(`Change to "${m[1]}"`, [{ range: d.range, newText: m[1]! }]);
    }
    if (data.rule === 'platform-block-declared') {
      const edit = removeItem(doc, d);
      if (edit) fix('Remove the platform block (it is injected)', [edit]);
    }
    if (data.rule === 'tool-not-whitelisted') {
      const name = /uses tool "([^"]+)"/.exec(d.message)?.[1] ?? doc.getText(d.range);
      const edit = addToWhitelist(doc, name);
      if (edit) fix(`Add "${name}" to policy.tool_whitelist`, [edit]);
    }
  }
  return out;
}

/** A `- id` line goes entirely; an item in a `[a, b]` flow list goes with its comma. */
function removeItem(doc: TextDocument, d: LspDiagnostic): TextEdit | undefined {
  const line = d.range.start.line;
  const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  if (/^\s*-\s*\S+\s*$/.test(text)) return { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, newText: '' };
  const lineText = text.replace(/\n$/, '');
  let { character: s } = d.range.start;
  let e = d.range.end.character;
  const after = /^\s*,\s*/.exec(lineText.slice(e));
  if (after) e += after[0].length;
  else {
    const before = /,\s*$/.exec(lineText.slice(0, s));
    if (before) s -= before[0].length;
  }
  return { range: { start: { line, character: s }, end: { line, character: e } }, newText: '' };
}

/** Inserts into `tool_whitelist: [..]` or after the last `- item` under `tool_whitelist:`. */
function addToWhitelist(doc: TextDocument, name: string): TextEdit | undefined {
  const lines = doc.getText().split('\n');
  for (let i = 0; i < lines.length; i++) {
    const flow = /^(\s*tool_whitelist\s*:\s*\[)([^\]]*)\]/.exec(lines[i]!);
    if (flow) {
      const empty = flow[2]!.trim() === '';
      const character = flow[1]!.length + flow[2]!.trimEnd().length;
      return { range: { start: { line: i, character }, end: { line: i, character } }, newText: empty ? name : `, ${name}` };
    }
    const block = /^(\s*)tool_whitelist\s*:\s*$/.exec(lines[i]!);
    if (block) {
      let j = i + 1;
      let indent = `${block[1]}  `;
      while (j < lines.length && /^\s*-\s/.test(lines[j]!)) {
        indent = /^(\s*)/.exec(lines[j]!)![1]!;
        j++;
      }
      return { range: { start: { line: j, character: 0 }, end: { line: j, character: 0 } }, newText: `${indent}- ${name}\n` };
    }
  }
  return undefined;
}
