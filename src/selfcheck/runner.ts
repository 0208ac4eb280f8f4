/**
 * Runs variants through the kit, in parallel where it helps: each variant's gateway lives in the process that
 * tests it, and cucumber runs one suite at a time per process (its steps share module state), so parallelism is
 * worker processes (./worker.ts), each taking the next variant as it finishes one. With one worker everything runs
 * in this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { redactText } from '../redact';
import type { ShortFuzz } from './fuzz';
import { runVariant } from './run-variant';
import type { Focus, Variant, VariantRun, VariantVerdict } from './types';
import { verdictOf } from './verdict';

export type WorkerTask =
  | { readonly kind: 'run'; readonly name: string; readonly fuzz: ShortFuzz | false; readonly exclude?: readonly string[]; readonly wholeSuite?: boolean; readonly focus?: Focus }
  | { readonly kind: 'stop' };

export type WorkerReply = { readonly kind: 'ready' } | { readonly kind: 'done'; readonly run: VariantRun } | { readonly kind: 'error'; readonly name: string; readonly message: string };

export interface SelfcheckOptions {
  readonly variants: readonly Variant[];
  /** Processes running variants at once; 1 runs them in this process. */
  readonly workers: number;
  readonly fuzz: ShortFuzz | false;
  /** Scenarios to leave out (`features/<file>:<line>`): for every variant, or chosen per variant. */
  readonly exclude?: readonly string[] | ((v: Variant) => readonly string[]);
  /** `false`: a faulty variant runs only its rule's scenarios, never the whole suite (the ablation). */
  readonly wholeSuite?: boolean;
  /** The census's scenarios of a variant (./census.ts), where it has them. */
  readonly focus?: (v: Variant) => Focus | undefined;
  /** Called as each variant is judged (progress). */
  readonly onVerdict?: (v: VariantVerdict) => void;
}

export interface SelfcheckResult {
  /** In the order of `variants`. */
  readonly verdicts: VariantVerdict[];
  readonly runs: VariantRun[];
  readonly durationMs: number;
}

/** Two on the project's 2-core machine: each worker keeps one core busy (gateway and cucumber share it). */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(4, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length));
}

/** A run that never happened, so that a lost variant is judged (not caught, not passed) instead of vanishing. */
function lostRun(v: Variant, why: string): VariantRun {
  return { name: v.name, tags: '', formats: [], scenarios: [], problems: [redactText(why)], durationMs: 0 };
}

const excludeOf = (opts: SelfcheckOptions, v: Variant): readonly string[] | undefined => (typeof opts.exclude === 'function' ? opts.exclude(v) : opts.exclude);

async function inProcess(opts: SelfcheckOptions, done: (v: Variant, run: VariantRun) => void): Promise<void> {
  for (const v of opts.variants) done(v, await runVariant(v, { fuzz: opts.fuzz, exclude: excludeOf(opts, v), wholeSuite: opts.wholeSuite, focus: opts.focus?.(v) }));
}

function startWorker(): ChildProcess {
  return fork(path.join(__dirname, 'worker.ts'), [], {
    // The kit's one way of reading TypeScript (bin/typescript.js): in a clone the transpile cache, not ts-node's
    // compiler loaded again in every worker.
    execArgv: ['--require', path.join(__dirname, '..', '..', 'bin', 'register.js')],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

function inWorkers(opts: SelfcheckOptions, done: (v: Variant, run: VariantRun) => void): Promise<void> {
  const queue = [...opts.variants];
  const byName = new Map(opts.variants.map((v) => [v.name, v]));
  const count = Math.min(opts.workers, queue.length);
  return new Promise((resolve) => {
    let live = count;
    for (let i = 0; i < count; i++) {
      const child = startWorker();
      let current: Variant | undefined;
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr = (stderr + c.toString('utf8')).slice(-4000);
      });
      const next = (): void => {
        current = queue.shift();
        if (current)
          child.send({ kind: 'run', name: current.name, fuzz: opts.fuzz, exclude: excludeOf(opts, current), wholeSuite: opts.wholeSuite, focus: opts.focus?.(current) } satisfies WorkerTask);
        else child.send({ kind: 'stop' } satisfies WorkerTask);
      };
      child.on('message', (m: WorkerReply) => {
        if (m.kind === 'done') {
          const v = byName.get(m.run.name);
          if (v) done(v, m.run);
        } else if (m.kind === 'error') {
          const v = byName.get(m.name);
          if (v) done(v, lostRun(v, `the worker could not run the variant: ${m.message}`));
        }
        next();
      });
      child.on('exit', (code) => {
        // A worker that died took its variant with it: judged lost, with the end of what it printed.
        if (current && code !== 0) done(current, lostRun(current, `the worker process ended (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`));
        current = undefined;
        if (--live === 0) resolve();
      });
      child.on('error', () => undefined);
    }
  });
}

export async function runSelfcheck(opts: SelfcheckOptions): Promise<SelfcheckResult> {
  const started = performance.now();
  const runs = new Map<string, VariantRun>();
  const verdicts = new Map<string, VariantVerdict>();
  const done = (v: Variant, run: VariantRun): void => {
    if (runs.has(v.name)) return;
    runs.set(v.name, run);
    const verdict = verdictOf(v, run);
    verdicts.set(v.name, verdict);
    opts.onVerdict?.(verdict);
  };
  if (opts.workers <= 1 || opts.variants.length <= 1) await inProcess(opts, done);
  else await inWorkers(opts, done);
  // Any variant no worker reported on is judged lost rather than dropped.
  for (const v of opts.variants) if (!runs.has(v.name)) done(v, lostRun(v, 'no worker reported on this variant'));
  return {
    verdicts: opts.variants.map((v) => verdicts.get(v.name)!),
    runs: opts.variants.map((v) => runs.get(v.name)!),
    durationMs: Math.round(performance.now() - started),
  };
}

/** One faulty variant caught by a single scenario, run again without that scenario. */
export interface Ablation {
  readonly name: string;
  readonly rule: string;
  /** The only scenario that caught it (`features/<file>:<line>`). */
  readonly scenario: string;
  /** Whether the variant was still caught without it (it must not be: the scenario was its only catcher). */
  readonly stillCaught: boolean;
}

/** The distinct scenarios (`file:line`, whatever the format) of a verdict's catchers. */
export const catcherScenarios = (v: VariantVerdict): string[] => [...new Set(v.caughtBy.map((c) => c.replace(/ \[(json|xml)\]$/, '')))];

/**
 * "Removing any one scenario that is the only catcher of a variant makes it fail": for each faulty variant caught
 * by exactly one scenario, its rule's scenarios run again without that scenario (no fuzz, never the whole suite)
 * and the variant must go uncaught by them: the scenario is needed among those written for the rule, whatever an
 * invariant elsewhere in the suite would also see.
 */
export async function ablate(variants: readonly Variant[], verdicts: readonly VariantVerdict[], workers: number): Promise<Ablation[]> {
  const only = new Map(verdicts.filter((v) => v.kind === 'faulty' && v.ok && catcherScenarios(v).length === 1).map((v) => [v.name, catcherScenarios(v)[0]]));
  const chosen = variants.filter((v) => only.has(v.name));
  const r = await runSelfcheck({ variants: chosen, workers, fuzz: false, wholeSuite: false, exclude: (v) => [only.get(v.name)!] });
  return r.verdicts.map((v) => ({ name: v.name, rule: v.rule ?? '', scenario: only.get(v.name)!, stillCaught: v.ok }));
}
