/** The shared pieces of the importers: escaping, heading splits, id rules, model guesses. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AGENT_ID, IdMap, TOOL_ID } from '../../src/import/ids.js';
import { escapeHandlebars, splitAtHeadings } from '../../src/import/instructions.js';
import { guessModel } from '../../src/import/models.js';

describe('splitAtHeadings', () => {
  it('splits at the top heading level only where the text joins back byte for byte', () => {
    expect(splitAtHeadings('Intro\n\n## A\ntext\n\n### a1\nx\n\n## B\ny\n')).toEqual(['Intro', '## A\ntext\n\n### a1\nx', '## B\ny']);
    // Two blank lines, trailing spaces, or no blank line before a heading: no split there.
    expect(splitAtHeadings('Intro\n\n\n# A\nx')).toEqual(['Intro\n\n\n# A\nx']);
    expect(splitAtHeadings('Intro  \n\n# A\nx')).toEqual(['Intro  \n\n# A\nx']);
    expect(splitAtHeadings('Intro\n# A\nx')).toEqual(['Intro\n# A\nx']);
    expect(splitAtHeadings('```\n\n# in fence\n```\n\n# Out\nx')).toEqual(['```\n\n# in fence\n```', '# Out\nx']);
    expect(splitAtHeadings('  \n')).toEqual([]);
  });

  it('always reassembles to the trimmed text (property)', () => {
    const line = fc.oneof(fc.constantFrom('', '# H', '## H2', '```', '  ', 'text', 'text  ', '#nohead'), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const text = lines.join('\n');
        const parts = splitAtHeadings(text);
        expect(parts.join('\n\n')).toBe(text.trim());
        for (const p of parts) expect(p).toBe(p.trim());
      }),
      { numRuns: 300 },
    );
  });
});

describe('escapeHandlebars', () => {
  it('escapes every {{ and reports a backslash it cannot keep', () => {
    expect(escapeHandlebars('a {{b}} {{{c}}}')).toEqual({ body: 'a \\{{b}} \\{{{c}}}', lostBackslashLines: [] });
    expect(escapeHandlebars('x\ny \\{{z}}')).toEqual({ body: 'x\ny \\{{z}}', lostBackslashLines: [2] });
    expect(escapeHandlebars('no braces } { }}').body).toBe('no braces } { }}');
  });
});

describe('IdMap', () => {
  it('normalizes to the id rules, deterministically and without collisions', () => {
    const m = new IdMap(AGENT_ID);
    expect(['History Tutor', 'history-tutor', 'HistoryTutor', '42', '', 'ünïcode', 'x'.repeat(60)].map((s) => m.id(s))).toEqual([
      'history_tutor',
      'history_tutor_2',
      'history_tutor_3',
      'agent_42',
      'unnamed',
      'unicode',
      'x'.repeat(48),
    ]);
    expect(m.id('History Tutor')).toBe('history_tutor');
    const t = new IdMap(TOOL_ID);
    expect([t.id('Read'), t.id('mcp__github__x'), t.id('Bash(git:*)')]).toEqual(['Read', 'mcp__github__x', 'Bash_git']);
  });

  it('every id is valid and distinct (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 70 }), { maxLength: 20 }), (names) => {
        const m = new IdMap(AGENT_ID);
        const ids = [...new Set(names)].map((n) => m.id(n));
        for (const id of ids) expect(id).toMatch(AGENT_ID.valid);
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('guessModel', () => {
  it('guesses provider, window and encoding from the name', () => {
    expect(guessModel('sonnet')).toMatchObject({ key: 'sonnet', provider: 'anthropic', model: 'claude-sonnet-4-5', encoding: 'o200k_base' });
    expect(guessModel('openai/gpt-4o')).toMatchObject({ key: 'openai-gpt-4o', provider: 'openai', model: 'gpt-4o', contextWindow: 128_000 });
    expect(guessModel('gpt-4-turbo')).toMatchObject({ provider: 'openai', encoding: 'cl100k_base' });
    expect(guessModel('gemini-2.5-flash')).toMatchObject({ provider: 'google', contextWindow: 1_048_576 });
    expect(guessModel('anthropic.claude-3-7-sonnet-latest')).toMatchObject({ provider: 'anthropic', model: 'claude-3-7-sonnet-latest' });
    expect(guessModel('generic.llama3.2:latest')).toMatchObject({ key: 'generic.llama3.2-latest', provider: 'generic' });
  });
});
