/** A JSON-RPC client that drives `agentc lsp --stdio` (built dist) like an editor would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'agentc.js');

export class LspClient {
  readonly conn: MessageConnection;
  private readonly proc: ChildProcess;
  private readonly waiters: { uri: string; pred: (d: Diagnostic[]) => boolean; resolve: (d: Diagnostic[]) => void }[] = [];
  readonly latest = new Map<string, Diagnostic[]>();
  private versions = new Map<string, number>();

  constructor(readonly root: string) {
    this.proc = spawn(process.execPath, [BIN, 'lsp', '--stdio', '--cwd', root], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.latest.set(p.uri, p.diagnostics);
      for (const w of [...this.waiters]) {
        if (w.uri === p.uri && w.pred(p.diagnostics)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(p.diagnostics);
        }
      }
    });
    this.conn.listen();
  }

  uri(path: string): string {
    return pathToFileURL(join(this.root, path)).href;
  }

  async initialize(): Promise<unknown> {
    const r = await this.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(this.root).href,
      capabilities: {},
      workspaceFolders: null,
    });
    await this.conn.sendNotification('initialized', {});
    return r;
  }

  /** Resolves with the next publish for `path` that satisfies `pred` (or the current one, if it does). */
  diagnostics(path: string, pred: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
    const uri = this.uri(path);
    return new Promise((resolve) => this.waiters.push({ uri, pred, resolve }));
  }

  open(path: string, text: string): Promise<void> {
    this.versions.set(path, 1);
    return this.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: this.uri(path), languageId: path.endsWith('.md') ? 'markdown' : 'yaml', version: 1, text },
    });
  }

  change(path: string, text: string): Promise<void> {
    const version = (this.versions.get(path) ?? 1) + 1;
    this.versions.set(path, version);
    return this.conn.sendNotification('textDocument/didChange', { textDocument: { uri: this.uri(path), version }, contentChanges: [{ text }] });
  }

  request<T>(method: string, path: string, line: number, character: number, extra: object = {}): Promise<T> {
    return this.conn.sendRequest(method, { textDocument: { uri: this.uri(path) }, position: { line, character }, ...extra });
  }

  async close(): Promise<void> {
    await this.conn.sendRequest('shutdown');
    await this.conn.sendNotification('exit');
    await new Promise((r) => this.proc.once('exit', r));
    this.conn.dispose();
  }
}
