/**
 * `cardspec audit` as a function: captured traffic (the proxy's JSON lines, HAR 1.2) through the same session as
 * the live proxy, files in the order given and their exchanges in their order (a follow-up is read against the
 * parent seen before it). What a capture holds that it must not (a full card number, a security code, credentials)
 * is reported by where it is, never by its value.
 */
import { readCapture, type CaptureLeak } from './capture';
import { ProxySession, type ProxyFinding, type ProxyReport } from './session';

export interface AuditOptions {
  readonly strict?: boolean;
  readonly basePath?: string;
  /** The folder relative file names are read in (default: the process's). */
  readonly cwd?: string;
  readonly onFinding?: (f: ProxyFinding) => void;
}

export interface AuditResult {
  readonly report: ProxyReport;
  readonly leaks: readonly CaptureLeak[];
  readonly skipped: readonly string[];
  readonly exitCode: 0 | 1 | 3;
}

/** Throws a CaptureError for a file that cannot be read as a capture. */
export function auditFiles(files: readonly string[], opts: AuditOptions = {}): AuditResult {
  const session = new ProxySession({ strict: opts.strict, basePath: opts.basePath });
  const leaks: CaptureLeak[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const capture = readCapture(file, opts.cwd);
    leaks.push(...capture.leaks);
    skipped.push(...capture.skipped);
    for (const ex of capture.exchanges) for (const f of session.observe(ex)) opts.onFinding?.(f);
  }
  return { report: session.report(), leaks, skipped, exitCode: session.exitCode() };
}
