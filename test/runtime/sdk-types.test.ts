/**
 * The clients' request bodies type-check against the official `openai` and
 * `@anthropic-ai/sdk` request types (providers/sdk-request-types.ts, strict tsc).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

test('request bodies are assignable to the SDKs’ request types', () => {
  const file = fileURLToPath(new URL('./providers/sdk-request-types.ts', import.meta.url));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: ['node'],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
}, 120_000);
