/** `agentc lsp --stdio`: runs until the client sends exit; vscode-languageserver is loaded only here. */
export async function lspCommand(opts: { root: string }): Promise<number> {
  const { startServer } = await import('../../lsp/server.js');
  const connection = startServer(opts.root);
  await new Promise<void>((resolve) => connection.onExit(() => resolve()));
  return 0;
}
