/**
 * `bin/cardspec.js` as a user runs it: a separate process, its exit code and both outputs. The time limits are guards
 * against a process that never ends, not speeds: a run of a few scenarios takes seconds on an idle machine and many
 * times that on two busy cores, and a process killed at the limit fails its test on a missing exit code.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';

const GUARD_MS = 600_000;

export const ROOT = path.join(__dirname, '..', '..');
export const BIN = path.join(ROOT, 'bin', 'cardspec.js');

export interface Spawned {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function cardspec(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Spawned {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? GUARD_MS,
  });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** The same, without blocking this process's event loop (a server in this process must answer the run). */
export function cardspecAsync(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Spawned> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? GUARD_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
