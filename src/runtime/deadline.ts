/**
 * Time budgets and cancellation.
 *
 * Invariants: `runWithBudget` settles no later than `ms` after it is called even
 * when the work ignores its signal; the work's signal is aborted when the budget
 * runs out or the parent signal aborts; a late rejection of abandoned work is
 * swallowed (never an unhandled rejection); every timer and listener is removed
 * when the budget settles.
 */
export class BudgetExpired extends Error {
  constructor() {
    super('time budget expired');
    this.name = 'BudgetExpired';
  }
}

export type BudgetOutcome<T> = { done: true; value: T } | { done: false; reason: 'timeout' | 'cancelled' };

export async function runWithBudget<T>(
  parent: AbortSignal | undefined,
  ms: number | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<BudgetOutcome<T>> {
  const controller = new AbortController();
  if (parent?.aborted) {
    controller.abort(parent.reason);
    return { done: false, reason: 'cancelled' };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const stopped = new Promise<BudgetOutcome<T>>((resolve) => {
    if (ms !== undefined && Number.isFinite(ms) && ms >= 0) {
      timer = setTimeout(() => {
        controller.abort(new BudgetExpired());
        resolve({ done: false, reason: 'timeout' });
      }, ms);
    }
    if (parent !== undefined) {
      onParentAbort = () => {
        controller.abort(parent.reason);
        resolve({ done: false, reason: parent.reason instanceof BudgetExpired ? 'timeout' : 'cancelled' });
      };
      parent.addEventListener('abort', onParentAbort, { once: true });
    }
  });
  const running = work(controller.signal).then((value): BudgetOutcome<T> => ({ done: true, value }));
  running.catch(() => undefined);
  try {
    return await Promise.race([running, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onParentAbort !== undefined) parent?.removeEventListener('abort', onParentAbort);
  }
}

/** Resolves after `ms` (immediately for 0), rejects with the signal's reason on abort. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Races a promise against a signal (for work that may ignore its signal). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
