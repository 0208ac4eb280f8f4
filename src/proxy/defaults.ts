/**
 * The proxy's limits when none is given, in a module of their own so that `cardspec proxy --help` prints them
 * without loading the proxy (its checks, the session, the forwarding thread): the help is read before anything runs.
 */

/** Milliseconds the upstream has for the whole answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The largest body forwarded either way. */
export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;
