/**
 * `cardspec report`: one HTML report (Allure) from one or more runs. Each `--results` folder is either a reports
 * folder of `cardspec run` (its `allure-results/` is used, and its matrix and summary) or an Allure results
 * folder itself. Several folders (CI shards, parallel workers) merge: Allure merges the results, and cardspec
 * recomputes one matrix, one summary and one JUnit file from the runs' scenario results. The output folder holds
 * the Allure report and those reports beside it, ready to publish as one artefact.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactText } from '../redact';
import { allureGenerate, findJava, JAVA_MISSING } from '../report/allure-cli';
import { writeRedactedText } from '../report/files';
import { REPORT_FILES, writeVerdictFiles } from '../report';
import { junitXml } from '../report/junit';
import { mergeRuns, readRunReports, type RunReports } from '../report/merge';
import type { Matrix, Summary } from '../report/model';
import { verdictConsole } from '../report/summary';
import { buildComparison, writeComparison } from '../report/compare';
import { historyResultsFolder, readAllureHistory } from '../report/history';
import { unknownOption } from './usage';

const HELP = `Usage: cardspec report [--results DIR ...] [--out DIR] [--multi-file] [--open [--port N]]
       cardspec report --merge DIR... [--out DIR]
       cardspec report --compare DIR DIR... [--out DIR]

Builds the HTML report (Allure) from one or more runs, and merges their traceability matrices and
certification summaries.

Options:
  --results DIR   a reports folder of \`cardspec run\` (its allure-results/, matrix.json and summary.json are
                  used) or an Allure results folder; repeat it to merge CI shards or parallel workers
                  (default: reports)
  --out DIR       where to write the report (default: reports/allure-report); it receives the Allure HTML
                  (index.html) and, beside it, matrix.{md,json,html}, summary.{md,json} and junit.xml of the
                  run, or of all the runs merged
  --multi-file    write the Allure report as a folder (index.html and its data files) for a web server; from
                  disk a browser refuses its data files ("Failed to fetch"). The default is one
                  self-contained index.html that opens from disk (--single-file says so explicitly)
  --history PREV  the previous Allure report (its folder or its index.html): its history is carried over, so
                  the new report shows trend charts across runs (pass --out the same folder to keep one report)
  --open          once written, serve the report folder on http://127.0.0.1 until Ctrl-C
  --port N        the port of --open (default: a free one, printed)
  --merge         merge the reports folders given (CI shards of \`cardspec run --shard i/n\`) into one matrix,
                  one certification summary and one JUnit file, with the verdict of an unsharded run; the
                  exit code is that verdict (0 PASSED, 1 FAILED, 3 INCOMPLETE)
  --compare       put the folders given side by side in one table, the rows that differ first: client-case
                  reports (serve --client-cmd --report DIR: cases by clients, each cell linking to the case
                  page) or run reports folders (rules by targets or versions, from summary.json and
                  matrix.json); writes compare.html (one file, opens from disk) and compare.json, masked, into
                  --out (default: compare)
  -h, --help      this help

Allure needs a Java runtime (17 or later); without one, the merged matrix, summary and JUnit are still written
and the command says what to install. Exit code: 0 written, 2 usage or configuration error; with --merge, the
merged verdict (0, 1 or 3).`;

interface Options {
  results: string[];
  out?: string;
  singleFile: boolean;
  multiFile: boolean;
  open: boolean;
  port?: number;
  /** `--merge DIR...`: the shards' reports into one; the exit code is the merged verdict. */
  merge: boolean;
  /** `--compare DIR...`: the reports side by side. */
  compare: boolean;
  /** `--history PREV`: the previous Allure report, whose history the new one carries on. */
  history?: string;
}

function parse(args: readonly string[]): Options | { error: string } | 'help' {
  const o: Options = { results: [], singleFile: false, multiFile: false, open: false, merge: false, compare: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (): string | undefined => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      const v = args[i + 1];
      if (v === undefined || v.startsWith('--')) return undefined;
      i++;
      return v;
    };
    const name = a.split('=')[0];
    if (a === '-h' || a === '--help') return 'help';
    else if (name === '--results') {
      const v = value();
      if (!v) return { error: '--results needs a folder' };
      o.results.push(v);
    } else if (name === '--out') {
      const v = value();
      if (!v) return { error: '--out needs a folder' };
      o.out = v;
    } else if (name === '--history') {
      const v = value();
      if (!v) return { error: '--history needs the previous Allure report (its folder or its index.html)' };
      o.history = v;
    } else if (name === '--port') {
      const v = value();
      if (!v || !/^[0-9]+$/.test(v) || Number(v) > 65535) return { error: '--port needs a port number from 0 to 65535' };
      o.port = Number(v);
    } else if (a === '--single-file') o.singleFile = true;
    else if (a === '--multi-file') o.multiFile = true;
    else if (a === '--open') o.open = true;
    else if (a === '--merge') o.merge = true;
    else if (a === '--compare') o.compare = true;
    else if (!a.startsWith('-')) o.results.push(a);
    else return { error: unknownOption(a) };
  }
  if (o.singleFile && o.multiFile) return { error: '--single-file and --multi-file exclude each other (single file is the default)' };
  if (o.port !== undefined && !o.open) return { error: '--port is the port of --open: give --open too' };
  if (o.compare && (o.merge || o.open || o.multiFile)) return { error: '--compare writes one comparison: give it without --merge, --open or --multi-file' };
  if (o.merge && o.results.length === 0) return { error: '--merge needs the reports folders to merge: cardspec report --merge shard-1 shard-2 ...' };
  return o;
}

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

