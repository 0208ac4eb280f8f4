/**
 * The options several commands share (`--target`, `--format`) read once, so that `cardspec run` and `cardspec
 * fuzz` accept and refuse the same things with the same words. A `UsageError` is a mistake in the command line:
 * the commands answer it with their usage text and exit code 2.
 */
import { parseArgs } from 'node:util';
import type { Format } from '../wire/types';
import { parseArgsMessage } from './usage';

export class UsageError extends Error {}

const FORMATS: Readonly<Record<string, readonly Format[]>> = { json: ['json'], xml: ['xml'], both: ['json', 'xml'] };

/** `--target builtin|<base-url>`: `builtin` (the default) or an http(s) base URL with no query or fragment. */
export function targetOption(text: string | undefined): string {
  const target = text ?? 'builtin';
  if (target === 'builtin') return target;
  let u: URL;
  try {
    u = new URL(target);
  } catch {
    throw new UsageError(`--target must be "builtin" or an http(s) base URL, not "${target}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL, not "${target}"`);
  if (u.search || u.hash) throw new UsageError('--target is a base URL: no query or fragment (requests go to <base-url>/json/)');
  return target;
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
