/**
 * What a library call of a command (runConformance, runFuzz, ...) reads and writes of its process, passed in: the
 * command line gives the process's streams and environment, a test or a user's script its own. Below src/cli/ no
 * module writes to `console` or `process.stdout`, so that a call can be run twice in one process, captured, or
 * embedded, and what it printed is what it was given to print to (test/structure/console.test.ts holds to it).
 */

/** Text out: a stream, or anything that takes text (a test's buffer). */
export interface TextSink {
  write(text: string): unknown;
}

export interface CommandIo {
  /** The call's report: progress, the summary, the verdict. */
  readonly out: TextSink;
  /** Notes, warnings and problems. */
  readonly err: TextSink;
  /** `out` is a terminal: progress as dots rather than a line per feature. */
  readonly tty: boolean;
  /** The environment (CARDSPEC_USER, CARDSPEC_CA, ...): read, and written for the workers a call starts (TLS). */
  readonly env: NodeJS.ProcessEnv;
  /** The folder paths are shown relative to. */
  readonly cwd: string;
  /**
   * The user's interrupts (SIGINT, SIGTERM): `listen(onInterrupt)` calls onInterrupt with the signal's name for
   * each one until the returned function is called. Absent: the call is not interruptible but by its own limits.
   */
  readonly interrupts?: (onInterrupt: (signal: string) => void) => () => void;
}
