/**
 * Observed coverage counts a rule checked only in an exchange that could break it ("PASSED means checked"): a check
 * that holds several rules looks at each where its sentence applies (a field sent, a request type, the form), so a
 * run that never sent a telephone type or a subscription says so, and does not certify those rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT } from '../contract/helpers';
import { closedAtEnd } from './helpers';

const { path } = closedAtEnd();

describe('observed coverage of the rules a request check holds', () => {
  it('counts a rule of one field, request type or form only where the exchange shows it', async () => {
    const { client, proxy } = await path();
    const checked = async (rule: string): Promise<number> => {
      await proxy.settled();
      return proxy.session.report().coverage.find((c) => c.rule === rule)?.checked ?? -1;
    };
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'plain', ...card('authorised') });
    for (const rule of ['FIELD-TELEPHONETYPE', 'FIELD-POSTCODE-VALIDATION', 'SUB-TRANSACTIONACTIVE-VALUES', 'SUB-COMBINED', 'XML-REQUEST-BLOCK', 'FIELD-ACCOUNTTYPE-THREEDQUERY', 'RISKDEC-CARD'])
      assert.equal(await checked(rule), 0, rule);
    // The rules every call can break are counted in it.
    for (const rule of ['FIELD-TYPES', 'FIELD-LENGTHS', 'FIELD-BASEAMOUNT-MINOR-UNITS', 'FIELD-ACCOUNTTYPE-PAYMENTS', 'ENV-TYPES-NAMED']) assert.equal(await checked(rule), 1, rule);
    await client.ok({
      requesttypedescriptions: ['AUTH'],
      ...PAYMENT,
      orderreference: 'phone',
      billingtelephonetype: 'H',
      billingtelephone: '0123456789',
      billingpostcode: 'SW1A 1AA',
      ...card('authorised'),
    });
    assert.equal(await checked('FIELD-TELEPHONETYPE'), 1);
    assert.equal(await checked('FIELD-POSTCODE-VALIDATION'), 1);
    assert.equal(await checked('SUB-COMBINED'), 0);
  });
});
