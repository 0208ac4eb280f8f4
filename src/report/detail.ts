/**
 * How much of a run the reports keep (`--reports-detail`). `full` keeps every exchange of every scenario, as the
 * run recorded it. `summary` (the default) keeps a size CI can hold as an artefact on every commit: every failed
 * or skipped scenario whole, a sample of the passed ones whole (the first few of each feature in each format, enough
 * for an auditor to see what was sent and answered), and of the other passed scenarios their steps and verdict
 * without the exchanges and the record of checks (summary.json holds what each checked, and where). A full run of a passing target left 273 MB and 56,000 files before.
 *
 * The sample is chosen from the run's own results after the run (every report then agrees on it), so that the
 * messages, cucumber's page and the Allure results keep the same scenarios' exchanges.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Format } from '../wire/types';
import type { ScenarioResult } from './messages';
import { byText } from '../order';
import { CHECKS_MEDIA_TYPE } from '../rules/checks';

export type ReportsDetail = 'summary' | 'full';
export const REPORTS_DETAILS: readonly ReportsDetail[] = ['summary', 'full'];

/** Passed scenarios kept whole per feature and format. */
export const PASSES_KEPT_PER_FEATURE = 2;

/** A scenario as the three records name it: format, feature file, scenario name. */
const keyOf = (format: string, uri: string, name: string): string => `${format}\u0000${uri}\u0000${name}`;

/** Every scenario of the run, by the key the records share: what the slimming may touch (never another tool's). */
export function runKeys(scenarios: readonly ScenarioResult[]): Set<string> {
  return new Set(scenarios.map((s) => keyOf(s.format, s.uri, s.name)));
}

/** The scenarios whose exchanges are kept: every one not passed, and the first passed ones of each feature. */
export function keptWhole(scenarios: readonly ScenarioResult[]): Set<string> {
  const kept = new Set<string>();
  const passed = new Map<string, ScenarioResult[]>();
  for (const s of scenarios) {
    if (s.verdict !== 'passed') kept.add(keyOf(s.format, s.uri, s.name));
    else passed.set(`${s.format}\u0000${s.uri}`, [...(passed.get(`${s.format}\u0000${s.uri}`) ?? []), s]);
  }
  for (const list of passed.values()) {
    for (const s of [...list].sort((a, b) => a.line - b.line || byText(a.name, b.name)).slice(0, PASSES_KEPT_PER_FEATURE)) kept.add(keyOf(s.format, s.uri, s.name));
  }
  return kept;
}

/** An exchange (request and answer), not the kit's own record of checks, skip reasons or log lines. */
const isExchange = (mediaType: string | undefined): boolean => mediaType === 'application/json' || /xml/.test(mediaType ?? '');

/**
 * What a passed scenario outside the sample drops from the messages: its exchanges, and its record of checks. Every
 * passed check's rule, exchanges and contexts are in summary.json (the scenario's `checked` and `reached`), read from
 * this record before it goes; only each check's attribution (named by its step, or by the field it looked at) is
 * not. The checks are a third of the messages (3 MB a format), each repeating its exchange's contexts.
 */
const isDropped = (mediaType: string | undefined): boolean => isExchange(mediaType) || mediaType === CHECKS_MEDIA_TYPE;

interface Envelope {
  pickle?: { id: string; uri: string; name: string };
  testCase?: { id: string; pickleId: string };
  testCaseStarted?: { id: string; testCaseId: string };
  attachment?: { testCaseStartedId?: string; mediaType?: string };
}

/**
 * Cucumber's messages of one format without the exchanges and checks of the passed scenarios outside the sample
 * (their steps, results, log lines and advisories stay). Returns how many attachments it left out.
 */
export function slimMessages(file: string, format: Format, kept: ReadonlySet<string>): number {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const pickles = new Map<string, { uri: string; name: string }>();
  const cases = new Map<string, string>();
  const started = new Map<string, boolean>();
  let dropped = 0;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let m: Envelope;
    try {
      m = JSON.parse(line) as Envelope;
    } catch {
      out.push(line);
      continue;
    }
    if (m.pickle) pickles.set(m.pickle.id, { uri: m.pickle.uri, name: m.pickle.name });
    else if (m.testCase) cases.set(m.testCase.id, m.testCase.pickleId);
    else if (m.testCaseStarted) {
      const p = pickles.get(cases.get(m.testCaseStarted.testCaseId) ?? '');
      started.set(m.testCaseStarted.id, !p || kept.has(keyOf(format, p.uri, p.name)));
    } else if (m.attachment && isDropped(m.attachment.mediaType) && started.get(m.attachment.testCaseStartedId ?? '') === false) {
      dropped++;
      continue;
    }
    out.push(line);
  }
  if (dropped > 0) fs.writeFileSync(file, out.join('\n') + '\n', 'utf8');
  return dropped;
}

interface AllureAttachment {
  source?: string;
}
interface AllureStep {
  name?: string;
  attachments?: AllureAttachment[];
  steps?: AllureStep[];
}
interface AllureResult extends AllureStep {
  uuid?: string;
  status?: string;
  name?: string;
  fullName?: string;
  historyId?: string;
  testCaseId?: string;
  start?: number;
  stop?: number;
  labels?: { name: string; value: string }[];
  parameters?: { name: string; value: string }[];
}
interface AllureContainer {
  children?: string[];
  befores?: AllureStep[];
  afters?: AllureStep[];
}

