/**
 * The reports of a run, written after cucumber finishes (and after a crash of the target, too). `cardspec run`
 * calls `cucumberFormats` before each format's run (the Allure formatter) and `writeReports` after the runs.
 * Everything lands under `reportsDir`; docs/reports.md describes every file.
 *
 *   <reports>/<format>/messages.ndjson   cucumber messages (written by `cardspec run`; masked again here)
 *   <reports>/<format>/cucumber.html     cucumber's HTML report, built here from the masked messages
 *   <reports>/<format>/allure.log        one line from the Allure formatter
 *   <reports>/allure-results/            Allure results of both formats (masked as they are written)
 *   <reports>/junit.xml                  JUnit XML
 *   <reports>/matrix.{md,json,html}      the traceability matrix
 *   <reports>/summary.{md,json}          the certification summary
 *   <reports>/summary.html               the certificate page (certificate.ts)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { redactText } from '../redact';
import { JSON_VERSION, XML_VERSION, type Format } from '../wire/types';
import { environmentProperties, withoutLocalPaths } from './allure';
import { loadCatalogue, DEFAULT_CATALOGUE } from '../rules/catalogue';
import { writeCucumberHtml } from './cucumber-html';
import { redactFileInPlace, writeRedactedJson, writeRedactedNdjson, writeRedactedText, type NdjsonWriter } from './files';
import { junitXml } from './junit';
import { matrixHtml, matrixMarkdown } from './matrix';
import { groupReached, readMessagesFile, type FormatResults } from './messages';
import { buildMatrix, buildSummary, incompleteReasons, type Matrix, type RunMeta, type Summary } from './model';
import type { Waiver } from './waivers';
import { summaryMarkdown, verdictReason } from './summary';
import { certificateHtml } from './certificate';
import { groupUnchecked } from './hints';
import { keptWhole, runKeys, slimAllureResults, slimMessages, type ReportsDetail } from './detail';

export interface FormatRun {
  readonly format: Format;
  /** Cucumber messages (NDJSON) of this format's run. */
  readonly messages: string;
  /**
   * The messages were written through `messagesWriter` (masked, the paths relative, as they came): not read and
   * written again here.
   */
  readonly written?: boolean;
  /** What the caller read from `messages` once written (readMessagesFile): not read and parsed again here. */
  readonly results?: FormatResults;
}

export interface RunArtifacts {
  readonly reportsDir: string;
  readonly runs: readonly FormatRun[];
  /** What was tested: base URL or `builtin`, profile name or path, kit version. */
  readonly target: string;
  readonly profile: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** `summary` (default): passed scenarios outside a sample keep no exchanges; `full`: everything (detail.ts). */
  readonly detail?: ReportsDetail;
  /** The formats asked for (a run that produced no results still has a scope); default: those of `runs`. */
  readonly formats?: readonly Format[];
  /** The rule catalogue; default: the kit's features/rules.yaml. */
  readonly catalogue?: string;
  /** The tag expression the run was limited to (`--tags`), shown in the summary. */
  readonly tags?: string;
  /** `i/n` when the run was one shard (`--shard`). */
  readonly shard?: string;
  /** What went wrong outside cucumber (the target unreachable, a crash), shown in the summary (masked). */
  readonly problems?: readonly string[];
  /** Why the run stopped before its end (a signal, --max-time, a target gone): the verdict cannot be PASSED. */
  readonly interrupted?: string;
  /** `run --strict`: the SHOULD-level points fail the run. */
  readonly strict?: boolean;
  /** The run's waivers (--waivers): the only way its scope narrows; each is printed in every report. */
  readonly waivers?: readonly Waiver[];
  /** Called with the certification summary once it is built (the verdict `cardspec run` exits with). */
  readonly onSummary?: (summary: Summary) => void;
}

