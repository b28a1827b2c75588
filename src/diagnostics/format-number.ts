/**
 * The one number format of everything agentc prints for people (diagnostics,
 * hints, reports, token tables, summaries): integers grouped by thousands with
 * commas, "8,000". Locale-independent on purpose (toLocaleString depends on the
 * machine's ICU data and locale: not deterministic). Machine formats (JSON,
 * SARIF, generated code) keep plain numbers.
 */

/** 1234567 → "1,234,567"; a non-integer is printed as is. */
export function formatInt(n: number): string {
  if (!Number.isInteger(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const digits = String(Math.abs(n));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
