#!/usr/bin/env node
// Synthetic workspace generator for the benchmarks (deterministic: a seeded PRNG,
// never Math.random; same options → byte-identical files).
//
//   node bench/synth.mjs [--out DIR] [--cards N] [--blocks N] [--tools N] [--orchestrators N] [--seed N]
//
// Shape (defaults: 1,000 cards, 3,000 blocks, 200 tools, 20 top-level orchestrators):
// - a three-level, acyclic sub-agent graph: top-level orchestrators route to
//   team desks (role orchestrator, up to 9 sub-agents each), desks route to the
//   team's specialists; a few specialists are also listed by a second parent
//   (a DAG, not a tree). Every non-orchestrator has a parent, and every card's
//   max_recursion_depth equals the real depth below it. With at most 9 sub-agents
//   per card, 20 orchestrators alone cannot reach 980 cards, hence the desks.
// - 3 required platform blocks, 10 shared blocks (platform-owned or reusable)
//   used by many cards, one team-wide context block per team, the rest owned by
//   one card each; 3 feature flags on a few blocks;
// - bodies of 150–600 words of prose; some blocks read {{agent.id}},
//   {{#each sub_agents}} and {{dispatch.fan_out_cap}};
// - budgets sized so that `agentc check` is clean (no errors, no warnings).
//
// The workspace directory is replaced as a whole; it must be empty, absent, or
// hold a previous generator's .synth.json stamp.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { blurb, NOUNS, prose } from './prose.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Bump when the output changes in a way the source hash would not show (it always does today). */
export const GENERATOR_VERSION = 1;
export const STAMP_FILE = '.synth.json';
export const DEFAULT_OUT = join(here, '.work', 'ws');
export const FULL = { cards: 1000, blocks: 3000, tools: 200, orchestrators: 20, seed: 1 };

/** Version of the generator: the constant plus a hash of its sources (a stale workspace is regenerated). */
export function generatorVersion() {
  const h = createHash('sha256');
  for (const f of ['synth.mjs', 'prose.mjs']) h.update(readFileSync(join(here, f)));
  return `${GENERATOR_VERSION}-${h.digest('hex').slice(0, 12)}`;
}

export function resolveOptions(opts = {}) {
  const cards = opts.cards ?? FULL.cards;
  return {
    cards,
    blocks: opts.blocks ?? cards * 3,
    tools: opts.tools ?? Math.max(3, Math.round(cards / 5)),
    orchestrators: opts.orchestrators ?? Math.max(1, Math.round(cards / 50)),
    seed: opts.seed ?? FULL.seed,
  };
}

// ---------------------------------------------------------------------------
// PRNG (sfc32, seeded through splitmix32)

export function rng(seed) {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  let a = split(),
    b = split(),
    c = split(),
    d = split();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    shuffle: (xs) => {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    weighted: (pairs) => {
      const total = pairs.reduce((s, [, w]) => s + w, 0);
      let x = next() * total;
      for (const [v, w] of pairs) if ((x -= w) < 0) return v;
      return pairs[pairs.length - 1][0];
    },
  };
  return r;
}

/** `total` split into `parts` sizes within [min, max], randomly uneven. */
function partition(r, total, parts, min, max) {
  if (parts * min > total || parts * max < total) throw new Error(`cannot split ${total} into ${parts} parts of ${min}..${max}`);
  const sizes = Array(parts).fill(Math.floor(total / parts));
  for (let i = 0; i < total % parts; i++) sizes[i]++;
  for (let k = 0; k < parts * 4; k++) {
    const i = r.int(0, parts - 1);
    const j = r.int(0, parts - 1);
    if (i !== j && sizes[i] > min && sizes[j] < max) {
      sizes[i]--;
      sizes[j]++;
    }
  }
  return sizes;
}

// ---------------------------------------------------------------------------
// Vocabulary of the synthetic platform

