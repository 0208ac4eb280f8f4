/**
 * Child processes of the benchmark. On 2 cores the load generator competes with the server under test, so every
 * server and every load generator runs in a process of its own (never sharing an event loop with what it measures),
 * started the same way for every row: this Node, reading the kit's TypeScript as a clone does (bin/register.js: the
 * transpile cache), an IPC channel for results.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { redactText } from '../src/redact';

export const ROOT = path.join(__dirname, '..');

/** A message from a child: `ready` once listening, `result` with figures, `error` with a masked message. */
export type ChildMessage = { readonly type: 'ready'; readonly url: string } | { readonly type: 'result'; readonly data: unknown } | { readonly type: 'error'; readonly message: string };

export class BenchChild {
  private readonly queue: ChildMessage[] = [];
  private waiter: ((m: ChildMessage | Error) => void) | undefined;
  private exited: Error | undefined;
  private stderr = '';

  constructor(
    readonly proc: ChildProcess,
    readonly name: string,
  ) {
    proc.on('message', (m: unknown) => this.push(m as ChildMessage));
    proc.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    proc.once('exit', (code, signal) => {
      this.exited = new Error(`${name} exited (${signal ?? code}) ${redactText(this.stderr.trim().split('\n').slice(-5).join(' | '))}`);
      this.waiter?.(this.exited);
      this.waiter = undefined;
    });
  }

  private push(m: ChildMessage): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(m);
    } else this.queue.push(m);
  }

  /** The next message, within `timeoutMs`; an `error` message, an exit or the timeout reject. */
  next(timeoutMs: number): Promise<ChildMessage> {
    const queued = this.queue.shift();
    if (queued) return queued.type === 'error' ? Promise.reject(new Error(`${this.name}: ${queued.message}`)) : Promise.resolve(queued);
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`${this.name}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = (m) => {
        clearTimeout(timer);
        if (m instanceof Error) reject(m);
        else if (m.type === 'error') reject(new Error(`${this.name}: ${m.message}`));
        else resolve(m);
      };
    });
  }

  send(message: unknown): void {
    this.proc.send(message as Parameters<ChildProcess['send']>[0]);
  }

  /** Ends the child (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  stop(): Promise<void> {
    const p = this.proc;
    if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const hard = setTimeout(() => p.kill('SIGKILL'), 5000);
      p.once('exit', () => {
        clearTimeout(hard);
        resolve();
      });
      p.kill('SIGTERM');
    });
  }
}

/** Starts `bench/<script>.ts` in a child with IPC. */
export function forkBench(script: string, args: readonly string[] = [], name = script, nodeArgs: readonly string[] = []): BenchChild {
  const proc = fork(path.join(__dirname, script), [...args], {
    cwd: ROOT,
    execArgv: [...nodeArgs, '-r', path.join(ROOT, 'bin', 'register.js')],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  return new BenchChild(proc, name);
}

/** In a child: send one message to the parent (a no-op when run by hand without IPC). */
export function tell(message: ChildMessage): void {
  if (process.send) process.send(message);
  else console.log(JSON.stringify(message));
}

/** In a child: report an unexpected failure, masked, and exit. */
export function failChild(err: unknown): void {
  tell({ type: 'error', message: redactText(String((err as Error)?.stack ?? err)) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100).unref();
}
