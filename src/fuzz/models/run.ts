/**
 * Runs a stateful model (fast-check commands and `asyncModelRun`) against a target: sequences of commands, each
 * checked against the model; a failing sequence is shrunk to the fewest commands that still fail, one request at a
 * time. A failure's path is fast-check's counterexample path and the commands' replay path, joined by `~`, so that
 * `cardspec fuzz --property <model> --seed S --path 'P~R'` replays exactly the shrunk sequence.
 *
 * Sequences are sent one after another (a model is a story of one state); every loop is bounded by the number of
 * runs, the commands per run, the shrink budget and the deadline.
 */
import fc from 'fast-check';
import { redactText } from '../../redact';
import type { Format } from '../../wire/types';
import type { Deadline } from '../pace';
import type { ModelEnv, ModelSpec } from './common';
import { ModelFailure } from './common';

export interface ModelRunOptions {
  readonly env: ModelEnv;
  readonly seed: number;
  /** Command sequences to run. */
  readonly runs: number;
  readonly maxCommands: number;
  readonly deadline: Deadline;
  /** Sequences one shrink may replay. */
  readonly shrinkRuns: number;
  /** Replay one sequence: `path~replayPath`. */
  readonly path?: string;
  readonly onProgress?: (done: number) => void;
}

export interface ModelCounterexample {
  readonly property: string;
  readonly format: Format;
  readonly rule: string;
  readonly seed: number;
  readonly path: string;
  readonly message: string;
  /** The commands run, in order (masked). */
  readonly commands: string;
  readonly shrinks: number;
}

export interface ModelOutcome {
  readonly property: string;
  readonly format: Format;
  readonly seed: number;
  readonly runs: number;
  readonly commands: number;
  readonly counterexample?: ModelCounterexample;
  /** A problem that is not a finding (the target could not be prepared), masked. */
  readonly problem?: string;
  readonly stoppedEarly?: string;
  readonly durationMs: number;
}

/** Splits `path~replayPath`. */
export function splitModelPath(path: string): { path: string; replayPath?: string } {
  const i = path.indexOf('~');
  return i < 0 ? { path } : { path: path.slice(0, i), replayPath: path.slice(i + 1) };
}

const REPLAY = /\/\*replayPath="([^"]*)"\*\//;

/** Runs a model's command sequences, or replays one. */
export async function fuzzModel<M extends object>(spec: ModelSpec<M>, opts: ModelRunOptions): Promise<ModelOutcome> {
  const started = performance.now();
  const format = opts.env.target.format;
  const replay = opts.path !== undefined ? splitModelPath(opts.path) : undefined;
  const commands = fc.commands(spec.commands(opts.env), { maxCommands: opts.maxCommands, size: 'medium', replayPath: replay?.replayPath });
  let runs = 0;
  let sent = 0;
  let shrinking = false;
  let shrinkRuns = 0;
  let stoppedEarly: string | undefined;
  let problem: string | undefined;
  let lastFailure: ModelFailure | Error | undefined;

  const property = fc.asyncProperty(commands, async (cmds) => {
    if (shrinking && ++shrinkRuns > opts.shrinkRuns) return;
    if (opts.deadline.passed) {
      stoppedEarly ??= 'the time limit was reached';
      return;
    }
    if (!shrinking) {
      runs++;
      opts.onProgress?.(runs);
    }
    const model = spec.initial();
    try {
      await spec.setup?.(opts.env, model);
    } catch (e) {
      // Not a finding of the model: the target could not be prepared (its clock could not be read, say).
      problem ??= redactText(`${spec.name}: setup failed: ${(e as Error).message}`);
      return;
    }
    const counted = [...cmds].map((c) => counting(c, () => sent++));
    try {
      await fc.asyncModelRun(() => ({ model, real: opts.env }), counted);
    } catch (e) {
      lastFailure = e instanceof Error ? e : new Error(String(e));
      shrinking = true;
      throw e;
    }
    try {
      await spec.teardown?.(opts.env, model);
    } catch {
      // Tidying up is a courtesy to the target; the run's verdict does not depend on it.
    }
  });

  const params: fc.Parameters<[Iterable<fc.AsyncCommand<M, ModelEnv>>]> = replay
    ? { seed: opts.seed, path: replay.path, numRuns: 1, endOnFailure: true }
    : { seed: opts.seed, numRuns: opts.runs, interruptAfterTimeLimit: Math.max(1, Math.ceil(opts.deadline.remainingMs)) };
  const details = await fc.check(property, params);

  let counterexample: ModelCounterexample | undefined;
  if (details.failed && details.counterexample) {
    const text = String(details.counterexample[0]);
    const replayPath = REPLAY.exec(text)?.[1];
    const failure = details.errorInstance instanceof Error ? details.errorInstance : lastFailure;
    counterexample = {
      property: spec.name,
      format,
      rule: failure instanceof ModelFailure ? failure.rule : 'TRANSPORT-RESPONSE-BODY',
      seed: opts.seed,
      path: replayPath !== undefined ? `${details.counterexamplePath}~${replayPath}` : (details.counterexamplePath ?? ''),
      message: redactText(failure?.message ?? 'the model failed'),
      commands: redactText(text.replace(REPLAY, '').trim()),
      shrinks: details.numShrinks,
    };
  }
  return { property: spec.name, format, seed: opts.seed, runs, commands: sent, counterexample, problem, stoppedEarly, durationMs: performance.now() - started };
}

/** A command that counts itself when it runs (`--rate` is applied to each request, in ./common.ts `call`). */
function counting<M extends object>(cmd: fc.AsyncCommand<M, ModelEnv>, count: () => void): fc.AsyncCommand<M, ModelEnv> {
  return {
    check: (m) => cmd.check(m),
    run: async (m, r) => {
      count();
      await cmd.run(m, r);
    },
    toString: () => cmd.toString(),
  };
}