const AREAS = [
  'commerce',
  'travel',
  'banking',
  'health',
  'insurance',
  'telecom',
  'education',
  'media',
  'gaming',
  'dining',
  'housing',
  'mobility',
  'energy',
  'civic',
  'payroll',
  'legal',
  'grocery',
  'logistics',
  'hospitality',
  'fitness',
];
const FACETS = [
  'billing',
  'returns',
  'tracking',
  'accounts',
  'offers',
  'support',
  'catalog',
  'scheduling',
  'claims',
  'documents',
  'payments',
  'loyalty',
  'onboarding',
  'security',
  'feedback',
  'pricing',
  'partners',
  'alerts',
];
const CAPABILITIES = [
  'lookup',
  'history',
  'status',
  'policy',
  'search',
  'summary',
  'quotes',
  'eligibility',
  'refunds',
  'disputes',
  'notices',
  'reminders',
  'changes',
  'limits',
  'renewals',
  'cancellations',
  'transfers',
  'receipts',
  'faq',
  'escalations',
  'insights',
  'matching',
];
const TOOL_VERBS = [
  ['get', 'loading'],
  ['list', 'listing'],
  ['search', 'searching'],
  ['check', 'checking'],
  ['create', 'creating'],
  ['update', 'updating'],
  ['calculate', 'calculating'],
  ['lookup', 'looking_up'],
  ['cancel', 'cancelling'],
  ['schedule', 'scheduling'],
  ['verify', 'verifying'],
  ['estimate', 'estimating'],
  ['submit', 'submitting'],
  ['fetch', 'fetching'],
];
const MODELS = {
  'gpt-5.4-mini-low': { provider: 'openai', model: 'gpt-5.4-mini', contextWindow: 272_000, reasoningEffort: 'low' },
  'gpt-4.1-mini': { provider: 'openai', model: 'gpt-4.1-mini', contextWindow: 1_047_576 },
  'gpt-5.4-nano': { provider: 'openai', model: 'gpt-5.4-nano', contextWindow: 400_000 },
  'claude-haiku-4-5': { provider: 'anthropic', model: 'claude-haiku-4-5', contextWindow: 200_000 },
};
const LEAF_MODELS = [
  ['gpt-5.4-mini-low', 50],
  ['gpt-5.4-nano', 35],
  ['claude-haiku-4-5', 15],
];
const FLAGS = ['receipts_v2', 'smart_routing', 'holiday_tone'];
const REQUIRED = [
  { id: 'persona-platform-assistant', category: 'persona' },
  { id: 'format-conversational', category: 'format' },
  { id: 'safety-base', category: 'safety' },
];
/** Shared blocks: platform-owned (usable by every card) or reusable team blocks. */
const SHARED = [
  { id: 'format-streaming', category: 'format', owner: 'platform' },
  { id: 'safety-financial', category: 'safety', owner: 'platform' },
  { id: 'safety-health-information', category: 'safety', owner: 'platform' },
  { id: 'format-lists-and-tables', category: 'format', owner: 'platform' },
  { id: 'capabilities-escalation', category: 'capabilities', owner: 'platform', agentId: true },
  { id: 'safety-pii-handling', category: 'safety', owner: 'trust_safety', reusable: true },
  { id: 'format-plain-language', category: 'format', owner: 'localization', reusable: true, agentId: true },
  { id: 'capabilities-points-math', category: 'capabilities', owner: 'loyalty', reusable: true },
  { id: 'context-handoff-etiquette', category: 'context', owner: 'assistant_core', reusable: true },
  { id: 'format-holiday-tone', category: 'format', owner: 'brand', reusable: true, flag: 'holiday_tone' },
];
const EXTRA_CATEGORIES = [
  ['instructions', 45],
  ['context', 20],
  ['capabilities', 15],
  ['format', 10],
  ['safety', 10],
];
const CATEGORY_ORDER = ['persona', 'instructions', 'capabilities', 'context', 'format', 'safety'];

const dashed = (id) => id.replaceAll('_', '-');
const words = (text) => text.split(/\s+/).filter(Boolean).length;
/** A generous upper bound on o200k tokens for this prose (real: ~4.5 chars per token). */
const estTokens = (text) => Math.ceil(text.length / 3);
const roundUp = (n, step) => Math.ceil(n / step) * step;

