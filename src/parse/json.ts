/**
 * Strict JSON (RFC 8259) syntax check, for `.json` tool contracts, by Microsoft's
 * `jsonc-parser` with comments and trailing commas disallowed. The contracts are
 * parsed as YAML 1.2 for positions afterwards, but YAML accepts what JSON does
 * not (trailing commas, comments, unquoted strings such as `tru`): this finds
 * the first JSON error, where the parser saw it, and says it in JSON's terms.
 *
 * Nesting is measured first with the library's (iterative) scanner: its parser
 * recurses once per level, so deep input is refused before it is parsed.
 */
import { createScanner, ParseErrorCode, SyntaxKind, visit } from 'jsonc-parser';
import { MAX_FLOW_DEPTH } from './yaml.js';

export interface JsonSyntaxError {
  message: string;
  /** 0-based offset of the offending token (text.length at end of input). */
  offset: number;
  /** Its length (at least 1, except at the end of the input). */
  length: number;
}

const OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** What the parser expects next, from its events: the wording of an error depends on it. */
type Expecting = 'value' | 'property' | 'colon' | 'separator' | 'end';

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const deep = tooDeep(text);
  if (deep) return deep;
  let first: JsonSyntaxError | undefined;
  const stack: ('{' | '[')[] = [];
  let expecting: Expecting = 'value';
  let comma: number | undefined;
  const valueDone = () => {
    expecting = stack.length === 0 ? 'end' : 'separator';
    comma = undefined;
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        stack.push('{');
        expecting = 'property';
        comma = undefined;
      },
      onArrayBegin: () => {
        stack.push('[');
        expecting = 'value';
        comma = undefined;
      },
      onObjectEnd: () => {
        stack.pop();
        valueDone();
      },
      onArrayEnd: () => {
        stack.pop();
        valueDone();
      },
      onObjectProperty: () => {
        expecting = 'colon';
        comma = undefined;
      },
      onLiteralValue: valueDone,
      onSeparator: (c, offset) => {
        if (c === ':') expecting = 'value';
        else {
          expecting = stack[stack.length - 1] === '{' ? 'property' : 'value';
          comma = offset;
        }
      },
      onError: (code, offset, length) => {
        first ??= describe(text, code, offset, length, { expecting, comma, top: stack[stack.length - 1] });
      },
    },
    OPTIONS,
  );
  return first;
}

function describe(
  text: string,
  code: ParseErrorCode,
  offset: number,
  length: number,
  at: { expecting: Expecting; comma: number | undefined; top: '{' | '[' | undefined },
): JsonSyntaxError {
  const found = offset >= text.length ? 'the end of the file' : `'${text[offset]}'`;
  const quotes = text[offset] === "'" ? ' (JSON strings use double quotes)' : '';
  const err = (message: string, o = offset, l = length): JsonSyntaxError => ({ message, offset: o, length: o >= text.length ? 0 : Math.max(1, l) });
  const close = text[offset] === '}' || text[offset] === ']' ? text[offset] : undefined;
  const afterMember = (top: '{' | '[' | undefined) =>
    top === '[' ? `expected ',' or ']' after an array element but found ${found}` : `expected ',' or '}' after a property value but found ${found}`;
  switch (code) {
    case ParseErrorCode.ValueExpected:
    case ParseErrorCode.PropertyNameExpected:
    case ParseErrorCode.InvalidSymbol:
      if (at.comma !== undefined && close === (at.top === '{' ? '}' : ']'))
        return err(`a trailing comma before '${close}' is not allowed in JSON`, at.comma, 1);
      if (at.expecting === 'end') return err(`unexpected ${found} after the end of the JSON value`);
      if (at.expecting === 'separator') return err(afterMember(at.top));
      if (at.expecting === 'property') return err(`expected a property name in double quotes but found ${found}${quotes}`);
      return err(`expected a value but found ${found}${quotes}`);
    case ParseErrorCode.ColonExpected:
      return err(`expected ':' after a property name but found ${found}`);
    case ParseErrorCode.CommaExpected:
      return err(afterMember(at.top));
    case ParseErrorCode.CloseBraceExpected:
      return err(afterMember('{'));
    case ParseErrorCode.CloseBracketExpected:
      return err(afterMember('['));
    case ParseErrorCode.EndOfFileExpected:
      return err(`unexpected ${found} after the end of the JSON value`);
    case ParseErrorCode.InvalidCommentToken:
      return err('comments are not allowed in JSON');
    case ParseErrorCode.UnexpectedEndOfComment:
      return err('a comment is never closed');
    case ParseErrorCode.UnexpectedEndOfString:
      return text[offset + length] === '\n' ? err('a string is not closed before the end of the line') : err('a string is never closed');
    case ParseErrorCode.UnexpectedEndOfNumber:
      return err('a number ends too early');
    case ParseErrorCode.InvalidNumberFormat:
      return err('an invalid number');
    case ParseErrorCode.InvalidUnicode:
      return err('invalid \\u escape in a string');
    case ParseErrorCode.InvalidEscapeCharacter:
      return err('invalid escape in a string');
    case ParseErrorCode.InvalidCharacter:
      return err('a control character in a string must be escaped');
  }
}

/** The first `{` / `[` nested deeper than MAX_FLOW_DEPTH, found with the library's scanner. */
function tooDeep(text: string): JsonSyntaxError | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_FLOW_DEPTH) return { message: `nested deeper than ${MAX_FLOW_DEPTH} levels`, offset: scanner.getTokenOffset(), length: 1 };
    } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) depth = Math.max(0, depth - 1);
  }
  return undefined;
}
