/**
 * Zod expressions (as ts-morph nodes) → JSON Schema, statically. Supported:
 * z.object, z.string, z.number (+ .int()), z.boolean, z.enum, z.array (and
 * .array()), z.literal, .optional(), .nullable(), .nullish(), .describe(),
 * .default(), .min/.max/.length on strings, numbers and arrays. Invariant:
 * anything else yields an `unsupported` entry naming the construct, never a
 * guessed schema.
 */
import type { Expression, Node as TsNode } from 'ts-morph';
import type { JsonSchema } from '../types.js';

type TsMorph = typeof import('ts-morph');

export interface ZodResult {
  schema: JsonSchema | undefined;
  /** Whether the value may be omitted (an object property not in `required`). */
  optional: boolean;
  unsupported: string[];
}

export interface ZodContext {
  tm: TsMorph;
  /** Follows an identifier to the expression it is bound to (same project), if any. */
  resolve: (node: TsNode) => Expression | undefined;
}

export function zodToJsonSchema(expr: Expression, ctx: ZodContext): ZodResult {
  const unsupported: string[] = [];
  const r = convert(expr, ctx, unsupported, 0);
  return { schema: unsupported.length > 0 ? undefined : r.schema, optional: r.optional, unsupported };
}

interface Conv {
  schema: JsonSchema;
  optional: boolean;
}

function convert(node: Expression, ctx: ZodContext, out: string[], depth: number): Conv {
  const { Node } = ctx.tm;
  const fail = (what: string): Conv => {
    out.push(what);
    return { schema: {}, optional: false };
  };
  if (depth > 50) return fail('a zod schema nested more than 50 levels deep');
  if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node))
    return convert(node.getExpression(), ctx, out, depth + 1);
  if (Node.isIdentifier(node)) {
    const target = ctx.resolve(node);
    return target ? convert(target, ctx, out, depth + 1) : fail(`"${node.getText()}", which cannot be followed statically`);
  }
  if (!Node.isCallExpression(node)) return fail(`"${short(node.getText())}" (not a zod call)`);
  const callee = node.getExpression();
  const args = node.getArguments() as Expression[];
  if (!Node.isPropertyAccessExpression(callee)) return fail(`"${short(node.getText())}" (not a zod call)`);
  const method = callee.getName();
  const target = callee.getExpression();
  // z.<factory>(…)
  if (Node.isIdentifier(target) && target.getText() === 'z') return factory(method, args, node.getText(), ctx, out, depth);
  // <schema>.<modifier>(…)
  const inner = convert(target, ctx, out, depth + 1);
  const s = inner.schema;
  switch (method) {
    case 'optional':
      return { schema: s, optional: true };
    case 'nullable':
      return { schema: nullable(s), optional: inner.optional };
    case 'nullish':
      return { schema: nullable(s), optional: true };
    case 'describe': {
      const text = stringLiteral(args[0], ctx);
      if (text === undefined) return fail(`.describe() with an argument that is not a string literal`);
      return { schema: { ...s, description: text }, optional: inner.optional };
    }
    case 'default': {
      const v = literalValue(args[0], ctx);
      if (v === undefined) return fail(`.default() with a value that is not a literal`);
      return { schema: { ...s, default: v }, optional: true };
    }
    case 'int':
      return { schema: { ...s, type: 'integer' }, optional: inner.optional };
    case 'array':
      return { schema: { type: 'array', items: s }, optional: false };
    case 'min':
    case 'max':
    case 'length': {
      const n = literalValue(args[0], ctx);
      if (typeof n !== 'number') return fail(`.${method}() with a value that is not a number literal`);
      const t = s.type;
      const kw =
        t === 'string'
          ? ['minLength', 'maxLength']
          : t === 'array'
            ? ['minItems', 'maxItems']
            : t === 'number' || t === 'integer'
              ? ['minimum', 'maximum']
              : undefined;
      if (!kw) return fail(`.${method}() on a schema that is not a string, number or array`);
      const extra = method === 'length' ? { [kw[0]!]: n, [kw[1]!]: n } : { [method === 'min' ? kw[0]! : kw[1]!]: n };
      return { schema: { ...s, ...extra }, optional: inner.optional };
    }
    default:
      return fail(`.${method}()`);
  }
}

