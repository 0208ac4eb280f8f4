/**
 * How a run of the suite ends early, and ends well: a signal (SIGINT, SIGTERM), the whole-run time limit
 * (`--max-time`) or a target that keeps failing in transport stops the run. A stopped run abandons the requests in
 * flight (through an AbortSignal the HTTP clients honour), and every scenario not finished is reported skipped with
 * the reason, so that cucumber ends normally and the reports of what ran are written: never a pass, never a
 * failure of the target for the kit's own stop.
 *
 * One `RunStop` per run and process, found by the run's id: `cardspec run` makes it, the steps find the same one in
 * the same process (or make their own in a worker process of `--parallel`, from the world parameters).
 */

/** What the steps need to find (or make) the run's stop: JSON, it crosses into worker processes. */
export interface StopParameters {
  readonly runId: string;
  /** Epoch milliseconds after which the run stops (`--max-time`); absent for no limit. */
  readonly deadline?: number;
  /** Transport failures in a row (refused, hung, reset) after which the run stops. */
  readonly maxTransportFailures: number;
}

/** After this many transport failures in a row the target is taken to be gone, and the run stops. */
export const DEFAULT_MAX_TRANSPORT_FAILURES = 5;

/** Thrown by a step whose request was abandoned because the run was stopped; the step is reported skipped. */
export class RunStopped extends Error {
  constructor(readonly reason: string) {
    super(`the run was stopped: ${reason}`);
    this.name = 'RunStopped';
  }
}

export class RunStop {
  private readonly controller = new AbortController();
  private why: string | undefined;
  private failuresInARow = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: ((reason: string) => void)[] = [];

  constructor(readonly parameters: StopParameters) {
    if (parameters.deadline !== undefined) {
      const ms = Math.max(0, parameters.deadline - Date.now());
      this.timer = setTimeout(() => this.stop('the time limit of the run (--max-time) was reached'), ms);
      this.timer.unref();
    }
  }

  /** Aborted when the run stops: hand it to every request. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run stopped, or undefined while it goes on. */
  get reason(): string | undefined {
    return this.why;
  }

  /** Stops the run (the first reason is kept). */
  stop(reason: string): void {
    if (this.why !== undefined) return;
    this.why = reason;
    clearTimeout(this.timer);
    this.controller.abort(new Error(reason));
    for (const l of this.listeners) l(reason);
  }

  onStop(listener: (reason: string) => void): void {
    this.listeners.push(listener);
  }

  /** Counts a request's transport outcome; a run of failures stops the run. */
  transport(failure: string | undefined): void {
    if (failure === undefined) {
      this.failuresInARow = 0;
      return;
    }
    this.failuresInARow += 1;
    if (this.failuresInARow >= this.parameters.maxTransportFailures) {
      this.stop(`${this.failuresInARow} requests in a row got no answer from the target; the last: ${failure}`);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

const stops = new Map<string, RunStop>();

/** The run's stop in this process, made on first use. */
export function runStop(parameters: StopParameters): RunStop {
  let stop = stops.get(parameters.runId);
  if (!stop) stops.set(parameters.runId, (stop = new RunStop(parameters)));
  return stop;
}

/** Stops every run of this process (a signal reached a worker process). */
export function stopEveryRun(reason: string): void {
  for (const stop of stops.values()) stop.stop(reason);
}

/** Forgets a finished run's stop (a process may run the suite many times: the self-check). */
export function releaseRunStop(runId: string): void {
  stops.get(runId)?.dispose();
  stops.delete(runId);
}
