/**
 * Observed coverage in the reports of `cardspec run` (docs/reports.md): the traceability matrix, the certification
 * summary with its certificate page, JUnit and Allure results, written from what the proxy (or an audit) observed.
 * The report model (src/report/model.ts) is built from scenario results, so each rule observed in one envelope form
 * becomes one result "RULE in the observed traffic": passed when checked and never broken, failed (with the first
 * masked exchange that broke it) when broken, and a rule no exchange showed has no result, so the matrix says it
 * was not covered and the verdict cannot be PASSED. The renderers are `run`'s own; every file goes through the
 * masking writer (src/report/files.ts).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Stage, Status, type Label, type TestResult } from 'allure-js-commons';
import { allureEnvironment, documentSha256, kitVersion, REPORT_FILES, writeVerdictFiles } from '../report';
import { CATEGORIES, environmentProperties, MATRIX_FROM_ALLURE_REPORT, RedactingWriter } from '../report/allure';
import { writeRedactedText } from '../report/files';
import { junitXml } from '../report/junit';
import type { ScenarioResult } from '../report/messages';
import { buildMatrix, buildSummary, type Matrix, type MatrixRow, type RuleOutcome, type RunMeta, type Summary } from '../report/model';
import { ruleAnchor } from '../report/text';
import { loadCatalogue, type CatalogueRule } from '../rules/catalogue';
import { PROPOSED_RULES } from '../rules/contract';
import type { CheckRecord } from '../rules/checks';
import { redactText } from '../redact';
import { JSON_VERSION, XML_VERSION, type Format } from '../wire/types';
import type { ProxyReport, RuleCoverage } from './session';

/** What the reports say the traffic was: where it went (the upstream) or where it was read from (the files). */
export interface ObservedRun {
  /** `cardspec proxy` or `cardspec audit`: the feature of every result. */
  readonly command: 'proxy' | 'audit';
  /** The upstream, or the capture files. */
  readonly target: string;
  /** ISO 8601 (UTC): when the observation started and ended. */
  readonly startedAt?: string;
  readonly finishedAt?: string;
}

const FORMATS: readonly Format[] = ['json', 'xml'];
const NEVER = 'never observed in this traffic';
/** The uri of every observed result (the flow of the summary's "by flow"). */
export const OBSERVED_URI = 'observed traffic';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The name of a rule's result: the same in both forms, so that the matrix shows one row with both. */
export const observedName = (rule: string): string => `${rule} in the observed traffic`;

/** The rules a report can cite: the catalogue's, and the contract's proposed ones (never "unknown" then). */
export function observedCatalogue(): { rules: CatalogueRule[]; problems: string[] } {
  const catalogue = loadCatalogue();
  const ids = new Set(catalogue.rules.map((r) => r.id));
  const proposed = PROPOSED_RULES.filter((r) => !ids.has(r.id)).map((r): CatalogueRule => ({ id: r.id, section: r.section, quote: r.quote, status: 'testable' }));
  return { rules: [...catalogue.rules, ...proposed], problems: catalogue.problems };
}

/**
 * One result per rule and envelope form it was observed in. A warning (a recommendation, what the document does not
 * show) is an advisory, as in `run`: it fails the verdict only with --strict. A rule observed outside any form (a
 * call astray, to neither `/json/` nor `/xml/`) counts under JSON, the form whose path it missed.
 */
export function observedScenarios(report: ProxyReport, command: ObservedRun['command']): ScenarioResult[] {
  const out: ScenarioResult[] = [];
  for (const c of report.coverage) {
    if (c.status === 'not-observed') continue;
    const byFormat = c.byFormat ?? {};
    const formats = FORMATS.filter((f) => (byFormat[f]?.checked ?? 0) > 0);
    const own = (f: Format): { checked: number; failed: number; errors: number } => {
      const t = byFormat[f] ?? { checked: 0, failed: 0, errors: 0 };
      // What no form took (a call astray) is the JSON result's, so that no check is left out.
      if (f !== (formats[0] ?? 'json')) return t;
      const sum = FORMATS.reduce((a, x) => ({ checked: a.checked + (byFormat[x]?.checked ?? 0), failed: a.failed + (byFormat[x]?.failed ?? 0), errors: a.errors + (byFormat[x]?.errors ?? 0) }), {
        checked: 0,
        failed: 0,
        errors: 0,
      });
      return { checked: t.checked + c.checked - sum.checked, failed: t.failed + c.failed - sum.failed, errors: t.errors + (c.errors ?? c.failed) - sum.errors };
    };
    for (const format of formats.length > 0 ? formats : (['json'] as const)) {
      const t = own(format);
      out.push(resultOf(c, format, t, command));
    }
  }
  return out;
}

