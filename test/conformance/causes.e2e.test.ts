/**
 * "A one-field fault is reported as one cause on one rule": a real loopback gateway whose only fault is `maskedpan`
 * with `*` instead of `#` (the gallery's maskedpan-stars) fails the whole JSON suite on FIELD-MASKEDPAN alone: one
 * cause, every other rule of the failing scenarios "blocked by" it, never broken; the console, the summary and
 * JUnit lead with that cause.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runAgainstVariant } from './cli';

describe('a target whose only fault is one field', () => {
  it('is one cause on one rule, with the count of scenarios and a masked example', async () => {
    const { r, matrix, summary, failed } = await runAgainstVariant('maskedpan-stars', ['--format', 'json']);
    assert.equal(r.code, 1, r.out);
    assert.equal(summary.result, 'failed');
    assert.deepEqual(
      summary.causes.map((c) => `${c.rule}/${c.field}`),
      ['FIELD-MASKEDPAN/maskedpan'],
    );
    const cause = summary.causes[0];
    assert.ok(cause.scenarios > 10, `${cause.scenarios} scenarios`);
    assert.match(cause.seen ?? '', /\*/);
    assert.ok(cause.example.exchange && !/4111111111111111/.test(cause.example.exchange), 'an example exchange, masked');
    // One broken rule in the matrix; the failing scenarios' other rules are blocked by it, not failed.
    assert.deepEqual(failed, ['FIELD-MASKEDPAN']);
    assert.ok(matrix.rules.some((x) => x.overall.verdict === 'blocked' && /blocked by FIELD-MASKEDPAN/.test(x.overall.reason ?? '')));
    // Causes first, whole: the console leads with the verdict and the cause, before the counts.
    const lines = r.out.split('\n');
    const result = lines.findIndex((l) => l.startsWith('Result: FAILED'));
    const causeLine = lines.findIndex((l) => /1\. FIELD-MASKEDPAN · maskedpan: \d+ scenario/.test(l));
    const table = lines.findIndex((l) => l.startsWith('Feature (passed/failed/skipped)'));
    assert.ok(result >= 0 && causeLine > result && table > causeLine, r.out.slice(0, 2000));
    assert.match(r.out, /Rules that failed \(1\): FIELD-MASKEDPAN/);
    const junit = fs.readFileSync(path.join(r.reports, 'junit.xml'), 'utf8');
    assert.match(junit, /message="Broke FIELD-MASKEDPAN: maskedpan: expected /);
    assert.match(fs.readFileSync(path.join(r.reports, 'summary.md'), 'utf8'), /\*\*Result: FAILED\*\*[^\n]*\n\n## Causes\n\n### 1\. FIELD-MASKEDPAN/);
  });
});

describe('a target whose combined answers have their parts out of order, or one part short', () => {
  // Every scenario of a combined request meets the fault, the field-boundary ones too: the cause is the envelope's
  // rule ("The response holds one part per request type, in the same order"), never the rule of the field an
  // example happened to be about.
  for (const [variant, rule] of [
    ['parts-reversed', 'ENV-ORDER'],
    ['second-part-missing', 'ENV-RESPONSE-ONE-PART-PER-TYPE'],
  ] as const) {
    it(`${variant}: every failed scenario broke ${rule} alone`, async () => {
      const { r, summary, failed } = await runAgainstVariant(variant, ['--format', 'json', '--tags', '@type:SUBSCRIPTION']);
      assert.equal(r.code, 1, r.out);
      assert.deepEqual(failed, [rule]);
      assert.deepEqual([...new Set(summary.causes.map((c) => c.rule))], [rule]);
    });
  }
});

describe('a target whose combined answers have their parts there and in order, but a wrong value in one', () => {
  // "The response holds one part per request type, in the same order" holds for such an answer: a declined AUTH
  // in a combined request breaks a rule of the AUTH, never ENV-ORDER, though the scenarios that met it are tagged
  // with ENV-ORDER (they check their parts' values too).
  it('never files the cause under ENV-ORDER or ENV-RESPONSE-ONE-PART-PER-TYPE', async () => {
    const { r, summary, failed } = await runAgainstVariant('authorisation-read-as-decline', ['--format', 'json', '--tags', '@rule:ENV-ORDER']);
    assert.equal(r.code, 1, r.out);
    assert.ok(failed.length > 0, r.out);
    assert.deepEqual(
      failed.filter((id) => id.startsWith('ENV-')),
      [],
    );
    assert.deepEqual(
      summary.causes.map((c) => c.rule).filter((id) => id.startsWith('ENV-')),
      [],
    );
  });
});

describe('a target that answers values written in digits as JSON numbers', () => {
  // "All values in JSON requests and responses are strings, including numbers": `"errorcode": 0` is that one
  // fault. The field-boundary examples read their answers without the schema check; they too must put it on
  // FIELD-STRINGS, not on the rule of each field they were about (AUTH-BANK-CONTACTED:authcode, ...), and a value
  // list (`securityresponseaddress` one of 0, 1, 2, 4) is not broken by a number that is in it.
  it('breaks FIELD-STRINGS alone', async () => {
    const { r, summary, failed } = await runAgainstVariant('digit-strings-as-numbers', ['--format', 'json', '--tags', '@type:ACCOUNTCHECK']);
    assert.equal(r.code, 1, r.out);
    assert.ok(failed.includes('FIELD-STRINGS:errorcode'), failed.join(', '));
    assert.deepEqual(
      // A numeric errorcode also breaks "Every response part has `errorcode` (string)" (ERR-PART-FIELDS); the
      // matrix's FIELD-STRINGS row is its per-field rows rolled up: the same rule.
      failed.filter((id) => id !== 'FIELD-STRINGS' && !id.startsWith('FIELD-STRINGS:') && id !== 'ERR-PART-FIELDS'),
      [],
    );
    assert.deepEqual(
      [...new Set(summary.causes.map((c) => c.rule.split(':')[0]))].filter((r) => r !== 'ERR-PART-FIELDS'),
      ['FIELD-STRINGS'],
    );
  });
});
