/**
 * From scenario results and the rule catalogue to the two documents an auditor and a CI gate read: the
 * traceability matrix (rule -> scenarios -> verdict per format) and the certification summary. Both are plain
 * data here; matrix.ts and summary.ts only render them. Merging several runs (CI shards, parallel workers) is
 * the same computation over the union of their scenario results, so it lives here too.
 */
import { REQUEST_TYPES } from '../../schemas/fields';
import type { Format } from '../wire/types';
import type { CatalogueRule, RuleStatus } from '../rules/catalogue';
import { contextFromKey, contextLabel, inScopeOf, reaches, scopeContexts, type Scope } from '../rules/scope';
import { readReach, type RuleReach, type ScenarioResult, type Verdict } from './messages';
import { waiverOfRule, waiverOfTags, type Waiver } from './waivers';
import { causesOf, type Cause } from './causes';
import { byText } from '../order';

export type RuleVerdict = Verdict | 'blocked' | 'not-covered' | 'unspecified' | 'untestable';

/** A scenario's verdict for one of its rules: `blocked` when it failed on another rule before checking this one. */
export type ScenarioRuleVerdict = Verdict | 'blocked';

export interface RunMeta {
  /** Base URL of the target, or `builtin`. */
  readonly target: string;
  readonly profile: string;
  readonly formats: readonly Format[];
  /** cardspec's version (package.json). */
  readonly kitVersion: string;
  /** The interface versions the kit checks against (Versioning 1 and 2). */
  readonly interfaceVersions: { readonly json: string; readonly xml: string };
  /** ISO 8601 from the run's own timestamps (cucumber's testRunStarted / testRunFinished). */
  readonly startedAt?: string;
  readonly finishedAt?: string;
  /** The SHA-256 of the document's copy the kit checks against (docs/spec/SHA256SUMS). */
  readonly documentSha256?: string;
  /** The tag expression the run was limited to, if any. */
  readonly tags?: string;
  /** `i/n` when the run was one shard of a CI matrix (`--shard`): its scope is the rules of its own scenarios. */
  readonly shard?: string;
  /** `run --strict`: the SHOULD-level points (advisories) fail the run. */
  readonly strict?: boolean;
}

export interface FormatOutcome {
  readonly verdict: ScenarioRuleVerdict;
  readonly reason?: string;
  readonly error?: string;
}

export interface MatrixScenario {
  readonly name: string;
  readonly feature: string;
  readonly uri: string;
  readonly line: number;
  readonly results: Partial<Record<Format, FormatOutcome>>;
}

export interface RuleOutcome {
  readonly verdict: RuleVerdict;
  /** For skipped: why; for unspecified and untestable: the catalogue's why; for failed: which scenarios. */
  readonly reason?: string;
}

export interface MatrixRow {
  readonly id: string;
  readonly section: string;
  readonly quote: string;
  readonly status: RuleStatus;
  readonly why?: string;
  readonly scenarios: MatrixScenario[];
  readonly byFormat: Partial<Record<Format, RuleOutcome>>;
  readonly overall: RuleOutcome;
  /** The envelope forms the rule applies to (the catalogue's `formats`); absent: both. */
  readonly formats?: readonly Format[];
  /** The waiver that takes the rule out of the run's scope, with its written reason. */
  readonly waiver?: Waiver;
  /** A field row (`FIELD-LENGTHS:pan`): the catalogue rule it rolls up into; it is shown, never counted itself. */
  readonly rollsUpTo?: string;
  /** A catalogue rule checked (also) per field: its field rows, whose verdicts its own verdict includes. */
  readonly fieldRows?: readonly string[];
  /** Where the rule applies (the catalogue's `scope`), kept so that merged runs read it back. */
  readonly scope?: Scope;
  /** In which contexts of its scope the rule was checked, and which no exchange reached. */
  readonly contexts?: RuleContexts;
}

/**
 * The contexts of a rule's scope in the run's formats (src/rules/scope.ts) against the exchanges its checks looked
 * at. Reported, never a verdict: a rule whose checks held is PASSED whatever contexts they missed, and the matrix
 * says which those are.
 */
