/**
 * Per-agent inputs digests: a content hash of everything an agent's bundle entry,
 * its stored form and its block uses are made from (bundle.ts `createAgent`,
 * stored.ts `storeAgent` / `dispatchFacts`), computed from the resolved Program
 * without building the entry. `agentc diff` stores them next to a cached bundle
 * and builds only the agents whose digest changed (src/diff/partial-side.ts).
 *
 * Invariant: equal digests (same agentc build) give byte-equal stored entries
 * and equal block uses. The digest hashes the very values createAgent reads
 * (the card's data, the resolved model id, flags, dispatch settings, each
 * cohort's flags/key/tokens/text and each rendered block's facts and text, each
 * tool's name/description/parameters and its contract or sub-agent card's data,
 * the sub-agents' ids) plus the config and agentc version — never file texts —
 * so whatever resolve derives them from is covered. It is the content-based
 * counterpart of cache.ts `agentInputsKey` (which compares identities within
 * one process). Unequal digests only cost a rebuild of that agent.
 */
import { createHash } from 'node:crypto';
import { compareCodeUnits } from '../bundle/canonical-json.js';
import { BLOCK_SEPARATOR } from '../resolve/index.js';
import type { Agent, Program } from '../resolve/types.js';

/** Per run: the hash of a value's JSON by object identity, a text's hash by content (no module-level memo). */
interface DigestRun {
  json: WeakMap<object, string>;
  texts: Map<string, string>;
}

/** Each agent's inputs digest (hex), by id. */
export function agentDigests(program: Program, agentcVersion: string): Map<string, string> {
  const run: DigestRun = { json: new WeakMap(), texts: new Map() };
  const parsed = program.suffix.parsed;
  const config = sha(`${agentcVersion}\u0000${json(program.config.data)}\u0000${json(parsed.ok ? (parsed.analysis.nodes ?? []) : [])}`);
  const out = new Map<string, string>();
  for (const id of [...program.agents.keys()].sort(compareCodeUnits)) {
    out.set(id, sha(`${config}\u0000${id}\u0000${agentText(run, program.agents.get(id)!)}`));
  }
  return out;
}

/** Everything createAgent reads of one agent, as one string (each part's JSON or text hash). */
function agentText(run: DigestRun, agent: Agent): string {
  const parts: string[] = [
    memoJson(run, agent.card.data),
    json(agent.modelId ?? null),
    json(agent.flags),
    json(agent.dispatch),
    json(agent.subAgents.map((s) => s.data.id)),
  ];
  for (const t of agent.tools) {
    parts.push(
      `T${JSON.stringify([t.kind, t.name, t.description])}${memoJson(run, t.parameters)}`,
      t.tool !== undefined ? memoJson(run, t.tool.data) : '-',
      t.agent !== undefined ? memoJson(run, t.agent.data) : '-',
    );
  }
  for (const c of agent.cohorts) {
    // A text not joined from its blocks (never, as resolve assembles it) is hashed whole.
    parts.push(`C${JSON.stringify([c.flags, c.key, c.tokens])}${joined(c) ? '' : `W${sha(c.text)}`}`);
    // Strings, booleans and integers only: plain JSON tells them apart.
    for (const b of c.blocks) {
      const d = b.block.data;
      parts.push(`B${JSON.stringify([d.id, d.category, d.owner, b.block.file.path, b.required, b.start, b.tokens])}${textHash(run, b.text)}`);
    }
  }
  return parts.join('\u0001');
}

/**
 * Whether a cohort's text is its blocks' texts each followed by BLOCK_SEPARATOR, each
 * at its `start` (Cohort's contract, as resolve assembles it, and as bundle.json
 * requires: the loader joins a prefix that way and checks its sha256), so hashing
 * the blocks' texts covers it. Checked by offsets and lengths (the text is not flattened).
 */
function joined(c: Agent['cohorts'][number]): boolean {
  let at = 0;
  for (const b of c.blocks) {
    if (b.start !== at) return false;
    at += b.text.length + BLOCK_SEPARATOR.length;
  }
  return at === c.text.length;
}

function textHash(run: DigestRun, text: string): string {
  let h = run.texts.get(text);
  if (h === undefined) run.texts.set(text, (h = sha(text)));
  return h;
}

/** The hash of a value's JSON, once per object (an agent's string then holds 64 characters per object, not its JSON). */
function memoJson(run: DigestRun, value: object): string {
  let s = run.json.get(value);
  if (s === undefined) run.json.set(value, (s = sha(json(value))));
  return s;
}

/**
 * JSON of parsed data (plain objects, arrays, strings, numbers, booleans, null: what
 * the parsers make of YAML and JSON files, and what bundle.json holds), telling apart
 * what JSON.stringify writes alike as `null` (non-finite numbers; looked at only when `null` occurs).
 */
function json(value: unknown): string {
  const plain = JSON.stringify(value) ?? 'undefined';
  if (!plain.includes('null')) return plain;
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `\u0000number:${String(v)}` : v));
}

function sha(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
