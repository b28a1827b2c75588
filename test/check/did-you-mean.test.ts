import { describe, expect, it } from 'vitest';
import { closest, didYouMean, didYouMeanHint, quoteList, suggestions } from '../../src/diagnostics/did-you-mean.js';

describe('did-you-mean', () => {
  it('suggests up to three candidates, closest first, ties by name', () => {
    const names = ['get_user', 'get_users', 'get_usr', 'get_used', 'put_user', 'unrelated'];
    expect(suggestions('get_user', names)).toEqual(['get_used', 'get_users', 'get_usr']);
    expect(suggestions('get_usre', names)).toEqual(['get_user', 'get_usr', 'get_used']);
    expect(suggestions('zzz', names)).toEqual([]);
  });

  it('closest is the first suggestion; the exact name itself is never suggested', () => {
    expect(closest('travl', ['travel', 'trave'])).toBe('trave');
    expect(suggestions('travel', ['travel'])).toEqual([]);
  });

  it('quotes the suggestions as one phrase for the catalog hint', () => {
    expect(quoteList(['a'])).toBe('"a"');
    expect(quoteList(['a', 'b'])).toBe('"a" or "b"');
    expect(quoteList(['a', 'b', 'c'])).toBe('"a", "b" or "c"');
    expect(didYouMeanHint('get_usre', ['get_user', 'get_users'])).toEqual({ id: 'didYouMean', data: { suggestions: '"get_user" or "get_users"' } });
    expect(didYouMeanHint('zzz', ['get_user'])).toBeUndefined();
    expect(didYouMean('get_usre', ['get_user', 'get_users'])).toBe('Did you mean "get_user" or "get_users"?');
  });
});
