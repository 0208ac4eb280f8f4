/**
 * `cardspec run` in this process, its console output captured: cucumber and the steps load once per test file, so
 * a dozen runs cost little. What a run wrote is read back from its reports folder.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../src/cli/run';
import { readMessagesFile, type ScenarioResult } from '../../src/report/messages';
import type { Matrix, Summary } from '../../src/report/model';
import { variantNamed } from '../../src/selfcheck/gallery';
import { startVariant } from '../../src/selfcheck/start';
import { BUILTIN_PROFILE } from '../../src/client/profile';
import type { Format } from '../../src/wire/types';
import { capturingIo } from '../console';

export interface CliRun {
  readonly code: number;
  /** Everything the command printed. */
  readonly out: string;
  readonly reports: string;
  /**
   * The scenarios of each format that ran, as summary.json holds them (every scenario whole: in the default detail
   * the messages keep the checks of failed, skipped and sampled passed scenarios only); from the messages when the
   * run wrote no summary.
   */
  scenarios(format?: Format): ScenarioResult[];
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cardspec-${prefix}-`));
}

export async function runCli(args: readonly string[]): Promise<CliRun> {
  const reports = tempDir('reports');
  const { io, text } = capturingIo();
  const code = await run(['--reports', reports, ...args], io);
  const out = text();
  return {
    code,
    out,
    reports,
    scenarios: (format?: Format) => {
      const summary = path.join(reports, 'summary.json');
      if (fs.existsSync(summary)) return (JSON.parse(fs.readFileSync(summary, 'utf8')) as Summary).scenarios.filter((s) => !format || s.format === format);
      return (['json', 'xml'] as const)
        .filter((f) => !format || f === format)
        .flatMap((f) => (fs.existsSync(path.join(reports, f, 'messages.ndjson')) ? readMessagesFile(path.join(reports, f, 'messages.ndjson'), f).scenarios : []));
    },
  };
}

export interface VariantRun {
  readonly r: CliRun;
  readonly matrix: Matrix;
  readonly summary: Summary;
  /** The IDs of the matrix's rules whose verdict is failed. */
  readonly failed: string[];
}

/** `cardspec run` against a variant of the self-check's gallery on a real loopback server, and its reports read back. */
export async function runAgainstVariant(name: string, args: readonly string[]): Promise<VariantRun> {
  const variant = variantNamed(name);
  if (!variant) throw new Error(`no variant named ${name} in the gallery`);
  const gw = await startVariant(variant);
  let r: CliRun;
  try {
    r = await runCli(['--target', gw.url, ...args]);
  } finally {
    await gw.close();
  }
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(r.reports, file), 'utf8')) as T;
  const matrix = read<Matrix>('matrix.json');
  return { r, matrix, summary: read<Summary>('summary.json'), failed: matrix.rules.filter((x) => x.overall.verdict === 'failed').map((x) => x.id) };
}

/** The builtin profile's data as a profile file, with some keys replaced (short timeouts, fewer capabilities). */
export function profileFile(changes: Record<string, unknown>): string {
  const file = path.join(tempDir('profile'), 'profile.json');
  fs.writeFileSync(file, JSON.stringify({ ...BUILTIN_PROFILE, name: 'test profile', ...changes }, null, 2));
  return file;
}
