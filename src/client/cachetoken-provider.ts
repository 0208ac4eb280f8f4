/**
 * The profile's cache-token provider: a command the kit runs with a card, that prints a cache token, as a merchant's
 * payment page obtains one from the JavaScript library (the library posts the token to the merchant after the
 * customer submits the payment form). A real sandbox hands out cache tokens only that way; the command is where a
 * user puts it (a headless browser on their payment page, say). Template: examples/cachetoken-provider.js.
 *
 * The protocol: the card goes on standard input as one JSON object `{"pan", "expirydate", "securitycode"?}` (never
 * on the command line, where other processes could read it); the environment names the target (`CARDSPEC_TARGET`,
 * `CARDSPEC_SITE`, `CARDSPEC_CURRENCY`); the command prints the token as the last line of its standard output and
 * exits 0. It is killed after the profile's `timeoutMs`, or when the run stops.
 */
import { spawn } from 'node:child_process';
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { redactText } from '../redact';
import type { CachetokenProvider, ProfileCard } from './profile';

/** The provider failed: the message says how, masked (its standard error is quoted, masked, cut short). */
export class ProviderError extends Error {
  constructor(message: string) {
    super(redactText(message));
    this.name = 'ProviderError';
  }
}

export interface ProviderContext {
  readonly baseUrl: string;
  readonly site: string;
  readonly currency: string;
}

const MAX_OUTPUT = 64 * 1024;

function describe(command: CachetokenProvider['command']): string {
  return typeof command === 'string' ? command : command.join(' ');
}

function tail(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
  const last = lines.slice(-3).join(' | ');
  return last.length > 300 ? `...${last.slice(-297)}` : last;
}

/** Runs the provider for one card; resolves with the token, checked against the dictionary's `cachetoken`. */
export function provideCachetoken(provider: CachetokenProvider, card: ProfileCard, context: ProviderContext, signal?: AbortSignal): Promise<string> {
  const what = `the cache-token provider (${describe(provider.command)})`;
  return new Promise<string>((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError(`${what} was not started: the run was stopped`));
    const env = { ...process.env, CARDSPEC_TARGET: context.baseUrl, CARDSPEC_SITE: context.site, CARDSPEC_CURRENCY: context.currency };
    // Its own process group, so that a shell and whatever it started are ended together.
    const options = { cwd: provider.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] as 'pipe'[] };
    const child = typeof provider.command === 'string' ? spawn('/bin/sh', ['-c', provider.command], options) : spawn(provider.command[0], provider.command.slice(1), options);
    let stdout = '';
    let stderr = '';
    let settled = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const done = (err: Error | null, token?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (err) {
        kill();
        reject(err);
      } else resolve(token!);
    };
    const onAbort = (): void => done(new ProviderError(`${what} was ended: the run was stopped`));
    const timer = setTimeout(() => done(new ProviderError(`${what} printed no token within ${provider.timeoutMs} ms (cachetokenProvider.timeoutMs)`)), provider.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => done(new ProviderError(`${what} could not be started: ${e.code ?? e.message}`)));
    child.on('close', (code, sig) => {
      if (code !== 0) {
        const why = sig ? `was ended by ${sig}` : `exited with ${code}`;
        return done(new ProviderError(`${what} ${why}${stderr.trim() ? `: ${tail(stderr)}` : ''}`));
      }
      const token = stdout
        .trim()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .pop()
        ?.trim();
      if (!token) return done(new ProviderError(`${what} printed nothing on its standard output`));
      const problem = checkValue(FIELD.cachetoken, 'request', token);
      if (problem) return done(new ProviderError(`${what} printed no valid cachetoken (${problem.message})`));
      done(null, token);
    });
    // A command that does not read its input is no error of the card's.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify({ pan: card.pan, expirydate: card.expirydate, ...(card.securitycode ? { securitycode: card.securitycode } : {}) })}\n`);
  });
}
