/**
 * `cardspec report` as a library call, `runReport(plan, io)`: one HTML report (Allure) from one or more runs. Each
 * results folder is either a reports folder of `cardspec run` (its `allure-results/` is used, and its matrix and
 * summary) or an Allure results folder itself. Several folders (CI shards, parallel workers) merge: Allure merges
 * the results, and cardspec recomputes one matrix, one summary and one JUnit file from the runs' scenario results.
 * The output folder holds the Allure report and those reports beside it, ready to publish as one artefact. With
 * `compare`, the folders side by side instead. src/cli/report.ts reads the options into the plan; output, the
 * environment (where Java is), the folder and the interrupts (`open`) come in `io` (src/io.ts).
 *
 * Exit code: 0 written, 2 a configuration error (the message says why); with `merge`, the merged verdict (0, 1, 3).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandIo } from '../io';
import { redactText } from '../redact';
import { allureGenerate, findJava, JAVA_MISSING } from './allure-cli';
import { buildComparison, writeComparison } from './compare';
import { writeRedactedText } from './files';
import { historyResultsFolder, readAllureHistory } from './history';
import { mergedAllureEnvironment, REPORT_FILES, writeVerdictFiles } from '.';
import { environmentProperties } from './allure';
import { junitXml } from './junit';
import { mergeRuns, readRunReports, type RunReports } from './merge';
import type { Matrix, Summary } from './model';
import { serveReport } from './open';
import { verdictConsole } from './summary';

/** What the report command is given of its process. */
export type ReportIo = Pick<CommandIo, 'out' | 'err' | 'env' | 'cwd' | 'interrupts'>;

export interface ReportPlan {
  /** The folders given (reports folders of `cardspec run`, or Allure results folders); none: `reports`. */
  readonly results: readonly string[];
  /** Where the report goes (default reports/allure-report; with `compare`, compare). */
  readonly out?: string;
  /** The Allure report as a folder for a web server rather than one self-contained index.html. */
  readonly multiFile: boolean;
  /** Serve the report folder on 127.0.0.1 once written, until an interrupt. */
  readonly open: boolean;
  readonly port?: number;
  /** The shards' reports into one; the exit code is the merged verdict. */
  readonly merge: boolean;
  /** The folders side by side. */
  readonly compare: boolean;
  /** The previous Allure report, whose history the new one carries on. */
  readonly history?: string;
}

const line = (sink: CommandIo['out'], text: string): void => void sink.write(`${text}\n`);

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why a `--results` input is not a folder to read, in words that say what was given and what is expected; undefined
 * when it is a folder. A file of a reports folder (summary.json, an Allure result) names the folder to give instead.
 */
function inputProblem(given: string, resolved: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(resolved);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? (e as Error).message})`;
    return `${given} ${why}${given === resolved ? '' : ` (${resolved})`}: give a reports folder of \`cardspec run\` (its --reports, default reports) or an Allure results folder`;
  }
  if (st.isDirectory()) return undefined;
  const kind = st.isFile() ? 'a file' : 'a special file';
  return `${given} is ${kind}, not a folder: give the reports folder of \`cardspec run\` (its --reports, default reports) or an Allure results folder${st.isFile() ? `; this file's folder is ${path.dirname(resolved)}` : ''}`;
}

