/**
 * Locale-independent number formatting for generated files and reports
 * (toLocaleString depends on the machine's ICU data and locale: not deterministic).
 */

import { formatInt } from '../diagnostics/format-number.js';

export { formatInt };

/** part/whole as a percentage with one decimal ("12.5%"); "<0.1%" for small non-zero shares. */
export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return 'n/a';
  const pct = (part / whole) * 100;
  if (pct > 0 && pct < 0.1) return '<0.1%';
  return `${(Math.round(pct * 10) / 10).toFixed(1)}%`;
}

/** Left-aligned columns separated by two spaces; `right` marks right-aligned columns. */
export function formatTable(rows: string[][], right: ReadonlySet<number> = new Set()): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** US dollars: "$1,234.50" from $1 up, "$0.42" from a cent, four decimals below ("$0.0008"). */
export function formatUsd(n: number): string {
  if (n >= 1) {
    const cents = Math.round(n * 100);
    return `$${formatInt(Math.trunc(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
  }
  return `$${n.toFixed(n >= 0.01 || n === 0 ? 2 : 4)}`;
}
