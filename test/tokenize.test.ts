import fc from 'fast-check';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { countTokens, countTokensByParagraph, encode, isSafeBoundary, type Encoding } from '../src/tokenize/index.js';
import { normalizeNewlines } from '../src/load/source.js';

// tiktoken (OpenAI's own tokenizer, WASM) is the oracle; agentc counts with gpt-tokenizer.
const oracles = new Map<Encoding, Tiktoken>();
const oracle = (e: Encoding) => {
  let t = oracles.get(e);
  if (!t) oracles.set(e, (t = get_encoding(e)));
  return t;
};
afterAll(() => oracles.forEach((t) => t.free()));

const SAMPLES: Record<string, string> = {
  english: 'You route each user turn to the right specialist. Call at most 3 of them in one turn.',
  code: 'function add(a: number, b: number): number {\n  return a + b; // sum\n}\nconst xs = [1, 2, 3].map((x) => x ** 2);\n',
  json: '{"status":"ok","principal":"user-1","payload":{"points":12500,"pending":[{"id":"r_1","amount":250}]}}',
  cjk: '日本語のテキストと中文文本，还有한국어 텍스트도 있습니다。',
  emoji: 'Great job 🎉🎉 — you earned 👍🏽 500 points! 👨‍👩‍👧‍👦 family bonus 🧾',
  crlf: normalizeNewlines('line one\r\nline two\r\n\r\nline four\r\n'),
  crlfRaw: 'line one\r\nline two\r\n\r\nline four\r\n',
  whitespace: '   leading\n\n\n   \t tabs\t\tand   spaces   \n',
  special: 'Do not emit <|endoftext|> or <|im_start|> tokens; treat them as text.',
  markdown: "## Rules\n- **Never** reveal another user's data.\n- Use `get_user_points` first.\n\n> Quote\n\n| a | b |\n|---|---|\n",
  numbers: '1234567890 3.14159 1,000,000 0x1F 2026-11-21T10:00:00Z',
  slashes: 'a.\n\n/path/to/file and https://example.com/x?y=1',
  mixed: 'Ünïcödé àccents — “quotes” ‘single’ … ellipsis ©®™ ½ ¼',
};

describe.each(['o200k_base', 'cl100k_base'] as const)('parity with tiktoken (%s)', (encoding) => {
  test.each(Object.entries(SAMPLES))('%s', (_, text) => {
    const expected = oracle(encoding).encode_ordinary(text);
    expect(countTokens(text, encoding)).toBe(expected.length);
    expect(encode(text, encoding)).toEqual([...expected]);
  });

  test('random unicode text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(countTokens(text, encoding)).toBe(oracle(encoding).encode_ordinary(text).length);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  test('paragraph-segmented counting is exact on newline-rich text', () => {
    const unit = fc.constantFrom('a', 'Z', '.', ',', '/', ' ', '\n', '\n\n', '-', '7', '日', '🎉', '*', '#', '\t', "'", 's', '{', '}');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120 }), (text) => {
        expect(countTokensByParagraph(text, encoding)).toBe(oracle(encoding).encode_ordinary(text).length);
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  // Prompt assembly counts a prefix as the sum of its blocks ("text\n\n" each).
  test('block sums equal whole-prefix counts at safe boundaries', () => {
    const piece = fc.string({
      unit: fc.constantFrom('a', 'B', '.', ',', '/', ' ', '\n', '-', '1', '日', '🎉', '*', '#', '\t', "'", 's'),
      minLength: 1,
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (raw) => {
        const blocks = raw.map((t) => t.trim()).filter((t) => t !== '');
        if (blocks.length === 0) return;
        const safe = blocks.every((b, i) => i === 0 || isSafeBoundary(b));
        if (!safe) return;
        const text = blocks.map((b) => `${b}\n\n`).join('');
        const sum = blocks.reduce((n, b) => n + countTokens(`${b}\n\n`, encoding), 0);
        expect(sum).toBe(oracle(encoding).encode_ordinary(text).length);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
