/**
 * The accounts the stand-in gateway of `serve --contract` adds to its configuration. Here, in the contract's room,
 * because the gateway adds them and the client cases (src/cases) only read them: the cases import the contract,
 * never the other way.
 */
import type { GatewayConfig } from '../gateway';

/**
 * The account of the case whose alias is not its user name ("In the examples it equals the basic-auth user name":
 * only in the examples). Added to the stand-in gateway's configuration in scenario mode when no account has one.
 */
export const ALIASED_ACCOUNT = { username: 'cardspec-sdk-user@example.test', alias: 'cardspec-operator-account', password: 'cardspec-case-password-2' } as const;

/** The configuration with an account whose alias differs from its user name (the first account's sites). */
export function withAliasedAccount(config: GatewayConfig): GatewayConfig {
  if (config.users.some((u) => u.alias !== u.username)) return config;
  if (config.users.some((u) => u.username === ALIASED_ACCOUNT.username)) return config;
  const first = config.users[0];
  if (!first) return config;
  return { ...config, users: [...config.users, { ...ALIASED_ACCOUNT, sites: [...first.sites] }] };
}
