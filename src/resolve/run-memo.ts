/**
 * Derived data of one compile (as graphql-js's ValidationContext): computed on
 * first use and dropped with the run's Program. Nothing derived from the input
 * lives in a module-level table; what must survive between compiles lives in
 * `CompileCache` (src/compile.ts), keyed explicitly.
 *
 * Invariant: a slot's value is a pure function of this run's Program (which
 * carries the config), so it needs no key beyond the slot itself.
 */

/** A named, typed slot; declare one per kind of derived data, next to the code that derives it. */
export interface MemoSlot<T> {
  readonly name: string;
  /** Type marker only (never set). */
  readonly type?: T;
}

export function memoSlot<T>(name: string): MemoSlot<T> {
  return Object.freeze({ name });
}

/**
 * Values that are a pure function of one parsed object alone (a Block, a Card, a Tool: never
 * mutated, a changed file parses into a new object), kept across compiles by
 * `CompileCache.objects` (src/compile.ts); without one they live for one run.
 */
export class LastingMemos {
  private readonly slots = new Map<MemoSlot<unknown>, WeakMap<object, unknown>>();
  private readonly boxes = new Map<MemoSlot<unknown>, { value?: unknown }>();

  /** One value per slot, kept across compiles; it must carry what it was made from and be checked against it on use. */
  box<T>(slot: MemoSlot<T>): { value?: T } {
    let b = this.boxes.get(slot as MemoSlot<unknown>);
    if (b === undefined) this.boxes.set(slot as MemoSlot<unknown>, (b = {}));
    return b as { value?: T };
  }

  of<K extends object, V>(slot: MemoSlot<WeakMap<K, V>>): WeakMap<K, V> {
    let m = this.slots.get(slot as MemoSlot<unknown>);
    if (m === undefined) this.slots.set(slot as MemoSlot<unknown>, (m = new WeakMap()));
    return m as WeakMap<K, V>;
  }
}

export class RunMemo {
  private readonly values = new Map<MemoSlot<unknown>, unknown>();

  constructor(private readonly lasting: LastingMemos = new LastingMemos()) {}

  /** The slot's values by object, across compiles when the run has a CompileCache (see LastingMemos: a value may depend on its key object only). */
  byObject<K extends object, V>(slot: MemoSlot<WeakMap<K, V>>): WeakMap<K, V> {
    return this.lasting.of(slot);
  }

  /** The slot's box across compiles when the run has a CompileCache (see LastingMemos.box: its value names its own key). */
  lastingBox<T>(slot: MemoSlot<T>): { value?: T } {
    return this.lasting.box(slot);
  }

  /** The slot's value, made by `make` on first use in this run. */
  get<T>(slot: MemoSlot<T>, make: () => T): T {
    if (this.values.has(slot)) return this.values.get(slot) as T;
    const v = make();
    this.values.set(slot, v);
    return v;
  }

  /** A per-run map in a slot (e.g. derived data by Block), made empty on first use. */
  map<K, V>(slot: MemoSlot<Map<K, V>>): Map<K, V> {
    return this.get(slot, () => new Map<K, V>());
  }
}