// ---------------------------------------------------------------------------
// Plan: the workspace as data

export function planWorkspace(options) {
  const o = resolveOptions(options);
  const r = rng(o.seed);
  const R = o.orchestrators;
  const N = o.cards - R;
  const M = Math.max(1, Math.ceil(N / 8));
  const L = N - M;
  if (L < M || L > 9 * M || M > 9 * R) throw new Error(`synth: cannot shape ${o.cards} cards with ${R} orchestrators (≤ 9 sub-agents each)`);

  // --- the card graph
  const cards = [];
  const byId = new Map();
  const addCard = (c) => {
    if (byId.has(c.id)) throw new Error(`synth: duplicate card id ${c.id}`);
    cards.push(c);
    byId.set(c.id, c);
    return c;
  };
  const desksPerRoot = partition(r, M, R, 1, 9);
  const leavesPerDesk = partition(r, L, M, 1, 9);
  const roots = [];
  const desks = [];
  const leaves = [];
  let deskIndex = 0;
  for (let i = 0; i < R; i++) {
    const area = i < AREAS.length ? AREAS[i] : `${AREAS[i % AREAS.length]}${Math.floor(i / AREAS.length) + 1}`;
    const root = addCard({ id: `${area}_assistant`, area, team: `${area}_core`, kind: 'root', subs: [] });
    roots.push(root);
    const facets = r.shuffle(FACETS);
    for (let j = 0; j < desksPerRoot[i]; j++, deskIndex++) {
      const facet = j < facets.length ? facets[j] : `${facets[j % facets.length]}${j}`;
      const team = `${area}_${facet}`;
      const desk = addCard({ id: `${team}_desk`, area, team, facet, kind: 'desk', subs: [] });
      desks.push(desk);
      root.subs.push(desk.id);
      const caps = r.shuffle(CAPABILITIES);
      for (let k = 0; k < leavesPerDesk[deskIndex]; k++) {
        const cap = k < caps.length ? caps[k] : `${caps[k % caps.length]}${k}`;
        const leaf = addCard({ id: `${team}_${cap}`, area, team, facet, cap, kind: 'leaf', subs: [] });
        leaves.push(leaf);
        desk.subs.push(leaf.id);
      }
    }
  }
  // A DAG, not a tree: some specialists are also listed by their top-level
  // orchestrator or by a sibling desk of the same area.
  for (const root of roots) {
    if (root.subs.length < 9 && r.chance(0.5)) {
      const desk = byId.get(r.pick(root.subs));
      const leaf = r.pick(desk.subs);
      if (!root.subs.includes(leaf)) root.subs.push(leaf);
    }
  }
  for (const desk of desks) {
    if (desk.subs.length >= 9 || !r.chance(0.1)) continue;
    const siblings = desks.filter((d) => d.area === desk.area && d !== desk);
    if (siblings.length === 0) continue;
    const leaf = r.pick(r.pick(siblings).subs);
    if (!desk.subs.includes(leaf)) desk.subs.push(leaf);
  }
  const depth = (c) => (c.subs.length === 0 ? 0 : 1 + Math.max(...c.subs.map((s) => depth(byId.get(s)))));

  // --- tools
  const toolNames = [];
  const combos = r.shuffle(TOOL_VERBS.flatMap((v) => NOUNS.map((n) => [v, n])));
  for (const [[verb, ing], noun] of combos) {
    if (toolNames.length === o.tools) break;
    toolNames.push({ name: `${verb}_${noun}`, ing, noun });
  }
  for (let i = toolNames.length; i < o.tools; i++) toolNames.push({ ...toolNames[i % combos.length], name: `${toolNames[i % combos.length].name}_${i}` });
  const tools = toolNames.map((t) => makeTool(r, t));
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  for (const c of cards) c.tools = [];
  const leafOrder = r.shuffle(leaves);
  tools.forEach((t, i) => {
    const owner = i < leafOrder.length || r.chance(0.7) ? leafOrder[i % leafOrder.length] : r.pick([...roots, ...desks]);
    if (!owner.tools.includes(t.name) && owner.tools.length < 4) owner.tools.push(t.name);
    else leafOrder.find((l) => !l.tools.includes(t.name)).tools.push(t.name);
  });
  for (const leaf of leaves) {
    for (let want = r.int(1, 3); leaf.tools.length < want;) {
      const t = r.pick(tools).name;
      if (!leaf.tools.includes(t)) leaf.tools.push(t);
    }
  }
  for (const c of [...roots, ...desks]) {
    if (c.tools.length === 0 && r.chance(0.2)) c.tools.push(r.pick(tools).name);
  }

  // --- card fields
  const modelCycle = r.shuffle(['gpt-5.4-nano', 'claude-haiku-4-5', 'gpt-5.4-mini-low']);
  leaves.forEach((leaf, i) => (leaf.model = i < modelCycle.length ? modelCycle[i] : r.weighted(LEAF_MODELS)));
  for (const c of cards) {
    if (c.kind === 'root') c.model = 'gpt-4.1-mini';
    if (c.kind === 'desk') c.model = r.chance(0.6) ? 'gpt-5.4-mini-low' : 'gpt-4.1-mini';
    if (r.chance(0.6)) c.fallback = c.model === 'gpt-4.1-mini' ? 'gpt-5.4-mini-low' : 'gpt-4.1-mini';
    c.role =
      c.kind === 'leaf'
        ? r.weighted([
            ['native', 70],
            ['external-wrapper', 15],
            ['internal-helper', 15],
          ])
        : 'orchestrator';
    const toolEvents = c.tools.flatMap((t) => toolByName.get(t).events);
    c.events = [...new Set([...toolEvents, ...(c.kind === 'leaf' && r.chance(0.3) ? [`preparing_${c.cap}`] : [])])];
    c.description = describeCard(r, c);
    c.input = c.kind === 'root' ? ['query'] : c.kind === 'desk' || r.chance(0.7) ? ['query', 'prior_context'] : ['query'];
    if (c.kind === 'leaf' && r.chance(0.3)) c.input.push(`${r.pick(NOUNS)}_id`);
    c.output = c.kind === 'leaf' && r.chance(0.1);
    c.maxOutput = r.pick([600, 800, 1000, 1200, 1500, 2000]);
    c.outputBudget = c.maxOutput + r.pick([200, 400, 500, 800]);
    c.effort = r.pick(['minimal', 'low', 'low', 'medium']);
    c.verbosity = r.pick(['low', 'medium', 'medium']);
    c.timeBudget = c.kind === 'root' ? r.int(20, 30) * 1000 : c.kind === 'desk' ? r.int(10, 15) * 1000 : r.int(3, 8) * 1000;
    c.maxToolCalls = r.int(2, 6);
    c.blocks = [];
  }
  for (const c of cards) {
    c.depth = depth(c);
    if (c.subs.length > 0) {
      c.fanOut = Math.min(3, c.subs.length);
      c.failsafe = c.kind === 'root' || r.chance(0.6);
      c.rendering = [];
      const seen = new Set();
      for (const s of c.subs) {
        for (const e of byId.get(s).events) {
          if (seen.has(e)) continue;
          seen.add(e);
          c.rendering.push([e, r.chance(0.15) ? 'suppress' : renderEvent(e)]);
        }
      }
    }
  }

  // --- blocks
  const blocks = [];
  const blockIds = new Set();
  const uniqueBlockId = (id) => {
    let out = id;
    for (let i = 2; blockIds.has(out); i++) out = `${id}-${i}`;
    blockIds.add(out);
    return out;
  };
  const addBlock = (b) => {
    b.id = uniqueBlockId(b.id);
    blocks.push(b);
    return b;
  };
  for (const req of REQUIRED) addBlock({ ...req, dir: 'platform', owner: 'platform', body: blockBody(r, req.category, {}) });
  const shared = SHARED.slice(0, Math.min(SHARED.length, Math.max(1, Math.floor(o.blocks / 20))));
  const sharedBlocks = shared.map((s) =>
    addBlock({ ...s, dir: s.owner === 'platform' ? 'platform' : 'shared', body: blockBody(r, s.category, { agentId: s.agentId }) }),
  );
  const teams = [...new Set(cards.map((c) => c.team))];
  const teamBlock = new Map();
  for (const team of teams) {
    teamBlock.set(team, addBlock({ id: `context-${dashed(team)}`, category: 'context', owner: team, dir: team, body: blockBody(r, 'context', {}) }));
  }
  const perCard = o.blocks - blocks.length;
  const mandatory = cards.length + R + M;
  if (perCard < mandatory) throw new Error(`synth: ${o.blocks} blocks are too few for ${o.cards} cards (need ≥ ${blocks.length + mandatory})`);
  const extra = new Map(cards.map((c) => [c, 0]));
  for (let left = perCard - mandatory; left > 0;) {
    const c = r.pick(cards);
    if (extra.get(c) < 5) {
      extra.set(c, extra.get(c) + 1);
      left--;
    }
  }
  for (const c of cards) {
    const own = [];
    own.push(
      addBlock({ id: `persona-${dashed(c.id)}`, category: 'persona', owner: c.team, dir: c.team, body: blockBody(r, 'persona', { agentId: r.chance(0.3) }) }),
    );
    if (c.subs.length > 0) {
      own.push(
        addBlock({
          id: `instructions-routing-${dashed(c.id)}`,
          category: 'instructions',
          owner: c.team,
          dir: c.team,
          routing: true,
          body: blockBody(r, 'instructions', { routing: true, inline: r.chance(0.3) }),
        }),
      );
    }
    for (let i = 0; i < extra.get(c); i++) {
      const category = r.weighted(EXTRA_CATEGORIES);
      const flag = r.chance(0.015) ? r.pick(FLAGS.slice(0, 2)) : undefined;
      own.push(
        addBlock({
          id: `${category}-${dashed(c.id)}-${r.pick(NOUNS)}`,
          category,
          owner: c.team,
          dir: c.team,
          flag,
          body: blockBody(r, category, { agentId: r.chance(0.1) }),
        }),
      );
    }
    const picks = r.shuffle(sharedBlocks).slice(
      0,
      r.weighted([
        [0, 25],
        [1, 40],
        [2, 25],
        [3, 10],
      ]),
    );
    const ordered = [...own.slice(0, c.subs.length > 0 ? 2 : 1), ...byCategory(own.slice(c.subs.length > 0 ? 2 : 1))];
    c.blocks = [
      ...ordered.slice(0, 1),
      ...ordered.slice(1).filter((b) => b.category === 'instructions'),
      teamBlock.get(c.team),
      ...ordered.slice(1).filter((b) => b.category !== 'instructions'),
      ...byCategory(picks),
    ];
  }
  // Every shared block is used at least once.
  sharedBlocks.forEach((s, i) => {
    const c = cards[(i * 7) % cards.length];
    if (!c.blocks.includes(s)) c.blocks.push(s);
  });
  if (blocks.length !== o.blocks) throw new Error(`synth: made ${blocks.length} blocks, wanted ${o.blocks}`);

  // --- budgets: an upper bound of the assembled prompt, with headroom
  const required = blocks.slice(0, REQUIRED.length);
  for (const c of cards) {
    const subsDesc = c.subs.reduce((s, id) => s + estTokens(byId.get(id).description) + 20, 0);
    let est = 0;
    for (const b of [...required, ...c.blocks]) est += estTokens(b.body) + (b.routing ? subsDesc : 0) + 30;
    c.inputBudget = roundUp(est * 1.25 + 500, 500);
  }
  for (const b of blocks) {
    if (b.routing)
      b.maxTokens = undefined; // depends on its card's sub-agents; the card budget covers it
    else if (r.chance(0.35)) b.maxTokens = roundUp(estTokens(b.body) * 1.3 + 50, 50);
  }

  return {
    options: o,
    cards,
    blocks,
    tools,
    stats: {
      cards: cards.length,
      blocks: blocks.length,
      tools: tools.length,
      orchestrators: R,
      desks: M,
      specialists: L,
      maxDepth: Math.max(...cards.map((c) => c.depth)),
    },
  };
}

