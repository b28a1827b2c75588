/**
 * Positions in the config (agentc.config.{ts,mts,js,mjs}), from the TypeScript
 * parser. The config is code: a key path is followed through what the default
 * export evaluates to — `defineConfig(…)`, a local `const` (also one exported by
 * name), a spread of a local object (`...base`, the last writer wins), `satisfies`,
 * `as const`, parentheses — and a value held in a local `const` is followed to
 * where it is written. What comes from elsewhere (an import, a function call)
 * is "not written" (undefined); the caller chooses where to point instead.
 *
 * Invariant: the `typescript` package is loaded on the first lookup only, so a
 * compile that reports nothing in the config never loads it (test/parse/config-locate.test.ts).
 * Lookups are synchronous, so rules stay pure and sync.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import type { Range } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import type { Finder, PathSegment } from './yaml.js';

type Ts = typeof TS;

/** The parser, loaded on demand (a CommonJS package: Node's module cache keeps it after the first load). */
function loadTypeScript(): Ts {
  return createRequire(import.meta.url)('typescript') as Ts;
}

/** What the config file's AST tells: the default-exported expression and the statement that exports it. */
interface ConfigTree {
  ts: Ts;
  sf: TS.SourceFile;
  /** Top-level `const`/`let`/`var` initializers by name. */
  locals: Map<string, TS.Expression>;
  /** Local names of `defineConfig` (`import { defineConfig as define } from 'agentc'`). */
  defineNames: Set<string>;
  exported: { statement: TS.Node; value: TS.Expression | undefined } | undefined;
  /** Steps left in the current lookup: references that cycle through each other end as "not written", never hang. */
  budget: number;
}

/** Steps one lookup may take (a config is at most 1 MB; real ones need tens). */
const LOOKUP_BUDGET = 1000;

/** Takes one step of the lookup's budget; false when it is spent. */
function step(t: ConfigTree): boolean {
  return --t.budget >= 0;
}

export interface ConfigLocator {
  /** Where a key path is written in the config, or undefined ("not written"). */
  find: Finder;
  /** The line that exports the config (`export default defineConfig(`…), else line 1: the explicit fallback. */
  exportLine: () => Range;
}

export function configLocator(file: SourceFile): ConfigLocator {
  let tree: ConfigTree | undefined;
  const load = () => (tree ??= parseConfigTree(file));
  const rangeOf = (t: ConfigTree, node: TS.Node) => file.rangeAt(node.getStart(t.sf), node.end);
  return {
    find(path, part = 'value') {
      const t = load();
      t.budget = LOOKUP_BUDGET;
      const hit = followPath(t, path);
      if (!hit) return undefined;
      return rangeOf(t, part === 'key' && hit.key ? hit.key : hit.value);
    },
    exportLine() {
      const t = load();
      const offset = t.exported ? t.exported.statement.getStart(t.sf) : 0;
      const line = file.positionAt(offset).line;
      return { start: { line, column: 1 }, end: { line, column: file.lineText(line).length + 1 } };
    },
  };
}

function parseConfigTree(file: SourceFile): ConfigTree {
  const ts = loadTypeScript();
  const kind = /\.(c|m)?js$/.test(file.path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  let sf: TS.SourceFile;
  try {
    sf = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind);
  } catch (e) {
    // The parser recurses per nesting level: a config nested past the stack has no positions, not a crash.
    if (!(e instanceof RangeError)) throw e;
    sf = ts.createSourceFile(file.path, '', ts.ScriptTarget.Latest, true, kind);
  }
  const locals = new Map<string, TS.Expression>();
  const defineNames = new Set(['defineConfig']);
  let exported: ConfigTree['exported'];
  let namedDefault: { statement: TS.Node; name: string } | undefined;
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
      for (const s of st.importClause.namedBindings.elements) if ((s.propertyName ?? s.name).text === 'defineConfig') defineNames.add(s.name.text);
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) locals.set(d.name.text, d.initializer);
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      exported = { statement: st, value: st.expression };
    } else if (ts.isExpressionStatement(st) && isModuleExports(ts, st.expression)) {
      exported ??= { statement: st, value: (st.expression as TS.BinaryExpression).right };
    } else if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      // export { config as default }
      for (const s of st.exportClause.elements) if (s.name.text === 'default') namedDefault = { statement: st, name: (s.propertyName ?? s.name).text };
    }
  }
  if (!exported && namedDefault) exported = { statement: namedDefault.statement, value: locals.get(namedDefault.name) };
  return { ts, sf, locals, defineNames, exported, budget: LOOKUP_BUDGET };
}

/** `module.exports = …` (a CommonJS config). */
function isModuleExports(ts: Ts, e: TS.Expression): boolean {
  return ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && e.left.getText() === 'module.exports';
}

type Hit = { key: TS.Node | undefined; value: TS.Node };

