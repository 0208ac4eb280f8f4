/**
 * One reading of answers, over the wire: a real loopback gateway of the self-check's gallery (audit-reading.ts).
 * The success code written `00000` is one cause on ERR-0 ("| `0` | any | Successful"), not the rule of every check
 * that then read the part as failed (about 250 rules before); a gateway writing "" or null for every field it has
 * no value for passes, as its XML form (empty elements) does; an enrolled card's `"md": ""` is still caught, on the
 * rule that requires md, alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runAgainstVariant, type CliRun } from '../conformance/cli';

async function runAgainst(variant: string, args: readonly string[]): Promise<{ r: CliRun; failed: string[]; causes: string[] }> {
  const { r, failed, summary } = await runAgainstVariant(variant, args);
  return { r, failed, causes: [...new Set(summary.causes.map((c) => `${c.rule}/${c.field ?? ''}`))] };
}

describe('one reading of answers', () => {
  it('the success code written 00000 is one cause, on ERR-0', async () => {
    // ACCOUNTCHECK's scenarios include field-boundary examples that read the answer without the schema check.
    const { r, failed, causes } = await runAgainst('success-coded-00000', ['--format', 'json', '--tags', '@type:ACCOUNTCHECK']);
    assert.equal(r.code, 1, r.out);
    assert.deepEqual(failed, ['ERR-0']);
    assert.deepEqual(causes, ['ERR-0/errorcode']);
  });

  it('an enrolled card\'s THREEDQUERY answering "md": "" fails on 3DS-QUERY-RESPONSE alone', async () => {
    const { r, failed } = await runAgainst('enrolled-md-pareq-empty', ['--format', 'json', '--tags', '@rule:3DS-QUERY-RESPONSE and not @type:RISKDEC']);
    assert.equal(r.code, 1, r.out);
    assert.deepEqual(failed, ['3DS-QUERY-RESPONSE']);
  });

  // A value outside its list by a space: the list's rule alone, in the schema check of every step and in the
  // field boundary phase's examples of the answer's fields (FIELD-LENGTHS and FIELD-TYPES besides before).
  for (const [variant, tags, rule] of [
    ['status-with-trailing-space', '@rule:3DS-STATUS', '3DS-STATUS'],
    ['transactionactive-with-leading-space', '@type:SUBSCRIPTION and not @rule:SUB-STATE-RESUME', 'SUB-TRANSACTIONACTIVE-VALUES'],
    // "In a response, the SUBSCRIPTION part carries `RECUR`": the part without it broke 38 rules (the tags of every
    // scenario that met it), now that sentence's rule.
    ['subscription-without-accounttypedescription', '@type:SUBSCRIPTION', 'SUB-RECUR'],
  ] as const) {
    it(`${variant}: ${rule} alone`, async () => {
      const { r, failed } = await runAgainst(variant, ['--format', 'json', '--tags', tags]);
      assert.equal(r.code, 1, r.out);
      assert.deepEqual([...new Set(failed.map((id) => id.split(':')[0]))], [rule]);
    });
  }

  it('empty strings for every field not returned pass (JSON), where FIELD-LENGTHS and 39 other rules failed', async () => {
    const { r, failed } = await runAgainst('answers-empty-for-absent', ['--format', 'json', '--tags', '@type:THREEDQUERY or @type:ACCOUNTCHECK']);
    assert.deepEqual(failed, []);
    assert.equal(r.code, 0, r.out);
  });
});