/** The file names under the reports folder, in one place for the CLI, the tests and the docs. */
export const REPORT_FILES = {
  junit: 'junit.xml',
  matrixMd: 'matrix.md',
  matrixJson: 'matrix.json',
  matrixHtml: 'matrix.html',
  summaryMd: 'summary.md',
  summaryJson: 'summary.json',
  summaryHtml: 'summary.html',
  allureResults: 'allure-results',
  allureReport: 'allure-report',
  messages: (format: Format) => path.join(format, 'messages.ndjson'),
  cucumberHtml: (format: Format) => path.join(format, 'cucumber.html'),
  allureLog: (format: Format) => path.join(format, 'allure.log'),
} as const;

const FORMATTER_MODULE = path.join(__dirname, 'allure-formatter.mjs');

/**
 * Extra `format` entries for cucumber's configuration, for one format's run: the Allure formatter (its results
 * folder and the format ride in its module address; see allure-formatter.mjs). Cucumber's HTML report is not
 * among them: writeReports builds it from the masked messages (see cucumber-html.ts).
 */
export function cucumberFormats(reportsDir: string, format: Format): string[] {
  const dir = path.resolve(reportsDir);
  // Cucumber splits `"formatter":"file"` on the quotes, so a quote in the path would be misread.
  if (dir.includes('"')) throw new Error('cardspec: the reports folder path must not contain a double quote (")');
  const url = pathToFileURL(FORMATTER_MODULE);
  url.searchParams.set('results', path.join(dir, REPORT_FILES.allureResults));
  url.searchParams.set('format', format);
  return [`"${url.href}":"${path.join(dir, REPORT_FILES.allureLog(format))}"`];
}

/**
 * The writer of one format's cucumber messages, given every message as cucumber emits it: each masked as
 * `writeReports` masks a file cucumber wrote, and the machine's folders made relative, before it reaches the disk.
 * A run that writes its messages this way (`FormatRun.written`) saves reading, parsing and rewriting them after.
 */
export function messagesWriter(file: string): NdjsonWriter {
  return writeRedactedNdjson(file, withoutLocalPaths);
}

/** The SHA-256 of the document's checked copy, as docs/spec/SHA256SUMS pins it; undefined when not there. */
export function documentSha256(): string | undefined {
  try {
    const sums = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'spec', 'SHA256SUMS'), 'utf8');
    return /^([0-9a-f]{64})\s+card-payment-web-service\.md$/m.exec(sums)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The verdict's files of a run or of a merge, in one place (`cardspec run` and `cardspec report` write the same):
 * summary.{json,md,html} and, with the matrix, matrix.{json,md,html}. `allure`: the Allure page relative to the
 * folder, and whether it is written yet.
 */
export function writeVerdictFiles(dir: string, summary: Summary, matrix: Matrix | undefined, allure: { readonly href: string; readonly written: boolean }): string[] {
  const verdict = { result: summary.result, reason: verdictReason(summary), scope: summary.scope };
  const scenarios = summary.scenarios.map((s) => (s.reached ? { ...s, reached: groupReached(s.reached) } : s));
  return [
    writeRedactedJson(path.join(dir, REPORT_FILES.summaryJson), { ...summary, scenarios }, { records: true }),
    writeRedactedText(path.join(dir, REPORT_FILES.summaryMd), summaryMarkdown(summary)),
    writeRedactedText(path.join(dir, REPORT_FILES.summaryHtml), certificateHtml(summary, { matrix: REPORT_FILES.matrixHtml, allure: allure.href, allureWritten: allure.written })),
    ...(matrix
      ? [
          writeRedactedJson(path.join(dir, REPORT_FILES.matrixJson), matrix, { records: true }),
          writeRedactedText(path.join(dir, REPORT_FILES.matrixMd), matrixMarkdown(matrix, verdict)),
          writeRedactedText(path.join(dir, REPORT_FILES.matrixHtml), matrixHtml(matrix, verdict)),
        ]
      : []),
  ];
}

/**
 * The Allure overview's Environment widget: the run, and the verdict, scope, waivers and what was not checked, so
 * that the Allure report read alone does not look like a PASSED certificate of an INCOMPLETE run.
 */
