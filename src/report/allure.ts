/**
 * What cardspec adds to allure-cucumberjs: a writer that masks every result, container and attachment on its way
 * to disk (src/redact.ts), and a listener that turns the scenario tags into Allure labels and links:
 * `@rule:` / `@errorcode:` / `@type:` / `@requires:` become labels of those names, rules also become stories (the
 * Behaviors tab then reads rule by rule) and links to the traceability matrix, and the suites are grouped by
 * main request type (parent suite), then flow (suite), then format (sub-suite). Both formats' runs write into one
 * results folder; the `format` parameter keeps the JSON and the XML result of a scenario apart (it is part of
 * Allure's history id, so they are never taken for retries of one another).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Status, type Globals, type Label, type Link, type TestResult, type TestResultContainer } from 'allure-js-commons';
// The subpath exports ('allure-js-commons/sdk/reporter') are not visible to the project's `moduleResolution: node`;
// these are the same declarations, by path, for types only.
import type { Category, EnvironmentInfo } from 'allure-js-commons/dist/types/sdk/index';
import type { LifecycleListener, Writer } from 'allure-js-commons/dist/types/sdk/reporter/index';
import { REQUEST_TYPES } from '../../schemas/fields';
import type { Format } from '../wire/types';
import { writeRedactedBytes, writeRedactedJson, writeRedactedText } from './files';
import { reflow, ruleAnchor } from './text';
import { byText } from '../order';

/**
 * Where the matrix page is, relative to the generated HTML report's page: `cardspec report` puts the matrix (a
 * copy, or the merged one) into the report folder itself, so that the folder can be published as it is.
 */
export const MATRIX_FROM_ALLURE_REPORT = 'matrix.html';

export const CATEGORIES: Category[] = [
  { name: 'Broke a rule of the document', matchedStatuses: [Status.FAILED] },
  { name: 'Could not run (the target answered something the steps could not read, or a kit error)', matchedStatuses: [Status.BROKEN] },
  { name: 'Skipped (capability not offered, or not applicable)', matchedStatuses: [Status.SKIPPED] },
];

/**
 * Masks everything allure-cucumberjs writes. A CSV attachment waits for its result: allure-cucumberjs attaches every
 * Examples table of an outline, whole, to each of its scenarios (45,000 files for the field boundary phase), though
 * the scenario's own row is already its parameters; `decorate` takes those off the result and discards them here,
 * and a data table of a step (also CSV) is written with its result.
 */
export class RedactingWriter implements Writer {
  private readonly pendingCsv = new Map<string, Buffer>();

  constructor(private readonly dir: string) {}

  private file(name: string): string {
    // Names come from allure-js (uuids and fixed names); basename keeps a strange one inside the folder.
    return path.join(this.dir, path.basename(name));
  }

  /** An attachment the result no longer refers to (an outline's Examples table): never written. */
  discard(source: string): void {
    this.pendingCsv.delete(source);
  }

  writeResult(result: TestResult): void {
    for (const source of attachmentSources(result)) {
      const csv = this.pendingCsv.get(source);
      if (csv === undefined) continue;
      writeRedactedBytes(this.file(source), csv);
      this.pendingCsv.delete(source);
    }
    writeRedactedJson(this.file(`${result.uuid}-result.json`), result, { compact: true });
  }

  writeGroup(result: TestResultContainer): void {
    writeRedactedJson(this.file(`${result.uuid}-container.json`), result, { compact: true });
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    if (distFileName.endsWith('.csv')) this.pendingCsv.set(distFileName, content);
    else writeRedactedBytes(this.file(distFileName), content);
  }

  writeAttachmentFromPath(distFileName: string, from: string): void {
    writeRedactedBytes(this.file(distFileName), fs.readFileSync(from));
  }

  writeEnvironmentInfo(info: EnvironmentInfo): void {
    writeRedactedText(this.file('environment.properties'), environmentProperties(info));
  }

  writeCategoriesDefinitions(categories: Category[]): void {
    writeRedactedJson(this.file('categories.json'), categories);
  }

