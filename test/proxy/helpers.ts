/**
 * Shared helpers of the proxy tests: the reference gateway (or a variant of the gallery) on loopback with the
 * checking proxy in front of it, and the contract tests' client pointed at the proxy.
 */
import { after } from 'node:test';
import { startGateway, type RunningGateway } from '../../src/gateway';
import type { RunningContractGateway } from '../../src/contract';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../src/proxy';
import { variantNamed } from '../../src/selfcheck/gallery';
import { startVariant } from '../../src/selfcheck/start';
import { Sender } from '../contract/helpers';

export interface Path {
  readonly proxy: RunningProxy;
  readonly client: Sender;
  readonly upstream: string;
  close(): Promise<void>;
}

/** The reference gateway (or the named variant) behind a checking proxy; the client talks to the proxy. */
export async function throughProxy(variant?: string, opts: Partial<ProxyOptions> = {}): Promise<Path> {
  let gw: RunningGateway | { url: string; close(): Promise<void> };
  if (variant) {
    const v = variantNamed(variant);
    if (!v) throw new Error(`no variant ${variant}`);
    gw = await startVariant(v);
  } else gw = await startGateway({ control: true });
  const proxy = await startProxy({ upstream: gw.url, ...opts });
  // The contract tests' client only reads the address it is given.
  const client = new Sender({ url: proxy.url } as RunningContractGateway);
  return {
    proxy,
    client,
    upstream: gw.url,
    close: async () => {
      await proxy.close();
      await gw.close();
    },
  };
}

/**
 * What a test file opens and closes when it ends: `path` is throughProxy with its path closed then; `open` takes
 * anything else to close (a proxy, a server).
 */
export function closedAtEnd(): { readonly open: { close(): Promise<void> }[]; path(variant?: string): Promise<Path> } {
  const open: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const o of open) await o.close();
  });
  return {
    open,
    path: async (variant) => {
      const p = await throughProxy(variant);
      open.push(p);
      return p;
    },
  };
}

/** The rules the proxy found broken on one side, with errors, once every exchange so far is checked. */
export async function broken(proxy: RunningProxy, side: 'client' | 'gateway' | 'path'): Promise<string[]> {
  await proxy.settled();
  return proxy.session
    .report()
    .violations.byRule.filter((b) => b.side === side && b.errors > 0)
    .map((b) => b.rule);
}