function hasResults(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((f) => f.endsWith('-result.json'));
  } catch {
    return false;
  }
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export async function runReport(parsed: ReportPlan, io: ReportIo): Promise<number> {
  const fail = (message: string): number => {
    line(io.err, redactText(`cardspec report: ${message}`));
    return 2;
  };
  if (parsed.compare) return compare(parsed.results, parsed.out ?? 'compare', io);
  const given = parsed.results.length > 0 ? parsed.results : ['reports'];
  const inputs = given.map((d) => path.resolve(io.cwd, d));
  const out = path.resolve(io.cwd, parsed.out ?? path.join('reports', REPORT_FILES.allureReport));

  const resultsDirs: string[] = [];
  const runs: RunReports[] = [];
  const notes: string[] = [];
  for (const [i, dir] of inputs.entries()) {
    const problem = inputProblem(given[i], dir);
    if (problem) return fail(problem);
    const nested = path.join(dir, REPORT_FILES.allureResults);
    const allure = isDir(nested) ? nested : dir;
    if (hasResults(allure)) resultsDirs.push(allure);
    else notes.push(`no Allure results (*-result.json) in ${allure}`);
    if (fs.existsSync(path.join(dir, REPORT_FILES.summaryJson))) {
      const r = readRunReports(dir);
      if ('problem' in r) notes.push(r.problem);
      else runs.push(r);
    }
  }
  if (resultsDirs.length === 0 && runs.length === 0) return fail(`nothing to report:\n  ${notes.join('\n  ')}`);

  // `allure generate --clean` empties the output folder first: never let it be an input or hold one, and never
  // empty a folder that is not a report already.
  for (const dir of [...inputs, ...resultsDirs]) {
    if (inside(dir, out)) return fail(`--out ${out} holds the input ${dir}; Allure would delete it. Choose another folder.`);
  }
  if (isDir(out) && fs.readdirSync(out).length > 0 && !fs.existsSync(path.join(out, 'index.html'))) {
    return fail(`--out ${out} is a folder with other content (no index.html); Allure would delete it. Choose an empty or new folder.`);
  }
  for (const n of notes) line(io.err, redactText(`cardspec report: ${n}`));

  // The verdict is computed before Allure runs: a merged report's environment carries the verdict of the whole.
  const verdict = verdictOf(runs, io.cwd);
  const java = findJava(io.env);
  let code = 0;
  if ('problem' in java) {
    line(io.err, redactText(java.problem === JAVA_MISSING ? JAVA_MISSING : java.problem));
    code = 2;
    fs.mkdirSync(out, { recursive: true });
  } else if (resultsDirs.length > 0) {
    if (java.major !== null && java.major < 17) line(io.err, redactText(`cardspec report: ${java.version}: Allure is tested here with Java 17 or later`));
    // The previous report's history is read before generating: --out may be that very report, which --clean empties.
    const history = parsed.history === undefined ? undefined : readAllureHistory(path.resolve(io.cwd, parsed.history));
    if (history && 'problem' in history) return fail(history.problem);
    const historyDir = history ? historyResultsFolder(history) : undefined;
    const wholeDir = verdict && runs.length > 1 ? environmentResultsFolder(mergedAllureEnvironment(verdict.summary, runs.length)) : undefined;
    let r: Awaited<ReturnType<typeof allureGenerate>>;
    try {
      const extra = [historyDir, wholeDir].filter((d): d is string => d !== undefined);
      r = await allureGenerate(java, [...resultsDirs, ...extra], out, { singleFile: !parsed.multiFile, reportName: 'cardspec conformance', env: io.env });
    } finally {
      for (const d of [historyDir, wholeDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
    }
    if (r.code !== 0) return fail(`allure generate failed (exit ${r.code}):\n${r.output}`);
    if (history) line(io.out, redactText(`Allure history carried over from ${parsed.history} (${history.size} file(s)): the trend charts span the runs`));
    line(io.out, redactText(`Allure report of ${resultsDirs.length} results folder(s): ${path.join(out, 'index.html')}`));
  } else {
    fs.mkdirSync(out, { recursive: true });
  }

  const written = writeRunReports(out, verdict, code === 0 && resultsDirs.length > 0);
  for (const w of written.files) line(io.out, redactText(`  ${w}`));
  if (written.summary) {
    const s = written.summary;
    const pct = s.coverage.percent === null ? 'n/a' : `${s.coverage.percent.toFixed(1)}%`;
    line(
      io.out,
      redactText(
        `${runs.length > 1 ? `Merged ${runs.length} runs: ` : ''}${s.result.toUpperCase()}: ${s.totals.passed} passed, ${s.totals.failed} failed, ${s.totals.skipped} skipped; ` +
          `rule coverage ${s.coverage.covered}/${s.coverage.testable} (${pct})`,
      ),
    );
  }
  if (parsed.merge) {
    // The merged verdict is the CI gate's: the same exit codes as `cardspec run` (Allure or not).
    if (!written.summary) return fail(`--merge: no summary.json in ${inputs.join(', ')}: give reports folders of \`cardspec run\``);
    line(io.out, redactText(verdictConsole(written.summary).join('\n')));
    if (code !== 0) line(io.err, 'cardspec report: the HTML report was not written (see above); the merged matrix, summary and JUnit were.');
    return written.summary.result === 'passed' ? 0 : written.summary.result === 'failed' ? 1 : 3;
  }
  if (parsed.open && code === 0) {
    const served = await serveReport(out, parsed.port ?? 0);
    line(io.out, `Serving the report at ${served.url} (127.0.0.1 only); open it in a browser. Ctrl-C stops.`);
    await new Promise<void>((done) => {
      const unlisten = io.interrupts?.(() => {
        unlisten?.();
        done();
      });
    });
    await served.close();
    return 0;
  }
  return code;
}

/** One run's matrix and summary as they are; several runs' merged. Undefined when no run's reports were given. */
function verdictOf(runs: readonly RunReports[], cwd: string): { readonly summary: Summary; readonly matrix?: Matrix } | undefined {
  if (runs.length === 0) return undefined;
  if (runs.length === 1) return runs[0];
  return mergeRuns(runs, cwd);
}

/**
 * A new temporary results folder holding only an environment.properties: Allure merges the environment of every
 * results folder it is given, so the entries stand beside each run's. Remove it after `allure generate`.
 */
function environmentResultsFolder(entries: Readonly<Record<string, string>>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-allure-whole-'));
  writeRedactedText(path.join(dir, 'environment.properties'), environmentProperties(entries));
  return dir;
}

/** The verdict's files beside the HTML: one run's as they are, several runs' merged. */
function writeRunReports(out: string, verdict: ReturnType<typeof verdictOf>, allureWritten: boolean): { files: string[]; summary?: Summary } {
  if (!verdict) return { files: [] };
  const { summary, matrix } = verdict;
  const files = writeVerdictFiles(out, summary, matrix, { href: 'index.html', written: allureWritten });
  if (matrix) {
    const rules = matrix.rules.map((r) => ({ id: r.id, section: r.section, quote: r.quote, status: r.status, ...(r.why ? { why: r.why } : {}), ...(r.formats ? { formats: r.formats } : {}) }));
    files.push(writeRedactedText(path.join(out, REPORT_FILES.junit), junitXml(summary.meta, rules, summary.scenarios, summary)));
  }
  return { files, summary };
}

/** `--compare DIR...`: the comparison written; 2 when the folders cannot be compared (the message says why). */
function compare(dirs: readonly string[], out: string, io: ReportIo): number {
  const c = buildComparison(dirs, out);
  if ('problem' in c) {
    line(io.err, redactText(`cardspec report: --compare: ${c.problem}`));
    return 2;
  }
  for (const f of writeComparison(out, c)) line(io.out, redactText(`  ${f}`));
  const what = c.of === 'client-cases' ? 'cases' : 'rules';
  line(io.out, redactText(`Compared ${c.columns.map((col) => col.label).join(', ')}: ${c.rows.length} ${what}, ${c.differences} differ (listed first)`));
  return 0;
}
