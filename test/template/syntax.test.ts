/**
 * Syntax errors are located from the template's source and Handlebars' public
 * parser alone (no lexer state, no error-message parsing): the character where
 * a tag stops being valid, a mismatched close, a block never closed.
 */
import { expect, test } from 'vitest';
import { analyzeTemplate, standalonePlacer } from '../../src/parse/template.js';

function error(src: string) {
  const r = analyzeTemplate(standalonePlacer(src), src);
  if (r.ok) throw new Error(`parses: ${src}`);
  return {
    problem: r.problem,
    at: `${r.range.start.line}:${r.range.start.column}`,
  };
}

test.each([
  ['a {{agent.id} b {{x}}', "'}'", '1:13'],
  ['x\n  {{foo bar=}}', "'}}'", '2:13'],
  ['{{#if x =}}y{{/if}}', "'}}'", '1:10'],
  ['{{#each a as |x}}y{{/each}}', "'}}'", '1:16'],
  ['{{a b c', 'the end of the template', '1:8'],
  ['{{a.[b}}', 'the end of the template', '1:9'],
])('%s: unexpected %s at %s', (src, found, at) => {
  expect(error(src)).toMatchObject({ problem: { message: 'unexpected', data: { found } }, at });
});

test('a mismatched close, at the position Handlebars reports (the block)', () => {
  expect(error('x\n{{#if a}}y{{/each}}')).toMatchObject({
    problem: { message: 'mismatch', data: { open: '{{#if}}', close: '{{/each}}', fix: '{{/if}}' } },
    at: '2:4',
  });
});

test('a block never closed: at its opener', () => {
  expect(error('a\n{{#each xs}}\n{{#if y}}z{{/if}}\n')).toEqual({
    problem: { message: 'neverClosed', data: { open: '{{#each}}', line: 2, close: '{{/each}}' } },
    at: '2:1',
  });
});

test('a close without an opener', () => {
  expect(error('a {{/if}}')).toMatchObject({ problem: { message: 'syntax', data: { reason: '"{{/if}}" closes no open block' } }, at: '1:3' });
});

test('escapes, comments and triple braces elsewhere do not confuse the search', () => {
  expect(error('\\{{x}} {{!-- }} --}} {{{y}}} {{z w=}}')).toMatchObject({ problem: { data: { found: "'}}'" } }, at: '1:36' });
});