export interface RuleContexts {
  /** Exchanges the rule was checked in whose context lies in its scope, over every scenario and format. */
  readonly exchanges: number;
  /** How many contexts the scope has in the run's formats. */
  readonly total: number;
  /** The contexts some check reached, with the number of exchanges that reached each. */
  readonly reached: readonly { readonly context: string; readonly exchanges: number }[];
  /** The contexts no exchange of the run reached. */
  readonly unreached: readonly string[];
}

export interface Coverage {
  /**
   * The scope: testable rules of the catalogue that apply to a format of the run, less the waived ones. It depends
   * on the catalogue, the formats and the waivers only, never on what ran (field rows roll up into their rule).
   */
  readonly testable: number;
  /** Rules of the scope with a passing check and no failing one (a rule with field rows: every row so). */
  readonly covered: number;
  /** covered / testable, as a percentage with one decimal; null when no rule is testable. */
  readonly percent: number | null;
  /** Per format: the rules of the scope that apply to it, and those covered in it. */
  readonly byFormat: Partial<Record<Format, { readonly testable: number; readonly covered: number; readonly percent: number | null }>>;
  /** What the catalogue holds besides the scope: rules it counts, and why the others are not in it. */
  readonly catalogue: { readonly rules: number; readonly testable: number; readonly waived: number; readonly otherFormat: number; readonly untestable: number; readonly unspecified: number };
}

export interface Matrix {
  readonly kind: 'cardspec-traceability-matrix';
  readonly schema: 1;
  readonly meta: RunMeta;
  readonly coverage: Coverage;
  readonly rules: MatrixRow[];
  /** `@rule:` tags that name no rule of the catalogue. */
  readonly unknownRules: { readonly id: string; readonly scenarios: string[] }[];
  /** Every waiver of the run, as given (rule ID or tag, and the written reason). */
  readonly waivers: Waiver[];
}