function sources(steps: readonly AllureStep[] | undefined, into: string[]): string[] {
  for (const s of steps ?? []) {
    for (const a of s.attachments ?? []) if (a.source) into.push(a.source);
    sources(s.steps, into);
  }
  return into;
}

/** Steps without their attachments, and without the steps that only held one (allure-cucumberjs' "Attachment"). */
function withoutAttachments(steps: readonly AllureStep[] | undefined): AllureStep[] {
  return (steps ?? []).filter((s) => !(s.name === 'Attachment' && (s.steps ?? []).length === 0)).map((s) => ({ ...s, attachments: [], ...(s.steps ? { steps: withoutAttachments(s.steps) } : {}) }));
}

/**
 * The Allure results of a run in the `summary` detail: a passed result outside the sample keeps its steps, labels,
 * links and parameters, not its attachments; its containers (cucumber's hooks) go, and so does any container of
 * passed hooks that shows nothing. Returns the number of files removed.
 */
export function slimAllureResults(dir: string, kept: ReadonlySet<string>, ours: ReadonlySet<string>): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  const read = <T>(f: string): T | undefined => {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as T;
    } catch {
      return undefined;
    }
  };
  const remove = (f: string): number => {
    try {
      fs.rmSync(path.join(dir, path.basename(f)));
      return 1;
    } catch {
      return 0;
    }
  };
  let removed = 0;
  const slim = new Set<string>();
  // The results of this run's scenarios: a folder may hold another tool's results, which stay as they are.
  const mine = new Set<string>();
  const groups = new Map<string, { file: string; result: AllureResult }[]>();
  for (const f of names.filter((n) => n.endsWith('-result.json'))) {
    const r = read<AllureResult>(f);
    if (!r) continue;
    const format = r.parameters?.find((p) => p.name === 'format')?.value ?? '';
    // `<project>:<uri>#<scenario>` (allure-cucumberjs' fullName).
    const m = /^[^:]*:(.*?)#(.*)$/s.exec(r.fullName ?? '');
    if (!m || !ours.has(keyOf(format, m[1], m[2]))) continue;
    if (r.uuid) mine.add(r.uuid);
    if (r.status !== 'passed' || kept.has(keyOf(format, m[1], m[2]))) continue;
    if (r.uuid) slim.add(r.uuid);
    for (const s of sources(r.steps, sources([r], []))) removed += remove(s);
    const stories = (r.labels ?? []).filter((l) => l.name === 'story').map((l) => l.value);
    const key = [format, m[1], ...stories].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), { file: f, result: r }]);
  }
  // The passed scenarios of one feature, format and rules outside the sample become one Allure test that lists them
  // (its steps): 1,265 boundary scenarios are a few hundred tests, and the report's every tree and chart lists
  // each test. The matrix and summary.json keep every scenario.
  for (const [key, members] of groups) {
    const first = members[0].result;
    const { description: _description, ...rest } = first as AllureResult & { description?: string };
    void _description;
    const one: AllureResult =
      members.length === 1
        ? { ...rest, attachments: [], steps: withoutAttachments(first.steps) }
        : {
            ...rest,
            name: `${members.length} passed scenarios of ${
              (first.labels ?? [])
                .filter((l) => l.name === 'story')
                .map((l) => l.value)
                .join(', ') || 'no rule'
            } (summarised)`,
            fullName: `${first.fullName ?? ''} (and ${members.length - 1} more, summarised)`,
            historyId: createHash('md5').update(key).digest('hex'),
            testCaseId: createHash('md5').update(`case\u0000${key}`).digest('hex'),
            parameters: (first.parameters ?? []).filter((p) => p.name === 'format'),
            start: Math.min(...members.map((x) => x.result.start ?? 0)),
            stop: Math.max(...members.map((x) => x.result.stop ?? 0)),
            attachments: [],
            steps: members.map((x) => ({ name: x.result.name, status: 'passed', stage: 'finished', steps: [], attachments: [], parameters: x.result.parameters ?? [] }) as AllureStep),
          };
    fs.writeFileSync(path.join(dir, members[0].file), JSON.stringify(one) + '\n', 'utf8');
    for (const x of members.slice(1)) removed += remove(x.file);
  }
  for (const f of names.filter((n) => n.endsWith('-container.json'))) {
    const c = read<AllureContainer>(f);
    if (!c || !(c.children ?? []).every((id) => mine.has(id))) continue;
    const fixtures = [...(c.befores ?? []), ...(c.afters ?? [])];
    // A container holds cucumber's hooks: kept when it shows something (an attachment, a hook that did not pass)
    // of a scenario kept whole.
    const empty = sources(fixtures, []).length === 0 && fixtures.every((x) => (x as { status?: string }).status === 'passed');
    if (!empty && !(c.children ?? []).every((id) => slim.has(id))) continue;
    for (const s of sources([...(c.befores ?? []), ...(c.afters ?? [])], [])) removed += remove(s);
    removed += remove(f);
  }
  return removed;
}
