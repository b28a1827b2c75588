/**
 * The YAML fast path (src/parse/fast-yaml.ts) against the `yaml` package it stands
 * in for: whenever fastYaml returns a value, `yaml` (the options of
 * src/parse/yaml.ts) reports no error for that text and converts it to an equal
 * value. Checked on every YAML and JSON document of this repository (cards, tool
 * contracts, block front matter, eval suites, fixtures) and on seeded mutations of
 * them, and on the scalar spellings where YAML 1.2 core and js-yaml's own schema differ.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { fastYaml } from '../../src/parse/fast-yaml.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OPTIONS = { uniqueKeys: true, prettyErrors: false, strict: true, version: '1.2', logLevel: 'error' } as const;

/** `yaml`'s reading of `text`: its value, or 'error'. */
function reference(text: string): unknown {
  const doc = parseDocument(text, OPTIONS);
  if (doc.errors.length > 0) return 'error';
  return doc.toJS({ maxAliasCount: 100 });
}

/** Every YAML document in the repository's sources and fixtures (front matter of Markdown files included). */
function corpus(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(?:ya?ml|json)$/.test(e.name)) out.push(readFileSync(p, 'utf8'));
      else if (e.name.endsWith('.md')) {
        const m = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*$/m.exec(readFileSync(p, 'utf8'));
        if (m) out.push(m[1]!);
      }
    }
  };
  for (const dir of ['cards', 'blocks', 'schemas', 'evals', 'test', 'examples']) {
    try {
      walk(join(repo, dir));
    } catch {
      // a folder this checkout does not have
    }
  }
  return out;
}

/** Seeded edits that break YAML in the ways editors do: deleted, inserted and re-indented text, moved and doubled lines. */
function mutations(texts: readonly string[], perText: number, seed: number): string[] {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  const snippets = [
    ' ',
    '\n',
    ':',
    '- ',
    '[',
    ']',
    '{',
    '}',
    ',',
    '"',
    "'",
    '#',
    ' #',
    '|',
    '>',
    '~',
    '0o7',
    '0x1F',
    '.inf',
    '1_000',
    '+1',
    '1.',
    '\n  ',
    '\n- ',
    'k: v',
    '{a: 1}',
    '\\',
    '-1',
    '1e5',
    'Null',
    'FALSE',
  ];
  const out: string[] = [];
  for (const text of texts) {
    for (let k = 0; k < perText; k++) {
      let t = text;
      for (let edits = 1 + rnd(3); edits > 0; edits--) {
        const at = rnd(t.length + 1);
        const lines = t.split('\n');
        const line = rnd(lines.length);
        switch (rnd(5)) {
          case 0:
            t = t.slice(0, at) + t.slice(at + 1 + rnd(3));
            break;
          case 1:
            t = t.slice(0, at) + snippets[rnd(snippets.length)]! + t.slice(at);
            break;
          case 2:
            lines[line] = ' '.repeat(rnd(4)) + lines[line]!.trimStart();
            t = lines.join('\n');
            break;
          case 3:
            lines.splice(rnd(lines.length), 0, lines[line]!);
            t = lines.join('\n');
            break;
          default: {
            const other = rnd(lines.length);
            [lines[line], lines[other]] = [lines[other]!, lines[line]!];
            t = lines.join('\n');
          }
        }
      }
      out.push(t);
    }
  }
  return out;
}

/** Texts where the fast path answered something `yaml` would not have (at most a few, for the message). */
function disagreements(texts: readonly string[]): { taken: number; wrong: string[] } {
  let taken = 0;
  const wrong: string[] = [];
  for (const text of texts) {
    const fast = fastYaml(text);
    if (!fast) continue;
    taken++;
    if (!isDeepStrictEqual(fast.value, reference(text)) && wrong.length < 3) wrong.push(text);
  }
  return { taken, wrong };
}

describe('fastYaml agrees with the yaml package', () => {
  const texts = corpus();

  it("on every YAML document of the repository, and takes the fast path for this repository's cards", () => {
    expect(texts.length).toBeGreaterThan(100);
    const { taken, wrong } = disagreements(texts);
    expect(wrong).toEqual([]);
    expect(taken).toBeGreaterThan(texts.length / 2);
  });

  it('on seeded mutations of them (declines or agrees, never differs)', () => {
    const { taken, wrong } = disagreements(mutations(texts, 12, 20261123));
    expect(wrong).toEqual([]);
    expect(taken).toBeGreaterThan(500);
  });

  it('resolves plain scalars as YAML 1.2 core does', () => {
    const scalars = [
      '1_000',
      '0b101',
      '0o17',
      '0o8',
      '0x1F',
      '0X1F',
      '+12',
      '-0',
      '007',
      '1e3',
      '1E+3',
      '1.',
      '.5',
      '-.5',
      '+.5e2',
      '.inf',
      '-.Inf',
      '+.INF',
      '.nan',
      '.NaN',
      'NaN',
      'inf',
      'true',
      'True',
      'TRUE',
      'tRUE',
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      '~',
      'null',
      'Null',
      'NULL',
      'nULL',
      '',
      '2001-12-14',
      '1:20',
      '12e',
      '0x',
      '99999999999999999999',
      '"1"',
      "'true'",
      '1.0',
      '1.50',
    ];
    for (const s of scalars) {
      const text = `a: ${s}\nb: [${s === '' ? '~' : s}]\n`;
      const fast = fastYaml(text);
      expect(fast, s).toBeDefined();
      expect(fast!.value, s).toStrictEqual(reference(text));
    }
  });

  it('declines what lies outside the agreed subset', () => {
    const declined = [
      'a: &x 1\nb: *x\n', // anchors and aliases (alias bombs are refused by yaml)
      'a: !!str 1\n', // tags
      'a:\n\tb: 1\n', // tabs
      '%YAML 1.2\n---\na: 1\n', // directives and markers
      '? a\n: 1\n', // complex keys
      '<<: {a: 1}\n', // merge keys
      '__proto__: 1\n',
      '~: 1\n', // null keys: "" in yaml, "null" in js-yaml
      'a:\n- 1\n', // a list at its key's column
      'a: [1,\n  2]\n', // a flow collection over two lines
      'a: 1\na: 2\n', // duplicate keys (js-yaml refuses them: yaml reports them)
      'a: b: c\n', // a syntax error
      '{"a": 1, "a": 2}', // a duplicate JSON key (JSON.parse keeps the last)
      '{"a": {"b": 1, "c": {"b": 2}, "b": 3}}',
      '{"a"\n: 1}', // a key and its colon on two lines
      `{"a": 1, "a"${' '.repeat(60)}: 2}`,
      '{"a": 12345678901234567890}', // an integer yaml reads digit by digit
      '{"a":\t1}',
    ];
    for (const text of declined) expect(fastYaml(text), text).toBeUndefined();
  });

  it('reads JSON documents, nested keys and escapes included', () => {
    for (const text of [
      '{"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}], "d": "\\"x\\" \\u00e9 \\ud83d\\ude00"}',
      '[1, -0, 1e5, 1.5, true, null, "s"]',
      '{\n  "k": [\n    1,\n    2\n  ]\n}\n',
    ]) {
      const fast = fastYaml(text);
      expect(fast, text).toBeDefined();
      expect(fast!.value, text).toStrictEqual(reference(text));
    }
  });

  it('reads an empty document as null, as yaml does', () => {
    expect(fastYaml('')).toEqual({ value: null });
    expect(fastYaml('# only a comment\n')).toEqual({ value: null });
    expect(reference('')).toBeNull();
  });
});
