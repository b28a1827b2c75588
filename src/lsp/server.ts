/**
 * `agentc lsp --stdio`: the compile pipeline behind the Language Server Protocol.
 * Open buffers overlay the files on disk; each change recompiles with a
 * CompileCache (only changed files are parsed again), at most one compile at a
 * time, and publishes every file's diagnostics, clearing files that became clean.
 */
import { join } from 'node:path';
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Connection, type WorkspaceEdit } from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import { compile, configImports, createCompileCache, type CompileResult } from '../compile.js';
import { FilesWatcher } from '../cli/watch-files.js';
import { findWorkspaceRoot } from '../load/root.js';
import { quickFixes } from './code-actions.js';
import { completions } from './completion.js';
import { pathOf, toLspDiagnostic, toLspRange, uriOf } from './convert.js';
import { hoverText, templateHover } from './hover.js';
import { classify, definitionOf, referencesOf, wordAt, type SymbolRef } from './symbols.js';
import { renameEdit } from './rename.js';
import { sourceKindOf } from '../load/layout.js';

/** Wait this long after a keystroke before compiling (keystrokes in a burst compile once). */
const DEBOUNCE_MS = 30;

export function startServer(fallbackRoot: string): Connection {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  const documents = new TextDocuments(TextDocument);
  const cache = createCompileCache();
  let root = fallbackRoot;
  let last: CompileResult | undefined;
  let published = new Set<string>();
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const overlay = (): Map<string, string> => {
    const m = new Map<string, string>();
    for (const doc of documents.all()) {
      const path = pathOf(root, doc.uri);
      if (path) m.set(path, doc.getText());
    }
    return m;
  };

  const runCompile = async (): Promise<void> => {
    const versions = new Map(documents.all().map((d) => [d.uri, d.version]));
    const result = await compile({ root, cache, overlay: overlay() });
    // The editor watches cards, blocks and tools; the files the config imports are watched here.
    const configFile = cache.config?.load.file?.path;
    configWatcher.set([...configImports(cache), ...(configFile ? [join(root, configFile)] : [])]);
    last = result;
    if (result.fatal) connection.console.error(`agentc: ${result.fatal}`);
    const byFile = new Map<string, ReturnType<typeof toLspDiagnostic>[]>();
    for (const d of result.diagnostics) {
      const uri = uriOf(root, d.file ?? 'agentc.config.ts');
      const list = byFile.get(uri) ?? [];
      list.push(toLspDiagnostic(root, d));
      byFile.set(uri, list);
    }
    // Open buffers always get a publish (with the version compiled), so a clean buffer shows it is checked.
    const send = (uri: string, diagnostics: ReturnType<typeof toLspDiagnostic>[]) => {
      const version = versions.get(uri);
      void connection.sendDiagnostics(version === undefined ? { uri, diagnostics } : { uri, version, diagnostics });
    };
    for (const uri of new Set([...published, ...versions.keys()])) if (!byFile.has(uri)) send(uri, []);
    for (const [uri, diagnostics] of byFile) send(uri, diagnostics);
    published = new Set(byFile.keys());
  };

  /** Serializes compiles: a change during a compile schedules exactly one more. */
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (running) {
        again = true;
        return;
      }
      running = runCompile()
        .catch((e: unknown) => connection.console.error(`agentc: internal error: ${(e as Error)?.stack ?? String(e)}`))
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            schedule();
          }
        });
    }, DEBOUNCE_MS);
  };

  /** The program of the last compile with the buffers as they are now (waits for a pending compile). */
  const current = async (): Promise<CompileResult | undefined> => {
    while (timer || running) await (running ?? new Promise((r) => setTimeout(r, DEBOUNCE_MS)));
    return last;
  };

  const symbolAt = async (
    uri: string,
    position: { line: number; character: number },
  ): Promise<{ ref: SymbolRef; result: CompileResult; range: ReturnType<typeof toLspRange> } | undefined> => {
    const result = await current();
    const path = pathOf(root, uri);
    const file = path === undefined ? undefined : result?.files.get(path);
    // An unopened file is read as the last compile saw it.
    const doc = documents.get(uri) ?? (file && TextDocument.create(uri, 'yaml', 0, file.text));
    if (!result?.program || !doc || !path) return undefined;
    const w = wordAt(doc.getText(), doc.offsetAt(position));
    if (!w) return undefined;
    // A block or card file's own name names its id too.
    const ref = classify(result.program, path, w.word);
    return ref && { ref, result, range: { start: doc.positionAt(w.start), end: doc.positionAt(w.end) } };
  };

  /** The `{{ … }}` expression around the cursor in an open block. */
  const expressionAt = async (uri: string, position: { line: number; character: number }) => {
    const result = await current();
    const doc = documents.get(uri);
    const path = pathOf(root, uri);
    if (!result?.program || !doc || path === undefined || sourceKindOf(path, result.program.layout) !== 'block') return undefined;
    const line = doc.getText({ start: { line: position.line, character: 0 }, end: { line: position.line + 1, character: 0 } });
    for (const m of line.matchAll(/\{\{~?([^}]*?)~?\}\}/g)) {
      if (position.character < m.index || position.character > m.index + m[0].length) continue;
      const before = doc.getText().slice(0, doc.offsetAt({ line: position.line, character: m.index }));
      const depth = (before.match(/\{\{~?#(each|with)\b/g) ?? []).length - (before.match(/\{\{~?\/(each|with)\b/g) ?? []).length;
      return { program: result.program, path, text: m[1]!, scoped: depth > 0 };
    }
    return undefined;
  };

  connection.onInitialize((params) => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    if (folder) root = findWorkspaceRoot(fileURLToPath(folder));
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        definitionProvider: true,
        referencesProvider: true,
        hoverProvider: true,
        renameProvider: { prepareProvider: true },
        completionProvider: { triggerCharacters: ['[', ' ', ',', '{', '-'] },
        codeActionProvider: { codeActionKinds: ['quickfix'] },
      },
      serverInfo: { name: 'agentc' },
    };
  });
  connection.onInitialized(() => schedule());
  connection.onDidChangeWatchedFiles(() => schedule());
  const configWatcher = new FilesWatcher(() => schedule());
  connection.onShutdown(() => configWatcher.close());
  documents.onDidOpen(() => schedule());
  documents.onDidChangeContent(() => schedule());
  documents.onDidClose(() => schedule());
  documents.onDidSave(() => schedule());

  connection.onDefinition(async ({ textDocument, position }) => {
    const hit = await symbolAt(textDocument.uri, position);
    const def = hit && definitionOf(hit.result.program!, hit.ref);
    return def ? { uri: uriOf(root, def.file), range: toLspRange(def.range) } : null;
  });
  connection.onReferences(async ({ textDocument, position }) => {
    const hit = await symbolAt(textDocument.uri, position);
    return hit ? referencesOf(hit.result.program!, hit.ref).map((p) => ({ uri: uriOf(root, p.file), range: toLspRange(p.range) })) : [];
  });
  connection.onHover(async ({ textDocument, position }) => {
    const expr = await expressionAt(textDocument.uri, position);
    if (expr) {
      const value = expr.scoped
        ? `\`{{${expr.text.trim()}}}\` reads the current \`#each\`/\`#with\` item: its value depends on the iteration.`
        : templateHover(expr.program, expr.path, expr.text);
      if (value) return { contents: { kind: 'markdown', value } };
    }
    const hit = await symbolAt(textDocument.uri, position);
    const value = hit && hoverText(hit.result.program!, hit.ref);
    return value ? { contents: { kind: 'markdown', value }, range: hit.range } : null;
  });
  connection.onCompletion(async ({ textDocument, position }) => {
    const result = await current();
    const doc = documents.get(textDocument.uri);
    const path = pathOf(root, textDocument.uri);
    if (!result?.program || !doc || !path) return [];
    return completions(result.program, path, doc.getText(), position.line, position.character);
  });
  connection.onCodeAction(({ textDocument, context }) => {
    const doc = documents.get(textDocument.uri);
    return doc ? quickFixes(doc, context.diagnostics) : [];
  });
  connection.onPrepareRename(async ({ textDocument, position }) => {
    const hit = await symbolAt(textDocument.uri, position);
    return hit && ['block', 'card', 'tool'].includes(hit.ref.kind) ? hit.range : null;
  });
  connection.onRenameRequest(async ({ textDocument, position, newName }): Promise<WorkspaceEdit | null> => {
    const hit = await symbolAt(textDocument.uri, position);
    if (!hit || !['block', 'card', 'tool'].includes(hit.ref.kind)) return null;
    return renameEdit(root, hit.result.program!, hit.ref, newName);
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
