import type { ProgressSink } from '../compile.js';
import type { CliIO } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Time between frames: a timer draws while the event loop is free, updates draw during synchronous work. */
export const FRAME_MS = 80;
export type Counter = 'files read' | 'agents compiled' | 'files written';
const COUNTERS: readonly Counter[] = ['files read', 'agents compiled', 'files written'];

/**
 * The progress line on stderr (terminals only; never stdout, so reports stay
 * machine-readable). Invariants: the first frame is drawn when the task starts
 * (not after a delay the event loop may not honour); every later frame names the
 * phase and the counts so far; frames advance both from a timer and from updates
 * (so a long synchronous phase still animates); the line is cleared exactly once,
 * when the caller's whole task — write phase included — is done.
 */
export class TerminalProgress implements ProgressSink {
  private frame = 0;
  private last = -Infinity;
  private phaseName = 'starting';
  private readonly counts = new Map<Counter, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly io: CliIO,
    private readonly label: string,
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(): void {
    this.draw();
    this.timer = setInterval(() => this.draw(), FRAME_MS);
    this.timer.unref();
  }

  /** A new phase is always drawn at once (there are few); counts are drawn at most once per FRAME_MS. */
  phase(name: string): void {
    if (name === this.phaseName) return;
    this.phaseName = name;
    if (this.timer) this.draw();
  }

  add(counter: Counter, n = 1): void {
    this.counts.set(counter, (this.counts.get(counter) ?? 0) + n);
    this.maybeDraw();
  }

  /** Erases the line so the caller can print; the next frame draws it again. */
  clear(): void {
    if (this.timer) this.io.stderr('\r\x1b[2K');
  }

  /** Erases the line for good (idempotent). */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.io.stderr('\r\x1b[2K');
  }

  private maybeDraw(): void {
    if (this.timer && this.now() - this.last >= FRAME_MS) this.draw();
  }

  private draw(): void {
    this.last = this.now();
    const counts = COUNTERS.filter((c) => this.counts.has(c)).map((c) => `${this.counts.get(c)} ${c}`);
    this.io.stderr(`\r\x1b[2K${FRAMES[this.frame++ % FRAMES.length]} ${this.label}: ${[this.phaseName, ...counts].join(' · ')}`);
  }
}

export type ProgressHandle = ProgressSink & { clear(): void; stop(): void };

/** Drops every update (not a terminal, or CI). */
const SILENT: ProgressHandle = { phase: () => {}, add: () => {}, clear: () => {}, stop: () => {} };

/** A started progress line on a terminal (outside CI), else a silent handle. Call stop() when done. */
export function startProgress(io: CliIO, label: string, phase = 'starting'): ProgressHandle {
  if (!io.isTTY || io.env.CI) return SILENT;
  const progress = new TerminalProgress(io, label);
  progress.phase(phase);
  progress.start();
  return progress;
}

/**
 * Runs `task` with a progress sink: a TerminalProgress on a terminal (outside
 * CI), a silent one otherwise. The line stays until `task` settles.
 */
export async function withProgress<T>(io: CliIO, label: string, task: (progress: ProgressSink) => Promise<T>): Promise<T> {
  const progress = startProgress(io, label);
  try {
    return await task(progress);
  } finally {
    progress.stop();
  }
}
