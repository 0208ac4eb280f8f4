/**
 * HTTP basic authentication of the interface's callers ("Every call uses HTTP basic authentication: a user name and
 * password"), against the configured users; passwords are compared as digests in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { UserConfig } from '../../testdata';

/** HTTP basic authentication ("Every call uses HTTP basic authentication: a user name and password"). */
export class Authenticator {
  private readonly cache = new Map<string, UserConfig>();
  private readonly digests: Map<string, { user: UserConfig; digest: Buffer }>;

  constructor(users: ReadonlyMap<string, UserConfig>) {
    this.digests = new Map([...users].map(([name, user]) => [name, { user, digest: sha256(user.password) }]));
  }

  user(header: string | undefined): UserConfig | undefined {
    if (!header) return undefined;
    const hit = this.cache.get(header);
    if (hit) return hit;
    const m = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m) return undefined;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const entry = this.digests.get(decoded.slice(0, colon));
    // Compared as digests of equal length, in constant time.
    if (!entry || !timingSafeEqual(entry.digest, sha256(decoded.slice(colon + 1)))) return undefined;
    if (this.cache.size > 256) this.cache.clear();
    this.cache.set(header, entry.user);
    return entry.user;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
