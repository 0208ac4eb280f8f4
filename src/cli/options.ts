/**
 * The options several commands share (`--target` and the connection, `--format`) read once, so that `cardspec run` and `cardspec
 * fuzz` accept and refuse the same things with the same words. A `UsageError` is a mistake in the command line:
 * the commands answer it with their usage text and exit code 2.
 */
import { parseArgs } from 'node:util';
import { ConnectionError, readTarget, resolveConnection, type Connection } from '../client/resolve';
import type { Profile } from '../client/profile';
import type { Format } from '../wire/types';
import { parseArgsMessage } from './usage';

export class UsageError extends Error {}

const FORMATS: Readonly<Record<string, readonly Format[]>> = { json: ['json'], xml: ['xml'], both: ['json', 'xml'] };

/** `--target builtin|<base-url>` (src/client/connection.ts reads it). */
export function targetOption(text: string | undefined): string {
  return usage(() => readTarget(text));
}

/**
 * The connection options (`--target`, `--profile`, `--user`, `--password`, `--alias`, `--site`, CARDSPEC_USER,
 * CARDSPEC_PASSWORD) read once, the same way for every command (src/client/connection.ts, with the alias rule).
 */
export function connectionOptions(values: OptionValues, env: NodeJS.ProcessEnv, profile?: Profile): Connection {
  const str = (k: string): string | undefined => stringOption(values, k);
  return usage(() => resolveConnection({ target: str('target'), profile: str('profile'), user: str('user'), password: str('password'), alias: str('alias'), site: str('site') }, env, profile));
}

/** The option specs of the connection options, for a command's parseOptions. */
export const CONNECTION_OPTIONS: OptionSpecs = {
  target: { type: 'string' },
  profile: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  alias: { type: 'string' },
  site: { type: 'string' },
};

function usage<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ConnectionError) throw new UsageError(e.message);
    throw e;
  }
}

/** `--format json|xml|both` (default `json`) as the list of envelope forms to run. */
export function formatOption(text: string | undefined): readonly Format[] {
  const name = text ?? 'json';
  const formats = FORMATS[name];
  if (!formats) throw new UsageError(`--format must be json, xml or both, not "${name}"`);
  return formats;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;
export type OptionSpecs = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** node:util's parseArgs with the settings every command uses: strict, no positional arguments. */
export function parseOptions(args: string[], options: OptionSpecs): OptionValues {
  try {
    return parseArgs({ args, strict: true, allowPositionals: false, options }).values as OptionValues;
  } catch (e) {
    // One wording for every command (src/cli/usage.ts).
    throw new UsageError(parseArgsMessage(e));
  }
}

/**
 * `--name N`: a whole number from min to max, or `dflt` when the option was not given. One reader and one wording
 * for every command's counts (runs, workers, records, ports).
 */
export function wholeNumberOption(name: string, text: string | undefined, dflt: number, min: number, max: number): number {
  if (text === undefined) return dflt;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return Number(text);
}

const DAY_MS = 24 * 3600_000;

/** A limit in words: `24 hours`, `10 minutes`, `90 seconds`. */
function durationWords(ms: number): string {
  const [n, unit] = ms % 3600_000 === 0 ? [ms / 3600_000, 'hour'] : ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [ms / 1000, 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * `--name <duration>`: `15s`, `500ms`, `2m` or a plain number of seconds, as whole milliseconds (at least 1, at
 * most `maxMs`). The same units in every command's time options (run's --timeout and --max-time, fuzz's, serve's
 * --case-timeout).
 */
export function durationOption(name: string, text: string, maxMs: number = DAY_MS): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000) : NaN;
  if (!Number.isFinite(ms) || ms < 1 || ms > maxMs) throw new UsageError(`--${name} must be a duration such as 15s, 500ms or 2m (at most ${durationWords(maxMs)}), not "${text}"`);
  return Math.round(ms);
}

/** The text of a string option, or undefined when it was not given. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
