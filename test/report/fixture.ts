/**
 * Runs the report fixture (test/fixtures/report) the way `cardspec run` runs the conformance suite: cucumber's JS
 * API once per format, the messages NDJSON to `<reports>/<format>/messages.ndjson`, the report formatters from
 * `cucumberFormats`, the console through the masking stream, then `writeReports`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { registerSecret } from '../../src/redact';
import { cucumberFormats, writeReports, REPORT_FILES } from '../../src/report';
import { runFeatures, type SuiteFiles } from '../../src/suite';
import { redactingStream } from '../../src/report/console';
import { claimReportsFolder, recordReportsFolder } from '../../src/report/owned';
import type { Format } from '../../src/wire/types';
import type { ReportsDetail } from '../../src/report/detail';
import { FIXTURE_PASSWORD, FIXTURE_USER } from '../fixtures/report/credentials';

export const ROOT = path.join(__dirname, '..', '..');
export const FIXTURE_DIR = path.join(ROOT, 'test', 'fixtures', 'report');
export const FIXTURE_CATALOGUE = path.join(FIXTURE_DIR, 'rules.yaml');
export { FIXTURE_PASSWORD, FIXTURE_USER };

/** The fixture's own features and steps, run by the suite's launcher (src/suite). */
const FIXTURE_SUITE: SuiteFiles = {
  root: ROOT,
  features: path.join(FIXTURE_DIR, 'features', '*.feature'),
  steps: path.join(FIXTURE_DIR, 'steps.ts'),
};

export interface FixtureRun {
  written: string[];
  /** Everything cucumber printed, as it reached the console. */
  console: string;
}

export async function runFixture(reportsDir: string, opts: { shard?: string; formats?: Format[]; detail?: ReportsDetail } = {}): Promise<FixtureRun> {
  // As `cardspec run` does with the profile's password: masked wherever it appears.
  registerSecret(FIXTURE_PASSWORD);
  let output = '';
  const sink = {
    write(s: string): boolean {
      output += s;
      return true;
    },
  };
  // As `cardspec run` does: the last run's files go first, and this run's are listed at its end.
  fs.mkdirSync(reportsDir, { recursive: true });
  const folder = claimReportsFolder(reportsDir);
  const formats = opts.formats ?? ['json', 'xml'];
  const runs = [];
  for (const format of formats) {
    const messages = path.join(reportsDir, REPORT_FILES.messages(format));
    const stdout = redactingStream(sink);
    const stderr = redactingStream(sink);
    await runFeatures({
      suite: FIXTURE_SUITE,
      formatters: ['progress', ['message', messages], ...cucumberFormats(reportsDir, format)],
      worldParameters: { format },
      shard: opts.shard,
      stdout,
      stderr,
    });
    stdout.end();
    stderr.end();
    runs.push({ format, messages });
  }
  const written = await writeReports({
    reportsDir,
    runs,
    target: 'fixture target',
    profile: 'fixture',
    startedAt: '',
    finishedAt: '',
    catalogue: FIXTURE_CATALOGUE,
    // Every record whole: these tests read each report; the summary detail has its own test (detail.test.ts).
    detail: opts.detail ?? 'full',
  });
  recordReportsFolder(folder);
  return { written, console: output };
}
