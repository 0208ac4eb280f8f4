/**
 * The options several commands share (`--target` and the connection, `--format`) read once, so that `cardspec run` and `cardspec
 * fuzz` accept and refuse the same things with the same words. A `UsageError` is a mistake in the command line:
 * the commands answer it with their usage text and exit code 2.
 */
import { parseArgs } from 'node:util';
import { ConnectionError, readTarget, resolveConnection, type Connection } from '../client/connection';
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

/** The text of a string option, or undefined when it was not given. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
