/**
 * The reference the template language is tested against: Handlebars 4 itself
 * ({ strict: true, noEscape: true }) with agentc's strict additions as helpers —
 * no object or list output, no `#each` over a scalar, a strict `lookup`, no `log`,
 * the output bounded by RENDER_LIMIT. Test-only: agentc renders with its own
 * interpreter (src/bundle/template/interpret.ts), which must agree with this.
 */
import Handlebars from 'handlebars';
import { eachTargetProblem, RENDER_LIMIT, renderedAs, RenderStop } from '../../src/bundle/template/interpret.js';

const CHECK_HELPER = 'agentc-output-check';

type Instance = ReturnType<typeof Handlebars.create>;
/** The part of Handlebars' helper options these helpers use. */
interface Options {
  fn: (context: unknown, options?: unknown) => string;
  loc?: hbs.AST.SourceLocation;
}

/** A Handlebars environment with agentc's helpers: `each` and `lookup` strict, no `log`, an output check. */
export function createStrictHandlebars(): Instance {
  const hb = Handlebars.create();
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
