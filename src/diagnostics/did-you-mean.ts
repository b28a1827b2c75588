/**
 * The one did-you-mean helper lives beside the runtime (which ships without the
 * compiler); the compiler uses it through this module, and turns suggestions
 * into the catalog's `didYouMean` hint (`Did you mean {suggestions}?`).
 */
import { quoteList, suggestions } from '../runtime/did-you-mean.js';

export { closest, didYouMean, MAX_SUGGESTIONS, quoteList, suggestions } from '../runtime/did-you-mean.js';

/** The catalog's `didYouMean` hint for `name`, or undefined when nothing is close. */
export function didYouMeanHint(name: string, candidates: Iterable<string>): { id: 'didYouMean'; data: { suggestions: string } } | undefined {
  const found = suggestions(name, candidates);
  return found.length === 0 ? undefined : { id: 'didYouMean', data: { suggestions: quoteList(found) } };
}

/** Same, for suggestions already computed (e.g. rewritten into a full path). */
export function didYouMeanOf(found: readonly string[]): { id: 'didYouMean'; data: { suggestions: string } } | undefined {
  return found.length === 0 ? undefined : { id: 'didYouMean', data: { suggestions: quoteList(found) } };
}
