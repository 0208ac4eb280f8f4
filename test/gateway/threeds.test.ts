/**
 * 3-D Secure: enrolment Y / N / U, the ACS round trip by form posts, AUTH after 3-D Secure with Y / N / A / U,
 * 60022 with settlestatus 3 and no acquirer data, modified md / pares, 70000 after authentication, 60031, rule 7.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SITE, threedquery, useGateway } from './helpers';

const client = useGateway();

describe('3-D Secure enrolment (value of enrolled in the THREEDQUERY response)', () => {
  for (const [name, enrolled] of [
    ['authorised', 'Y'],
    ['notEnrolled', 'N'],
    ['notEnrolled2', 'N'],
    ['enrolmentUnknown', 'U'],
  ] as const) {
    it(`${name} gives enrolled ${enrolled}; acsurl, md, pareq only when Y`, async () => {
      const p = await client.ok(threedquery(await client.token(name)));
      assert.equal(p.enrolled, enrolled);
      assert.equal(typeof p.xid, 'string');
      for (const f of ['acsurl', 'md', 'pareq']) assert.equal(p[f] !== undefined, enrolled === 'Y', f);
    });
  }

  it('60031 when the payment type is not supported for 3-D Secure; an ordinary AUTH may follow (rule 1)', async () => {
    const p = await client.part(threedquery(await client.token('no3ds')));
    assert.equal(p.errorcode, '60031');
    assert.equal(p.enrolled, undefined);
    const a = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('no3ds') });
    assert.equal(a.enrolled, undefined);
  });

  it('takes pan and expirydate directly, as real STPP does', async () => {
    const p = await client.ok(threedquery('x', { cachetoken: undefined, ...card('authorised', false) }));
    assert.equal(p.enrolled, 'Y');
  });

  it('30000 naming each missing required field', async () => {
    const req = threedquery(await client.token('authorised'));
    delete req.termurl;
    delete req.accept;
    const p = await client.part(req);
    assert.equal(p.errorcode, '30000');
    assert.equal(p.errormessage, 'Invalid field');
    assert.deepEqual(p.errordata, ['termurl', 'accept']);
    assert.equal(p.transactionreference, undefined);
  });

  it('30000 for accounttypedescription other than ECOM ("ECOM only for THREEDQUERY")', async () => {
    const p = await client.part(threedquery(await client.token('authorised'), { accounttypedescription: 'MOTO' }));
    assert.equal(p.errorcode, '30000');
    assert.deepEqual(p.errordata, ['accounttypedescription']);
  });

  it('30000 for a cache token the gateway never issued', async () => {
    const p = await client.part(threedquery('no-such-token'));
    assert.equal(p.errorcode, '30000');
    assert.deepEqual(p.errordata, ['cachetoken']);
  });

  it('rule 7: a stored card can be referenced in a THREEDQUERY', async () => {
    const s = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    const q = threedquery('x', { cachetoken: undefined, parenttransactionreference: s.transactionreference });
    const p = await client.ok(q);
    assert.equal(p.enrolled, 'Y');
    assert.equal(p.parenttransactionreference, s.transactionreference);
    assert.equal(p.maskedpan, '411111######1111');
  });

  it('an ACCOUNTCHECK holding the card can be the parent of a THREEDQUERY (rule 4)', async () => {
    const ac = await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', ...card('notEnrolled') });
    const p = await client.ok(threedquery('x', { cachetoken: undefined, parenttransactionreference: ac.transactionreference }));
    assert.equal(p.enrolled, 'N');
  });
});

describe('the ACS round trip (browser, not JSON)', () => {
  it('the ACS page preselects the test card’s outcome and posts PaRes and MD back to TermUrl', async () => {
    const q = await client.ok(threedquery(await client.token('acsAttempted')));
    const termurl = 'https://merchant.example/back?a=1&b="2"';
    const { md, pares, preset } = await client.acs(q, termurl);
    assert.equal(preset, 'A');
    assert.equal(md, q.md);
    assert.ok(pares.length > 0 && pares.length <= 1024);
  });

  it('the form names are case sensitive: pareq / termurl / md are refused with a clear page', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    const r = await client.form(String(q.acsurl), { pareq: String(q.pareq), termurl: 'https://m.example/', md: String(q.md) });
    assert.equal(r.status, 400);
    assert.match(r.html, /case sensitive/);
  });

  it('refuses an MD it did not issue, a PaReq that does not match, and a TermUrl that is not a URL', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    const ok = { PaReq: String(q.pareq), TermUrl: 'https://m.example/', MD: String(q.md) };
    assert.equal((await client.form(String(q.acsurl), { ...ok, MD: 'x' + ok.MD })).status, 400);
    assert.equal((await client.form(String(q.acsurl), { ...ok, PaReq: ok.PaReq + 'x' })).status, 400);
    assert.equal((await client.form(String(q.acsurl), { ...ok, TermUrl: 'javascript:alert(1)' })).status, 400);
    assert.equal((await client.form(String(q.acsurl), ok)).status, 200);
  });

  it('answers 405 to GET and 415 to a body that is not a form', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    assert.equal((await fetch(String(q.acsurl))).status, 405);
    const r = await fetch(String(q.acsurl), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(r.status, 415);
  });

  it('the pages carry stable ids and never a card number', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    const r = await client.form(String(q.acsurl), { PaReq: String(q.pareq), TermUrl: 'https://m.example/', MD: String(q.md) });
    for (const id of ['acs-form', 'acs-outcome', 'acs-submit', 'PaReq', 'TermUrl', 'MD']) assert.match(r.html, new RegExp(`id="${id}"`));
    assert.doesNotMatch(r.html, /4111111111111111/);
  });
});

describe('AUTH after 3-D Secure (status from the ACS outcome)', () => {
  it('Y: authenticated and the bank authorised: errorcode 0, status Y, cavv and eci', async () => {
    const { auth } = await client.threeDsAuth('authorised');
    assert.deepEqual([auth.errorcode, auth.status, auth.eci, auth.settlestatus], ['0', 'Y', '05', '0']);
    assert.equal(typeof auth.cavv, 'string');
    assert.equal(typeof auth.authcode, 'string');
  });

  it('Y on a Mastercard gives the Mastercard ECI', async () => {
    const { auth } = await client.threeDsAuth('mastercard');
    assert.deepEqual([auth.errorcode, auth.status, auth.eci], ['0', 'Y', '02']);
  });

  it('Y but the bank declines: 70000, status Y, no funds (settlestatus 3), the bank was contacted', async () => {
    const { auth } = await client.threeDsAuth('declined');
    assert.deepEqual([auth.errorcode, auth.status, auth.settlestatus], ['70000', 'Y', '3']);
    assert.equal(auth.authcode, undefined);
    assert.equal(typeof auth.acquirerresponsecode, 'string');
  });

  it('N: 60022 Unauthenticated, status N, settlestatus 3, no authcode and no acquirer response code', async () => {
    const { auth } = await client.threeDsAuth('acsNotAuthenticated');
    assert.equal(auth.errorcode, '60022');
    assert.equal(auth.errormessage, 'Unauthenticated');
    assert.equal(auth.status, 'N');
    assert.equal(auth.settlestatus, '3');
    for (const f of ['authcode', 'acquirerresponsecode', 'cavv', 'eci', 'securityresponsesecuritycode']) assert.equal(auth[f], undefined, f);
    const rec = await client.record(String(auth.transactionreference));
    assert.equal(rec.settlestatus, '3');
  });

  it('A: the bank decides; eci without cavv', async () => {
    const { auth } = await client.threeDsAuth('acsAttempted');
    assert.deepEqual([auth.errorcode, auth.status, auth.eci, auth.cavv], ['0', 'A', '06', undefined]);
  });

  it('U: the bank decides; no cavv, no eci', async () => {
    const { auth } = await client.threeDsAuth('acsUnavailable');
    assert.deepEqual([auth.errorcode, auth.status, auth.eci, auth.cavv], ['0', 'U', undefined, undefined]);
  });

  it('a person may pick another outcome on the ACS page: N on an authenticating card gives 60022', async () => {
    const { auth } = await client.threeDsAuth('authorised', 'N');
    assert.equal(auth.errorcode, '60022');
  });

  it('md modified: not authenticated (60022), stored with settlestatus 3', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    const { pares, md } = await client.acs(q);
    const auth = await client.part({ requesttypedescriptions: ['AUTH'], md: md.slice(0, -2) + (md.endsWith('AA') ? 'BB' : 'AA'), pares });
    assert.deepEqual([auth.errorcode, auth.status, auth.settlestatus], ['60022', 'N', '3']);
    assert.equal(auth.parenttransactionreference, q.transactionreference);
    // the unmodified pair still authenticates once
    const ok = await client.part({ requesttypedescriptions: ['AUTH'], md, pares });
    assert.equal(ok.errorcode, '0');
  });

  it('pares modified: not authenticated (60022)', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    const { pares, md } = await client.acs(q);
    // pares is random base64: a fixed first letter would leave it unmodified one time in 64
    const auth = await client.part({ requesttypedescriptions: ['AUTH'], md, pares: (pares.startsWith('X') ? 'Y' : 'X') + pares.slice(1) });
    assert.deepEqual([auth.errorcode, auth.status], ['60022', 'N']);
  });

  it('both modified: 60022, nothing stored', async () => {
    const before = (await client.control('GET', 'clock')).status;
    assert.equal(before, 200);
    const size = client.gw.ledger.size;
    const auth = await client.part({ requesttypedescriptions: ['AUTH'], md: 'forged-md', pares: 'forged-pares' });
    assert.deepEqual([auth.errorcode, auth.status, auth.settlestatus, auth.transactionreference], ['60022', 'N', '3', undefined]);
    assert.equal(client.gw.ledger.size, size);
  });

  it('an md/pares pair authenticates one AUTH only; an AUTH before the ACS completed does not authenticate', async () => {
    const q = await client.ok(threedquery(await client.token('authorised')));
    const early = await client.part({ requesttypedescriptions: ['AUTH'], md: String(q.md), pares: 'not-yet' });
    assert.equal(early.errorcode, '60022');
    const { pares, md } = await client.acs(q);
    assert.equal((await client.part({ requesttypedescriptions: ['AUTH'], md, pares })).errorcode, '0');
    assert.equal((await client.part({ requesttypedescriptions: ['AUTH'], md, pares })).errorcode, '60022');
  });

  it('md without pares: 30000 naming pares', async () => {
    const p = await client.part({ requesttypedescriptions: ['AUTH'], md: 'abc' });
    assert.equal(p.errorcode, '30000');
    assert.deepEqual(p.errordata, ['pares']);
  });
});
