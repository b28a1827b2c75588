/**
 * Strict JSON (RFC 8259) syntax check, for `.json` tool contracts. They are
 * parsed as YAML 1.2 for positions, but YAML accepts what JSON does not
 * (trailing commas, comments, unquoted strings such as `tru`): this finds the
 * first JSON error and where it is, with a message in JSON's own terms.
 *
 * Only syntax: no values are built. Iterative over nesting, so deep input
 * cannot overflow the stack.
 */
export interface JsonSyntaxError {
  message: string;
  /** 0-based offset of the offending character (text.length at end of input). */
  offset: number;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const LITERAL = /^(true|false|null)/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/;

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const fail = (message: string, offset = i): JsonSyntaxError => ({ message, offset });
  const found = (): string => (i >= text.length ? 'the end of the file' : `'${text[i]}'`);

  /** Reads one scalar or opens a container; returns an error, or the container opened ('{' / '['), or undefined. */
  const value = (): JsonSyntaxError | '{' | '[' | undefined => {
    skip();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      return c;
    }
    if (c === '"') return string();
    const lit = LITERAL.exec(text.slice(i, i + 5));
    if (lit) {
      i += lit[0].length;
      return undefined;
    }
    const num = c === '-' || (c !== undefined && c >= '0' && c <= '9') ? NUMBER.exec(text.slice(i, i + 400)) : null;
    if (num) {
      i += num[0].length;
      return undefined;
    }
    return fail(`expected a value but found ${found()}${c === "'" ? ' (JSON strings use double quotes)' : ''}`);
  };

  const string = (): JsonSyntaxError | undefined => {
    const start = i;
    i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('invalid \\u escape in a string');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return fail('invalid escape in a string');
        i += 2;
        continue;
      }
      if (c < ' ') return fail(c === '\n' ? 'a string is not closed before the end of the line' : 'a control character in a string must be escaped');
      i++;
    }
    return fail('a string is never closed', start);
  };

  const stack: ('{' | '[')[] = [];
  /** After an opening brace/bracket, or after a comma (at offset `comma`) inside one. */
  const member = (comma: number | undefined): JsonSyntaxError | undefined => {
    const top = stack[stack.length - 1]!;
    skip();
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      if (comma !== undefined) return fail(`a trailing comma before '${close}' is not allowed in JSON`, comma);
      stack.pop();
      i++;
      return undefined;
    }
    if (top === '{') {
      if (text[i] !== '"') return fail(`expected a property name in double quotes but found ${found()}`);
      const e = string();
      if (e) return e;
      skip();
      if (text[i] !== ':') return fail(`expected ':' after a property name but found ${found()}`);
      i++;
    }
    const v = value();
    if (typeof v === 'object') return v;
    if (v) stack.push(v);
    return undefined;
  };

  const first = value();
  if (typeof first === 'object') return first;
  if (first) stack.push(first);
  let opened = first !== undefined;
  while (stack.length > 0) {
    if (opened) {
      opened = false;
      const depth = stack.length;
      const e = member(undefined);
      if (e) return e;
      if (stack.length > depth) opened = true;
      continue;
    }
    skip();
    const top = stack[stack.length - 1]!;
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      stack.pop();
      i++;
      continue;
    }
    if (text[i] !== ',') return fail(`expected ',' or '${close}' after ${top === '{' ? 'a property value' : 'an array element'} but found ${found()}`);
    const comma = i++;
    const depth = stack.length;
    const e = member(comma);
    if (e) return e;
    if (stack.length > depth) opened = true;
  }
  skip();
  if (i < text.length) return fail(`unexpected ${found()} after the end of the JSON value`);
  return undefined;
}
