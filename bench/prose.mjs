// Deterministic English prose for synthetic prompt blocks: sentence templates
// filled from word lists, grouped into paragraphs, headings and markdown lists.
// Invariants: the output never contains "{{" (it is not a template), no digits
// other than numbered-list markers, and no line made only of dashes, so it cannot
// be mistaken for Handlebars, a volatile literal (dates, timestamps) or a
// front-matter fence.

export const NOUNS = [
  'order',
  'invoice',
  'refund',
  'payment',
  'receipt',
  'subscription',
  'account',
  'balance',
  'statement',
  'shipment',
  'delivery',
  'booking',
  'reservation',
  'appointment',
  'claim',
  'policy',
  'ticket',
  'offer',
  'coupon',
  'reward',
  'plan',
  'device',
  'address',
  'document',
  'prescription',
  'warranty',
  'return',
  'exchange',
  'transfer',
  'deposit',
  'voucher',
  'membership',
  'itinerary',
  'quote',
  'estimate',
  'contract',
  'profile',
  'preference',
  'notification',
  'request',
  'complaint',
  'review',
  'recommendation',
  'price',
  'fee',
  'discount',
  'limit',
  'credit',
  'charge',
  'schedule',
  'cart',
  'wishlist',
  'listing',
  'case',
];

const ACTORS = ['the user', 'the customer', 'the member', 'the person you are helping', 'someone'];
const ADJ_STYLE = ['short', 'concrete', 'calm', 'specific', 'plain', 'friendly but brief', 'direct', 'precise'];
const STATES = ['pending', 'expired', 'cancelled', 'on hold', 'under review', 'already used', 'locked', 'incomplete', 'disputed'];
const ACTIONS_PAST = ['changed', 'refunded', 'reopened', 'transferred', 'extended', 'combined with another', 'moved', 'edited'];
const VERBS = ['check', 'confirm', 'look up', 'verify', 'summarise', 'compare', 'explain', 'read back', 'double-check', 'quote'];
const VERBS2 = ['promise', 'commit to', 'recommend', 'change', 'cancel', 'estimate', 'guess', 'suggest'];
const NEXT_STEPS = [
  'offer the closest alternative',
  'point them to the right place to fix it',
  'say what would need to change first',
  'suggest contacting support with the reference you have',
  'ask whether they want to try something else',
  'explain the usual time it takes to resolve',
];
const CONDITIONS = [
  'the tool result says so explicitly',
  'the user has confirmed it in this conversation',
  'the request is clearly about their own account',
  'two tools disagree about the same figure',
  'the data is older than the current session',
  'the user seems unsure what they are asking for',
  'the answer depends on a rule you cannot see',
  'the result is marked as partial',
];
const FORBIDDEN = [
  'invent a reference number',
  'speculate about fraud',
  "share another person's details",
  'describe internal systems or tool names',
  'promise a specific outcome',
  'apologise more than once',
  'repeat the full result back verbatim',
  'recommend a competitor',
  'mention internal team names',
];
const CONNECTORS = ['In practice', 'As a rule', 'Where possible', 'Above all', 'For the same reason', 'In every case', 'When in doubt', 'Most of the time'];
const CLAUSES = [
  'lead with the answer and follow with one line of context',
  'prefer the figure the tool returned over anything you infer',
  'name the thing you checked so the user can trust the answer',
  'keep lists to the few items that matter most',
  "use the user's own words for the things they asked about",
  'say plainly when something is not available right now',
  'end with the single most useful next step',
  'avoid jargon that the user did not use first',
  'treat every amount as exact and never round it',
  'separate what you know from what you are assuming',
];
const HEADINGS = [
  'Scope',
  'What you own',
  'What you do not own',
  'How to answer',
  'Tone',
  'Edge cases',
  'Escalation',
  'Working with tools',
  'When data is missing',
  'Formatting',
  'Examples of good answers',
  'Privacy',
  'Amounts and dates',
  'Follow-up questions',
  'Handing back',
  'Common mistakes',
];
const LIST_ITEMS = [
  'Quote the {n} exactly as the tool returned it.',
  'Name the {n} by the label the user sees in the app.',
  'Say when the {n} is still {s}, and what happens next.',
  'Never merge two {n} results into one figure.',
  'Ask which {n} they mean when there are several.',
  'Offer to {v} the {n} again if the first result looks wrong.',
  'Keep each {n} on its own line when listing several.',
  'Mention the {n} only when it changes the answer.',
  'Explain why the {n} cannot be {p}, in one sentence.',
  'Stop after the first {n} that answers the question.',
];