function byCategory(bs) {
  return [...bs].sort((a, b) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category));
}

function makeTool(r, { name, ing, noun }) {
  const props = [];
  if (r.chance(0.7))
    props.push([
      `${noun}_id`,
      { type: 'string', description: `Identifier of the ${noun}, as shown to the user or returned by an earlier call.` },
      r.chance(0.6),
    ]);
  if (r.chance(0.5)) props.push(['limit', { type: 'integer', minimum: 1, maximum: 50, default: 10, description: `Most ${noun} entries to return.` }, false]);
  if (r.chance(0.4))
    props.push(['include_details', { type: 'boolean', default: false, description: `Also return the full ${noun} details, not only the summary.` }, false]);
  if (r.chance(0.3)) props.push(['status', { type: 'string', enum: ['open', 'closed', 'pending'], description: `Only ${noun} entries in this state.` }, false]);
  if (r.chance(0.2)) props.push(['query', { type: 'string', description: `Free-text search over ${noun} entries, in the user's words.` }, true]);
  const events = r.chance(0.55) ? [`${ing}_${noun}`] : [];
  return {
    name,
    description: blurb(r, `${name.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase())} for the signed-in user.`, r.int(0, 1)),
    props,
    envelope: r.chance(0.5),
    events,
    json: r.chance(0.1),
  };
}

