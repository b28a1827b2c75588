/**
 * Loads an optional store driver on first use (dynamic import), so the runtime
 * package needs neither `better-sqlite3` nor `redis` unless that store is used.
 *
 * Invariant: a missing driver is a SessionStoreError naming the package to
 * install — never a bare module-resolution error.
 */
export class SessionStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SessionStoreError';
  }
}

export async function loadDriver<T>(pkg: string, store: string): Promise<T> {
  const specifier: string = pkg; // a variable: tsc must not resolve optional drivers
  try {
    const mod = (await import(specifier)) as { default?: T } & T;
    return (mod.default ?? mod) as T;
  } catch (e) {
    throw new SessionStoreError(`The ${store} session store needs the optional package "${pkg}": npm install ${pkg}`, { cause: e });
  }
}
