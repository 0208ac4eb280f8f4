/**
 * How the kit reaches a target: one reading of `--target`, `--profile`, `--user`, `--password`, `--alias` and
 * `--site` (with CARDSPEC_USER and CARDSPEC_PASSWORD) for every command that talks to one (`run`, `fuzz`), and the
 * same connection built from the built-in profile for the ones that start their own gateway (`selfcheck`,
 * `serve --client-cmd`). Targets and control clients are made here, from a connection, and nowhere else.
 *
 * The alias rule ("`alias`: Identifies the operator account. In the examples it equals the basic-auth user name"):
 * `--alias` when given; else the profile's alias when the user is the profile's own (an alias belongs to the
 * account of its user); else the user name, as in the document's examples. So `--user X` (or CARDSPEC_USER=X)
 * with a profile for another user sends alias X, in every command.
 */
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { registerSecret } from '../redact';
import type { LedgerStats } from '../gateway/ledger';
import type { Format } from '../wire/types';
import { ControlClient } from './control';
import type { HttpLimits } from './http';
import { loadProfile, type Profile } from './profile';
import { Target, type TargetOptions } from './target';

/** A mistake in the connection options: the command answers it as a usage error (exit 2). */
export class ConnectionError extends Error {}

export interface Connection {
  /** `builtin` (the kit starts its reference gateway) or the target's base URL. */
  readonly target: 'builtin' | string;
  /** `builtin` or the profile file, as given (a replay command repeats it). */
  readonly profileSpec: string;
  readonly profile: Profile;
  readonly user: string;
  readonly password: string;
  readonly alias: string;
  readonly site: string;
}

/** What a Target or a control client is made from (a whole Connection, or a plan that carries these). */
export type Parts = Pick<Connection, 'profile' | 'alias'> & { readonly user?: string; readonly password?: string };

/** What the command line and the environment say; every member optional. */
export interface ConnectionInput {
  readonly target?: string;
  readonly profile?: string;
  readonly user?: string;
  readonly password?: string;
  readonly alias?: string;
  readonly site?: string;
}

/**
 * A password in the URL's user information (`https://user:pass@host/`) is a secret of the run like `--password`:
 * registered before the URL is read, so that every message that quotes the target (a refusal, a connection error,
 * a report's header) masks it, also where the text around it is not a URL any more (a space in the password).
 */
function registerUrlPassword(target: string): void {
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(target)?.[1];
  const colon = userinfo?.indexOf(':') ?? -1;
  if (userinfo === undefined || colon < 0) return;
  const password = userinfo.slice(colon + 1);
  registerSecret(password);
  try {
    registerSecret(decodeURIComponent(password));
  } catch {
    // not percent-encoded text: registered as given
  }
}

/** `--target builtin|<base-url>`: `builtin` (the default) or an http(s) base URL with no query or fragment. */
export function readTarget(text: string | undefined): string {
  const target = text ?? 'builtin';
  if (target === 'builtin') return target;
  registerUrlPassword(target);
  let u: URL;
  try {
    u = new URL(target);
  } catch {
    throw new ConnectionError(`--target must be "builtin" or an http(s) base URL, not "${target}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConnectionError(`--target must be an http(s) URL, not "${target}"`);
  if (u.search || u.hash) throw new ConnectionError('--target is a base URL: no query or fragment (requests go to <base-url>/json/)');
  return target;
}

/** The alias rule of this module's comment, on its own so that each command's tests can hold it. */
export function aliasFor(profile: Profile, user: string, given: string | undefined): string {
  if (given !== undefined) return given;
  const own = profile.credentials;
  return own && own.user === user ? (own.alias ?? user) : user;
}

/**
 * The connection from the options and the environment. `profile` may be passed already loaded (a command that
 * changed its limits); a missing user or password, or a site the dictionary refuses, is a ConnectionError.
 */
export function resolveConnection(input: ConnectionInput, env: NodeJS.ProcessEnv = process.env, loaded?: Profile): Connection {
  const target = readTarget(input.target);
  const profileSpec = input.profile ?? 'builtin';
  const profile = loaded ?? loadProfile(profileSpec);
  const user = input.user ?? env.CARDSPEC_USER ?? profile.credentials?.user;
  const password = input.password ?? env.CARDSPEC_PASSWORD ?? profile.credentials?.password;
  if (!user || password === undefined) {
    throw new ConnectionError(`no credentials: give --user and --password, or CARDSPEC_USER and CARDSPEC_PASSWORD (the profile "${profile.name}" has none)`);
  }
  const site = input.site ?? profile.sites.main;
  const siteProblem = checkValue(FIELD.sitereference, 'request', site);
  if (siteProblem) throw new ConnectionError(`--site: ${siteProblem.message}`);
  return { target, profileSpec, profile, user, password, alias: aliasFor(profile, user, input.alias), site };
}

/** The built-in profile's connection: what the self-check and `serve --client-cmd` use against their own gateway. */
export function builtinConnection(): Connection {
  return resolveConnection({}, {});
}

export interface OpenOptions {
  /** The profile's limits unless given (a command's --timeout). */
  readonly limits?: HttpLimits;
  /** Aborts the requests in flight (the run was stopped). */
  readonly signal?: AbortSignal;
}

/** The options of a Target for one format at a base URL (for a Target rebuilt elsewhere, e.g. on a fuzz thread). */
export function targetOptions(conn: Parts, baseUrl: string, format: Format, opts: OpenOptions = {}): TargetOptions {
  return {
    baseUrl,
    format,
    user: conn.user,
    password: conn.password,
    alias: conn.alias,
    jsonPath: conn.profile.paths.json,
    xmlPath: conn.profile.paths.xml,
    limits: opts.limits ?? conn.profile.limits,
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
}

/** A Target for one format: the one way the kit opens a target. */
export function openTarget(conn: Parts, baseUrl: string, format: Format, opts: OpenOptions = {}): Target {
  return new Target(targetOptions(conn, baseUrl, format, opts));
}

/** The client of the target's test-control API, with the connection's credentials and the profile's path. */
export function controlClientFor(conn: Parts, baseUrl: string, opts: OpenOptions = {}): ControlClient {
  return new ControlClient({
    baseUrl,
    path: conn.profile.paths.control,
    user: conn.user,
    password: conn.password,
    limits: opts.limits ?? conn.profile.limits,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/**
 * The target's base URL: the built-in gateway is started (on loopback, test-control API on) and closed after.
 * `maxRecords`: the built-in gateway's ledger window (docs/gateway.md "What the ledger keeps"; the fuzzer's is small).
 * `ledger` (the built-in gateway only) reads what its ledger holds, so that a run can say so and a test can see the
 * window it was given.
 */
export interface ReachedTarget {
  readonly baseUrl: string;
  close(): Promise<void>;
  readonly ledger?: () => LedgerStats;
}

export async function reachTarget(conn: Pick<Connection, 'target'>, builtin: { readonly maxRecords?: number } = {}): Promise<ReachedTarget> {
  if (conn.target !== 'builtin') return { baseUrl: conn.target, close: async () => undefined };
  const { startGateway } = await import('../gateway');
  const gw = await startGateway({ control: true, ...(builtin.maxRecords !== undefined ? { maxRecords: builtin.maxRecords } : {}) });
  return { baseUrl: gw.url, close: () => gw.close(), ledger: () => gw.ledger.stats() };
}