function describeCard(r, c) {
  if (c.kind === 'root')
    return blurb(
      r,
      `The ${c.area} assistant's front door: it reads every user turn about ${c.area}, routes each request to the right team desk, and writes the one reply the user sees.`,
      0,
    );
  if (c.kind === 'desk')
    return blurb(
      r,
      `The ${c.facet} desk for ${c.area}: everything about ${c.facet}, from first questions to follow-ups, routed to the ${c.facet} specialists.`,
      1,
    );
  const a = r.pick(NOUNS);
  const b = r.pick(NOUNS);
  return blurb(r, `Handles ${c.cap} for ${c.area} ${c.facet}: the user's ${a} and ${b} ${c.cap}, what they mean and what to do next.`, r.int(0, 1));
}

function renderEvent(e) {
  const [ing, ...rest] = e.split('_');
  const verb = ing === 'looking' ? 'Looking up' : ing === 'preparing' ? 'Preparing' : ing.charAt(0).toUpperCase() + ing.slice(1);
  const obj = ing === 'looking' ? rest.slice(1) : rest;
  return `${verb} your ${obj.join(' ')}…`;
}

function blockBody(r, category, { agentId = false, routing = false, inline = false }) {
  const n = r.int(150, 600);
  const title = {
    persona: 'Who you are',
    instructions: 'Instructions',
    capabilities: 'What you can do',
    context: 'Background',
    format: 'How to format answers',
    safety: 'Safety',
  }[category];
  const parts = [`# ${title}`];
  if (agentId) parts.push(`You are the {{agent.id}} specialist. Introduce yourself by what you do, never by that name.`);
  if (routing) {
    parts.push('Each specialist below is a tool. Its description says what it owns:');
    parts.push(
      inline ? '{{#each sub_agents}}- {{tool_name}}: {{description}}\n{{/each}}' : '{{#each sub_agents}}\n- {{tool_name}}: {{description}}\n{{/each}}',
    );
    parts.push('Call every specialist a turn needs in the same response, at most {{dispatch.fan_out_cap}} of them; handle the rest in the next turn.');
  }
  const body = prose(r, n - words(parts.join(' ')));
  return `${parts.join('\n\n')}\n\n${body}\n`;
}

