import type { CliIO } from './io.js';

/**
 * Shows a spinner on stderr (terminals only) when `task` takes over a second;
 * clears it when done. Never writes to stdout, so reports stay machine-readable.
 */
export async function withProgress<T>(io: CliIO, label: string, task: () => Promise<T>): Promise<T> {
  if (!io.isTTY || io.env.CI) return task();
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let i = 0;
  let shown = false;
  let timer: NodeJS.Timeout | undefined;
  const frame = () => io.stderr(`\r${frames[i++ % frames.length]} ${label}…`);
  const start = setTimeout(() => {
    shown = true;
    frame();
    timer = setInterval(frame, 80);
  }, 1000);
  start.unref();
  try {
    return await task();
  } finally {
    clearTimeout(start);
    if (timer) clearInterval(timer);
    if (shown) io.stderr('\r\x1b[2K');
  }
}