function resultOf(c: RuleCoverage, format: Format, t: { checked: number; failed: number; errors: number }, command: ObservedRun['command']): ScenarioResult {
  const types = [...(c.types ?? [])];
  const failed = t.errors > 0;
  const warned = !failed && t.failed > 0;
  const first = c.first;
  const said = first ? `${first.field ? `${first.field} -- ` : ''}${first.message}` : `broken in ${t.failed} of ${t.checked} exchanges`;
  const counts = `checked in ${plural(t.checked, 'exchange')}${t.failed > 0 ? `, broken in ${t.failed}` : ''} (${format.toUpperCase()})`;
  const check: CheckRecord | undefined = failed
    ? {
        rule: c.rule,
        ok: false,
        attribution: 'named',
        message: redactText(first?.message ?? said),
        // What the document expects is its sentence: a passive observer has no expected value of its own.
        ...(first?.field ? { field: redactText(first.field), ...(c.quote ? { expected: `"${c.quote}"` } : {}) } : {}),
        ...(c.example ? { exchange: c.example } : {}),
      }
    : undefined;
  return {
    format,
    feature: `Observed traffic (cardspec ${command})`,
    uri: OBSERVED_URI,
    line: 0,
    name: observedName(c.rule),
    tags: [`@rule:${c.rule}`, ...types.map((x) => `@type:${x}`)],
    rules: [c.rule],
    errorcodes: [],
    types,
    requires: [],
    verdict: failed ? 'failed' : 'passed',
    status: failed ? 'FAILED' : 'PASSED',
    reason: counts,
    ...(failed
      ? { error: redactText(`[${c.rule}] ${first ? `${first.side}: ` : ''}${said}; ${counts}${c.example ? `\n${c.example}` : ''}`), broken: [c.rule], failedChecks: [check!] }
      : { checked: [c.rule] }),
    ...(warned ? { advisories: [{ rule: c.rule, message: redactText(`${said}; ${counts}`) }] } : {}),
    durationMs: 0,
    attachments: c.example && (failed || warned) ? 1 : 0,
  };
}

/** A rule no exchange showed is "never observed", not "no scenario": the words of a passive observer. */
function observedWords(o: RuleOutcome): RuleOutcome {
  return o.verdict === 'not-covered' ? { verdict: 'not-covered', reason: NEVER } : o;
}

/** The matrix and the summary of observed traffic, from `run`'s model. */
export function observedReports(report: ProxyReport, run: ObservedRun): { meta: RunMeta; matrix: Matrix; summary: Summary; scenarios: ScenarioResult[]; rules: CatalogueRule[] } {
  const scenarios = observedScenarios(report, run.command);
  const formats = FORMATS.filter((f) => scenarios.some((s) => s.format === f));
  const sha = documentSha256();
  const meta: RunMeta = {
    target: redactText(run.target),
    profile: `none: traffic observed by cardspec ${run.command} (its own test data unknown)`,
    formats,
    kitVersion: kitVersion(),
    interfaceVersions: { json: JSON_VERSION, xml: XML_VERSION },
    ...(sha ? { documentSha256: sha } : {}),
    ...(run.startedAt ? { startedAt: run.startedAt } : {}),
    ...(run.finishedAt ? { finishedAt: run.finishedAt } : {}),
    ...(report.strict ? { strict: true } : {}),
  };
  const catalogue = observedCatalogue();
  const built = buildMatrix(meta, catalogue.rules, scenarios);
  const rows: MatrixRow[] = built.rules.map((r) => {
    const byFormat: MatrixRow['byFormat'] = {};
    for (const [f, o] of Object.entries(r.byFormat) as [Format, RuleOutcome][]) byFormat[f] = observedWords(o);
    return { ...r, byFormat, overall: observedWords(r.overall) };
  });
  const matrix: Matrix = { ...built, rules: rows };
  const e = report.exchanges;
  const nothing = `nothing observed: no call to the interface (/json/, /xml/) ${run.command === 'proxy' ? 'went through the proxy' : 'is in the capture'}, so nothing was checked`;
  const problems = [
    ...catalogue.problems,
    ...(e.faults > 0
      ? [
          `${plural(e.faults, 'exchange')} failed on the path (${Object.entries(report.faults.byKind)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')}): see the proxy's report`,
        ]
      : []),
  ];
  const built2 = buildSummary(meta, matrix, scenarios, problems, e.checked === 0 ? [nothing] : []);
  const unchecked = built2.unchecked.map((u) => (u.why === 'no scenario checked it' ? { ...u, why: NEVER, reason: NEVER } : u));
  // The scope is the catalogue's, as in `run`; what it rests on here is the traffic, said beside it.
  const summary: Summary = { ...built2, unchecked, scope: `${built2.scope}; judged from observed traffic (${plural(e.checked, 'call')} to the interface): a rule no exchange showed is not checked` };
  return { meta, matrix, summary, scenarios, rules: catalogue.rules };
}

/**
 * `run`'s JUnit document for observed traffic: one testcase per rule observed and envelope form, failed with the
 * first masked exchange that broke it, and the INCOMPLETE testcase in error with the reason when a rule was never
 * observed or nothing was. What `--junit FILE` writes and what `--reports DIR` holds as junit.xml: one shape, so
 * that a CI tool reads the proxy's, the audit's and a run's JUnit alike.
 */