// ---------------------------------------------------------------------------
// Files

const q = (s) => JSON.stringify(s);
function folded(text, indent = '  ', width = 88) {
  const lines = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}
const flow = (xs) => `[${xs.join(', ')}]`;

function cardYaml(c) {
  const out = [];
  out.push(`id: ${c.id}`, 'description: >-', folded(c.description), `role: ${c.role}`, `owner: ${c.team}`, `model: ${c.model}`);
  if (c.fallback) out.push(`fallback_model: ${c.fallback}`);
  out.push(`tools: ${flow(c.tools)}`, 'prompt_blocks:', ...c.blocks.map((b) => `  - ${b.id}`));
  out.push(c.subs.length > 0 ? 'sub_agents:' : 'sub_agents: []', ...c.subs.map((s) => `  - ${s}`));
  out.push(`tuning: { max_output_tokens: ${c.maxOutput}, reasoning_effort: ${c.effort}, text_verbosity: ${c.verbosity} }`);
  out.push('input:');
  for (const f of c.input) {
    const desc =
      f === 'query'
        ? "The user's request for this agent, in their exact words."
        : f === 'prior_context'
          ? 'Summary of earlier turns when the request builds on them.'
          : `The ${f.replace(/_id$/, '')} the user means, when an earlier turn named it.`;
    out.push(`  ${f}:`, '    type: string', `    description: ${q(desc)}`);
  }
  out.push('input_required: [query]');
  if (c.output) {
    out.push(
      'output:',
      '  type: object',
      '  properties:',
      '    summary: { type: string }',
      '    items: { type: array, items: { type: string } }',
      '  required: [summary]',
    );
  }
  out.push(`status_events: ${flow(c.events)}`);
  out.push('policy:', `  token_budget: { input: ${c.inputBudget}, output: ${c.outputBudget} }`, `  time_budget_ms: ${c.timeBudget}`);
  out.push(`  tool_whitelist: ${flow(c.tools)}`, `  max_tool_calls: ${c.maxToolCalls}`, `  max_recursion_depth: ${c.depth}`);
  if (c.subs.length > 0) {
    out.push('dispatch:', `  fan_out_cap: ${c.fanOut}`, `  intent_count_failsafe: ${c.failsafe}`);
    if (c.rendering.length > 0) out.push('  status_rendering:', ...c.rendering.map(([e, t]) => `    ${e}: ${t === 'suppress' ? t : q(t)}`));
  }
  return `${out.join('\n')}\n`;
}

