/**
 * Message templates: `{key}` placeholders (a key is letters, digits and _) filled
 * from structured data. The types below read a template's placeholders from its
 * string literal type, so a call site that passes a missing, extra or misspelled
 * key does not compile. Other braces (Handlebars `{{x}}`, `{ … }`) are text.
 */

import { formatInt } from './format-number.js';

type IdentChar =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z'
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '_';

type IsIdent<S extends string> = S extends `${infer C}${infer Rest}` ? (C extends IdentChar ? (Rest extends '' ? true : IsIdent<Rest>) : false) : false;

/** The placeholder names of a template literal type. */
export type Placeholders<S extends string> = S extends `${string}{${infer K}}${infer Rest}`
  ? K extends `${string}{${infer Inner}`
    ? Placeholders<`{${Inner}}${Rest}`>
    : (IsIdent<K> extends true ? K : never) | Placeholders<Rest>
  : never;

/** A placeholder's value: text or a number, printed as is. */
export type TemplateValue = string | number;

/** The data a template needs: exactly its placeholders. */
export type TemplateData<S extends string> = { readonly [K in Placeholders<S>]: TemplateValue };

/** `{ data }` when the template has placeholders, `{ data? }` (empty) when it has none. */
export type DataField<S extends string> = [Placeholders<S>] extends [never] ? { data?: Readonly<Record<string, never>> } : { data: TemplateData<S> };

const PLACEHOLDER = /\{(\w+)\}/g;

/** Placeholder names of a template, in order of first appearance. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * Fills `{key}` placeholders; a key the data lacks stays visible so a bad call is
 * noticed. Numbers print in the one number format ("8,000"). A value that ends a sentence the template already ends (`{reason}.`)
 * loses its own final period, so library text never doubles it.
 */
export function fillTemplate(template: string, data: Readonly<Record<string, unknown>>): string {
  return template.replace(PLACEHOLDER, (whole, key: string, offset: number) => {
    if (!Object.prototype.hasOwnProperty.call(data, key)) return whole;
    const raw = data[key];
    // Numbers in the one number format people read ("8,000").
    const value = typeof raw === 'number' ? formatInt(raw) : String(raw);
    return template.charAt(offset + whole.length) === '.' ? value.replace(/\.+$/, '') : value;
  });
}
