/**
 * Renaming a card, block or tool id: every structural reference (symbols.ts), the
 * owner's own id, then the owner's file renamed to the new id (the id is the stem).
 */
import { posix } from 'node:path';
import type { WorkspaceEdit, TextDocumentEdit, RenameFile } from 'vscode-languageserver';
import type { Program } from '../resolve/types.js';
import { toLspRange, uriOf } from './convert.js';
import { referencesOf, type SymbolRef } from './symbols.js';

export function renameEdit(root: string, program: Program, ref: SymbolRef, newName: string): WorkspaceEdit {
  const byFile = new Map<string, TextDocumentEdit>();
  for (const place of referencesOf(program, ref)) {
    const uri = uriOf(root, place.file);
    const edit = byFile.get(uri) ?? { textDocument: { uri, version: null }, edits: [] };
    edit.edits.push({ range: toLspRange(place.range), newText: newName });
    byFile.set(uri, edit);
  }
  const owner =
    ref.kind === 'block' ? program.blocks.get(ref.id)?.file : ref.kind === 'card' ? program.cards.get(ref.id)?.file : program.tools.get(ref.id)?.file;
  const changes: (TextDocumentEdit | RenameFile)[] = [...byFile.values()];
  if (owner) {
    const ext = posix.extname(owner.path);
    const stem = posix.basename(owner.path, ext);
    if (stem === ref.id) {
      const target = posix.join(posix.dirname(owner.path), `${newName}${ext}`);
      changes.push({ kind: 'rename', oldUri: uriOf(root, owner.path), newUri: uriOf(root, target) });
    }
  }
  return { documentChanges: changes };
}