function blockMd(b) {
  const fm = [`category: ${b.category}`, `owner: ${b.owner}`, `reusable: ${b.reusable === true}`];
  if (b.flag) fm.push(`feature_flag: ${b.flag}`);
  if (b.maxTokens) fm.push(`max_tokens: ${b.maxTokens}`);
  return `---\n${fm.join('\n')}\n---\n${b.body}`;
}

function toolFile(t) {
  const properties = Object.fromEntries(t.props.map(([k, v]) => [k, v]));
  const required = t.props.filter(([, , req]) => req).map(([k]) => k);
  if (t.json) {
    const params = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
    const doc = {
      name: t.name,
      description: t.description,
      parameters: params,
      envelope: t.envelope,
      ...(t.events.length > 0 ? { status_events: t.events } : {}),
    };
    return { ext: 'json', text: `${JSON.stringify(doc, null, 2)}\n` };
  }
  const out = [`name: ${t.name}`, 'description: >-', folded(t.description), 'parameters:', '  type: object'];
  if (t.props.length === 0) out.push('  properties: {}');
  else {
    out.push('  properties:');
    for (const [k, v] of t.props) {
      out.push(`    ${k}:`);
      for (const [kk, vv] of Object.entries(v)) out.push(`      ${kk}: ${Array.isArray(vv) ? flow(vv) : typeof vv === 'string' && kk !== 'type' ? q(vv) : vv}`);
    }
  }
  if (required.length > 0) out.push(`  required: ${flow(required)}`);
  out.push('  additionalProperties: false', `envelope: ${t.envelope}`);
  if (t.events.length > 0) out.push(`status_events: ${flow(t.events)}`);
  return { ext: 'yaml', text: `${out.join('\n')}\n` };
}

