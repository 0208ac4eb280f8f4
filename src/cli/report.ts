/**
 * `cardspec report`: the options read into a plan, one call of `runReport` (src/report/command.ts, where what the
 * command builds and its exit codes are described), the exit code. `cardspec report --help` loads none of the
 * report modules.
 */
import type { ReportIo, ReportPlan } from '../report/command';
import { redactText } from '../redact';
import { unknownOption } from './usage';
import { processIo } from './process-io';

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

export async function run(args: string[], io: ReportIo = processIo()): Promise<number> {
  const parsed = parse(args);
  if (parsed === 'help') {
    io.out.write(`${HELP}\n`);
    return 0;
  }
  if ('error' in parsed) {
    io.err.write(`${redactText(`cardspec report: ${parsed.error}\n\n${HELP}`)}\n`);
    return 2;
  }
  const plan: ReportPlan = parsed;
  const { runReport } = await import('../report/command');
  return runReport(plan, io);
}
