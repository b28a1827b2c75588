export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `cards/rewards.yaml` → `rewards`. */
export function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export type UnsafeValue = { path: (string | number)[]; kind: 'proto-key' | 'non-finite'; value?: number };

/**
 * Values the later phases cannot carry, found anywhere in parsed data:
 * - a key named `__proto__` below the top level (parsed data holds it as an own
 *   property, but any later `obj[key] = value` copy turns it into a prototype and
 *   the field silently vanishes; the top level is left to schema validation);
 * - a non-finite number (YAML `.inf`, `.nan`, `1e400`; a config's `Infinity`):
 *   JSON Schema `integer` accepts Infinity, and no JSON output can hold it.
 * Shared references are visited once, so cyclic config objects terminate.
 */
export function unsafeValues(value: unknown): UnsafeValue[] {
  const out: UnsafeValue[] = [];
  const seen = new WeakSet<object>();
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) out.push({ path, kind: 'non-finite', value: v });
      return;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isPlainObject(v)) {
      for (const k of Object.keys(v)) {
        if (k === '__proto__' && path.length > 0) out.push({ path: [...path, k], kind: 'proto-key' });
        else walk(v[k], [...path, k]);
      }
    }
  };
  walk(value, []);
  return out;
}
