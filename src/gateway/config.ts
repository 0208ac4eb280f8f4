/**
 * The gateway's users and sites: the built-in DEFAULT_CONFIG of src/testdata.ts, or a JSON file of the same shape
 * (`cardspec serve --config file`). A file is checked field by field with a message that says what to fix; a site
 * reference is checked against the dictionary's `sitereference` ("Alphanumeric incl. underscore", 50).
 */
import { readFile } from 'node:fs/promises';
import { FIELD } from '../../schemas/fields';
import { checkValue } from '../../schemas/check';
import { DEFAULT_CONFIG, type GatewayConfig, type SiteConfig, type UserConfig } from '../testdata';
import { redactText } from '../redact';

export { DEFAULT_CONFIG };
export type { GatewayConfig, SiteConfig, UserConfig };

/** A site as the gateway uses it: the configuration plus the site number that opens its transaction references. */
export interface SiteInfo {
  readonly config: SiteConfig;
  /** First part of a transaction reference (`12-9-1001`): 12 for the first configured site, 13 for the next... */
  readonly number: number;
}

/** Merchant data echoed in response parts ("Merchant and operator data"); its values are cardspec's choice. */
export const MERCHANT = {
  merchantname: 'cardspec test merchant',
  merchantnumber: '00000000',
  merchantcountryiso2a: 'GB',
  tid: '27882788',
} as const;

/** The node number, the middle part of every transaction reference (`12-9-1001`). */
export const NODE = 9;

export class ConfigError extends Error {}

export interface ResolvedConfig {
  readonly config: GatewayConfig;
  readonly sites: ReadonlyMap<string, SiteInfo>;
  readonly users: ReadonlyMap<string, UserConfig>;
}

export function resolveConfig(config: GatewayConfig = DEFAULT_CONFIG): ResolvedConfig {
  checkConfig(config);
  const sites = new Map<string, SiteInfo>();
  config.sites.forEach((s, i) => sites.set(s.sitereference, { config: s, number: 12 + i }));
  const users = new Map<string, UserConfig>();
  for (const u of config.users) users.set(u.username, u);
  return { config, sites, users };
}

/** Reads and checks a configuration file; throws ConfigError with a message naming the file and the problem. */
export async function loadConfigFile(path: string): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read configuration file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`configuration file ${path} is not JSON; expected {"users":[...],"sites":[...]} (see docs/gateway.md)`);
  }
  checkConfig(parsed, path);
  return parsed;
}

function fail(where: string, message: string): never {
  throw new ConfigError(redactText(`${where}: ${message} (see docs/gateway.md, "Configuration")`));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkConfig(value: unknown, where = 'configuration'): asserts value is GatewayConfig {
  if (!isObject(value)) fail(where, 'expected an object {"users":[...],"sites":[...]}');
  const { users, sites } = value;
  if (!Array.isArray(sites) || sites.length === 0) fail(where, '"sites" must be a non-empty list');
  if (!Array.isArray(users) || users.length === 0) fail(where, '"users" must be a non-empty list');
  const known = new Set<string>();
  sites.forEach((s: unknown, i: number) => {
    const at = `${where}: sites[${i}]`;
    if (!isObject(s)) fail(at, 'expected {"sitereference","cardstore","fraudcontrol","mcc"}');
    const problem = checkValue(FIELD.sitereference, 'request', s.sitereference);
    if (problem || s.sitereference === '') fail(at, `sitereference: ${problem?.message ?? 'must not be empty'}`);
    if (known.has(s.sitereference as string)) fail(at, `sitereference ${String(s.sitereference)} is listed twice`);
    known.add(s.sitereference as string);
    if (typeof s.cardstore !== 'boolean') fail(at, '"cardstore" must be true or false');
    if (typeof s.fraudcontrol !== 'boolean') fail(at, '"fraudcontrol" must be true or false');
    if (typeof s.mcc !== 'string' || !/^[0-9]{4}$/.test(s.mcc)) fail(at, '"mcc" must be a four-digit merchant category code as a string');
  });
  const names = new Set<string>();
  users.forEach((u: unknown, i: number) => {
    const at = `${where}: users[${i}]`;
    if (!isObject(u)) fail(at, 'expected {"username","password","alias","sites"}');
    for (const k of ['username', 'password', 'alias'] as const) {
      if (typeof u[k] !== 'string' || u[k] === '') fail(at, `"${k}" must be a non-empty string`);
    }
    if ((u.username as string).includes(':')) fail(at, '"username" must not contain ":" (HTTP basic authentication)');
    if (names.has(u.username as string)) fail(at, `username ${String(u.username)} is listed twice`);
    names.add(u.username as string);
    if (!Array.isArray(u.sites) || u.sites.length === 0) fail(at, '"sites" must be a non-empty list of site references');
    for (const s of u.sites) if (typeof s !== 'string' || !known.has(s)) fail(at, `site ${String(s)} is not in "sites"`);
  });
}
