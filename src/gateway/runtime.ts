/**
 * One gateway's state and settings, passed to everything that needs them: the resolved configuration, the ledger,
 * the clock, the engine and the mutation hook. Built once by `createRuntime`; the HTTP layer and the in-process
 * API share it.
 */
import { Clock, DEFAULT_CLOCK_START } from './clock';
import { resolveConfig, type GatewayConfig } from './config';
import { Engine } from './engine';
import { Ledger } from './ledger';
import type { GatewayMutation, Runtime } from './types';

export type { Runtime } from './types';

export interface RuntimeOptions {
  config?: GatewayConfig;
  control?: boolean;
  clockStart?: string;
  clockTicking?: boolean;
  mutate?: GatewayMutation;
  /** Transactions always kept (the ledger's window; docs/gateway.md "What the ledger keeps"). */
  maxRecords?: number;
}

export function createRuntime(opts: RuntimeOptions = {}): Runtime {
  const config = resolveConfig(opts.config);
  const ticking = opts.clockTicking ?? false;
  const start = opts.clockStart ?? (ticking ? Date.now() : DEFAULT_CLOCK_START);
  const clock = new Clock(start, ticking);
  const ledger = new Ledger(opts.mutate?.reference, opts.maxRecords);
  const runtime: Runtime = {
    config,
    ledger,
    clock,
    engine: undefined as unknown as Engine,
    control: opts.control ?? false,
    mutate: opts.mutate,
  };
  // The engine reads the runtime it belongs to (configuration for site numbers, ledger, clock).
  (runtime as { engine: Engine }).engine = new Engine(runtime);
  return runtime;
}
