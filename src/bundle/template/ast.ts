/**
 * The template language's syntax tree: the documented subset of Handlebars that
 * prompt blocks and the config's `dynamicContext.template` are written in.
 * Built by the parse phase from Handlebars' public parser (`src/parse/template.ts`),
 * read by the one interpreter (`./interpret.ts`) at build time and, for the
 * suffix, by the runtime (the bundle carries it). Plain JSON: no functions, no
 * `undefined`, no Handlebars types.
 *
 * Positions are Handlebars' own: 1-based line, 0-based column, relative to the
 * template's first character.
 */

export interface TemplatePosition {
  line: number;
  column: number;
}

export interface TemplateLoc {
  start: TemplatePosition;
  end: TemplatePosition;
}

/** Text (escapes and whitespace control already applied), a printed value, or a block. */
export type TemplateNode = TemplateText | TemplateOutput | TemplateBlock;

export interface TemplateText {
  type: 'text';
  value: string;
}

/** `{{path}}`, `{{{path}}}` or `{{lookup value key}}`: prints a scalar (unescaped). */
export interface TemplateOutput {
  type: 'output';
  value: TemplateExpr;
  loc: TemplateLoc;
}

/** `{{#if p}}…{{else}}…{{/if}}` and `unless`, `each`, `with`; `{{else if q}}` is a block in `inverse`. */
export interface TemplateBlock {
  type: 'block';
  helper: 'if' | 'unless' | 'each' | 'with';
  param: TemplatePath;
  /** `as |item index|` (each, with). */
  blockParams: string[];
  body: TemplateNode[];
  inverse: TemplateNode[];
  loc: TemplateLoc;
}

export type TemplateExpr = TemplatePath | TemplateLiteral | TemplateLookup;

/** `a.b`, `this`, `../x`, `@index`, `@root.x`, a block param. */
export interface TemplatePath {
  type: 'path';
  /** As written, e.g. `../agent.id`, `@root.flags`. */
  original: string;
  /** Segments after `this` / `../` / `@` are stripped. */
  parts: string[];
  /** How many `../` the path climbs. */
  depth: number;
  /** `@index`, `@root.x`, … */
  data: boolean;
  /** Explicitly scoped (`this`, `.`, `this.x`, `./x`): never a block param. */
  scoped: boolean;
  loc: TemplateLoc;
}

/** A string, number, boolean or null argument of `lookup`. */
export interface TemplateLiteral {
  type: 'literal';
  value: string | number | boolean | null;
  loc: TemplateLoc;
}

/** `lookup value key`: the own field `key` of `value`. */
export interface TemplateLookup {
  type: 'lookup';
  object: TemplateExpr;
  key: TemplateExpr;
  loc: TemplateLoc;
}
