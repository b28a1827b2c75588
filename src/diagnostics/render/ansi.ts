/**
 * Minimal ANSI styling. A `Paint` built with `color: false` returns its input
 * unchanged, so renderers call it unconditionally and stay byte-identical
 * without colour.
 */
export interface Paint {
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  grey(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`);

const COLORED: Paint = {
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  grey: wrap(90, 39),
  bold: wrap(1, 22),
};

const identity = (s: string) => s;
const PLAIN: Paint = { red: identity, yellow: identity, cyan: identity, grey: identity, bold: identity };

export function paint(color: boolean): Paint {
  return color ? COLORED : PLAIN;
}

/**
 * Makes user-controlled text safe to print to a terminal: C0/C1 control
 * characters (ESC included, so no escape sequence from a workspace file can reach
 * the terminal) become U+FFFD; tab and newline are kept.
 */
export function sanitize(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '\uFFFD');
}
