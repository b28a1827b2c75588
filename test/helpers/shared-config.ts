/**
 * Config evaluations shared between in-process CLI runs (CliIO.compileCache): a config
 * evaluated by the real loader (the config worker) is reused by later runs whose config
 * text is the same — the copies of the example workspace most tests make — as a watch
 * session reuses it. The compile re-checks the entry on use (its text, the files the
 * config read, the environment variables it read); an entry is kept only when the
 * config loaded and read no file inside its own workspace other than itself, so a copy
 * with other files beside the config never sees another copy's.
 *
 * An explicit registry of this test helper, per worker; src keeps no module state.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createCompileCache, type CompileCache } from '../../src/compile.js';
import { CONFIG_NAMES } from '../../src/load/workspace.js';

type Evaluated = NonNullable<CompileCache['config']>;

/** Evaluated configs by config text. */
const evaluated = new Map<string, Evaluated>();

function configText(root: string): string | undefined {
  const name = CONFIG_NAMES.find((n) => existsSync(join(root, n)));
  if (name === undefined) return undefined;
  try {
    return readFileSync(join(root, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether an evaluation may serve other workspaces: it loaded, and read nothing of its own workspace but the config. */
function shareable(entry: Evaluated, root: string): boolean {
  if (entry.inputs === undefined || entry.load.error !== undefined || entry.load.file === undefined) return false;
  const own = join(root, entry.load.file.path);
  return Object.keys(entry.inputs.files).every((f) => f === own || relative(root, f).startsWith(`..${sep}`));
}

/**
 * A `CliIO.compileCache` for one run, and `settle()` to call after it: each cache handed
 * out starts from the evaluation of the same config text, if one is known; afterwards a
 * shareable evaluation it made is kept for the next runs.
 */
export function sharedConfigs(): { compileCache: (root: string) => CompileCache; settle: () => void } {
  const made: [string, CompileCache][] = [];
  return {
    compileCache(root) {
      const cache = createCompileCache();
      const text = configText(root);
      const known = text === undefined ? undefined : evaluated.get(text);
      if (known) cache.config = known;
      made.push([root, cache]);
      return cache;
    },
    settle() {
      for (const [root, cache] of made) if (cache.config && shareable(cache.config, root)) evaluated.set(cache.config.text, cache.config);
    },
  };
}

/**
 * A `CliIO.compileCache` for any number of runs, for an io object made once: each call first keeps
 * what the earlier runs evaluated (their `settle`), then hands out a seeded cache as `sharedConfigs` does.
 */
export function sharedCompileCache(): (root: string) => CompileCache {
  const configs = sharedConfigs();
  return (root) => {
    configs.settle();
    return configs.compileCache(root);
  };
}
