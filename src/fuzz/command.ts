/**
 * `cardspec fuzz` as a library call, `runFuzzCommand(plan, io)`: the TLS trust the threads inherit, a remote
 * target's preflight, `runFuzz`, its report printed, the exit code. src/cli/fuzz.ts reads the options into the plan
 * and exits with what this returns; output and environment come in `io` (src/io.ts).
 *
 * Exit codes: 0 PASSED, 1 FAILED, 2 a configuration error or nothing could be sent, 3 INCOMPLETE (0 with
 * `allowIncomplete`).
 */
import { preflight, PREFLIGHT_TIMEOUT_MS } from '../client/preflight';
import { applyTls, TlsConfigError } from '../client/tls';
import type { CommandIo } from '../io';
import { redactText } from '../redact';
import { runFuzz } from '.';
import type { FuzzPlan } from './plan';

/** What a fuzz run is given of its process: output, whether it is a terminal, the environment (TLS for threads). */
export type FuzzCommandIo = Pick<CommandIo, 'out' | 'err' | 'tty' | 'env'>;

export interface FuzzCommandPlan extends FuzzPlan {
  /** The answer time was given (`--timeout`): the preflight waits as long; else at most PREFLIGHT_TIMEOUT_MS. */
  readonly timeoutGiven: boolean;
  /** Exit 0 on INCOMPLETE (the verdict stays INCOMPLETE). */
  readonly allowIncomplete: boolean;
  /** `--ca FILE` and `--insecure` (src/client/tls.ts). */
  readonly tls: { readonly ca?: string; readonly insecure: boolean };
}

export async function runFuzzCommand(plan: FuzzCommandPlan, io: FuzzCommandIo): Promise<number> {
  try {
    // Before the threads start: they inherit the environment the trust travels in.
    for (const warning of applyTls(plan.tls, io.env)) io.err.write(`cardspec fuzz: ${warning}\n`);
  } catch (e) {
    if (!(e instanceof TlsConfigError)) throw e;
    io.err.write(redactText(`cardspec fuzz: ${e.message}\n`));
    return 2;
  }
  if (plan.target !== 'builtin') {
    // Nothing could be sent (a refused port, no such host, a TLS mismatch, a target hung from the start, refused
    // credentials): a setup mistake, told once with what to fix (exit 2), not thousands of failed cases (exit 1).
    const totalTimeoutMs = plan.timeoutGiven ? plan.timeoutMs : Math.min(plan.timeoutMs, PREFLIGHT_TIMEOUT_MS);
    const { target, formats, user, password, alias, site, profile } = plan;
    const ready = await preflight({ baseUrl: target, formats, user, password, alias, site, profile: { ...profile, limits: { ...profile.limits, totalTimeoutMs } } });
    if (!ready.ok && ready.kind !== 'answer') {
      io.err.write(redactText(`cardspec fuzz: the target is not ready: ${ready.problem}\n`));
      return 2;
    }
  }
  const result = await runFuzz(plan, { out: io.out, tty: io.tty });
  io.out.write(result.text + '\n');
  if (result.exitCode === 1) return 1;
  const ran = result.report.requests.some((r) => r.sent > 0) || result.report.models.some((m) => m.runs > 0);
  const asked = result.report.requests.length > 0 || result.report.models.some((m) => !m.problem);
  // Nothing could be sent at all: the target or its configuration is wrong, not the run.
  if (!ran && asked) return 2;
  if (result.exitCode === 3) return plan.allowIncomplete ? 0 : 3;
  return 0;
}
