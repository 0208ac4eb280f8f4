/**
 * `cardspec proxy` as a library call, `runProxyCommand(plan, io)`: the TLS trust of the upstream, the capture file,
 * the checking proxy started (./server.ts), the banner with the address to point the client at, a line per violation
 * as it happens, and on the first interrupt the report printed and written. src/cli/proxy.ts reads the options into
 * the plan and exits with what this returns; output, the environment (TLS), the folder files are written relative
 * to and the interrupts come in `io` (src/io.ts), so that a script or a test runs the proxy the way the command does.
 *
 * Exit codes: 0 no violation, 1 violations, 2 a configuration error (a CA file, a capture file, a port), 3 nothing
 * observed (no call reached the proxy).
 */
import * as path from 'node:path';
import { applyTls, TlsConfigError, tlsRequestOptions } from '../client/tls';
import type { CommandIo } from '../io';
import { redactText } from '../redact';
import { CaptureWriter } from './capture';
import type { ObservedRun } from './certify';
import { HarWriter } from './har';
import { findingLine, proxyReportText } from './report';
import { writeRunFiles } from './run-files';
import { DEFAULT_TIMEOUT_MS, startProxy, type RunningProxy } from './server';

/** What the proxy is given of its process; the interrupts end it (a proxy serves until told to stop). */
export type ProxyIo = Pick<CommandIo, 'out' | 'err' | 'env' | 'cwd'> & { readonly interrupts: NonNullable<CommandIo['interrupts']> };

export interface ProxyPlan {
  /** The gateway's base address, without credentials or a trailing slash. */
  readonly upstream: string;
  readonly port: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** The path the client posts under (normalised: '' or `/api`). */
  readonly basePath: string;
  /** Default DEFAULT_TIMEOUT_MS. */
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
  readonly strict: boolean;
  /** `--ca FILE` and `--insecure` (src/client/tls.ts). */
  readonly tls: { readonly ca?: string; readonly insecure: boolean };
  /** `--record FILE`: HAR 1.2 when it ends in .har, else the proxy's JSON lines. */
  readonly record?: string;
  /** `--report FILE`: JSON when it ends in .json, else text. */
  readonly report?: string;
  /** `--junit FILE`. */
  readonly junit?: string;
  /** `--reports DIR`: run's reports of the observed coverage. */
  readonly reports?: string;
  /** `--preserve-host`: the client's Host header goes to the upstream (ProxyOptions.preserveHost). */
  readonly preserveHost?: boolean;
  /** Lowers the checking thread's priority (ProxyOptions.checksNice): the command's own process only checks. */
  readonly checksNice?: number;
}

const line = (sink: CommandIo['out'], text: string): void => void sink.write(`${text}\n`);

const why = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));

export async function runProxyCommand(plan: ProxyPlan, io: ProxyIo): Promise<number> {
  const problem = (message: string): number => {
    line(io.err, redactText(`cardspec proxy: ${message}`));
    return 2;
  };
  // The command line checks it too; a script's plan is told as plainly, not as a failure to listen.
  let upstreamUrl: URL | undefined;
  try {
    upstreamUrl = new URL(plan.upstream);
  } catch {
    upstreamUrl = undefined;
  }
  if (upstreamUrl === undefined || (upstreamUrl.protocol !== 'http:' && upstreamUrl.protocol !== 'https:'))
    return problem(`the upstream must be an http:// or https:// address, not "${plan.upstream.slice(0, 100)}"`);
  const at = (file: string): string => path.resolve(io.cwd, file);
  try {
    for (const w of applyTls({ ...plan.tls, ca: plan.tls.ca === undefined ? undefined : at(plan.tls.ca) }, io.env)) line(io.err, w);
  } catch (e) {
    if (e instanceof TlsConfigError) return problem(e.message);
    throw e;
  }
  let record: CaptureWriter | HarWriter | undefined;
  try {
    // By its name: `x.har` is HAR 1.2 (for the tools that read HAR), anything else the proxy's JSON lines.
    record = plan.record === undefined ? undefined : plan.record.toLowerCase().endsWith('.har') ? new HarWriter(at(plan.record)) : new CaptureWriter(at(plan.record));
  } catch (e) {
    return problem(`cannot write the capture ${plan.record}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: plan.upstream,
      port: plan.port,
      host: plan.host,
      basePath: plan.basePath,
      timeoutMs: plan.timeoutMs,
      maxBodyBytes: plan.maxBodyBytes,
      strict: plan.strict,
      record,
      tls: upstreamUrl.protocol === 'https:' ? tlsRequestOptions(io.env) : {},
      onFinding: (f) => line(io.out, findingLine(f)),
      checksNice: plan.checksNice,
      preserveHost: plan.preserveHost,
    });
  } catch (e) {
    record?.close();
    return problem(`cannot listen: ${why(e)}`);
  }
  const startedAt = new Date().toISOString();
  // Listening for the interrupt before the banner: a client (or a test) that reads the banner may stop it at once.
  const stopped = new Promise<void>((resolve) => {
    const unlisten = io.interrupts(() => {
      // The first interrupt ends the proxy with its report; the next is the process's own again (it quits).
      unlisten();
      resolve();
    });
  });
  const { upstream, basePath } = plan;
  line(
    io.out,
    redactText(
      [
        `cardspec proxy: checking the traffic to ${upstream}`,
        `Point the client at ${proxy.url}${basePath} (it posts ${proxy.url}${basePath}/json/; XML: ${proxy.url}${basePath}/xml/)`,
        `Timeout ${(plan.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s; ${plan.strict ? 'strict: warnings fail too' : 'errors fail, warnings are reported'}${plan.record ? `; recording to ${plan.record} (masked)` : ''}`,
        'A line per violation as it happens; Ctrl-C (SIGINT) or SIGTERM ends it with the report.',
      ].join('\n'),
    ),
  );
  await stopped;
  await proxy.close();
  record?.close();
  const report = proxy.session.report(upstream);
  // One observation for every file: --junit and the junit.xml of --reports are the same document.
  const observed: ObservedRun = { command: 'proxy', target: upstream, startedAt, finishedAt: new Date().toISOString() };
  line(io.out, proxyReportText(report).trimEnd());
  writeRunFiles(plan, report, observed, io);
  const code = proxy.session.exitCode();
  if (code === 3) line(io.out, redactText(`cardspec proxy: no call to the interface went through the proxy, so nothing was checked: exit 3. Point the client at ${proxy.url}${basePath}.`));
  return code;
}