/** 'a order' → 'an order'. */
const an = (w) => `${/^[aeiou]/.test(w) ? 'an' : 'a'} ${w}`;

const TEMPLATES = [
  (r) => `When ${r.pick(ACTORS)} asks about ${an(r.pick(NOUNS))}, ${r.pick(VERBS)} the ${r.pick(NOUNS)} before you ${r.pick(VERBS2)} anything.`,
  (r) => `Always ${r.pick(VERBS)} the ${r.pick(NOUNS)} that a tool returned, never one you remember from an earlier turn.`,
  (r) => `If the ${r.pick(NOUNS)} is missing or incomplete, say so plainly and ${r.pick(NEXT_STEPS)}.`,
  (r) => `Keep answers ${r.pick(ADJ_STYLE)}: ${r.pick(CLAUSES)}.`,
  (r) => `Do not ${r.pick(FORBIDDEN)} unless ${r.pick(CONDITIONS)}.`,
  (r) => `${r.pick(CONNECTORS)}, ${r.pick(CLAUSES)}.`,
  (r) => `${an(r.pick(NOUNS)).replace(/^a/, 'A')} that is ${r.pick(STATES)} cannot be ${r.pick(ACTIONS_PAST)}; explain why and ${r.pick(NEXT_STEPS)}.`,
  (r) => `Prefer the ${r.pick(NOUNS)} over the ${r.pick(NOUNS)} when ${r.pick(CONDITIONS)}.`,
  (r) => `Quote ${r.pick(NOUNS)} amounts exactly as the tool returned them, including the currency and any ${r.pick(NOUNS)} that applies.`,
  (r) => `Ask one short clarifying question when ${r.pick(CONDITIONS)}.`,
  (r) =>
    `${r.pick(ACTORS).replace(/^./, (c) => c.toUpperCase())} may describe ${an(r.pick(NOUNS))} loosely; map their words to the closest ${r.pick(NOUNS)} you can see and say which one you picked.`,
  (r) => `You may ${r.pick(VERBS)} ${an(r.pick(NOUNS))} on your own, but you may not ${r.pick(VERBS2)} ${an(r.pick(NOUNS))} without an explicit request.`,
  (r) => `If ${r.pick(CONDITIONS)}, ${r.pick(CLAUSES)}.`,
  (r) => `Some questions touch both ${an(r.pick(NOUNS))} and ${an(r.pick(NOUNS))}; answer the part you own and say who can help with the rest.`,
  (r) => `Treat ${an(`${r.pick(STATES)} ${r.pick(NOUNS)}`)} as information, not as a problem to solve, unless ${r.pick(CONDITIONS)}.`,
  (r) => `Never ${r.pick(FORBIDDEN)}, even when ${r.pick(ACTORS)} asks you to.`,
  (r) => `A good answer should ${r.pick(CLAUSES)}, and nothing more.`,
  (r) => `The ${r.pick(NOUNS)} history is often longer than the user needs: show the most recent few entries and offer the rest.`,
];

/** One sentence. */
export function sentence(r) {
  return r.pick(TEMPLATES)(r);
}

function listItem(r) {
  return r
    .pick(LIST_ITEMS)
    .replaceAll('{n}', r.pick(NOUNS))
    .replaceAll('{s}', r.pick(STATES))
    .replaceAll('{v}', r.pick(VERBS))
    .replaceAll('{p}', r.pick(ACTIONS_PAST));
}

const wordCount = (s) => s.split(/\s+/).filter(Boolean).length;

/**
 * Markdown prose of about `words` words (never fewer): an optional heading per
 * section, paragraphs of three to six sentences, and now and then a bulleted or
 * numbered list.
 */
export function prose(r, words) {
  const parts = [];
  let n = 0;
  const push = (s) => {
    parts.push(s);
    n += wordCount(s);
  };
  while (n < words) {
    if (parts.length > 0 && r.chance(0.35)) push(`## ${r.pick(HEADINGS)}`);
    const sentences = [];
    for (let i = r.int(3, 6); i > 0; i--) sentences.push(sentence(r));
    push(sentences.join(' '));
    if (n < words && r.chance(0.25)) {
      const numbered = r.chance(0.3);
      const items = [];
      for (let i = 0, k = r.int(3, 6); i < k; i++) items.push(`${numbered ? `${i + 1}.` : '-'} ${listItem(r)}`);
      push(items.join('\n'));
    }
  }
  return parts.join('\n\n');
}

/** A short, natural description (1–3 sentences) for cards and tools. */
export function blurb(r, lead, sentences = 1) {
  const out = [lead];
  for (let i = 0; i < sentences; i++) out.push(sentence(r));
  return out.join(' ');
}
