/**
 * Starting one instance of a variant: the reference gateway in this process on a free loopback port, with the
 * variant's mutation hook and configuration, the test-control API on (as for the built-in target), and the
 * variant's front in front of it when it has one. Each start builds the variant afresh (its own closures).
 */
import { startGateway } from '../gateway';
import { startFront } from './front';
import type { Variant } from './types';

export interface StartedVariant {
  /** What the suite and the fuzzer talk to: the front's address, else the gateway's. */
  readonly url: string;
  /** Answers the change touched so far, where the variant counts them. */
  readonly reached?: () => number;
  close(): Promise<void>;
}

export async function startVariant(variant: Variant): Promise<StartedVariant> {
  const build = variant.build();
  const gw = await startGateway({ control: true, mutate: build.mutate, config: build.config });
  const reached = build.reached ? { reached: build.reached } : {};
  if (!build.front) return { url: gw.url, ...reached, close: () => gw.close() };
  try {
    const front = await startFront(gw.url, build.front);
    return {
      url: front.url,
      ...reached,
      close: async () => {
        await front.close();
        await gw.close();
      },
    };
  } catch (e) {
    await gw.close();
    throw e;
  }
}