export interface Counts {
  scenarios: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface Failure {
  readonly feature: string;
  readonly scenario: string;
  readonly uri: string;
  readonly line: number;
  readonly format: Format;
  /** The rules this failure broke, with the document's sentence. */
  readonly rules: { readonly id: string; readonly section: string; readonly quote: string }[];
  readonly error: string;
}

export interface Summary {
  readonly kind: 'cardspec-certification-summary';
  readonly schema: 1;
  /** `failed` when any scenario failed; `incomplete` when a format has no results or its run did not finish. */
  readonly result: 'passed' | 'failed' | 'incomplete';
  readonly incompleteBecause: string[];
  /** Rules in scope a format's run did not check, and scenarios in scope that were skipped (why not PASSED). */
  readonly unchecked: Unchecked[];
  /** The run's waivers: each narrows the scope, with its written reason. */
  readonly waivers: Waiver[];
  /**
   * The SHOULD-level points met (src/rules/advisories.ts), each once with the scenarios that met it: warnings,
   * which fail the run only with `run --strict` (`meta.strict`).
   */
  readonly advisories?: { readonly rule: string; readonly message: string; readonly format: Format; readonly scenarios: number }[];
  /** What the scope is, in words. */
  readonly scope: string;
  /** The distinct causes of the failures (rule, field, expected vs seen, how many scenarios, one example). */
  readonly causes: Cause[];
  readonly meta: RunMeta;
  /** The run's day (YYYY-MM-DD, UTC) from its own start timestamp. */
  readonly date: string | null;
  readonly totals: Counts;
  readonly byFormat: Partial<Record<Format, Counts>>;
  readonly byRequestType: (Counts & { readonly type: string; readonly byFormat: Partial<Record<Format, Counts>> })[];
  readonly byFlow: (Counts & { readonly feature: string; readonly uri: string; readonly byFormat: Partial<Record<Format, Counts>> })[];
  readonly coverage: Coverage;
  readonly failures: Failure[];
  readonly skipped: { readonly feature: string; readonly scenario: string; readonly format: Format; readonly reason: string }[];
  readonly problems: string[];
  /** Every scenario result, so that several runs' summaries can be merged into one. */
  readonly scenarios: ScenarioResult[];
}

const NO_TYPE = '(no @type tag)';

export function emptyCounts(): Counts {
  return { scenarios: 0, passed: 0, failed: 0, skipped: 0 };
}

function add(c: Counts, v: Verdict): void {
  c.scenarios++;
  c[v]++;
}

function percent(covered: number, total: number): number | null {
  return total === 0 ? null : Math.round((covered / total) * 1000) / 10;
}

/**
 * The rules a failure broke: those of its failed checks (messages.ts reads them). A result without them (an older
 * summary.json) falls back to the rule IDs its message names, else every rule the scenario is tagged with.
 */
export function brokenRules(s: ScenarioResult, knownIds: ReadonlySet<string>): string[] {
  if (s.verdict !== 'failed') return [];
  if (s.broken && s.broken.length > 0) return [...s.broken];
  const text = s.error ?? '';
  const named = [...new Set([...s.rules, ...knownIds])].filter((id) => mentions(text, id));
  return named.length > 0 ? named : [...s.rules];
}

/** What one scenario says about one rule (tagged with it, or broken by it). */
export function scenarioRuleOutcome(s: ScenarioResult, rule: string, knownIds: ReadonlySet<string>): { verdict: ScenarioRuleVerdict; reason?: string } {
  if (s.verdict !== 'failed') return { verdict: s.verdict, ...(s.reason ? { reason: s.reason } : {}) };
  const broken = brokenRules(s, knownIds);
  if (broken.includes(rule)) return { verdict: 'failed', ...(s.reason ? { reason: s.reason } : {}) };
  return { verdict: 'blocked', reason: `blocked by ${broken.join(', ')} (${s.reason ?? 'failed'})` };
}

function mentions(text: string, id: string): boolean {
  let i = text.indexOf(id);
  while (i >= 0) {
    const before = i === 0 ? '' : text[i - 1];
    const after = text[i + id.length] ?? '';
    if (!/[A-Za-z0-9_-]/.test(before) && !/[A-Za-z0-9_-]/.test(after)) return true;
    i = text.indexOf(id, i + 1);
  }
  return false;
}

/** One verdict over several scenarios' outcomes: a failure outweighs a pass, a pass outweighs a block or a skip. */
function combine(outcomes: readonly { verdict: ScenarioRuleVerdict; reason?: string; label: string }[]): RuleOutcome {
  const failed = outcomes.filter((o) => o.verdict === 'failed');
  if (failed.length > 0) return { verdict: 'failed', reason: `failed: ${failed.map((o) => o.label).join('; ')}` };
  if (outcomes.some((o) => o.verdict === 'passed')) return { verdict: 'passed' };
  const blocked = outcomes.filter((o) => o.verdict === 'blocked');
  if (blocked.length > 0) return { verdict: 'blocked', reason: [...new Set(blocked.map((o) => o.reason ?? 'blocked'))].join('; ') };
  const skipped = outcomes.filter((o) => o.verdict === 'skipped');
  if (skipped.length > 0) return { verdict: 'skipped', reason: [...new Set(skipped.map((o) => o.reason ?? 'skipped'))].join('; ') };
  return { verdict: 'not-covered', reason: 'no scenario checks this rule' };
}

export function scenarioKey(s: { uri: string; line: number; name: string }): string {
  return `${s.uri}:${s.line}:${s.name}`;
}

/**
 * A rule qualified by a field (`FIELD-LENGTHS:billingemail`, the field boundary phase) is a row of its own, right
 * after its rule, with the rule's section, quote and status: the matrix has a row per field and constraint.
 */
export function withQualifiedRules(rules: readonly CatalogueRule[], ids: Iterable<string>): CatalogueRule[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const qualified = new Map<string, CatalogueRule[]>();
  for (const id of [...new Set(ids)].sort()) {
    const i = id.indexOf(':');
    const base = i > 0 ? byId.get(id.slice(0, i)) : undefined;
    if (!base || byId.has(id)) continue;
    qualified.set(base.id, [...(qualified.get(base.id) ?? []), { ...base, id }]);
  }
  return rules.flatMap((r) => [r, ...(qualified.get(r.id) ?? [])]);
}

export function buildMatrix(meta: RunMeta, catalogue: readonly CatalogueRule[], scenarios: readonly ScenarioResult[], waivers: readonly Waiver[] = []): Matrix {
  // A scenario counts for its tagged rules and for any rule its failure broke (a schema finding on a field).
  const catalogueIds = new Set(catalogue.map((r) => r.id));
  const byRule = new Map<string, ScenarioResult[]>();
  for (const s of scenarios) for (const id of new Set([...s.rules, ...brokenRules(s, catalogueIds)])) byRule.set(id, [...(byRule.get(id) ?? []), s]);
  const rules = withQualifiedRules(catalogue, byRule.keys());
  const knownIds = new Set(rules.map((r) => r.id));
  // Where each rule was checked; a field row's checks (`FIELD-LENGTHS:pan`) count for its rule too.
  const reachByRule = new Map<string, { s: ScenarioResult; r: RuleReach; n: number }[]>();
  for (const [n, s] of scenarios.entries()) {
    // summary.json's scenarios (a merge) hold the rules of one text under one key: read either form.
    for (const [rules, text] of Object.entries(s.reached ?? {})) {
      if (typeof text !== 'string') continue;
      const r = readReach(text);
      for (const rule of rules.split(' ')) {
        if (rule === '') continue;
        const i = rule.indexOf(':');
        for (const id of i > 0 ? [rule, rule.slice(0, i)] : [rule]) {
          const list = reachByRule.get(id);
          if (list) list.push({ s, r, n });
          else reachByRule.set(id, [{ s, r, n }]);
        }
      }
    }
  }
  const reachOfRule = (id: string) => reachByRule.get(id) ?? [];

  const rows: MatrixRow[] = rules.map((rule) => {
    const tagged = byRule.get(rule.id) ?? [];
    const grouped = new Map<string, { name: string; feature: string; uri: string; line: number; results: Partial<Record<Format, FormatOutcome>> }>();
    for (const s of tagged) {
      const key = scenarioKey(s);
      const g = grouped.get(key) ?? { name: s.name, feature: s.feature, uri: s.uri, line: s.line, results: {} };
      const o = scenarioRuleOutcome(s, rule.id, knownIds);
      g.results[s.format] = { verdict: o.verdict, ...(o.reason ? { reason: o.reason } : {}), ...(s.error && o.verdict === 'failed' ? { error: s.error } : {}) };
      grouped.set(key, g);
    }
    const outcomes = tagged.map((s) => ({ ...scenarioRuleOutcome(s, rule.id, knownIds), label: `${s.name} (${s.format})`, format: s.format }));
    // An untestable rule that a check saw broken was observed after all: the failure shows.
    const fixed = outcomes.some((o) => o.verdict === 'failed') && rule.status === 'untestable' ? undefined : fixedOutcome(rule);
    const byFormat: Partial<Record<Format, RuleOutcome>> = {};
    for (const f of meta.formats) byFormat[f] = fixed ?? combine(outcomes.filter((o) => o.format === f));
    const overall = fixed ?? combine(outcomes);
    const contexts = rule.scope
      ? contextsOf(
          rule.scope,
          meta.formats.filter((f) => appliesTo(rule, f)),
          reachOfRule(rule.id),
        )
      : undefined;
    return {
      id: rule.id,
      section: rule.section,
      quote: rule.quote,
      status: rule.status,
      ...(rule.why ? { why: rule.why } : {}),
      ...(rule.formats ? { formats: rule.formats } : {}),
      ...(rule.scope ? { scope: rule.scope } : {}),
      ...(contexts ? { contexts } : {}),
      ...(waiverOfRule(waivers, rule.id) ? { waiver: waiverOfRule(waivers, rule.id) } : {}),
      scenarios: [...grouped.values()].sort((a, b) => byText(a.uri, b.uri) || a.line - b.line),
      byFormat,
      overall,
    };
  });

  const rolled = rollUp(rows, meta.formats);
  const known = knownIds;
  const unknownRules = [...byRule.entries()]
    .filter(([id]) => !known.has(id))
    .map(([id, list]) => ({ id, scenarios: [...new Set(list.map((s) => `${s.name} (${s.uri}:${s.line})`))] }))
    .sort((a, b) => byText(a.id, b.id));

  return {
    kind: 'cardspec-traceability-matrix',
    schema: 1,
    meta,
    coverage: coverageOf(rolled, meta.formats),
    rules: rolled,
    unknownRules,
    waivers: [...waivers],
  };
}

/** More exchanges than a scenario makes (its index in a scenario is kept below it). */
const EXCHANGES_PER_SCENARIO = 1 << 16;

/**
 * A rule's contexts in the run's formats, and the exchanges of every scenario that checked it (or a field row of it,
 * `FIELD-LENGTHS:pan` for FIELD-LENGTHS) in each; a check outside the scope counts for none of them.
 */
function contextsOf(scope: Scope, formats: readonly Format[], reach: readonly { s: ScenarioResult; r: RuleReach; n: number }[]): RuleContexts {
  const all = scopeContexts(scope, formats);
  // The exchanges by context key first (scenario, format and index make an exchange one), then each distinct key
  // matched against the scope once: a run has thousands of exchanges but few distinct contexts.
  // An exchange is a number: its scenario result's index, then its index in the scenario.
  const byKey = new Map<string, number[]>();
  for (const { s, r, n } of reach) {
    for (const [key, calls] of r.contexts) {
      if (!key.startsWith(`${s.format}|`)) continue;
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      for (const call of calls) list.push(n * EXCHANGES_PER_SCENARIO + Math.min(call, EXCHANGES_PER_SCENARIO - 1));
    }
  }
  const hits = all.map(() => new Set<number>());
  const inScope = new Set<number>();
  for (const [key, exchanges] of byKey) {
    const ctx = contextFromKey(key);
    if (!ctx || !formats.includes(ctx.format) || !inScopeOf(ctx, scope)) continue;
    for (const x of exchanges) inScope.add(x);
    all.forEach((c, i) => {
      if (reaches(ctx, c)) for (const x of exchanges) hits[i].add(x);
    });
  }
  return {
    exchanges: inScope.size,
    total: all.length,
    reached: all.flatMap((c, i) => (hits[i].size > 0 ? [{ context: contextLabel(c), exchanges: hits[i].size }] : [])),
    unreached: all.flatMap((c, i) => (hits[i].size === 0 ? [contextLabel(c)] : [])),
  };
}

/** Does a catalogue rule apply to a format (its `formats`; absent: both)? */
export function appliesTo(r: { readonly formats?: readonly Format[] }, f: Format): boolean {
  return !r.formats || r.formats.includes(f);
}

/** The rules the scope counts: catalogue rules (not field rows), testable, of a format of the run, not waived. */
export function inScope(r: MatrixRow, formats: readonly Format[]): boolean {
  return r.status === 'testable' && !r.rollsUpTo && !r.waiver && formats.some((f) => appliesTo(r, f));
}

function coverageOf(rows: readonly MatrixRow[], formats: readonly Format[]): Coverage {
  const own = rows.filter((r) => !r.rollsUpTo);
  const testable = own.filter((r) => r.status === 'testable');
  const scope = own.filter((r) => inScope(r, formats));
  const covered = scope.filter((r) => r.overall.verdict === 'passed').length;
  const byFormat: Coverage['byFormat'] = {};
  for (const f of formats) {
    const of = scope.filter((r) => appliesTo(r, f));
    const c = of.filter((r) => r.byFormat[f]?.verdict === 'passed').length;
    byFormat[f] = { testable: of.length, covered: c, percent: percent(c, of.length) };
  }
  return {
    testable: scope.length,
    covered,
    percent: percent(covered, scope.length),
    byFormat,
    catalogue: {
      rules: own.length,
      testable: testable.length,
      waived: testable.filter((r) => r.waiver && formats.some((f) => appliesTo(r, f))).length,
      otherFormat: formats.length === 0 ? 0 : testable.filter((r) => !formats.some((f) => appliesTo(r, f))).length,
      untestable: own.filter((r) => r.status === 'untestable').length,
      unspecified: own.filter((r) => r.status === 'unspecified').length,
    },
  };
}

/**
 * Field rows roll up into their rule: the rule's verdict (per format and overall) takes its own scenarios' and every
 * row's. It failed when one did; it passed when every row that has scenarios passed (covered when its rows are);
 * otherwise it is what kept a row from passing (blocked before skipped), with the rows named.
 */
function rollUp(rows: readonly MatrixRow[], formats: readonly Format[]): MatrixRow[] {
  const children = new Map<string, MatrixRow[]>();
  const out = rows.map((r) => {
    const i = r.id.indexOf(':');
    if (i <= 0) return r;
    const parent = r.id.slice(0, i);
    if (!rows.some((p) => p.id === parent)) return r;
    const row = { ...r, rollsUpTo: parent };
    children.set(parent, [...(children.get(parent) ?? []), row]);
    return row;
  });
  return out.map((r) => {
    const kids = children.get(r.id);
    if (!kids || r.status !== 'testable') return kids ? { ...r, fieldRows: kids.map((k) => k.id) } : r;
    const pick = (get: (x: MatrixRow) => RuleOutcome | undefined): RuleOutcome => {
      const parts = [{ id: r.id, o: r.scenarios.length > 0 ? get(r) : undefined }, ...kids.map((k) => ({ id: k.id, o: get(k) }))].filter(
        (p): p is { id: string; o: RuleOutcome } => p.o !== undefined && p.o.verdict !== 'not-covered',
      );
      const named = (v: RuleVerdict) => parts.filter((p) => p.o.verdict === v);
      for (const v of ['failed', 'blocked', 'skipped'] as const) {
        const hit = named(v);
        if (hit.length === 0) continue;
        if (v !== 'failed' && named('passed').length === 0 && hit.length === parts.length && parts.length === 1) return hit[0].o;
        const reasons = [...new Set(hit.map((p) => p.o.reason).filter((x): x is string => !!x))];
        return { verdict: v, reason: `${v} in ${hit.map((p) => p.id).join(', ')}${reasons.length ? `: ${reasons.join('; ')}` : ''}` };
      }
      return parts.length > 0 ? { verdict: 'passed' } : { verdict: 'not-covered', reason: 'no scenario checks this rule or its field rows' };
    };
    const byFormat: Partial<Record<Format, RuleOutcome>> = {};
    for (const f of formats) byFormat[f] = pick((x) => x.byFormat[f]);
    return { ...r, fieldRows: kids.map((k) => k.id), byFormat, overall: pick((x) => x.overall) };
  });
}

/** A rule in scope that a format's run did not check, or a scenario in scope that was skipped: why not PASSED. */
export interface Unchecked {
  /** The rule, or for a skipped scenario `scenario`. */
  readonly rule: string;
  readonly format: Format;
  readonly why: string;
  /** The reason alone (no scenario place, no verdict word): what the reports group by, each reason once. */
  readonly reason?: string;
}

/**
 * What a PASSED needs, left undone: every testable rule in scope has a passing check in every format run that it
 * applies to (the catalogue's `formats`), and no scenario in scope was skipped. The scope is every testable rule of
 * the catalogue, narrowed only by waivers (a rule ID, or a tag for scenarios) and, when the run was limited with
 * --tags, to the rules of the scenarios it selected.
 */
export function uncheckedInScope(matrix: Matrix, scenarios: readonly ScenarioResult[], opts: { limitedByTags?: boolean } = {}): Unchecked[] {
  const out: Unchecked[] = [];
  const waivers = matrix.waivers ?? [];
  opts = { limitedByTags: opts.limitedByTags ?? (!!matrix.meta.tags || !!matrix.meta.shard) };
  const byFormat = (f: Format) => scenarios.filter((s) => s.format === f);
  // A rule's scenarios: its own and those of its field rows (`FIELD-TYPES:billingemail`), which roll up into it.
  const ofRule = (id: string) => (s: ScenarioResult) => s.rules.some((r) => r === id || r.startsWith(`${id}:`));
  for (const row of matrix.rules) {
    if (row.status !== 'testable' || row.waiver || row.rollsUpTo) continue;
    const all = scenarios.filter(ofRule(row.id));
    if (opts.limitedByTags && all.length === 0) continue;
    // The suite's scenarios of a rule, all of one form (`@format:json`): the rule applies to that form only.
    const only = all.length > 0 ? [...new Set(all.map((s) => s.tags.find((t) => t.startsWith('@format:'))))] : [];
    const suiteFormats = only.length === 1 && only[0] !== undefined ? [only[0].slice('@format:'.length)] : undefined;
    for (const f of matrix.meta.formats) {
      if (row.formats && !row.formats.includes(f)) continue;
      if (suiteFormats && !suiteFormats.includes(f)) continue;
      const o = row.byFormat[f];
      if (!o || o.verdict === 'passed' || o.verdict === 'failed') continue;
      // Every scenario of the rule in this format out of scope by a tag waiver: the rule is waived with them.
      const own = byFormat(f).filter(ofRule(row.id));
      // Or every one a check that does not apply to this target (a field returned only on some accounts).
      if (own.length > 0 && own.every((s) => waiverOfTags(waivers, s.tags) || s.notApplicable)) continue;
      if (opts.limitedByTags && own.length === 0) continue;
      const why = o.verdict === 'not-covered' ? 'no scenario checked it' : `${o.verdict}${o.reason ? `: ${o.reason}` : ''}`;
      out.push({ rule: row.id, format: f, why, reason: o.verdict === 'not-covered' ? why : o.verdict === 'blocked' ? (o.reason ?? 'blocked') : (o.reason ?? o.verdict) });
    }
  }
  for (const s of scenarios) {
    // A check that does not apply to this target (its reason says so in the reports) leaves nothing unchecked.
    if (s.verdict !== 'skipped' || s.notApplicable || waiverOfTags(waivers, s.tags)) continue;
    if (s.rules.length > 0 && s.rules.every((r) => waiverOfRule(waivers, r))) continue;
    out.push({ rule: 'scenario', format: s.format, why: `skipped ${s.uri}:${s.line} ${s.name}: ${s.reason ?? 'skipped'}`, reason: s.reason ?? 'skipped (no reason given)' });
  }
  return out;
}

/** Untestable and unspecified rules keep their catalogue verdict, whatever a scenario tagged with them did. */
function fixedOutcome(rule: CatalogueRule): RuleOutcome | undefined {
  if (rule.status === 'unspecified') return { verdict: 'unspecified', reason: rule.why ?? 'unspecified by the document' };
  if (rule.status === 'untestable') return { verdict: 'untestable', reason: rule.why ?? 'cannot be checked from outside the service' };
  return undefined;
}

export function buildSummary(
  meta: RunMeta,
  matrix: Matrix,
  scenarios: readonly ScenarioResult[],
  problems: readonly string[],
  incompleteBecause: readonly string[],
  opts: { limitedByTags?: boolean } = {},
): Summary {
  const totals = emptyCounts();
  const byFormat: Partial<Record<Format, Counts>> = {};
  const byType = new Map<string, { all: Counts; byFormat: Partial<Record<Format, Counts>> }>();
  const byFlow = new Map<string, { feature: string; uri: string; all: Counts; byFormat: Partial<Record<Format, Counts>> }>();
  for (const f of meta.formats) byFormat[f] = emptyCounts();

  for (const s of scenarios) {
    add(totals, s.verdict);
    add((byFormat[s.format] ??= emptyCounts()), s.verdict);
    for (const t of s.types.length > 0 ? s.types : [NO_TYPE]) {
      const e = byType.get(t) ?? { all: emptyCounts(), byFormat: {} };
      add(e.all, s.verdict);
      add((e.byFormat[s.format] ??= emptyCounts()), s.verdict);
      byType.set(t, e);
    }
    const fl = byFlow.get(s.uri) ?? { feature: s.feature, uri: s.uri, all: emptyCounts(), byFormat: {} };
    add(fl.all, s.verdict);
    add((fl.byFormat[s.format] ??= emptyCounts()), s.verdict);
    byFlow.set(s.uri, fl);
  }

  const ruleById = new Map(matrix.rules.map((r) => [r.id, r]));
  const known = new Set(ruleById.keys());
  const failures: Failure[] = scenarios
    .filter((s) => s.verdict === 'failed')
    .map((s) => ({
      feature: s.feature,
      scenario: s.name,
      uri: s.uri,
      line: s.line,
      format: s.format,
      rules: brokenRules(s, known).map((id) => {
        const r = ruleById.get(id);
        return { id, section: r?.section ?? '(not in the catalogue)', quote: r?.quote ?? '' };
      }),
      error: s.error ?? '',
    }));
  const skipped = scenarios.filter((s) => s.verdict === 'skipped').map((s) => ({ feature: s.feature, scenario: s.name, format: s.format, reason: s.reason ?? 'skipped' }));

  const typeOrder = (t: string): number => {
    const i = (REQUEST_TYPES as readonly string[]).indexOf(t);
    return i >= 0 ? i : t === NO_TYPE ? Number.MAX_SAFE_INTEGER : REQUEST_TYPES.length;
  };
  const unchecked = uncheckedInScope(matrix, scenarios, opts);
  const advisories = advisoriesOf(scenarios);
  const strictFailure = meta.strict === true && advisories.length > 0;
  const allProblems = [...problems, ...matrix.unknownRules.map((u) => `@rule:${u.id} tags ${u.scenarios.length} scenario(s) but is not in the rule catalogue`)];
  return {
    kind: 'cardspec-certification-summary',
    schema: 1,
    result: failures.length > 0 || strictFailure ? 'failed' : incompleteBecause.length > 0 || unchecked.length > 0 ? 'incomplete' : 'passed',
    incompleteBecause: [...incompleteBecause],
    unchecked,
    waivers: [...(matrix.waivers ?? [])],
    ...(advisories.length > 0 ? { advisories } : {}),
    scope: scopeText(matrix, opts.limitedByTags ?? (!!meta.tags || !!meta.shard)),
    causes: causesOf(scenarios),
    meta,
    date: meta.startedAt ? meta.startedAt.slice(0, 10) : null,
    totals,
    byFormat,
    byRequestType: [...byType.entries()].sort(([a], [b]) => typeOrder(a) - typeOrder(b) || byText(a, b)).map(([type, e]) => ({ type, ...e.all, byFormat: e.byFormat })),
    byFlow: [...byFlow.values()].sort((a, b) => byText(a.uri, b.uri)).map((f) => ({ feature: f.feature, uri: f.uri, ...f.all, byFormat: f.byFormat })),
    coverage: matrix.coverage,
    failures,
    skipped,
    problems: allProblems,
    scenarios: [...scenarios],
  };
}

/** Each advisory once per format, with the number of scenarios that met it. */
function advisoriesOf(scenarios: readonly ScenarioResult[]): NonNullable<Summary['advisories']> {
  const byKey = new Map<string, { rule: string; message: string; format: Format; scenarios: number }>();
  for (const s of scenarios) {
    for (const a of s.advisories ?? []) {
      const key = `${s.format}\u0000${a.rule}\u0000${a.message}`;
      const e = byKey.get(key) ?? { rule: a.rule, message: a.message, format: s.format, scenarios: 0 };
      e.scenarios += 1;
      byKey.set(key, e);
    }
  }
  return [...byKey.values()];
}

function scopeText(matrix: Matrix, limitedByTags: boolean): string {
  const c = matrix.coverage;
  const k = c.catalogue;
  const formats = matrix.meta.formats.map((f) => f.toUpperCase()).join(' and ') || 'no format';
  const tagWaivers = (matrix.waivers ?? []).filter((w) => w.kind === 'tag').length;
  const outside = [
    ...(k.waived > 0 ? [`${k.waived} waived`] : []),
    ...(k.otherFormat > 0 ? [`${k.otherFormat} of a format not run`] : []),
    ...(k.untestable > 0 ? [`${k.untestable} untestable`] : []),
    ...(k.unspecified > 0 ? [`${k.unspecified} unspecified by the document`] : []),
  ];
  return [
    `${c.testable} testable rule(s) of the document in ${formats} (of the catalogue's ${k.rules}${outside.length ? `; not in scope: ${outside.join(', ')}` : ''})`,
    ...(limitedByTags
      ? [
          `this run was narrowed by ${matrix.meta.shard ? `--shard ${matrix.meta.shard}` : ''}${matrix.meta.shard && matrix.meta.tags ? ' and ' : ''}${matrix.meta.tags ? `--tags "${matrix.meta.tags}"` : ''}: its verdict speaks of the rules of the scenarios it selected only (merge every shard of an unnarrowed run with \`cardspec report --merge\` for the whole verdict)`,
        ]
      : []),
    ...(tagWaivers > 0 ? [`scenarios with ${tagWaivers} waived tag(s) out of scope`] : []),
  ].join('; ');
}

/**
 * Why a run's results cannot certify anything: a format asked for but without results, or a run that did not
 * finish.
 */
export function incompleteReasons(formats: readonly Format[], runs: readonly { format: Format; scenarios: readonly unknown[]; startedAt?: string; finishedAt?: string }[]): string[] {
  const out: string[] = [];
  for (const f of formats) {
    const r = runs.find((x) => x.format === f);
    if (!r || r.scenarios.length === 0) out.push(`${f}: no scenario results`);
    else if (!r.finishedAt) out.push(`${f}: the run did not finish`);
  }
  return out;
}
