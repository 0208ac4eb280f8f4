/**
 * `cardspec run` in this process, its console output captured: cucumber and the steps load once per test file, so
 * a dozen runs cost little. What a run wrote is read back from its reports folder.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../src/cli/run';
import { readMessagesFile, type ScenarioResult } from '../../src/report/messages';
import { BUILTIN_PROFILE } from '../../src/target/profile';
import type { Format } from '../../src/wire/types';

export interface CliRun {
  readonly code: number;
  /** Everything the command printed. */
  readonly out: string;
  readonly reports: string;
  /** The scenarios of each format that ran, read from the messages the run wrote. */
  scenarios(format?: Format): ScenarioResult[];
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cardspec-${prefix}-`));
}

export async function runCli(args: readonly string[]): Promise<CliRun> {
  const reports = tempDir('reports');
  const lines: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => void lines.push(a.map(String).join(' '));
  console.error = console.log;
  let code: number;
  try {
    code = await run(['--reports', reports, ...args]);
  } finally {
    console.log = log;
    console.error = error;
  }
  return {
    code,
    out: lines.join('\n'),
    reports,
    scenarios: (format?: Format) =>
      (['json', 'xml'] as const)
        .filter((f) => !format || f === format)
        .flatMap((f) => (fs.existsSync(path.join(reports, f, 'messages.ndjson')) ? readMessagesFile(path.join(reports, f, 'messages.ndjson'), f).scenarios : [])),
  };
}

/** The builtin profile's data as a profile file, with some keys replaced (short timeouts, fewer capabilities). */
export function profileFile(changes: Record<string, unknown>): string {
  const file = path.join(tempDir('profile'), 'profile.json');
  fs.writeFileSync(file, JSON.stringify({ ...BUILTIN_PROFILE, name: 'test profile', ...changes }, null, 2));
  return file;
}
