/**
 * Stoplight Prism (npm `@stoplight/prism-cli`, a devDependency) serving a document that `cardspec openapi` wrote:
 * what a user who imports the document into their tools gets, used by the tests ("Prism can load it") and by the
 * benchmark (Prism's mock server beside the reference gateway). Loopback only. Prism runs in a process of its own,
 * started from its package's own entry point with this Node, so that no shell and no PATH lookup is involved.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { redactText } from '../redact';

export interface PrismInstall {
  /** The CLI's entry point (`dist/index.js`). */
  readonly entry: string;
  readonly version: string;
}

/** Where Prism is installed, or `undefined` when it is not (it is optional: the benchmark and a test use it). */
export function findPrism(): PrismInstall | undefined {
  let pkgFile: string;
  try {
    pkgFile = require.resolve('@stoplight/prism-cli/package.json');
  } catch {
    return undefined;
  }
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { version?: string; bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.prism;
  if (!bin) return undefined;
  const entry = path.join(path.dirname(pkgFile), bin);
  return fs.existsSync(entry) ? { entry, version: pkg.version ?? 'unknown' } : undefined;
}

export interface PrismOptions {
  /**
   * Quiet (log level `error`): no per-request log lines, as anyone measuring it would run it. Prism then prints
   * nothing at start, so a free port is chosen first and readiness is found by asking; otherwise Prism picks the
   * port (0) and says it in its start line.
   */
  readonly quiet?: boolean;
  /** Longest wait for Prism to be ready (default 30 s: it loads and dereferences the whole document). */
  readonly startTimeoutMs?: number;
  /** Extra arguments for `prism mock` (e.g. `--dynamic`). */
  readonly args?: readonly string[];
}

export interface RunningPrism {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
  readonly version: string;
  close(): Promise<void>;
}

/** Prism could not be found, started or reached; the message (which may quote Prism's output) is masked. */
export class PrismError extends Error {
  override name = 'PrismError';
  constructor(message: string) {
    super(redactText(message));
  }
}

/** A port that was free a moment ago on loopback (Prism, quiet, cannot report the one it would pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    hard.unref();
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `prism mock <documentFile>` on 127.0.0.1 and resolves once it answers. */
export async function startPrism(documentFile: string, options: PrismOptions = {}): Promise<RunningPrism> {
  const install = findPrism();
  if (!install) throw new PrismError('Stoplight Prism is not installed (npm install --save-dev @stoplight/prism-cli)');
  const quiet = options.quiet ?? false;
  const port = quiet ? await freePort() : 0;
  const args = [install.entry, 'mock', '-h', '127.0.0.1', '-p', String(port), ...(quiet ? ['-v', 'error'] : []), ...(options.args ?? []), documentFile];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const limit = options.startTimeoutMs ?? 30_000;
  const started = Date.now();

  const url = await new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, value?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value as string);
    };
    const timer = setTimeout(() => finish(new PrismError(`Prism did not start within ${limit} ms: ${output.slice(-500)}`)), limit);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > 64 * 1024) output = output.slice(-32 * 1024);
      const m = /Prism is listening on (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(output);
      if (m && !quiet) finish(undefined, m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => finish(new PrismError(`Prism exited (${code}) before it was ready: ${output.slice(-500)}`)));
    child.once('error', (err) => finish(new PrismError(`Prism could not be started: ${err.message}`)));
    if (quiet) {
      const target = `http://127.0.0.1:${port}`;
      // Quiet Prism says nothing when it is ready: ask it, a bounded number of times.
      const ask = (): void => {
        if (settled) return;
        void answers(target + '/').then((ok) => {
          if (ok) finish(undefined, target);
          else if (Date.now() - started < limit) setTimeout(ask, 100);
        });
      };
      ask();
    }
  }).catch(async (err: unknown) => {
    await stop(child);
    throw err;
  });
  // Prism's log lines are not needed once it is up; keep reading so that its pipes never fill.
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  return { url, pid: child.pid ?? -1, version: install.version, close: () => stop(child) };
}
