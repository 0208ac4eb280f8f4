/**
 * "Settlement and fraud-control effects" and rules 5 and 6: RISKDEC before AUTH suspends on CHALLENGE or DENY,
 * NOSCORE after a declined AUTH, RISKDEC then THREEDQUERY gives 60107, suspension after the fact by update.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SITE, SITE_BASIC, threedquery, useGateway } from './helpers';

const client = useGateway();

const riskdec = { ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'fc' };

describe('RISKDEC', () => {
  for (const [name, shield, action] of [
    ['authorised', 'ACCEPT', 'C'],
    ['shieldChallenge', 'CHALLENGE', 'S'],
    ['shieldDeny', 'DENY', 'S'],
  ] as const) {
    it(`the test card ${name} gives ${shield}`, async () => {
      const p = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...riskdec, ...card(name) });
      assert.equal(p.fraudcontrolshieldstatuscode, shield);
      assert.equal(p.acquirerrecommendedaction, action);
      assert.equal(p.rulecategoryflag !== undefined, shield !== 'ACCEPT');
    });
  }

  for (const [name, settlestatus] of [
    ['authorised', '0'],
    ['shieldChallenge', '2'],
    ['shieldDeny', '2'],
  ] as const) {
    it(`RISKDEC then AUTH (${name}): the authorised AUTH has settlestatus ${settlestatus}`, async () => {
      const r = await client.send({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, cachetoken: await client.token(name) });
      const [, a] = r.json.response;
      assert.deepEqual([a.errorcode, a.settlestatus], ['0', settlestatus]);
    });
  }

  it('a suspended AUTH is not settled by the settlement run', async () => {
    const r = await client.send({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, cachetoken: await client.token('shieldDeny') });
    const a = r.json.response[1];
    await client.advance({ advanceDays: 2 });
    assert.equal((await client.record(String(a.transactionreference))).settlestatus, '2');
  });

  it('a separate AUTH whose parent is a RISKDEC with CHALLENGE is suspended too', async () => {
    const rd = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...riskdec, ...card('shieldChallenge') });
    const a = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: rd.transactionreference });
    assert.equal(a.settlestatus, '2');
    assert.equal(a.maskedpan, rd.maskedpan, 'the card is inherited');
  });

  it('AUTH then RISKDEC where the AUTH was declined: NOSCORE', async () => {
    const r = await client.send({ requesttypedescriptions: ['AUTH', 'RISKDEC'], ...PAYMENT, ...card('declined2') });
    const [a, rd] = r.json.response;
    assert.equal(a.errorcode, '70000');
    assert.equal(rd.errorcode, '0');
    assert.equal(rd.fraudcontrolshieldstatuscode, 'NOSCORE');
    assert.equal(rd.parenttransactionreference, a.transactionreference);
  });

  it('RISKDEC after a declined payment: NOSCORE', async () => {
    const a = await client.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('declined') });
    assert.equal(a.errorcode, '70000');
    const rd = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...riskdec, parenttransactionreference: a.transactionreference });
    assert.equal(rd.fraudcontrolshieldstatuscode, 'NOSCORE');
  });

  it('RISKDEC after AUTH with CHALLENGE: the AUTH may be suspended by updating it to settle status 2', async () => {
    const r = await client.send({ requesttypedescriptions: ['AUTH', 'RISKDEC'], ...PAYMENT, ...card('shieldChallenge') });
    const [a, rd] = r.json.response;
    assert.equal(rd.fraudcontrolshieldstatuscode, 'CHALLENGE');
    assert.equal(a.settlestatus, '0', 'not suspended automatically after the fact');
    const u = await client.part({ requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: { transactionreference: [{ value: a.transactionreference }] }, updates: { settlestatus: '2' } });
    assert.equal(u.errorcode, '0');
    assert.equal((await client.record(String(a.transactionreference))).settlestatus, '2');
  });

  for (const [name, code] of [
    ['shieldChallenge', '60107'],
    ['shieldDeny', '60107'],
    ['authorised', '0'],
  ] as const) {
    it(`rule 5: RISKDEC (${name}) then THREEDQUERY gives ${code}`, async () => {
      const rd = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...riskdec, ...card(name) });
      const q = await client.part(threedquery('x', { cachetoken: undefined, parenttransactionreference: rd.transactionreference }));
      assert.equal(q.errorcode, code);
    });
  }

  it('rule 6: THREEDQUERY then AUTH then RISKDEC with the AUTH as parent', async () => {
    const q = await client.ok(threedquery(await client.token('notEnrolled')));
    const a = await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: q.transactionreference });
    const rd = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...riskdec, parenttransactionreference: a.transactionreference });
    assert.equal(rd.parenttransactionreference, a.transactionreference);
  });

  it('a site without fraud control refuses RISKDEC (30000 naming requesttypedescriptions); nothing is stored', async () => {
    const size = client.gw.ledger.size;
    for (const types of [['RISKDEC'], ['RISKDEC', 'AUTH']]) {
      const r = await client.send({
        requesttypedescriptions: types,
        ...riskdec,
        accounttypedescription: types.length === 1 ? 'FRAUDCONTROL' : 'ECOM',
        sitereference: SITE_BASIC,
        ...card('authorised'),
      });
      for (const p of r.json.response) assert.deepEqual([p.errorcode, p.errordata], ['30000', ['requesttypedescriptions']]);
    }
    assert.equal(client.gw.ledger.size, size);
  });
});