function configTs() {
  const models = Object.entries(MODELS)
    .map(([k, m]) => {
      const fields = [
        `provider: '${m.provider}'`,
        `model: '${m.model}'`,
        `contextWindow: ${m.contextWindow.toLocaleString('en-US').replaceAll(',', '_')}`,
        `encoding: 'o200k_base'`,
        'tools: true',
        'parallelToolCalls: true',
      ];
      if (m.reasoningEffort) fields.push(`reasoningEffort: '${m.reasoningEffort}'`);
      return `    '${k}': { ${fields.join(', ')} },`;
    })
    .join('\n');
  return `import { defineConfig } from 'agentc';

// Synthetic benchmark workspace (bench/synth.mjs). Do not edit: regenerated.
export default defineConfig({
  models: {
${models}
  },
  platform: {
    owner: 'platform',
    requiredBlocks: [${REQUIRED.map((b) => `'${b.id}'`).join(', ')}],
  },
  budgets: {
    promptWarnRatio: 0.25,
    promptErrorRatio: 0.5,
    descriptionMaxTokens: 400,
    maxSubAgents: 9,
  },
  dispatch: { toolPrefix: 'ask_', fanOutCap: 3 },
  flags: [${FLAGS.map((f) => `'${f}'`).join(', ')}],
  dynamicContext: {
    fields: ['date', 'locale', 'location', 'user_id'],
    template: '<context>\\nDate: {{date}}\\nLocale: {{locale}}\\nLocation: {{location}}\\n</context>',
  },
});
`;
}

/** Writes the planned workspace into `out` (replacing a previous generated one). */
export function writeWorkspace(out, plan) {
  if (existsSync(out)) {
    const entries = readdirSync(out);
    if (entries.length > 0 && !entries.includes(STAMP_FILE)) throw new Error(`synth: refusing to replace ${out}: not empty and not a generated workspace`);
    rmSync(out, { recursive: true, force: true });
  }
  const write = (rel, text) => {
    const p = join(out, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  };
  write('agentc.config.ts', configTs());
  for (const c of plan.cards) write(`cards/${c.id}.yaml`, cardYaml(c));
  for (const b of plan.blocks) write(`blocks/${b.dir}/${b.id}.md`, blockMd(b));
  for (const t of plan.tools) {
    const f = toolFile(t);
    write(`schemas/tools/${t.name}.${f.ext}`, f.text);
  }
  write(STAMP_FILE, `${JSON.stringify({ generator: generatorVersion(), options: plan.options, stats: plan.stats }, null, 2)}\n`);
}

/** Plans and writes a workspace; returns its stats. */
export function synthesize({ out = DEFAULT_OUT, ...options } = {}) {
  const plan = planWorkspace(options);
  writeWorkspace(out, plan);
  return plan.stats;
}

/** Whether `out` holds a workspace from this generator version with these options. */
export function isFresh(out = DEFAULT_OUT, options = {}) {
  try {
    const stamp = JSON.parse(readFileSync(join(out, STAMP_FILE), 'utf8'));
    return stamp.generator === generatorVersion() && JSON.stringify(stamp.options) === JSON.stringify(resolveOptions(options));
  } catch {
    return false;
  }
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--(out|cards|blocks|tools|orchestrators|seed)$/.exec(a);
    if (!m || argv[i + 1] === undefined) throw new Error(`synth: unknown or incomplete argument ${a}`);
    opts[m[1]] = m[1] === 'out' ? argv[++i] : Number(argv[++i]);
  }
  return opts;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t0 = performance.now();
  const opts = parseArgs(process.argv.slice(2));
  const stats = synthesize(opts);
  console.log(
    `synth: ${stats.cards} cards (${stats.orchestrators} orchestrators, ${stats.desks} desks, ${stats.specialists} specialists), ${stats.blocks} blocks, ${stats.tools} tools → ${opts.out ?? DEFAULT_OUT} in ${Math.round(performance.now() - t0)} ms`,
  );
}
