/**
 * Every code of the document's Errors table has a trigger: 0, 30000 (with errordata), 60031, 60022, 70000, 60025,
 * 60107, 99999; and a bug is answered 99999 with nothing half-stored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MCC_6012_FIELDS, MCC_6012_VALUES } from '../../src/testdata';
import { card, gateway, type Obj, PAYMENT, SITE_6012, threedquery, useGateway } from './helpers';

const client = useGateway();

const auth = (extra: Obj = {}): Obj => ({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), ...extra });

describe('Errors table', () => {
  it('0: successful, errormessage Ok', async () => {
    const p = await client.part(auth());
    assert.deepEqual([p.errorcode, p.errormessage], ['0', 'Ok']);
  });

  it('30000: invalid field, with errordata naming the field(s), for any request type', async () => {
    const cases: [Obj, string[]][] = [
      [auth({ pan: '4111-1111' }), ['pan']],
      [auth({ currencyiso3a: 'POUND', expirydate: '13/2031' }), ['currencyiso3a', 'expirydate']],
      [auth({ baseamount: '10.50' }), ['baseamount']],
      [auth({ baseamount: '0' }), ['baseamount']],
      [auth({ baseamount: '12345678901234' }), ['baseamount']],
      [auth({ accounttypedescription: 'CARDSTORE' }), ['accounttypedescription']],
      [auth({ billingemail: `${'a'.repeat(65)}@example.test` }), ['billingemail']],
      [auth({ billingtelephonetype: 'X' }), ['billingtelephonetype']],
      [auth({ sitereference: 'test_unknown' }), ['sitereference']],
      [{ requesttypedescriptions: ['AUTH'], ...card('authorised') }, ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount']],
      [{ requesttypedescriptions: ['AUTH'], ...PAYMENT }, ['pan', 'expirydate']],
      [auth({ pan: undefined, expirydate: undefined, cachetoken: 'nope' }), ['cachetoken']],
      [{ requesttypedescriptions: ['STORE'], sitereference: PAYMENT.sitereference, accounttypedescription: 'CARDSTORE', ...card('authorised', false) }, ['orderreference']],
    ];
    for (const [req, errordata] of cases) {
      const p = await client.part(req);
      assert.equal(p.errorcode, '30000', JSON.stringify(req));
      assert.equal(p.errormessage, 'Invalid field');
      assert.deepEqual(p.errordata, errordata, JSON.stringify(req));
      assert.equal(p.transactionreference, undefined);
    }
  });

  it('30000: billingpostcode is validated only for US, GB and CA', async () => {
    assert.equal((await client.part(auth({ billingpostcode: 'AB#1', billingcountryiso2a: 'FR' }))).errorcode, '0');
    assert.deepEqual((await client.part(auth({ billingpostcode: 'AB#1', billingcountryiso2a: 'GB' }))).errordata, ['billingpostcode']);
  });

  it('60031: the payment type is not supported for 3-D Secure', async () => {
    const p = await client.part(threedquery(await client.token('no3ds')));
    assert.equal(p.errorcode, '60031');
  });

  it('60022: customer not authenticated', async () => {
    const { auth: a } = await client.threeDsAuth('acsNotAuthenticated');
    assert.deepEqual([a.errorcode, a.errormessage], ['60022', 'Unauthenticated']);
  });

  it('70000: customer authenticated but the bank declined', async () => {
    const { auth: a } = await client.threeDsAuth('declined');
    assert.deepEqual([a.errorcode, a.status], ['70000', 'Y']);
  });

  it('60025: fields mandated for merchant category 6012 not sent (AUTH and ACCOUNTCHECK), named in errordata', async () => {
    const site = { sitereference: SITE_6012 };
    const a = await client.part(auth(site));
    assert.deepEqual([a.errorcode, a.errordata], ['60025', [...MCC_6012_FIELDS]]);
    const partial = await client.part(auth({ ...site, customerdob: MCC_6012_VALUES.customerdob }));
    assert.deepEqual(
      partial.errordata,
      MCC_6012_FIELDS.filter((f) => f !== 'customerdob'),
    );
    const ac = await client.part({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, ...site, baseamount: '0', ...card('authorised') });
    assert.equal(ac.errorcode, '60025');
    assert.equal((await client.part(auth({ ...site, ...MCC_6012_VALUES }))).errorcode, '0');
  });

  it('60025 fields sent in an ACCOUNTCHECK are inherited by its child AUTH (rule 4)', async () => {
    const ac = await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, sitereference: SITE_6012, baseamount: '0', ...card('authorised'), ...MCC_6012_VALUES });
    const a = await client.part({ requesttypedescriptions: ['AUTH'], sitereference: SITE_6012, baseamount: '1050', parenttransactionreference: ac.transactionreference });
    assert.equal(a.errorcode, '0');
    assert.equal(a.currencyiso3a, 'GBP');
  });

  it('60107: the parent RISKDEC gave CHALLENGE or DENY', async () => {
    const rd = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'x', ...card('shieldDeny') });
    const p = await client.part(threedquery('x', { cachetoken: undefined, parenttransactionreference: rd.transactionreference }));
    assert.equal(p.errorcode, '60107');
  });

  it('99999: unknown error, for any operation on the test card; nothing stored', async () => {
    const size = client.gw.ledger.size;
    const reqs: Obj[] = [
      auth(card('unknownError')),
      { requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, ...card('unknownError') },
      { requesttypedescriptions: ['STORE'], sitereference: PAYMENT.sitereference, orderreference: 'x', accounttypedescription: 'CARDSTORE', ...card('unknownError', false) },
      { requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'x', ...card('unknownError') },
      threedquery(await client.token('unknownError')),
    ];
    for (const r of reqs) {
      const p = await client.part(r);
      assert.deepEqual([p.errorcode, p.errormessage], ['99999', 'Unknown error'], JSON.stringify(p));
    }
    assert.equal(client.gw.ledger.size, size);
  });

  it('other codes: 60018 unknown request type, 60040 both type fields, 20004 unknown parent', async () => {
    const u = await client.send({ requesttypedescriptions: ['AUTH', 'REFUND'], ...PAYMENT, ...card('authorised') });
    assert.deepEqual(
      u.json.response.map((p) => [p.requesttypedescription, p.errorcode, p.errormessage]),
      [
        ['AUTH', '60018', 'Invalid requesttype'],
        ['REFUND', '60018', 'Invalid requesttype'],
      ],
    );
    assert.deepEqual(u.json.response[0].errordata, ['REFUND']);
    const both = await client.part({ ...auth(), requesttypedescription: 'AUTH' });
    assert.equal(both.errorcode, '60040');
    const orphan = await client.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: '12-9-999999' });
    assert.deepEqual([orphan.errorcode, orphan.errordata], ['20004', ['parenttransactionreference']]);
    // a combination the Request types table does not list
    const combo = await client.send({ requesttypedescriptions: ['STORE', 'AUTH'], ...PAYMENT, ...card('authorised') });
    assert.deepEqual(
      combo.json.response.map((p) => [p.errorcode, p.errordata]),
      [
        ['30000', ['requesttypedescriptions']],
        ['30000', ['requesttypedescriptions']],
      ],
    );
  });
});

describe('a bug is answered 99999 and nothing is half-stored', () => {
  it('a handler that throws in the second part rolls the first part back', async () => {
    const { client: c, gw } = await gateway({
      mutate: {
        operations: {
          AUTH: () => {
            throw new Error('deliberate bug with 4111111111111111');
          },
        },
      },
    });
    try {
      const size = gw.ledger.size;
      const r = await c.send({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, ...card('authorised') });
      assert.deepEqual(
        r.json.response.map((p) => [p.requesttypedescription, p.errorcode]),
        [
          ['RISKDEC', '99999'],
          ['AUTH', '99999'],
        ],
      );
      assert.equal(gw.ledger.size, size);
      assert.doesNotMatch(r.text, /4111111111111111/);
      // the references drawn by the rolled-back request are drawn again: none is skipped or used twice
      const next = await c.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'x', ...card('authorised') });
      assert.equal(next.transactionreference, '12-9-1001');
    } finally {
      await gw.close();
    }
  });
});
