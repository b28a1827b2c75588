// Starts `agentc lsp --stdio` from the workspace's installed CLI (node_modules/.bin/agentc),
// so the editor checks with the same agentc version as the workspace's `npm run check`.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function agentcCommand(folder) {
  const configured = vscode.workspace.getConfiguration('agentc').get('path');
  if (configured) return configured;
  const bin = join(folder, 'node_modules', '.bin', process.platform === 'win32' ? 'agentc.cmd' : 'agentc');
  return existsSync(bin) ? bin : 'agentc';
}

async function activate(context) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return;
  const command = agentcCommand(folder);
  const server = { command, args: ['lsp', '--stdio'], options: { cwd: folder, shell: process.platform === 'win32' } };
  client = new LanguageClient(
    'agentc',
    'agentc',
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: 'file', language: 'yaml', pattern: '**/cards/*.{yaml,yml}' },
        { scheme: 'file', language: 'yaml', pattern: '**/schemas/tools/*.{yaml,yml}' },
        { scheme: 'file', language: 'json', pattern: '**/schemas/tools/*.json' },
        { scheme: 'file', language: 'markdown', pattern: '**/blocks/**/*.md' },
      ],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/{cards,blocks,schemas/tools}/**') },
    },
  );
  context.subscriptions.push(client);
  await client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
