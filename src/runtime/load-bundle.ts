/**
 * bundle.json (a StoredBundle, format "2") → the Bundle the runtime runs
 * (docs/runtime.md#loading-a-bundle). Also `@agentc/runtime/bundle`, which the
 * generated bundle.ts imports: it loads nothing else of the runtime.
 *
 * Each prefix is joined once here from its blocks' stored texts (each followed
 * by "\n\n") and its SHA-256 is checked against the recorded one. Prefixes that
 * start with the same blocks (every agent starts with the platform's required
 * blocks) share the hash state of that common start, so each byte of a shared
 * start is hashed once per load.
 *
 * Every problem is a BundleLoadError with a `code`: `format` (not a bundle, or a
 * format version this runtime does not know), `shape` (a reference to a text,
 * tool shape or block that is not there), `prefix-hash` (a prefix whose text
 * does not match its recorded sha256: the file was changed after `agentc build`).
 */
import { createHash, type Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  BUNDLE_FORMAT_VERSION,
  type Bundle,
  type BundleAgent,
  type BundlePrefix,
  type StoredAgent,
  type StoredBundle,
  type StoredPrefix,
} from '../bundle/types.js';

export type BundleLoadErrorCode = 'format' | 'shape' | 'prefix-hash';

export class BundleLoadError extends Error {
  override readonly name = 'BundleLoadError';
  constructor(
    readonly code: BundleLoadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const SEPARATOR = '\n\n';

/** A parsed bundle.json → the runtime's Bundle. A Bundle already loaded (or made by `compile`) is returned as it is. */
export function loadBundle(data: unknown): Bundle {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new BundleLoadError('format', 'not an agentc bundle: expected the JSON object agentc build writes to bundle.json');
  }
  const version = (data as { formatVersion?: unknown }).formatVersion;
  if (version !== BUNDLE_FORMAT_VERSION) {
    throw new BundleLoadError(
      'format',
      version === undefined
        ? 'not an agentc bundle: it has no formatVersion'
        : `bundle format ${JSON.stringify(version)} is not supported by this @agentc/runtime (it reads format "${BUNDLE_FORMAT_VERSION}"); rebuild the bundle with the agentc version that matches your @agentc/runtime`,
    );
  }
  if (!('texts' in data)) return data as Bundle;
  return fromStored(data as StoredBundle);
}

/** bundle.json's text → Bundle. */
export function loadBundleJson(text: string): Bundle {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new BundleLoadError('format', `not an agentc bundle: the text is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  return loadBundle(data);
}

/** Reads and loads a bundle.json file (a path or a file: URL). */
export function readBundle(path: string | URL): Bundle {
  return loadBundleJson(readFileSync(path, 'utf8'));
}

function fromStored(stored: StoredBundle): Bundle {
  const { texts: storedTexts, toolShapes, blocks, agents: storedAgents, ...top } = stored;
  if (!isRecord(storedTexts) || !isRecord(toolShapes) || !isRecord(blocks) || !isRecord(storedAgents)) {
    throw new BundleLoadError('format', 'not an agentc bundle: texts, toolShapes, blocks and agents must be objects');
  }
  const texts = new Map<string, string>();
  const textOf = (key: string, where: string): string => {
    let text = texts.get(key);
    if (text === undefined) {
      const lines = Object.hasOwn(storedTexts, key) ? storedTexts[key] : undefined;
      if (!Array.isArray(lines)) throw new BundleLoadError('shape', `${where} refers to the text "${key}", which the bundle does not hold`);
      texts.set(key, (text = lines.join('\n')));
    }
    return text;
  };
  const states = new Map<string, Hash>();
  const agents: Record<string, BundleAgent> = {};
  for (const id of Object.keys(storedAgents)) {
    const a = storedAgents[id] as StoredAgent;
    const where = `agent "${id}"`;
    if (!isRecord(a) || !Array.isArray(a.tools) || !Array.isArray(a.prefixes)) throw new BundleLoadError('shape', `${where} is not an agent entry`);
    const shapes = a.tools.map((key) => {
      const shape = Object.hasOwn(toolShapes, key) ? toolShapes[key] : undefined;
      if (shape === undefined || !isRecord(shape))
        throw new BundleLoadError('shape', `${where} refers to the tool shape "${key}", which the bundle does not hold`);
      return shape;
    });
    const entry = {
      ...a,
      suffix_template: a.suffix_template ?? top.dynamicContext.template,
      suffix_ast: a.suffix_ast ?? top.dynamicContextAst,
      tools: {
        anthropic: shapes.map((s) => s.anthropic ?? { description: s.neutral.description, input_schema: s.neutral.parameters, name: s.neutral.name }),
        neutral: shapes.map((s) => s.neutral),
        openai: shapes.map((s) => s.openai),
      },
      prefixes: a.prefixes.map((p) => prefix(p, `${where}, cohort "${p.key}"`, textOf, blocks, states)),
    } as BundleAgent;
    Object.defineProperty(agents, id, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  return { ...top, agents } as Bundle;
}

function prefix(
  p: StoredPrefix,
  where: string,
  textOf: (key: string, where: string) => string,
  blocks: StoredBundle['blocks'],
  states: Map<string, Hash>,
): BundlePrefix {
  if (!isRecord(p) || !Array.isArray(p.blocks)) throw new BundleLoadError('shape', `${where} is not a prefix entry`);
  let text = '';
  let path = '';
  let hash: Hash | undefined;
  let shared = true;
  const out: BundlePrefix['blocks'] = [];
  for (const b of p.blocks) {
    const key = b.text ?? b.id;
    const info = Object.hasOwn(blocks, b.id) ? blocks[b.id] : undefined;
    if (info === undefined || !isRecord(info)) throw new BundleLoadError('shape', `${where} uses the block "${b.id}", which the bundle does not describe`);
    const body = textOf(key, where);
    out.push({
      category: info.category,
      file: info.file,
      id: b.id,
      length: body.length,
      owner: info.owner,
      required: info.required,
      start: text.length,
      tokens: b.tokens,
    });
    text += body + SEPARATOR;
    // Hash states by the sequence of text keys so far: a common start is hashed once.
    path += `${key}\u0000`;
    const known = shared ? states.get(path) : undefined;
    if (known !== undefined) {
      hash = known;
      continue;
    }
    if (shared && hash !== undefined) hash = hash.copy();
    shared = false;
    hash ??= createHash('sha256');
    hash.update(body, 'utf8').update(SEPARATOR, 'utf8');
    states.set(path, hash.copy());
  }
  const digest = (hash ?? createHash('sha256')).copy().digest('hex');
  if (digest !== p.sha256) {
    throw new BundleLoadError(
      'prefix-hash',
      `${where}: the prefix's sha256 is ${digest}, but the bundle records ${String(p.sha256)}; the bundle was changed after agentc build (rebuild it)`,
    );
  }
  return { blocks: out, cohort: p.cohort, key: p.key, sha256: p.sha256, text, tokens: p.tokens };
}

function isRecord(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
