/**
 * A command run in this process (the same `run` the CLI calls), with what it prints through `console.log` and
 * `console.error` captured in order; the console is put back whatever happens.
 */
export async function captured(command: () => Promise<number>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => void lines.push(a.map(String).join(' '));
  console.error = console.log;
  try {
    const code = await command();
    return { code, out: lines.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** An io for a library call or a command that takes one (src/io.ts): what it wrote, stdout and stderr in order. */
export function capturingIo(): { io: { out: { write(t: string): void }; err: { write(t: string): void }; tty: false; env: NodeJS.ProcessEnv; cwd: string }; text: () => string } {
  const chunks: string[] = [];
  const sink = { write: (t: string): void => void chunks.push(t) };
  return { io: { out: sink, err: sink, tty: false, env: process.env, cwd: process.cwd() }, text: () => chunks.join('').replace(/\n$/, '') };
}
