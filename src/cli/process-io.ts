/**
 * The process's side of a command (src/io.ts): its streams, environment, folder and interrupts. The library calls
 * below src/cli are given these and never reach for `process` themselves.
 */
import type { CommandIo } from '../io';

/**
 * SIGINT and SIGTERM as interrupts, listened to until the returned function is called. `again`, when given, is
 * told of every interrupt after the first (a run quits on a second Ctrl-C without its reports).
 */
export function processInterrupts(again?: (signal: NodeJS.Signals) => void): NonNullable<CommandIo['interrupts']> {
  return (onInterrupt) => {
    let seen = 0;
    const handler = (signal: NodeJS.Signals): void => {
      seen += 1;
      if (seen > 1 && again) again(signal);
      else onInterrupt(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  };
}

/** Every part of the process a command may be given; `again` as for processInterrupts. */
export function processIo(again?: (signal: NodeJS.Signals) => void): CommandIo {
  return {
    out: process.stdout,
    err: process.stderr,
    tty: process.stdout.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    interrupts: processInterrupts(again),
  };
}