/** The node written at `path` below the exported value, following locals and spreads; undefined when not written here. */
function followPath(t: ConfigTree, path: readonly PathSegment[]): Hit | undefined {
  const root = t.exported?.value;
  if (!root) return undefined;
  let hit: Hit = { key: undefined, value: root };
  for (const seg of path) {
    const container = resolve(t, hit.value);
    const next =
      typeof seg === 'number' && t.ts.isArrayLiteralExpression(container)
        ? elementAt(t, container, seg, new Set())
        : t.ts.isObjectLiteralExpression(container)
          ? propertyOf(t, container, String(seg), new Set())
          : undefined;
    if (!next) return undefined;
    hit = next;
  }
  // A value held in a local const is written where the const is initialised.
  return { key: hit.key, value: resolve(t, hit.value) };
}

/** Strips what does not change the value: parentheses, `as`, `satisfies`, `!`, `<T>x`. */
function unwrap(ts: Ts, e: TS.Node): TS.Node {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e))
      e = e.expression;
    else return e;
  }
}

/**
 * What an expression evaluates to, as far as this file says: through wrappers,
 * `defineConfig(x)` (it returns its argument), a shorthand property's name and
 * identifiers bound by a top-level declaration. Stops at anything else.
 */
function resolve(t: ConfigTree, node: TS.Node): TS.Node {
  const { ts } = t;
  const seen = new Set<string>();
  let e = unwrap(ts, node);
  for (;;) {
    if (!step(t)) return e;
    if (ts.isShorthandPropertyAssignment(e)) e = e.name;
    if (ts.isCallExpression(e) && isDefineConfig(t, e.expression) && e.arguments.length === 1) e = unwrap(ts, e.arguments[0]!);
    else if (ts.isIdentifier(e) && !seen.has(e.text) && t.locals.has(e.text)) {
      seen.add(e.text);
      e = unwrap(ts, t.locals.get(e.text)!);
    } else if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      // `base.flags`, `base['flags']`: a property of a local object
      const name = ts.isPropertyAccessExpression(e) ? e.name.text : staticName(ts, e.argumentExpression);
      const owner = resolve(t, e.expression);
      const hit = name !== undefined && ts.isObjectLiteralExpression(owner) ? propertyOf(t, owner, name, new Set()) : undefined;
      if (!hit || hit.value === e) return e;
      e = unwrap(ts, hit.value);
    } else return e;
  }
}

/** `defineConfig` (or the name it is imported as) or `anything.defineConfig`. */
function isDefineConfig(t: ConfigTree, callee: TS.Expression): boolean {
  const { ts } = t;
  return (ts.isIdentifier(callee) && t.defineNames.has(callee.text)) || (ts.isPropertyAccessExpression(callee) && callee.name.text === 'defineConfig');
}

/** Property `name` of an object literal, the last writer winning (a spread of a local object counts as its properties). */
function propertyOf(t: ConfigTree, obj: TS.ObjectLiteralExpression, name: string, seen: Set<TS.Node>): Hit | undefined {
  const { ts } = t;
  if (seen.has(obj) || !step(t)) return undefined;
  seen.add(obj);
  for (let i = obj.properties.length - 1; i >= 0; i--) {
    const p = obj.properties[i]!;
    if (ts.isSpreadAssignment(p)) {
      const source = resolve(t, p.expression);
      // A spread of something not written here (an import, a call): its keys are unknown, and an
      // earlier property it might override is still the best-known origin.
      if (!ts.isObjectLiteralExpression(source)) continue;
      const inner = propertyOf(t, source, name, seen);
      if (inner) return inner;
      continue;
    }
    if (!p.name || propertyName(ts, p.name) !== name) continue;
    if (ts.isPropertyAssignment(p)) return { key: p.name, value: p.initializer };
    if (ts.isShorthandPropertyAssignment(p)) return { key: p.name, value: p };
    return { key: p.name, value: p };
  }
  return undefined;
}

/** Element `index` of an array literal, spreads of local array literals expanded. */
function elementAt(t: ConfigTree, arr: TS.ArrayLiteralExpression, index: number, seen: Set<TS.Node>): Hit | undefined {
  const flat = flatten(t, arr, seen);
  const e = flat?.[index];
  return e ? { key: undefined, value: e } : undefined;
}

function flatten(t: ConfigTree, arr: TS.ArrayLiteralExpression, seen: Set<TS.Node>): TS.Expression[] | undefined {
  const { ts } = t;
  if (seen.has(arr) || !step(t)) return undefined;
  seen.add(arr);
  const out: TS.Expression[] = [];
  for (const e of arr.elements) {
    if (ts.isOmittedExpression(e)) return undefined;
    if (!ts.isSpreadElement(e)) {
      out.push(e);
      continue;
    }
    const source = resolve(t, e.expression);
    const inner = ts.isArrayLiteralExpression(source) ? flatten(t, source, seen) : undefined;
    if (!inner) return undefined; // later indices are unknown
    out.push(...inner);
  }
  return out;
}

/** The name a property key stands for, when it is static. */
function propertyName(ts: Ts, name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  return ts.isComputedPropertyName(name) ? staticName(ts, name.expression) : undefined;
}

/** `'flags'`, `0`: a key written as a literal. */
function staticName(ts: Ts, e: TS.Expression): string | undefined {
  const u = unwrap(ts, e);
  return ts.isStringLiteralLike(u) || ts.isNumericLiteral(u) ? u.text : undefined;
}