function factory(method: string, args: Expression[], text: string, ctx: ZodContext, out: string[], depth: number): Conv {
  const { Node } = ctx.tm;
  const ok = (schema: JsonSchema): Conv => ({ schema, optional: false });
  switch (method) {
    case 'string':
      return ok({ type: 'string' });
    case 'number':
      return ok({ type: 'number' });
    case 'boolean':
      return ok({ type: 'boolean' });
    case 'literal': {
      const v = literalValue(args[0], ctx);
      if (v === undefined) break;
      return ok({ const: v });
    }
    case 'enum': {
      let arr: TsNode | undefined = args[0];
      if (arr && Node.isIdentifier(arr)) arr = ctx.resolve(arr) ?? arr;
      if (arr && Node.isAsExpression(arr)) arr = arr.getExpression();
      if (!arr || !Node.isArrayLiteralExpression(arr)) break;
      const values = arr.getElements().map((e) => stringLiteral(e as Expression, ctx));
      if (values.some((v) => v === undefined)) break;
      return ok({ type: 'string', enum: values });
    }
    case 'array': {
      if (!args[0]) break;
      const items = convert(args[0], ctx, out, depth + 1);
      return ok({ type: 'array', items: items.schema });
    }
    case 'object': {
      let shape: TsNode | undefined = args[0];
      if (shape && Node.isIdentifier(shape)) shape = ctx.resolve(shape) ?? shape;
      if (!shape || !Node.isObjectLiteralExpression(shape)) break;
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const p of shape.getProperties()) {
        if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) {
          out.push(`"${short(p.getText())}" in z.object (spread or method)`);
          continue;
        }
        const key = propName(p.getNameNode());
        const value = Node.isPropertyAssignment(p) ? p.getInitializer() : p.getNameNode();
        if (key === undefined || !value) {
          out.push(`a computed property name in z.object`);
          continue;
        }
        const c = convert(value as Expression, ctx, out, depth + 1);
        properties[key] = c.schema;
        if (!c.optional) required.push(key);
      }
      const schema: JsonSchema = { type: 'object', properties };
      if (required.length > 0) schema.required = required;
      schema.additionalProperties = false;
      return ok(schema);
    }
  }
  out.push(`"${short(text)}"`);
  return { schema: {}, optional: false };
}

function nullable(s: JsonSchema): JsonSchema {
  if (typeof s.type === 'string') {
    const n: JsonSchema = { ...s, type: [s.type, 'null'] };
    if (Array.isArray(s.enum)) n.enum = [...(s.enum as unknown[]), null];
    return n;
  }
  return { anyOf: [s, { type: 'null' }] };
}

function propName(n: TsNode): string | undefined {
  const text = n.getText();
  if (/^[A-Za-z_$][\w$]*$/.test(text)) return text;
  const m = /^(['"])(.*)\1$/.exec(text);
  return m ? m[2] : undefined;
}

export function stringLiteral(e: Expression | undefined, ctx: ZodContext): string | undefined {
  const v = literalValue(e, ctx);
  return typeof v === 'string' ? v : undefined;
}

/** A string / number / boolean / null literal (following identifiers to consts). */
export function literalValue(e: TsNode | undefined, ctx: ZodContext): string | number | boolean | null | undefined {
  const { Node } = ctx.tm;
  if (!e) return undefined;
  if (Node.isStringLiteral(e) || Node.isNoSubstitutionTemplateLiteral(e)) return e.getLiteralValue();
  if (Node.isNumericLiteral(e)) return e.getLiteralValue();
  if (Node.isTrueLiteral(e)) return true;
  if (Node.isFalseLiteral(e)) return false;
  if (Node.isNullLiteral(e)) return null;
  if (Node.isPrefixUnaryExpression(e) && e.getOperatorToken() === ctx.tm.SyntaxKind.MinusToken) {
    const v = literalValue(e.getOperand(), ctx);
    return typeof v === 'number' ? -v : undefined;
  }
  if (Node.isIdentifier(e)) {
    const t = ctx.resolve(e);
    return t ? literalValue(t, ctx) : undefined;
  }
  return undefined;
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