export function allureEnvironment(meta: RunMeta, summary: Summary): Record<string, string | undefined> {
  const groups = groupUnchecked(summary.unchecked ?? []);
  return {
    // A shard's or a narrowed run's verdict speaks of its part only: said in the key, so that a merged report (whose
    // environment lists each shard's) reads no shard's PASSED as the whole verdict.
    ...(meta.shard || meta.tags
      ? {
          'verdict of this part': `${summary.result.toUpperCase()} for ${meta.shard ? `shard ${meta.shard}` : `--tags ${meta.tags}`} alone, not the whole suite (the whole verdict: summary.html of cardspec report --merge): ${verdictReason(summary)}`,
        }
      : { verdict: `${summary.result.toUpperCase()}: ${verdictReason(summary)} (summary.html beside the report says what was certified and why)` }),
    scope: summary.scope,
    target: meta.target,
    profile: meta.profile,
    formats: meta.formats.join(', '),
    'cardspec version': meta.kitVersion,
    'JSON envelope version': meta.interfaceVersions.json,
    'XML block version': meta.interfaceVersions.xml,
    'document sha256': meta.documentSha256,
    'run started': meta.startedAt,
    'run finished': meta.finishedAt,
    tags: meta.tags,
    shard: meta.shard,
    waivers: (summary.waivers ?? []).length === 0 ? 'none' : (summary.waivers ?? []).map((w) => `${w.id}: ${w.reason}`).join(' | '),
    ...(groups.length > 0 ? { 'not checked in scope': groups.map((g) => `${g.reason} (${g.rules.length} rule(s)${g.scenarios ? `, ${g.scenarios} scenario(s)` : ''})`).join(' | ') } : {}),
  };
}

/**
 * The Environment entries of a merged Allure report (`cardspec report` of several runs): the verdict of the whole,
 * under a key of its own. Allure lists each run's `verdict` (or `verdict of this part`) beside it; without this
 * entry the report read alone shows only the parts' verdicts, and a shard's PASSED could pass for the whole.
 */
export function mergedAllureEnvironment(summary: Summary, runs: number): Record<string, string> {
  const pct = summary.coverage.percent === null ? 'n/a' : `${summary.coverage.percent.toFixed(1)}%`;
  return {
    'verdict of the whole': `${summary.result.toUpperCase()} for the ${runs} runs merged: ${verdictReason(summary)} (summary.html beside the report says what was certified and why)`,
    'rule coverage of the whole': `${summary.coverage.covered}/${summary.coverage.testable} (${pct})`,
  };
}

export function kitVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function earliest(values: readonly (string | undefined)[]): string | undefined {
  return values.filter((v): v is string => !!v).sort()[0];
}

function latest(values: readonly (string | undefined)[]): string | undefined {
  return values
    .filter((v): v is string => !!v)
    .sort()
    .at(-1);
}

