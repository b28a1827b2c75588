/**
 * agentc's strictness on top of Handlebars ({ strict: true, noEscape: true }),
 * shared by the two render paths (the interpreter, ./interpret.ts, and
 * Handlebars itself for bodies outside its subset, ./render.ts). Handlebars
 * alone renders some constructs as nothing or nonsense; here each of them stops
 * the render with a RenderStop at the construct's position:
 *
 * - a mustache whose value is an object or a list (`{{this}}`, `{{agent}}`,
 *   `{{lookup agent "input"}}`): Handlebars prints "[object Object]" or a
 *   comma-joined list;
 * - `#each` over a string, number or boolean: Handlebars renders nothing;
 * - `lookup` of a field the value does not have, or on a missing value:
 *   Handlebars renders nothing (its params are not read strictly);
 * - `log`: fails instead of writing to stdout (which would corrupt
 *   `--format json`);
 * - output over RENDER_LIMIT characters: the render stops as soon as the bound
 *   is passed (nested `#each` over the sub-agents would otherwise take seconds
 *   and gigabytes).
 */
import { handlebars } from '../parse/template.js';

/** Most characters one block may render to (1 MiB of UTF-16 code units): far above any real prompt block. */
export const RENDER_LIMIT = 1024 * 1024;

/** Why a render stopped; `loc` is Handlebars' position in the body (1-based line, 0-based column). */
export class RenderStop extends Error {
  constructor(
    message: string,
    readonly loc: hbs.AST.SourceLocation | undefined,
    readonly kind: 'failure' | 'size' = 'failure',
  ) {
    super(message);
  }
}

/** Why a mustache must not output `value`, or undefined when it may. */
export function renderedAs(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return Array.isArray(value)
    ? 'the value is a list, which would render as its items joined by commas; iterate it with {{#each}}'
    : 'the value is an object, which would render as "[object Object]"; render one of its fields, or iterate it with {{#each}}';
}

/** Why `#each` must not iterate `value`, or undefined when it may (lists, mappings, and nothing at all). */
export function eachTargetProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
  return `{{#each}} over a ${typeof value} (${shown}) renders nothing; iterate a list or a mapping`;
}

const CHECK_HELPER = 'agentc-output-check';

type Instance = ReturnType<typeof import('handlebars')['create']>;
/** The part of Handlebars' helper options these helpers use. */
interface Options {
  fn: (context: unknown, options?: unknown) => string;
  loc?: hbs.AST.SourceLocation;
}

/** A Handlebars environment with agentc's helpers: `each` and `lookup` strict, no `log`, an output check. */
export function createStrictHandlebars(): Instance {
  const hb = handlebars().create();
  // Replaced, not removed: compiled templates call known helpers such as `log` directly.
  hb.registerHelper('log', function (this: unknown, ...args: unknown[]) {
    const options = args[args.length - 1] as Options;
    throw new RenderStop('{{log}} is not available in blocks (it would write to stdout)', options.loc);
  });
  const each = hb.helpers.each as (this: unknown, context: unknown, options: Options) => string;
  hb.registerHelper('each', function (this: unknown, context: unknown, options: Options) {
    const bad = eachTargetProblem(context);
    if (bad) throw new RenderStop(bad, options.loc);
    let produced = 0;
    const fn = (ctx: unknown, o?: unknown): string => {
      const piece = options.fn(ctx, o);
      produced += piece.length;
      if (produced > RENDER_LIMIT) throw new RenderStop('the rendered text passes the size limit', options.loc, 'size');
      return piece;
    };
    try {
      return each.call(this, context, { ...options, fn } as Options);
    } catch (e) {
      // Re-pointed at this block: the outermost {{#each}} that overflowed is the one named.
      if (e instanceof RenderStop && e.kind === 'size') throw new RenderStop(e.message, options.loc, 'size');
      throw e;
    }
  });
  hb.registerHelper('lookup', (obj: unknown, field: unknown, options: Options) => {
    const name = JSON.stringify(String(field));
    if (obj == null) throw new RenderStop(`{{lookup}} of ${name} on a missing value finds nothing`, options.loc);
    if ((typeof obj !== 'object' && typeof obj !== 'string') || !Object.prototype.hasOwnProperty.call(obj, String(field))) {
      throw new RenderStop(`{{lookup}} finds no field ${name} in the value`, options.loc);
    }
    return (obj as Record<string, unknown>)[String(field)];
  });
  hb.registerHelper(CHECK_HELPER, (value: unknown, options: Options) => {
    const bad = renderedAs(value);
    if (bad) throw new RenderStop(bad, options.loc);
    return '';
  });
  return hb;
}

/** Compiles `body` with an output check before every mustache; the result's length is bounded. */
export function compileStrict(hb: Instance, body: string): (context: unknown) => string {
  const ast = hb.parseWithoutProcessing(body);
  addOutputChecks(ast);
  const template = hb.compile(ast as unknown as string, { strict: true, noEscape: true });
  return (context) => {
    const text = template(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
    if (text.length > RENDER_LIMIT) throw new RenderStop('the rendered text passes the size limit', undefined, 'size');
    return text;
  };
}

/**
 * Before each mustache `{{x …}}`, inserts `{{agentc-output-check (x …)}}` (or
 * `{{agentc-output-check x}}` for a plain path) at the same position: same scope,
 * and the mustache itself still reads strictly. Whitespace control (`{{~`) moves
 * to the check, which now sits next to the text it strips.
 */
function addOutputChecks(program: hbs.AST.Program): void {
  const body: hbs.AST.Statement[] = [];
  for (const node of program.body) {
    if (node.type === 'MustacheStatement') {
      const m = node as hbs.AST.MustacheStatement;
      const call = m.params.length > 0 || (m.hash?.pairs.length ?? 0) > 0;
      const value = call ? ({ type: 'SubExpression', path: m.path, params: m.params, hash: m.hash, loc: m.loc } as hbs.AST.SubExpression) : m.path;
      const check = {
        type: 'MustacheStatement',
        path: { type: 'PathExpression', data: false, depth: 0, parts: [CHECK_HELPER], original: CHECK_HELPER, loc: m.loc },
        params: [value],
        hash: undefined,
        escaped: true,
        strip: { open: m.strip?.open ?? false, close: false },
        loc: m.loc,
      } as unknown as hbs.AST.MustacheStatement;
      body.push(check);
    }
    if (node.type === 'BlockStatement') {
      const b = node as hbs.AST.BlockStatement;
      if (b.program) addOutputChecks(b.program);
      if (b.inverse) addOutputChecks(b.inverse);
    }
    body.push(node);
  }
  program.body = body;
}
