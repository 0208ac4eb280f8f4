/**
 * The contract gate aggregates (issue 19): a client repeating one mistake is counted per rule and per check, with the
 * first few violations of each check listed as examples (masked), never every request; the flows are counted as the
 * client goes through them, so they stay counted after the gateway's bounded ledger has dropped their transactions.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { RunningContractGateway } from '../../src/contract';
import { EXAMPLES_PER_CHECK } from '../../src/contract/session';
import { card, PAYMENT, SITE, standIn } from './helpers';

const open: RunningContractGateway[] = [];
after(async () => {
  for (const gw of open) await gw.close();
});

describe('contract gate aggregation', () => {
  it('counts every violation per rule and per check, lists the first few of each check, and keeps counting flows past the ledger window', async () => {
    const { gw, client } = await standIn({ maxRecords: 10 });
    open.push(gw);
    const mistakes = 3 * EXAMPLES_PER_CHECK + 2;
    for (let i = 0; i < mistakes; i++) {
      const p = await client.part({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: `o-${i}`, accounttypedescription: 'CARDSTORE', ...card('authorised') });
      assert.equal(p.errorcode, '30000');
    }
    const auths = 25;
    for (let i = 0; i < auths; i++) await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: `a-${i}`, ...card('authorised') });

    const report = gw.session.report();
    const rule = 'FIELD-SECURITYCODE-NOT-IN-STORE';
    assert.equal(report.violations.errors, mistakes);
    assert.deepEqual(
      report.violations.byRule.map((r) => [r.rule, r.errors]),
      [[rule, mistakes]],
    );
    assert.equal(report.violations.byCheck.length, 1, JSON.stringify(report.violations.byCheck));
    const [byCheck] = report.violations.byCheck;
    assert.equal(byCheck.rule, rule);
    assert.equal(byCheck.errors, mistakes);
    assert.equal(byCheck.listed, EXAMPLES_PER_CHECK);
    assert.equal(report.violations.list.length, EXAMPLES_PER_CHECK, 'examples, not every request');
    assert.deepEqual(
      report.violations.list.map((v) => v.call),
      [1, 2, 3, 4, 5],
      'the first ones, in order',
    );
    assert.equal(report.violations.omitted, mistakes - EXAMPLES_PER_CHECK);
    assert.doesNotMatch(JSON.stringify(report), /4111111111111111/);

    // Most of the AUTHs have left the ledger (a window of 10), yet each was counted once, when it was made.
    const held = (await (await fetch(`${gw.url}/_cardspec/ledger`)).json()) as { records: number; dropped: number };
    assert.ok(held.records <= 20 && held.dropped > 0, JSON.stringify(held));
    assert.equal(report.flows.find((f) => f.id === 'auth')?.times, auths);
    assert.equal(report.flows.find((f) => f.id === 'store')?.times, 0, 'a refused STORE makes no flow');
  });
});
