/**
 * The files `cardspec proxy` and `cardspec audit` write at the end of a run, from one observation: `--report` (JSON
 * when the name ends in .json, else the text with every rule), `--junit` (run's JUnit) and `--reports` (the matrix,
 * summary, JUnit and Allure of ./certify.ts). Each is told when written; one that cannot be written is told on the
 * error stream and does not keep the others from being written.
 */
import * as path from 'node:path';
import type { CommandIo } from '../io';
import { writeRedactedText } from '../report/files';
import { redactText } from '../redact';
import { observedJunitXml, writeObservedReports, type ObservedRun } from './certify';
import { proxyReportJson, proxyReportText } from './report';
import type { ProxyReport } from './session';

export interface RunFiles {
  readonly report?: string;
  readonly junit?: string;
  readonly reports?: string;
}

/** `reportJson`: the report file's JSON, when the command adds to the report (the audit's leaks). */
export function writeRunFiles(files: RunFiles, report: ProxyReport, observed: ObservedRun, io: Pick<CommandIo, 'out' | 'err' | 'cwd'>, reportJson: () => string = () => proxyReportJson(report)): void {
  const attempt = (name: string | undefined, what: string, write: (file: string) => void, told: string): void => {
    if (name === undefined) return;
    try {
      write(path.resolve(io.cwd, name));
      io.out.write(`${redactText(`${told} ${name}`)}\n`);
    } catch (e) {
      io.err.write(`${redactText(`cardspec ${observed.command}: cannot write ${what} ${name}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`)}\n`);
    }
  };
  attempt(files.report, 'the report to', (f) => writeRedactedText(f, f.toLowerCase().endsWith('.json') ? reportJson() : proxyReportText(report, { all: true })), 'Report written to');
  attempt(files.junit, 'the JUnit file', (f) => writeRedactedText(f, observedJunitXml(report, observed)), 'JUnit written to');
  attempt(files.reports, 'the reports to', (f) => writeObservedReports(f, report, observed), 'Reports (matrix, summary.html, junit.xml, allure-results) written to');
}
