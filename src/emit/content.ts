/**
 * A generated file's content: text, or its UTF-8 bytes as chunks in order. Big
 * files (bundle.json, bundle.ts) are assembled from per-agent fragments that a
 * watch session keeps between rebuilds; chunks let them be hashed, compared and
 * written without first copying 36 MB into one string.
 *
 * Invariant: a chunk is never mutated after it is part of a FileContent (caches
 * share chunks between rebuilds and compare them by identity).
 */
export type FileContent = string | readonly Uint8Array[];

/**
 * The generated files by relative path, in sorted order: a `Map`, or a lazy view
 * whose `get` makes a file's content on demand, anew on every call (files.ts
 * `emitOutput`), so that writing or comparing the output never holds every file
 * at once. Readers ask for each file once.
 */
export interface OutputFiles {
  readonly size: number;
  keys(): Iterable<string>;
  has(rel: string): boolean;
  get(rel: string): FileContent | undefined;
  [Symbol.iterator](): Iterator<[string, FileContent]>;
}

export function contentToString(content: FileContent): string {
  return typeof content === 'string' ? content : Buffer.concat(content).toString('utf8');
}

export function contentToBuffer(content: FileContent): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.concat(content);
}

export function contentByteLength(content: FileContent): number {
  if (typeof content === 'string') return Buffer.byteLength(content, 'utf8');
  let n = 0;
  for (const c of content) n += c.byteLength;
  return n;
}

/** Same bytes. Cheap when both share their chunks (identity) or differ in length; never joins chunks. */
export function sameContent(a: FileContent, b: FileContent): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  const x = typeof a === 'string' ? [Buffer.from(a, 'utf8')] : a;
  const y = typeof b === 'string' ? [Buffer.from(b, 'utf8')] : b;
  if (x.length === y.length && x.every((c, i) => c === y[i])) return true;
  // Walk both chunk lists side by side, comparing the overlapping spans (a chunk shared at the same
  // offset is skipped unread); it stops at the first difference. No total length first: that would
  // visit every chunk of both (thousands for bundle.json) even when they differ early.
  let i = 0;
  let j = 0;
  let at = 0;
  let bt = 0;
  while (i < x.length && j < y.length) {
    const cx = x[i]!;
    const cy = y[j]!;
    const n = Math.min(cx.byteLength - at, cy.byteLength - bt);
    if (cx !== cy || at !== bt) {
      if (Buffer.compare(cx.subarray(at, at + n), cy.subarray(bt, bt + n)) !== 0) return false;
    }
    at += n;
    bt += n;
    if (at === cx.byteLength) [i, at] = [i + 1, 0];
    if (bt === cy.byteLength) [j, bt] = [j + 1, 0];
  }
  return restIsEmpty(x, i, at) && restIsEmpty(y, j, bt);
}

/** Whether no byte is left in `chunks` from offset `at` of chunk `i` on. */
function restIsEmpty(chunks: readonly Uint8Array[], i: number, at: number): boolean {
  for (; i < chunks.length; i++, at = 0) if (chunks[i]!.byteLength > at) return false;
  return true;
}

/** Same bytes as a file read from disk. */
export function contentEquals(content: FileContent, bytes: Buffer): boolean {
  if (contentByteLength(content) !== bytes.byteLength) return false;
  if (typeof content === 'string') return bytes.equals(Buffer.from(content, 'utf8'));
  let at = 0;
  for (const c of content) {
    if (Buffer.compare(bytes.subarray(at, at + c.byteLength), c) !== 0) return false;
    at += c.byteLength;
  }
  return true;
}
