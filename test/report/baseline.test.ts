/**
 * The gate against a baseline (src/report/baseline.ts), on its own: what is new, fixed, already failing or no longer
 * checked, and the exit code each gives. The commands' use of it is tested end to end in baseline.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { againstBaseline, BaselineError, baselineLines, caseStatuses, exitWithBaseline, readBaseline, runStatuses, type Baseline } from '../../src/report/baseline';
import type { ScenarioResult } from '../../src/report/messages';
import { scenarioResult } from './results';
import { tempDir } from '../conformance/cli';

const base = (entries: [string, 'failed' | 'passed' | 'other'][]): Baseline => ({ kind: 'run', file: 'old/summary.json', statuses: new Map(entries) });

const scenario = (rules: string[], verdict: 'passed' | 'failed' | 'skipped', broken?: string[]): ScenarioResult =>
  scenarioResult('n', 'json', rules, verdict, { feature: 'f', uri: 'features/f.feature', line: 1, tags: [], durationMs: 0, ...(broken ? { broken } : {}) });

describe('the gate against a baseline', () => {
  it('lists the new failures (passed there, not failing there, absent), the fixed, the old, the unchecked', () => {
    const v = againstBaseline(
      base([
        ['A', 'passed'],
        ['B', 'other'],
        ['C', 'failed'],
        ['D', 'failed'],
        ['E', 'failed'],
        ['F', 'failed'],
      ]),
      new Map([
        ['A', 'failed'],
        ['B', 'failed'],
        ['N', 'failed'],
        ['C', 'failed'],
        ['D', 'passed'],
        ['E', 'other'],
      ]),
    );
    assert.deepEqual(v.newFailures, [
      { id: 'A', was: 'passed' },
      { id: 'B', was: 'other' },
      { id: 'N', was: 'absent' },
    ]);
    assert.deepEqual(v.fixed, ['D']);
    assert.deepEqual(v.stillFailing, ['C']);
    assert.deepEqual(v.notChecked, ['E', 'F']);
    const lines = baselineLines(v);
    assert.match(lines[0], /3 new failure\(s\), 1 fixed, 1 already failing, 2 failing there and not checked here/);
    assert.equal(lines.at(-1), 'Gate against the baseline: FAILED: new failing rule(s): A, B, N');
  });

  it('exits 1 for a new failure, 0 for old failures alone, and keeps any other code', () => {
    const old = againstBaseline(base([['C', 'failed']]), new Map([['C', 'failed']]));
    const fresh = againstBaseline(base([['C', 'passed']]), new Map([['C', 'failed']]));
    assert.equal(exitWithBaseline(old, 1, true), 0);
    assert.match(baselineLines(old).at(-1)!, /no new failure; 1 rule\(s\) already failing remain/);
    assert.equal(exitWithBaseline(old, 1, false), 1, 'a problem of the run or a violation is not a failure the baseline knows');
    assert.equal(exitWithBaseline(old, 3, true), 3, 'incomplete stays incomplete');
    assert.equal(exitWithBaseline(fresh, 1, true), 1);
    assert.equal(exitWithBaseline(fresh, 3, true), 1);
    assert.equal(exitWithBaseline(fresh, 2, true), 2);
  });

  it('reads rule verdicts from the scenarios when there is no matrix: a broken rule fails, a blocked one does not', () => {
    const s = runStatuses({ scenarios: [scenario(['R1', 'R2'], 'failed', ['R1']), scenario(['R2', 'R3'], 'passed'), scenario(['R4'], 'skipped')] });
    assert.deepEqual(Object.fromEntries(s), { R1: 'failed', R2: 'passed', R3: 'passed', R4: 'other' });
  });

  it('keys client cases by id and format; a non-strict case fails only under --strict', () => {
    const cases = [
      { id: 'a', format: 'json', outcome: 'fail' },
      { id: 'a', format: 'xml', outcome: 'pass' },
      { id: 'w', format: 'json', outcome: 'non-strict' },
      { id: 'i', outcome: 'informational' },
    ];
    assert.deepEqual(Object.fromEntries(caseStatuses(cases, false)), { a: 'failed', 'a (xml)': 'passed', w: 'other', i: 'other' });
    assert.equal(caseStatuses(cases, true).get('w'), 'failed');
  });

  it('refuses a file that is not a baseline of the kind the command reads, saying what to give', () => {
    const dir = tempDir('baseline');
    const summary = path.join(dir, 'summary.json');
    fs.writeFileSync(summary, JSON.stringify({ kind: 'cardspec-certification-summary', scenarios: [] }));
    const cases = path.join(dir, 'cases.json');
    fs.writeFileSync(cases, JSON.stringify({ kind: 'cardspec-client-cases', cases: [{ id: 'a', outcome: 'fail' }] }));
    assert.equal(readBaseline(summary, 'run').kind, 'run');
    assert.deepEqual([...readBaseline(cases, 'client-cases').statuses], [['a', 'failed']]);
    assert.throws(
      () => readBaseline(cases, 'run'),
      (e: Error) => e instanceof BaselineError && /is a client report's cases: give an earlier run's summary\.json/.test(e.message),
    );
    assert.throws(() => readBaseline(summary, 'client-cases'), /is a run's summary: give an earlier client report's cases\.json/);
    assert.throws(() => readBaseline(path.join(dir, 'none.json'), 'run'), /not found/);
    assert.throws(() => readBaseline(dir, 'run'), /a folder: give its summary\.json/);
    fs.writeFileSync(path.join(dir, 'x.json'), '{"kind":"other"}');
    assert.throws(() => readBaseline(path.join(dir, 'x.json'), 'run'), /neither a run's summary\.json nor a client report's cases\.json/);
  });
});
