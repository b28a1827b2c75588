#!/usr/bin/env node
import { main } from '../dist/cli/main.js';

// Last line of defence: whatever escapes (a rejection no command awaited, a throw in a
// callback) is one line on stderr and exit 2, never a raw stack trace or another exit code.
const die = (e) => {
  process.stderr.write(`agentc: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  if (process.env.AGENTC_DEBUG && e instanceof Error) process.stderr.write(`${e.stack ?? ''}\n`);
  process.exit(2);
};
process.on('uncaughtException', die);
process.on('unhandledRejection', die);
// A reader that went away (EPIPE) may be noticed only after main has computed its code:
// io.ts then sets the exit code to 0 first, and that wins (stdout to a pipe is synchronous
// on Linux, so the error is emitted on the next tick, before this promise callback).
main(process.argv.slice(2)).then((code) => {
  if (process.exitCode === undefined) process.exitCode = code;
}, die);
