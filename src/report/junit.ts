/**
 * JUnit XML for CI systems: one testsuite per format, one testcase per scenario and format (classname = the
 * feature, the flow). A failure names the rules it broke and carries the masked error; a skip carries its reason;
 * a scenario the kit could not run (undefined, ambiguous or pending step, cut off) is an `<error>`, so that a kit problem is never
 * read as the target's failure. An INCOMPLETE run (a target not ready, a run stopped, rules in scope not checked) adds
 * a testcase of its own in error with the reasons: a file of no failures must never pass a CI gate for a run that
 * checked nothing (a not-ready target gave `tests="0" failures="0"`, green to a JUnit reader).
 */
import type { Format } from '../wire/types';
import { isKitProblem, type ScenarioResult } from './messages';
import { brokenRules, type RunMeta, type Summary } from './model';
import { verdictReason } from './summary';
import type { CatalogueRule } from '../rules/catalogue';
import { firstLine } from './text';
import { xmlDocument } from './xml';

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** `summary`: the run's verdict, when the caller has it; an INCOMPLETE one adds the testcase that says why. */
export function junitXml(meta: RunMeta, rules: readonly CatalogueRule[], scenarios: readonly ScenarioResult[], summary?: Summary): string {
  const ruleById = new Map(rules.map((r) => [r.id, r]));
  const known = new Set(ruleById.keys());
  const formats: Format[] = [...new Set<Format>([...meta.formats, ...scenarios.map((s) => s.format)])];
  const total = tally(scenarios);
  const incomplete = summary?.result === 'incomplete' ? verdictReason(summary) : undefined;
  // Invalid XML 1.0 characters (control characters from a target's answer) are replaced, never a broken file (xml.ts).
  const doc = xmlDocument('testsuites', {
    name: 'cardspec',
    tests: total.tests + (incomplete !== undefined ? 1 : 0),
    failures: total.failures,
    errors: total.errors + (incomplete !== undefined ? 1 : 0),
    skipped: total.skipped,
    time: seconds(scenarios.reduce((s, x) => s + x.durationMs, 0)),
    ...(meta.startedAt ? { timestamp: meta.startedAt } : {}),
  });
  const root = doc.root;
  for (const format of formats) {
    const list = scenarios.filter((s) => s.format === format);
    const t = tally(list);
    const suite = root.ele('testsuite', {
      name: `cardspec ${format}`,
      tests: t.tests,
      failures: t.failures,
      errors: t.errors,
      skipped: t.skipped,
      time: seconds(list.reduce((s, x) => s + x.durationMs, 0)),
      ...(meta.startedAt ? { timestamp: meta.startedAt } : {}),
    });
    const props = suite.ele('properties');
    for (const [name, value] of [
      ['format', format],
      ['target', meta.target],
      ['profile', meta.profile],
      ['kitVersion', meta.kitVersion],
      ['interfaceVersion', format === 'json' ? meta.interfaceVersions.json : meta.interfaceVersions.xml],
    ]) {
      props.ele('property', { name, value });
    }
    const names = new Map<string, number>();
    for (const s of list) {
      // Outline examples share a name: the line keeps testcases apart for tools that key on classname + name.
      const base = `${s.name} [${format}]`;
      const seen = names.get(`${s.feature}\u0000${base}`) ?? 0;
      names.set(`${s.feature}\u0000${base}`, seen + 1);
      const tc = suite.ele('testcase', {
        classname: s.feature,
        name: seen === 0 ? base : `${base} (line ${s.line})`,
        time: seconds(s.durationMs),
        file: s.uri,
        line: s.line,
      });
      if (s.rules.length + s.errorcodes.length + s.types.length > 0) {
        const p = tc.ele('properties');
        for (const r of s.rules) p.ele('property', { name: 'rule', value: r });
        for (const c of s.errorcodes) p.ele('property', { name: 'errorcode', value: c });
        for (const ty of s.types) p.ele('property', { name: 'requesttype', value: ty });
      }
      if (s.verdict === 'failed') {
        const broken = brokenRules(s, known);
        const lines = broken.map((id) => {
          const r = ruleById.get(id);
          return `${id}${r ? ` (${r.section}): "${r.quote}"` : ' (not in the rule catalogue)'}`;
        });
        const error = s.error ?? '';
        // The cause leads: the rule, the field, what was expected and what was seen, then the error's first line.
        const c = s.failedChecks?.[0];
        const cause = c?.field ? ` ${c.field}: expected ${c.expected ?? '?'}${c.seen !== undefined ? `, seen ${c.seen}` : ''}.` : '';
        tc.ele('failure', {
          message: `${broken.length > 0 ? `Broke ${broken.join(', ')}:` : ''}${cause} ${firstLine(error, 500)}`.trim(),
          type: broken.join(' ') || 'failure',
        }).txt(
          [
            `Rules broken:`,
            ...lines.map((l) => `  ${l}`),
            ...(s.blocked && s.blocked.length > 0 ? ['', `Blocked by it (not checked): ${s.blocked.join(', ')}`] : []),
            '',
            `Scenario: ${s.uri}:${s.line}`,
            s.reason ?? '',
            '',
            error,
            ...(c?.exchange ? ['', 'Example exchange (masked):', c.exchange] : []),
          ].join('\n'),
        );
      } else if (s.verdict === 'skipped' && isKitProblem(s.status)) {
        tc.ele('error', { message: s.reason ?? 'the kit could not run this scenario', type: s.status });
      } else if (s.verdict === 'skipped') {
        tc.ele('skipped', { message: s.reason ?? 'skipped' });
      }
    }
  }
  if (incomplete !== undefined) {
    const suite = root.ele('testsuite', { name: 'cardspec verdict', tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000', ...(meta.startedAt ? { timestamp: meta.startedAt } : {}) });
    suite
      .ele('testcase', { classname: 'cardspec', name: 'the run is INCOMPLETE: not everything in scope was checked', time: '0.000' })
      .ele('error', { message: firstLine(`INCOMPLETE: ${incomplete}`, 500), type: 'INCOMPLETE' })
      .txt(`INCOMPLETE: ${incomplete}`);
  }
  return doc.xml() + '\n';
}

function tally(list: readonly ScenarioResult[]): { tests: number; failures: number; errors: number; skipped: number } {
  return {
    tests: list.length,
    failures: list.filter((s) => s.verdict === 'failed').length,
    errors: list.filter((s) => s.verdict === 'skipped' && isKitProblem(s.status)).length,
    skipped: list.filter((s) => s.verdict === 'skipped' && !isKitProblem(s.status)).length,
  };
}
