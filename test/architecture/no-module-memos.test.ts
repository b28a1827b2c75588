/**
 * No module-level memo tables in src/ (issue 13): derived data of a compile
 * lives on its Program (`program.memo`, src/resolve/run-memo.ts), memos that
 * survive a compile live in CompileCache (src/compile.ts). Module level may
 * hold constant tables (`new Set([...literals])`) and the few mutable bindings
 * listed below, each with the reason it is not a cache of derived data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** `file: name` → why this module-level mutable binding is not a memo of derived data. */
const ALLOWED: Record<string, string> = {
  'src/parse/template.ts: hbsModule': 'the handlebars module, imported on first use',
  'src/parse/yaml.ts: yamlModule': 'the yaml module, loaded on first use (a clean file never needs it)',
  'src/tokenize/index.ts: o200k': 'the o200k_base encoding module, loaded on first use',
  'src/tokenize/index.ts: cl100k': 'the cl100k_base encoding module, loaded on first use',
  'src/parse/validate.ts: loaded': "the validators of agentc's own schemas, loaded once (code, the same for every input)",
  'src/load/config-worker.ts: loaded': 'state of the config worker thread (one config per thread)',
  'src/load/config-worker.ts: filesRead': "what this worker's one config load read (posted to agentc, never reused)",
  'src/load/config-worker.ts: envRead': "what this worker's one config load read (posted to agentc, never reused)",
  'src/load/config-worker.ts: envEnumerated': "what this worker's one config load read (posted to agentc, never reused)",
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const COLLECTIONS = new Set(['Map', 'WeakMap', 'Set', 'WeakSet']);

/** `new Map()` / `new WeakMap<…>()`: an empty collection at module level is a table filled at run time. */
function emptyCollection(init: ts.Expression | undefined): string | undefined {
  if (!init || !ts.isNewExpression(init) || !ts.isIdentifier(init.expression)) return undefined;
  const name = init.expression.text;
  if (!COLLECTIONS.has(name)) return undefined;
  const args = init.arguments ?? [];
  return args.length === 0 ? `new ${name}()` : undefined;
}

/** `{}` / `[]` at module level: an empty object or array filled at run time. */
function emptyLiteral(init: ts.Expression | undefined): string | undefined {
  let e = init;
  while (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e))) e = e.expression;
  if (e && ts.isObjectLiteralExpression(e) && e.properties.length === 0) return '{}';
  if (e && ts.isArrayLiteralExpression(e) && e.elements.length === 0) return '[]';
  return undefined;
}

/** Only files with a candidate at the start of a line are parsed (parsing all of src/ is slow). */
const CANDIDATE = /^(?:export )?(?:let|var|const [^=]*= *(?:new (?:Weak)?(?:Map|Set)\b|\{\s*\}|\[\s*\]))/m;

function findings(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (!CANDIDATE.test(text)) return [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = relative(root, file).split('\\').join('/');
  const out: string[] = [];
  for (const stmt of sf.statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    const isLet = (stmt.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== (ts.NodeFlags.Const as number);
    for (const d of stmt.declarationList.declarations) {
      const name = d.name.getText(sf);
      const line = sf.getLineAndCharacterOfPosition(d.getStart(sf)).line + 1;
      const key = `${rel}: ${name}`;
      if (ALLOWED[key]) continue;
      if (isLet) out.push(`${rel}:${line} module-level mutable binding "${name}"`);
      const empty = emptyCollection(d.initializer) ?? emptyLiteral(d.initializer);
      if (empty) out.push(`${rel}:${line} module-level ${empty} "${name}"`);
    }
  }
  return out;
}

test('no module-level memo tables or mutable caches in src/', () => {
  const all = tsFiles(join(root, 'src')).flatMap(findings);
  expect(all).toEqual([]);
});

test('the scan finds what it must find', () => {
  const probe = (src: string): ts.VariableStatement => ts.createSourceFile('x.ts', src, ts.ScriptTarget.Latest, true).statements[0] as ts.VariableStatement;
  expect(emptyCollection(probe('const c = new WeakMap<object, number>();').declarationList.declarations[0]!.initializer)).toBe('new WeakMap()');
  expect(emptyCollection(probe("const c = new Set(['a', 'b']);").declarationList.declarations[0]!.initializer)).toBeUndefined();
  expect(emptyLiteral(probe('const c: Record<string, number> = {};').declarationList.declarations[0]!.initializer)).toBe('{}');
  expect(emptyLiteral(probe("const c = ['a'];").declarationList.declarations[0]!.initializer)).toBeUndefined();
});

test('every allowance names a binding that still exists', () => {
  for (const key of Object.keys(ALLOWED)) {
    const [file, name] = key.split(': ') as [string, string];
    expect(readFileSync(join(root, file), 'utf8'), key).toMatch(new RegExp(`^(?:export )?(?:let|const) ${name}\\b`, 'm'));
  }
});
