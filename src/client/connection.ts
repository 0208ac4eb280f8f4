/**
 * How the kit reaches a target: targets and control clients are made here, from a connection, and nowhere else;
 * `reachTarget` is the one way to the target's base URL (the built-in gateway started when it is the target). The
 * connection itself is read in src/client/resolve.ts (re-exported here).
 */
import type { LedgerStats } from '../gateway/ledger';
import type { Format } from '../wire/types';
import { ControlClient } from './control';
import type { HttpLimits } from './http';
import type { Connection, Parts } from './resolve';
import { Target, type TargetOptions } from './target';

export { aliasFor, builtinConnection, ConnectionError, readTarget, resolveConnection, type Connection, type ConnectionInput, type Parts } from './resolve';

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
