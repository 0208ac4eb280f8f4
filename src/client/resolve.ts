/**
 * The one reading of `--target`, `--profile`, `--user`, `--password`, `--alias` and `--site` (with CARDSPEC_USER and
 * CARDSPEC_PASSWORD) into a Connection, for every command that talks to a target (`run`, `fuzz`), and the same
 * connection built from the built-in profile for the ones that start their own gateway. Apart from
 * src/client/connection.ts (which re-exports it and makes targets from a connection) so that a command line can be
 * read without loading the HTTP clients and the XML mapping: `cardspec <command> --help` stays fast.
 *
 * The alias rule ("`alias`: Identifies the operator account. In the examples it equals the basic-auth user name"):
 * `--alias` when given; else the profile's alias when the user is the profile's own (an alias belongs to the
 * account of its user); else the user name, as in the document's examples. So `--user X` (or CARDSPEC_USER=X)
 * with a profile for another user sends alias X, in every command.
 */
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { registerSecret } from '../redact';
import { loadProfile, type Profile } from './profile';

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
