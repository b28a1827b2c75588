export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `cards/rewards.yaml` → `rewards`. */
export function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Paths of mapping keys named `__proto__` below the top level. Parsed data holds
 * them as own properties, but any later `obj[key] = value` copy turns them into a
 * prototype (the field silently vanishes), so they are refused at parse time.
 * The top level is left to schema validation (an unknown field there).
 */
export function reservedKeyPaths(value: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isPlainObject(v)) {
      for (const k of Object.keys(v)) {
        if (k === '__proto__' && path.length > 0) out.push([...path, k]);
        else walk(v[k], [...path, k]);
      }
    }
  };
  walk(value, []);
  return out;
}
