/**
 * The suite's answer invariants (src/rules/answers.ts) run in the proxy too: each holds a sentence wherever it
 * applies, so what it finds in an observed answer is named against the gateway, and its rule counts as looked at
 * where it applies. A new invariant is taken without a list to update (`INVARIANTS_READ_HERE` names the few the
 * proxy reads its own way).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANSWER_INVARIANTS } from '../../src/rules/answers';
import { INVARIANTS_READ_HERE } from '../../src/proxy/answers';
import { card, SITE } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { path } = closedAtEnd();

const store = { requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'inv-1', accounttypedescription: 'CARDSTORE', ...card('authorised', false) };

describe("the suite's answer invariants, through the proxy", () => {
  it('names the invariants it reads its own way by their names in the suite', () => {
    const names = new Set(ANSWER_INVARIANTS.map((i) => i.name));
    for (const n of INVARIANTS_READ_HERE) assert.ok(names.has(n), `${n} is no invariant of the suite`);
    assert.ok(ANSWER_INVARIANTS.length > INVARIANTS_READ_HERE.size, 'some invariants are taken');
  });

  it('the reference gateway: a STORE leaves no gateway error, and STORE-NO-BANK is checked', async () => {
    const { client, proxy } = await path();
    await client.ok(store);
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.equal(proxy.session.report().coverage.find((c) => c.rule === 'STORE-NO-BANK')?.status, 'passed');
    // Once, on the gateway side: the contract session inside the proxy does not run them again on the raw answer.
    assert.equal(proxy.session.report().contract.answers.checked, 0);
  });

  it('a STORE answered with a security code result of 2 (matched) is named under STORE-NO-BANK', async () => {
    const { client, proxy } = await path('blind3-store-security-code-matched');
    const part = await client.ok(store);
    assert.equal(part.securityresponsesecuritycode, '2');
    assert.deepEqual(await broken(proxy, 'gateway'), ['STORE-NO-BANK']);
    const found = proxy.session.report().violations.list.filter((f) => f.rule === 'STORE-NO-BANK');
    assert.deepEqual(
      found.map((f) => f.field),
      ['response[0].securityresponsesecuritycode'],
    );
  });
});
