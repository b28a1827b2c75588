/**
 * The default session store lives in `sessions/memory.ts`; this module keeps
 * the historical import path.
 */
export { createMemorySessionStore, type MemoryStoreOptions } from './sessions/memory.js';