  writeGlobals(distFileName: string, info: Globals): void {
    writeRedactedJson(this.file(distFileName), info);
  }
}

function attachmentSources(step: { attachments?: { source: string }[]; steps?: unknown[] }): string[] {
  return [...(step.attachments ?? []).map((a) => a.source), ...((step.steps ?? []) as { attachments?: { source: string }[]; steps?: unknown[] }[]).flatMap(attachmentSources)];
}

/** allure-cucumberjs' test-level attachment of an outline's Examples table ("Examples", "Examples: <name>"). */
const isExamplesTable = (a: { name: string; type?: string }): boolean => a.type === 'text/csv' && /^Examples(:|$)/.test(a.name);

export function environmentProperties(info: Readonly<Record<string, string | undefined>>): string {
  // Java properties: `key = value`, with the characters that would break a line escaped.
  const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n');
  return (
    Object.entries(info)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${esc(k).replace(/[ =:]/g, '_')} = ${esc(v ?? '')}`)
      .join('\n') + '\n'
  );
}

const TAG_LABELS: readonly (readonly [string, string])[] = [
  ['@rule:', 'rule'],
  ['@errorcode:', 'errorcode'],
  ['@type:', 'requesttype'],
  ['@requires:', 'requires'],
];

const NO_TYPE = '(no request type)';
/** `CheckFailure: [ENV-ORDER, ENV-TYPES-NAMED] ...` or `[FX-VERSION] ...`. */
const NAMES_A_RULE = /^(?:[A-Za-z]+: )?\[[A-Z0-9][A-Za-z0-9_:-]*(?:, [A-Z0-9][A-Za-z0-9_:-]*)*\]/;

interface StepLike {
  status?: Status;
  statusDetails?: { message?: string; trace?: string };
  /** Absent on the steps allure-cucumberjs makes to hold an attachment. */
  steps?: StepLike[];
}

function markFailed(steps: readonly StepLike[] | undefined): void {
  for (const step of steps ?? []) {
    if (step.status === Status.BROKEN && NAMES_A_RULE.test(step.statusDetails?.message ?? '')) step.status = Status.FAILED;
    markFailed(step.steps);
  }
}

const KIT_ROOT = path.join(__dirname, '..', '..');

/**
 * A failure's details as the target's cause, not the kit's: a failed check (its message names the rule) carries no
 * stack trace (the stack is the kit's own code); any other error keeps its trace, with the kit's folder and file
 * URLs taken out so that no local path reaches the report.
 */
export function cleanDetails(details: { message?: string; trace?: string } | undefined): void {
  if (!details) return;
  if (NAMES_A_RULE.test(details.message ?? '')) {
    delete details.trace;
    return;
  }
  if (details.trace) details.trace = withoutLocalPaths(details.trace);
  if (details.message) details.message = withoutLocalPaths(details.message);
}

export function withoutLocalPaths(text: string): string {
  // The kit's folder and the folder the run was started in (a user's own steps), the longer first.
  const roots = [...new Set([KIT_ROOT, process.cwd()])].filter((r) => r.length > 1).sort((a, b) => b.length - a.length);
  let out = text;
  for (const r of roots) {
    const root = r.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`file://${root}/?`, 'g'), '').replace(new RegExp(`${root}/`, 'g'), '');
  }
  return out.replace(/\(?\/[^\s():]*\/node_modules\//g, (m) => (m.startsWith('(') ? '(node_modules/' : 'node_modules/'));
}

function cleanSteps(steps: readonly StepLike[] | undefined): void {
  for (const step of steps ?? []) {
    cleanDetails(step.statusDetails);
    cleanSteps(step.steps);
  }
}

function typeRank(t: string): number {
  const i = (REQUEST_TYPES as readonly string[]).indexOf(t);
  return i >= 0 ? i : REQUEST_TYPES.length;
}

/**
 * Labels, links, suites and the format parameter, computed from the tags allure-cucumberjs already recorded; an
 * outline's Examples tables leave the result (`discard` drops their pending files).
 */
export function decorate(result: TestResult, format: Format, discard: (source: string) => void = () => undefined): void {
  for (const a of result.attachments.filter(isExamplesTable)) discard(a.source);
  result.attachments = result.attachments.filter((a) => !isExamplesTable(a));
  const tags = result.labels.filter((l) => l.name === 'tag').map((l) => l.value);
  const added: Label[] = [];
  for (const [prefix, name] of TAG_LABELS) {
    for (const t of tags) if (t.startsWith(prefix) && t.length > prefix.length) added.push({ name, value: t.slice(prefix.length) });
  }
  const rules = added.filter((l) => l.name === 'rule').map((l) => l.value);
  const types = added.filter((l) => l.name === 'requesttype').map((l) => l.value);
  // The request types a scenario exercises, in the document's order, name its behaviour (epic); its main one (the
  // first `@type:` tag, as the features list them) is its top-level suite, so the Suites tab has one group per
  // request type rather than one per combination.
  const combination = [...types].sort((a, b) => typeRank(a) - typeRank(b) || byText(a, b)).join(' + ');
  const feature = result.labels.find((l) => l.name === 'feature')?.value ?? '';
  const suites = new Set(['parentSuite', 'suite', 'subSuite', 'epic', 'story', 'format']);
  // Labels no reader of a conformance report needs, repeated on each of 1,500 results (a fifth of the single-file
  // report): the machine's host and thread, the language and framework, a fallback id, the file as a package; and
  // the tags that became labels of their own above.
  const noise = new Set(['host', 'thread', 'language', 'framework', '_fallbackTestCaseId', 'package']);
  const labelled = (l: Label): boolean => l.name === 'tag' && TAG_LABELS.some(([prefix]) => l.value.startsWith(prefix));
  result.labels = [
    ...result.labels.filter((l) => !suites.has(l.name) && !noise.has(l.name) && !labelled(l)),
    ...added,
    { name: 'format', value: format },
    { name: 'parentSuite', value: types[0] ?? NO_TYPE },
    { name: 'suite', value: feature },
    { name: 'subSuite', value: format.toUpperCase() },
    { name: 'epic', value: combination || NO_TYPE },
    ...rules.map((r) => ({ name: 'story', value: r })),
  ];
  // Allure calls any error that is not an assertion library's "broken". A check that names the rule it found
  // broken (`[RULE-ID] ...`, the steps' convention, docs/reports.md) is a failure of the target, not a broken test.
  if (result.status === Status.BROKEN && NAMES_A_RULE.test(result.statusDetails?.message ?? '')) {
    result.status = Status.FAILED;
    markFailed(result.steps);
  }
  cleanDetails(result.statusDetails as { message?: string; trace?: string } | undefined);
  cleanSteps(result.steps as StepLike[]);
  // A feature's description is written with hard line breaks; the report reflows it.
  if (typeof result.description === 'string') result.description = reflow(result.description);
  const links: Link[] = rules.map((r) => ({ name: `Rule ${r}`, url: `${MATRIX_FROM_ALLURE_REPORT}#${ruleAnchor(r)}`, type: 'rule' }));
  result.links = [...result.links, ...links];
  if (!result.parameters.some((p) => p.name === 'format')) result.parameters = [...result.parameters, { name: 'format', value: format }];
}

/** Counts results written, for the formatter's log line. */
export interface AllureRunCounter {
  written: number;
}

/** The options handed to allure-cucumberjs (its `parsedArgvOptions`): results folder, writer, listener. */
export function allureOptions(resultsDir: string, format: Format, counter: AllureRunCounter): Record<string, unknown> {
  const writer = new RedactingWriter(resultsDir);
  const listener: LifecycleListener = {
    beforeTestResultStop: (result) => decorate(result, format, (source) => writer.discard(source)),
    afterTestResultWrite: () => {
      counter.written++;
    },
  };
  return { resultsDir, writer, listeners: [listener], categories: CATEGORIES };
}