export function observedJunitXml(report: ProxyReport, run: ObservedRun): string {
  const { meta, rules, scenarios, summary } = observedReports(report, run);
  return junitXml(meta, rules, scenarios, summary);
}

/**
 * Writes the files of `run --reports DIR` for observed traffic: junit.xml, matrix.{md,json,html},
 * summary.{md,json,html} and allure-results/ (one result per rule and form, the example exchange attached,
 * environment and categories). Returns the files written and the summary.
 */
export function writeObservedReports(dir: string, report: ProxyReport, run: ObservedRun): { files: string[]; summary: Summary } {
  const { meta, matrix, summary, scenarios, rules } = observedReports(report, run);
  const files = [
    writeRedactedText(path.join(dir, REPORT_FILES.junit), junitXml(meta, rules, scenarios, summary)),
    ...writeVerdictFiles(dir, summary, matrix, { href: `${REPORT_FILES.allureReport}/index.html`, written: false }),
  ];
  const allureDir = path.join(dir, REPORT_FILES.allureResults);
  removeEarlierResults(allureDir, run.command);
  const writer = new RedactingWriter(allureDir);
  const start = run.startedAt ? Date.parse(run.startedAt) : undefined;
  const stop = run.finishedAt ? Date.parse(run.finishedAt) : start;
  const coverage = new Map(report.coverage.map((c) => [c.rule, c]));
  for (const s of scenarios) {
    const result = allureResult(s, coverage.get(s.rules[0]), run.command, start, stop);
    const example = coverage.get(s.rules[0])?.example;
    if (example && s.attachments > 0) {
      const source = `${result.uuid}-attachment.txt`;
      writer.writeAttachment(source, Buffer.from(example, 'utf8'));
      result.attachments.push({ name: 'the first exchange that broke it (masked)', type: 'text/plain', source });
    }
    writer.writeResult(result);
    files.push(path.join(allureDir, `${result.uuid}-result.json`));
  }
  writer.writeCategoriesDefinitions(CATEGORIES);
  files.push(path.join(allureDir, 'categories.json'), writeRedactedText(path.join(allureDir, 'environment.properties'), environmentProperties(allureEnvironment(meta, summary))));
  return { files, summary };
}

/** The results an earlier observation of the same command wrote here: a rule it saw and this one did not must go. */
function removeEarlierResults(dir: string, command: ObservedRun['command']): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const mine = new RegExp(`^[0-9a-f]{32}-${command}-(result\\.json|attachment\\.txt)$`);
  for (const n of names) if (mine.test(n)) fs.rmSync(path.join(dir, n), { force: true });
}

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** An Allure result as `run`'s formatter labels one (src/report/allure.ts `decorate`): rule, story, suites, format. */
function allureResult(s: ScenarioResult, c: RuleCoverage | undefined, command: ObservedRun['command'], start?: number, stop?: number): TestResult {
  const rule = s.rules[0];
  const labels: Label[] = [
    { name: 'rule', value: rule },
    ...s.types.map((t) => ({ name: 'requesttype', value: t })),
    { name: 'format', value: s.format },
    { name: 'parentSuite', value: s.types[0] ?? '(no request type)' },
    { name: 'suite', value: s.feature },
    { name: 'subSuite', value: s.format.toUpperCase() },
    { name: 'epic', value: s.types.join(' + ') || '(no request type)' },
    { name: 'feature', value: s.feature },
    { name: 'story', value: rule },
    { name: 'tag', value: `@cardspec:${command}` },
  ];
  const key = `${OBSERVED_URI}:${rule}`;
  return {
    uuid: `${hash(`${key}:${s.format}`)}-${command}`,
    historyId: hash(`${key}:${s.format}`),
    testCaseId: hash(key),
    name: s.name,
    fullName: `${OBSERVED_URI}#${rule}`,
    status: s.verdict === 'failed' ? Status.FAILED : Status.PASSED,
    statusDetails: s.verdict === 'failed' ? { message: s.error?.split('\n')[0] ?? '', trace: c?.example ?? '' } : s.advisories?.length ? { message: `warning: ${s.advisories[0].message}` } : {},
    stage: Stage.FINISHED,
    description: [c?.quote ? `"${c.quote}" (${c.section ?? ''})` : '', s.reason ?? ''].filter(Boolean).join('\n\n'),
    steps: [],
    attachments: [],
    parameters: [{ name: 'format', value: s.format }],
    labels,
    links: [{ name: `Rule ${rule}`, url: `${MATRIX_FROM_ALLURE_REPORT}#${ruleAnchor(rule)}`, type: 'rule' }],
    ...(start !== undefined && !Number.isNaN(start) ? { start } : {}),
    ...(stop !== undefined && !Number.isNaN(stop) ? { stop } : {}),
  };
}