/** Writes every report of the run under `reportsDir`; returns the paths written. */
export async function writeReports(artifacts: RunArtifacts): Promise<string[]> {
  const dir = path.resolve(artifacts.reportsDir);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const written: string[] = [];

    // Files cucumber wrote itself are masked again, so that an unmasked assertion message cannot stay in them;
    // the HTML report is then built from the masked messages.
    for (const run of artifacts.runs) {
      if (run.written) {
        if (fs.existsSync(run.messages)) written.push(run.messages);
      } else if (redactFileInPlace(run.messages)) written.push(run.messages);
      const log = path.join(dir, REPORT_FILES.allureLog(run.format));
      if (redactFileInPlace(log)) written.push(log);
      // Stack traces in the messages name the machine's folders: relative to the kit (and the run's folder) instead.
      if (!run.written) relativePathsInPlace(run.messages);
    }
    // The results are read from the messages whole; then, in the `summary` detail, the passed scenarios outside
    // the sample lose their exchanges in every record alike (detail.ts), and cucumber's page is built from that.
    const results: FormatResults[] = artifacts.runs.map((r) => (r.written && r.results) || readMessagesFile(r.messages, r.format));
    const kept = (artifacts.detail ?? 'summary') === 'summary' ? keptWhole(results.flatMap((r) => r.scenarios)) : undefined;
    for (const run of artifacts.runs) {
      if (kept) slimMessages(run.messages, run.format, kept);
      // Cucumber's page holds the messages again (7 MB a format): written in the `full` detail, where size is no aim.
      const html = path.join(dir, REPORT_FILES.cucumberHtml(run.format));
      if (!kept && (await writeCucumberHtml(run.messages, html))) written.push(html);
    }
    if (kept) slimAllureResults(path.join(dir, REPORT_FILES.allureResults), kept, runKeys(results.flatMap((r) => r.scenarios)));
    const catalogue = loadCatalogue(artifacts.catalogue ?? DEFAULT_CATALOGUE);
    const formats = artifacts.formats ? [...artifacts.formats] : artifacts.runs.map((r) => r.format);
    const meta: RunMeta = {
      target: redactText(artifacts.target),
      profile: redactText(artifacts.profile),
      formats,
      kitVersion: kitVersion(),
      interfaceVersions: { json: JSON_VERSION, xml: XML_VERSION },
      ...(documentSha256() ? { documentSha256: documentSha256() } : {}),
      // The run's own timestamps (cucumber's); the caller's times only when the messages have none.
      startedAt: earliest(results.map((r) => r.startedAt)) ?? artifacts.startedAt,
      finishedAt: latest(results.map((r) => r.finishedAt)) ?? artifacts.finishedAt,
      ...(artifacts.tags ? { tags: redactText(artifacts.tags) } : {}),
      ...(artifacts.shard ? { shard: artifacts.shard } : {}),
      ...(artifacts.strict ? { strict: true } : {}),
    };
    const scenarios = results.flatMap((r) => r.scenarios);
    // An earlier run's results in the same folder are deleted before a run starts (owned.ts), not here: only the
    // run knows which files were there before it and which it wrote.
    const allureDir = path.join(dir, REPORT_FILES.allureResults);
    const problems = [
      ...(artifacts.problems ?? []).map(redactText),
      ...results.flatMap((r) => r.problems),
      ...catalogue.problems,
      ...(scenarios.length > 0 && !hasAllureResults(allureDir) ? [`no Allure results in ${allureDir} (was the Allure formatter in cucumber's formats?)`] : []),
    ];
    const matrix = buildMatrix(meta, catalogue.rules, scenarios, artifacts.waivers ?? []);
    // A shard may hold no scenario of a format: that is its share, not a run that failed to produce results.
    const reasons = incompleteReasons(formats, results).filter((r) => !(artifacts.shard && /no scenario results/.test(r)));
    const incomplete = [...reasons, ...(artifacts.interrupted !== undefined ? [`the run was stopped before its end (${redactText(artifacts.interrupted)})`] : [])];
    const summary = buildSummary(meta, matrix, scenarios, problems, incomplete);
    artifacts.onSummary?.(summary);

    written.push(
      writeRedactedText(path.join(dir, REPORT_FILES.junit), junitXml(meta, catalogue.rules, scenarios, summary)),
      ...writeVerdictFiles(dir, summary, matrix, { href: `${REPORT_FILES.allureReport}/index.html`, written: false }),
      writeRedactedText(path.join(allureDir, 'environment.properties'), environmentProperties(allureEnvironment(meta, summary))),
    );
    return written;
  } catch (e) {
    throw new Error(redactText(`cardspec: could not write the reports to ${dir}: ${(e as Error).message}`));
  }
}

function relativePathsInPlace(file: string): void {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const out = withoutLocalPaths(text);
    if (out !== text) fs.writeFileSync(file, out, 'utf8');
  } catch {
    // No messages: said in the summary's problems.
  }
}

function hasAllureResults(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((f) => f.endsWith('-result.json'));
  } catch {
    return false;
  }
}
