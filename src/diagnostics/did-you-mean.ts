/**
 * The one did-you-mean helper lives beside the runtime (which ships without the
 * compiler); the compiler uses it through this module.
 */
export { closest, didYouMean } from '../runtime/did-you-mean.js';