function fail(message: string): number {
  console.error(redactText(`cardspec report: ${message}`));
  return 2;
}

export async function run(args: string[]): Promise<number> {
  const parsed = parse(args);
  if (parsed === 'help') {
    console.log(HELP);
    return 0;
  }
  if ('error' in parsed) return fail(`${parsed.error}\n\n${HELP}`);
  if (parsed.compare) return compare(parsed.results, parsed.out ?? 'compare');
  const given = parsed.results.length > 0 ? parsed.results : ['reports'];
  const inputs = given.map((d) => path.resolve(d));
  const out = path.resolve(parsed.out ?? path.join('reports', REPORT_FILES.allureReport));

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
  for (const n of notes) console.error(redactText(`cardspec report: ${n}`));

  const java = findJava();
  let code = 0;
  if ('problem' in java) {
    console.error(redactText(java.problem === JAVA_MISSING ? JAVA_MISSING : java.problem));
    code = 2;
    fs.mkdirSync(out, { recursive: true });
  } else if (resultsDirs.length > 0) {
    if (java.major !== null && java.major < 17) console.error(redactText(`cardspec report: ${java.version}: Allure is tested here with Java 17 or later`));
    // The previous report's history is read before generating: --out may be that very report, which --clean empties.
    const history = parsed.history === undefined ? undefined : readAllureHistory(parsed.history);
    if (history && 'problem' in history) return fail(history.problem);
    const historyDir = history ? historyResultsFolder(history) : undefined;
    let r: Awaited<ReturnType<typeof allureGenerate>>;
    try {
      r = await allureGenerate(java, historyDir ? [...resultsDirs, historyDir] : resultsDirs, out, { singleFile: !parsed.multiFile, reportName: 'cardspec conformance' });
    } finally {
      if (historyDir) fs.rmSync(historyDir, { recursive: true, force: true });
    }
    if (r.code !== 0) return fail(`allure generate failed (exit ${r.code}):\n${r.output}`);
    if (history) console.log(redactText(`Allure history carried over from ${parsed.history} (${history.size} file(s)): the trend charts span the runs`));
    console.log(redactText(`Allure report of ${resultsDirs.length} results folder(s): ${path.join(out, 'index.html')}`));
  } else {
    fs.mkdirSync(out, { recursive: true });
  }

  const written = writeRunReports(out, runs, code === 0 && resultsDirs.length > 0);
  for (const w of written.files) console.log(redactText(`  ${w}`));
  if (written.summary) {
    const s = written.summary;
    const pct = s.coverage.percent === null ? 'n/a' : `${s.coverage.percent.toFixed(1)}%`;
    console.log(
      redactText(
        `${runs.length > 1 ? `Merged ${runs.length} runs: ` : ''}${s.result.toUpperCase()}: ${s.totals.passed} passed, ${s.totals.failed} failed, ${s.totals.skipped} skipped; ` +
          `rule coverage ${s.coverage.covered}/${s.coverage.testable} (${pct})`,
      ),
    );
  }
  if (parsed.merge) {
    // The merged verdict is the CI gate's: the same exit codes as `cardspec run` (Allure or not).
    if (!written.summary) return fail(`--merge: no summary.json in ${inputs.join(', ')}: give reports folders of \`cardspec run\``);
    console.log(redactText(verdictConsole(written.summary).join('\n')));
    if (code !== 0) console.error('cardspec report: the HTML report was not written (see above); the merged matrix, summary and JUnit were.');
    return written.summary.result === 'passed' ? 0 : written.summary.result === 'failed' ? 1 : 3;
  }
  if (parsed.open && code === 0) {
    const { serveUntilStopped } = await import('../report/open');
    return serveUntilStopped(out, parsed.port ?? 0, (line) => console.log(line));
  }
  return code;
}

/** One run's reports are copied beside the HTML; several runs' are merged. */
function writeRunReports(out: string, runs: readonly RunReports[], allureWritten: boolean): { files: string[]; summary?: Summary } {
  if (runs.length === 0) return { files: [] };
  let matrix: Matrix | undefined;
  let summary: Summary;
  if (runs.length === 1) {
    summary = runs[0].summary;
    matrix = runs[0].matrix;
  } else {
    ({ matrix, summary } = mergeRuns(runs));
  }
  const files = writeVerdictFiles(out, summary, matrix, { href: 'index.html', written: allureWritten });
  if (matrix) {
    const rules = matrix.rules.map((r) => ({ id: r.id, section: r.section, quote: r.quote, status: r.status, ...(r.why ? { why: r.why } : {}), ...(r.formats ? { formats: r.formats } : {}) }));
    files.push(writeRedactedText(path.join(out, REPORT_FILES.junit), junitXml(summary.meta, rules, summary.scenarios, summary)));
  }
  return { files, summary };
}

/** `--compare DIR...`: the comparison written; 2 when the folders cannot be compared (the message says why). */
function compare(dirs: readonly string[], out: string): number {
  const c = buildComparison(dirs, out);
  if ('problem' in c) return fail(`--compare: ${c.problem}`);
  for (const f of writeComparison(out, c)) console.log(redactText(`  ${f}`));
  const what = c.of === 'client-cases' ? 'cases' : 'rules';
  console.log(redactText(`Compared ${c.columns.map((col) => col.label).join(', ')}: ${c.rows.length} ${what}, ${c.differences} differ (listed first)`));
  return 0;
}
