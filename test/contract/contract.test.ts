/**
 * `cardspec serve --contract` in-process: a stand-in gateway on loopback, a client sending over real HTTP. A
 * well-behaved client goes through every documented flow with no violation; each obligation of the document, broken
 * on purpose, is reported with its rule while the request is still answered as the reference gateway answers it; and
 * what real SDKs send (extra fields, headers, gzip, XML quirks) is not reported.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { RunningContractGateway } from '../../src/contract';
import { reportText } from '../../src/contract/report';
import { card, envelope, JSON_HEADERS, PAYMENT, rules, SITE, standIn, SUBSCRIPTION, USER, type Obj, type Sender } from './helpers';

const open: RunningContractGateway[] = [];
after(async () => {
  for (const gw of open) await gw.close();
});
async function fresh(opts: Parameters<typeof standIn>[0] = {}): Promise<{ gw: RunningContractGateway; client: Sender }> {
  const s = await standIn(opts);
  open.push(s.gw);
  return s;
}

describe('a well-behaved client', () => {
  it('goes through every documented flow with no violation, and the report says which flows it covered', async () => {
    const { gw, client } = await fresh();
    // Card store, then payments on the stored card.
    const store = await client.ok({
      requesttypedescriptions: ['STORE'],
      sitereference: SITE,
      orderreference: 'o-1',
      accounttypedescription: 'CARDSTORE',
      ...card('authorised', false),
      billingpremise: '789',
    });
    const paid = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o-2', parenttransactionreference: store.transactionreference });
    // Ordinary AUTH with the card, and a risk decision after it; the combined forms.
    await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'o-3', parenttransactionreference: paid.transactionreference });
    await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'o-4', ...card('authorised') });
    const first = await client.send({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, cachetoken: await client.token('authorised') });
    assert.deepEqual(
      first.map((p) => p.errorcode),
      ['0', '0'],
    );
    const last = await client.send({ requesttypedescriptions: ['AUTH', 'RISKDEC'], ...PAYMENT, cachetoken: await client.token('authorised') });
    assert.deepEqual(
      last.map((p) => p.errorcode),
      ['0', '0'],
    );
    // 3-D Secure: enrolled (the ACS, then md and pares), not enrolled, unknown.
    const queryY = await client.ok(client.threedquery(await client.token('authorised')));
    const { md, pares } = await client.acs(queryY);
    const auth3ds = await client.ok({ requesttypedescriptions: ['AUTH'], md, pares });
    await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'o-5', parenttransactionreference: auth3ds.transactionreference });
    const queryN = await client.ok(client.threedquery(await client.token('notEnrolled')));
    await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: queryN.transactionreference });
    const queryU = await client.ok(client.threedquery(await client.token('enrolmentUnknown')));
    await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: queryU.transactionreference });
    // A risk decision, then 3-D Secure on it (rule 5).
    const risk = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'o-6', ...card('authorised') });
    await client.ok(client.threedquery(await client.token('authorised'), { parenttransactionreference: risk.transactionreference }));
    // Subscriptions: enrolled, not enrolled, without 3-D Secure, on the stored card; then an amount change.
    const queryS = await client.ok(client.threedquery(await client.token('authorised')));
    const acsS = await client.acs(queryS);
    const subY = await client.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 's-1', ...SUBSCRIPTION, credentialsonfile: '1', ...acsS });
    assert.deepEqual(
      subY.map((p) => p.errorcode),
      ['0', '0'],
    );
    const queryS2 = await client.ok(client.threedquery(await client.token('notEnrolled')));
    const subN = await client.send({
      requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
      ...PAYMENT,
      orderreference: 's-2',
      ...SUBSCRIPTION,
      credentialsonfile: '1',
      parenttransactionreference: queryS2.transactionreference,
    });
    assert.deepEqual(
      subN.map((p) => p.errorcode),
      ['0', '0'],
    );
    const sub = await client.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 's-3', ...SUBSCRIPTION, credentialsonfile: '1', ...card('authorised') });
    assert.deepEqual(
      sub.map((p) => p.errorcode),
      ['0', '0'],
    );
    const subStored = await client.send({
      requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
      ...PAYMENT,
      orderreference: 's-4',
      ...SUBSCRIPTION,
      credentialsonfile: '1',
      parenttransactionreference: store.transactionreference,
    });
    assert.deepEqual(
      subStored.map((p) => p.errorcode),
      ['0', '0'],
    );
    const update = await client.ok({
      requesttypedescriptions: ['TRANSACTIONUPDATE'],
      filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: sub[1].transactionreference }] },
      updates: { baseamount: '2000' },
    });
    assert.equal(update.errorcode, '0');
    // Account check with a zero amount, then a payment inheriting its fields (rule 4).
    const check = await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', billingpremise: '789', billingpostcode: 'TE45 6ST', ...card('authorised') });
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: check.transactionreference });

    assert.deepEqual(gw.session.violations(), []);
    assert.equal(gw.session.exitCode(true), 0);
    const report = gw.session.report();
    assert.equal(report.passed, true);
    assert.deepEqual(
      report.flows.filter((f) => !f.covered).map((f) => f.id),
      [],
    );
    const ops = Object.fromEntries(report.requests.byOperation.map((o) => [o.id, o.count]));
    assert.equal(ops.threedquery, 6);
    assert.equal(ops.store, 1);
    assert.equal(ops.transactionupdate, 1);
    assert.equal(report.requests.json, report.requests.total);
    // Every answer of the stand-in gateway went through the invariants of every answer, and broke nothing.
    assert.equal(report.answers.checked, report.requests.answered);
    assert.deepEqual(report.answers.byRule, []);
  });
});

describe("the stand-in gateway's own answers", () => {
  it("are checked by the invariants of every answer (src/rules/answers.ts), a finding told as the gate's, not the client's", async () => {
    const { gw, client } = await fresh({ scenarios: true });
    // A scenario's change that breaks the document: a part without errorcode ("Every response part has errorcode").
    gw.setMutation({
      part: (p) => {
        const q = { ...p };
        delete q.errorcode;
        return q;
      },
    });
    await client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o-a', ...card('authorised') });
    gw.setMutation(undefined);
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o-b', ...card('authorised') });
    const report = gw.session.report();
    assert.equal(report.answers.checked, 2);
    assert.equal(report.answers.failed, 1);
    assert.ok(
      report.answers.byRule.some((b) => b.rule === 'ERR-PART-FIELDS' || b.rule.startsWith('ERR-PART-FIELDS:')),
      JSON.stringify(report.answers.byRule),
    );
    assert.equal(report.answers.list[0]?.call, 1);
    // The client did nothing wrong: it is not failed for the gateway's answer.
    assert.deepEqual(gw.session.violations(), []);
    assert.equal(report.passed, true);
    assert.match(reportText(report), /stand-in gateway's own answers broke the document in 1 of 2/);
  });
});

describe('a client that breaks its obligations', () => {
  it('is reported for a STORE with a security code, a numeric baseamount, an AUTH with baseamount 0 and a modified pares; each is still answered', async () => {
    const { gw, client } = await fresh();
    const store = await client.part({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised') });
    assert.equal(store.errorcode, '30000');
    assert.deepEqual(store.errordata, ['securitycode']);
    const numeric = await client.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, baseamount: 1050, ...card('authorised') });
    assert.equal(numeric.errorcode, '30000');
    const zero = await client.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, baseamount: '0', ...card('authorised') });
    assert.deepEqual(zero.errordata, ['baseamount']);
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    const { md, pares } = await client.acs(query);
    const flipped = pares.slice(0, 10) + (pares[10] === 'A' ? 'B' : 'A') + pares.slice(11);
    const auth = await client.part({ requesttypedescriptions: ['AUTH'], md, pares: flipped });
    assert.equal(auth.errorcode, '60022', 'answered as the reference gateway answers a modified pares');

    assert.deepEqual(rules(gw, 'error'), ['FIELD-SECURITYCODE-NOT-IN-STORE', 'FIELD-STRINGS', 'FIELD-BASEAMOUNT-POSITIVE', '3DS-MD-PARES-UNMODIFIED']);
    const v = gw.session.violations('error');
    assert.deepEqual(
      v.map((x) => x.field),
      ['request[0].securitycode', 'request[0].baseamount', 'request[0].baseamount', 'request[0].pares'],
    );
    assert.deepEqual(
      v.map((x) => x.call),
      [1, 2, 3, 5],
    );
    assert.deepEqual(
      v.map((x) => x.operation),
      ['store', 'auth', 'auth', 'auth-3ds-enrolled'],
    );
    assert.equal(gw.session.exitCode(), 1);
    assert.equal(gw.session.report().passed, false);
  });

  it('is reported for md truncated, a parent that does not exist, skipping the ACS, a wrong risk-decision parent, stored credentials without credentialsonfile and an amount change on the AUTH part', async () => {
    const { gw, client } = await fresh();
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    const { md, pares } = await client.acs(query);
    await client.part({ requesttypedescriptions: ['AUTH'], md: md.slice(0, 40), pares });
    await client.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: '99-9-9999' });
    const queryY = await client.ok(client.threedquery(await client.token('authorised')));
    const skipped = await client.part({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: queryY.transactionreference });
    assert.equal(skipped.errorcode, '0', 'the reference gateway authorises it; the contract reports it');
    const store = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    await client.part({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'o', parenttransactionreference: store.transactionreference });
    await client.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 's', ...SUBSCRIPTION, parenttransactionreference: store.transactionreference });
    const sub = await client.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 's', ...SUBSCRIPTION, credentialsonfile: '1', ...card('authorised') });
    await client.part({
      requesttypedescriptions: ['TRANSACTIONUPDATE'],
      filter: { transactionreference: [{ value: sub[0].transactionreference }] },
      updates: { baseamount: '2000' },
    });
    assert.deepEqual(rules(gw, 'error'), ['3DS-MD-PARES-UNMODIFIED', 'FIELD-PARENT', '3DS-NEXT-Y', 'RISKDEC-AFTER-PAYMENT', 'FIELD-CREDENTIALSONFILE', 'SUB-AMOUNT-UPDATE']);
    const messages = gw.session
      .violations('error')
      .map((v) => v.message)
      .join('\n');
    assert.match(messages, /md is not the md the THREEDQUERY answered \(40 characters sent, 64 issued\)/);
    assert.doesNotMatch(messages, new RegExp(md.slice(0, 20).replace(/[+/=]/g, '.')), 'an md is never quoted');
  });

  it('is reported for the account type of the operation, the envelope, the request types, and the transport', async () => {
    const { gw, client } = await fresh();
    await client.part(client.threedquery(await client.token('authorised'), { accounttypedescription: 'MOTO' }));
    await client.part({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'ECOM', ...card('authorised', false) });
    await client.send([
      { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') },
      { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') },
    ]);
    await client.raw('/json/', JSON.stringify({ ...envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }), version: '2.00' }));
    await client.raw('/json/', JSON.stringify({ ...envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }), alias: 'someone-else' }));
    await client.part({ requesttypedescriptions: ['SUBSCRIPTION'], ...PAYMENT, ...SUBSCRIPTION, ...card('authorised') });
    await client.part({ requesttypedescription: 'AUTH', ...PAYMENT, ...card('authorised') });
    await client.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, billingtelephonetype: 'X', ...card('authorised') });
    await client.raw('/json/', '{"alias": "x", "version"');
    await client.raw('/json/', JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })), { ...JSON_HEADERS, Accept: 'text/html' });
    await client.raw('/json/', JSON.stringify(envelope({})), { 'Content-Type': 'application/json', Accept: 'application/json' });
    await client.raw('/json/', JSON.stringify(envelope({})), { ...JSON_HEADERS, 'Content-Type': 'text/plain' });
    await client.raw('/json/', undefined, JSON_HEADERS, 'GET');
    await client.raw('/api/payments', '{}');
    // The kit's own calls are not the client's: no finding.
    await client.raw('/_cardspec/nothing-here', undefined, {}, 'GET');
    assert.deepEqual(rules(gw, 'error'), [
      'FIELD-ACCOUNTTYPE-THREEDQUERY',
      'STORE-SHAPE',
      'ENV-ONE-REQUEST-OBJECT',
      'VER-JSON',
      'SEC-ALIAS',
      'SUB-COMBINED',
      'ENV-TYPES-NAMED',
      'FIELD-TELEPHONETYPE',
      'TRANSPORT-REQUEST-BODY',
      'TRANSPORT-HEADERS',
      'SEC-BASIC-AUTH',
      'TRANSPORT-HEADERS',
      'TRANSPORT-JSON-PATH',
      'TRANSPORT-JSON-PATH',
    ]);
    const report = gw.session.report();
    assert.equal(report.requests.refused, 4);
  });

  it('is reported for a POST to /json without the final slash, which the gateway still answers: only on TRANSPORT-JSON-PATH', async () => {
    const { gw, client } = await fresh();
    const body = JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o', ...card('authorised') }));
    const answered = await client.raw('/json', body);
    assert.equal(answered.status, 200);
    assert.equal((JSON.parse(answered.text) as { response: Obj[] }).response[0].errorcode, '0');
    assert.deepEqual(rules(gw), ['TRANSPORT-JSON-PATH']);
    assert.match(gw.session.violations()[0].message, /POST \/json: the document's path is \{base_url\}\/json\//);
    // The document's path, with a query string, and the XML endpoint (its address is not shown) are not findings.
    await client.raw('/json/?trace=1', body);
    const xml = `<requestblock version="3.67"><alias>${USER.alias}</alias><request type="STORE"><operation><sitereference>${SITE}</sitereference><accounttypedescription>CARDSTORE</accounttypedescription></operation><merchant><orderreference>o</orderreference></merchant><billing><payment><pan>4111111111111111</pan><expirydate>12/2031</expirydate></payment></billing></request></requestblock>`;
    const x = await client.raw('/xml', xml, { ...JSON_HEADERS, 'Content-Type': 'text/xml', Accept: 'text/xml' });
    assert.match(x.text, /<code>0<\/code>/);
    assert.deepEqual(rules(gw), ['TRANSPORT-JSON-PATH']);
  });

  it('gets a warning, never an error, for a follow-up in another shape than the public one (the shape is not shown)', async () => {
    const { gw, client } = await fresh();
    const stored = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    const ref = String(stored.transactionreference);
    // The public shape: no finding.
    await client.ok({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: ref }] } });
    assert.deepEqual(rules(gw), []);
    // Plain strings, lists of strings, an unknown key, a reference of nothing, updates as a list: each refused 30000.
    const sent: Obj[] = [
      { requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: SITE, transactionreference: ref } },
      { requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { transactionreference: [ref] } },
      { requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { maskedpan: [{ value: '411111######1111' }] } },
      { requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: { transactionreference: [{ value: '99-9-999' }] }, updates: { transactionactive: '0' } },
      { requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: { transactionreference: [{ value: ref }] }, updates: [{ transactionactive: '0' }] },
    ];
    for (const request of sent) assert.equal((await client.part(request)).errorcode, '30000', JSON.stringify(request));
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(rules(gw, 'warning'), ['STORE-QUERY-SHAPE', 'STORE-QUERY-SHAPE', 'STORE-QUERY-SHAPE', 'SUB-UPDATE-SHAPE', 'SUB-UPDATE-SHAPE']);
    assert.deepEqual(
      gw.session.violations().map((v) => v.field),
      ['request[0].filter.sitereference', 'request[0].filter.transactionreference', 'request[0].filter.maskedpan', 'request[0].filter.transactionreference', 'request[0].updates'],
    );
    assert.equal(gw.session.exitCode(), 0);
    assert.equal(gw.session.exitCode(true), 1);
  });

  it("is reported for the merchant's form to the ACS: names in another case, a changed MD, a GET (ACS-MERCHANT-TO-ACS)", async () => {
    const { gw, client } = await fresh();
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    assert.equal(query.enrolled, 'Y');
    const form = async (fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded'): Promise<number> => {
      const body = contentType.startsWith('multipart/')
        ? (() => {
            const f = new FormData();
            for (const [k, v] of Object.entries(fields)) f.append(k, v);
            return f;
          })()
        : new URLSearchParams(fields).toString();
      const headers: Record<string, string> = contentType.startsWith('multipart/') ? {} : { 'Content-Type': contentType };
      return (await fetch(String(query.acsurl), { method: 'POST', headers, body })).status;
    };
    const fields = { PaReq: String(query.pareq), TermUrl: 'https://merchant.example/return', MD: String(query.md) };
    assert.equal(await form({ pareq: fields.PaReq, termurl: fields.TermUrl, md: fields.MD }), 400);
    assert.equal(await form({ ...fields, MD: `${fields.MD}x` }), 400);
    assert.equal((await fetch(String(query.acsurl))).status, 405);
    assert.deepEqual(rules(gw, 'error'), ['ACS-MERCHANT-TO-ACS', 'ACS-MERCHANT-TO-ACS', 'ACS-MERCHANT-TO-ACS']);
    assert.match(gw.session.violations()[0].message, /MD is missing \(the names PaReq, TermUrl and MD are case sensitive\)/);
    // A multipart form is a form too (the encoding is not shown): a warning. The document's form: no finding.
    assert.equal(await form(fields, 'multipart/form-data'), 415);
    assert.deepEqual(rules(gw, 'warning'), ['ACS-MERCHANT-TO-ACS']);
    const { md, pares } = await client.acs(query);
    assert.equal((await client.ok({ requesttypedescriptions: ['AUTH'], md, pares })).status, 'Y');
    assert.equal(gw.session.violations().length, 4);
  });

  it("is reported for a TermUrl the ACS accepts that is not the THREEDQUERY's termurl (ACS-MERCHANT-TO-ACS)", async () => {
    const { gw, client } = await fresh();
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    const post = async (termUrl: string): Promise<number> =>
      (
        await fetch(String(query.acsurl), {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ PaReq: String(query.pareq), TermUrl: termUrl, MD: String(query.md) }).toString(),
        })
      ).status;
    // The ACS answers both: the form is read on its way, not changed.
    assert.equal(await post('https://merchant.example/return'), 200);
    assert.deepEqual(gw.session.violations(), []);
    assert.equal(await post('https://merchant.example/elsewhere'), 200);
    assert.deepEqual(rules(gw, 'error'), ['ACS-MERCHANT-TO-ACS']);
    assert.match(gw.session.violations()[0].message, /TermUrl is not the termurl the THREEDQUERY \S+ sent/);
  });

  it('answers a request of thousands of unknown request types in a bounded answer, and keeps the report small', async () => {
    // One request object, 3000 request types: one part per type ("The response holds one part per request type"),
    // each naming at most 20 of the unknown types, not all 3000 (an answer of 69 MB before).
    const { gw, client } = await fresh();
    const types = Array.from({ length: 3000 }, (_, i) => `X${i}`);
    const r = await client.raw('/json/', JSON.stringify(envelope({ requesttypedescriptions: types, ...PAYMENT, ...card('authorised') })));
    const parts = (JSON.parse(r.text) as { response: Obj[] }).response;
    assert.equal(parts.length, 3000);
    assert.ok(parts.every((p) => p.errorcode === '60018' && Array.isArray(p.errordata) && p.errordata.length === 20));
    assert.ok(r.text.length < 1_000_000, `${r.text.length} characters answered`);
    const report = JSON.stringify(gw.session.report());
    assert.ok(report.length < 50_000, `a report of ${report.length} characters`);
    assert.ok(gw.session.violations().some((v) => v.rule === 'ENV-TYPES-NAMED'));
  });

  it('gets warnings for recommendations: they fail the gate only with --strict', async () => {
    const { gw, client } = await fresh();
    const q = client.threedquery(await client.token('authorised'));
    delete q.useragent;
    await client.ok(q);
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised', false) });
    // With a cache token the security code came with the token: nothing to recommend.
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, cachetoken: await client.token('authorised') });
    // "E-commerce Maestro transactions must use 3-D Secure": which numbers are Maestro is not the document's.
    const maestro = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, pan: '6759000000000000', expirydate: '12/2031', securitycode: '123' });
    assert.equal(maestro.paymenttypedescription, 'MAESTRO');
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, accounttypedescription: 'MOTO', pan: '6759000000000000', expirydate: '12/2031', securitycode: '123' });
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(rules(gw, 'warning'), ['3DS-USERAGENT', 'FIELD-SECURITYCODE-OPTIONAL', '3DS-MAESTRO']);
    assert.equal(gw.session.exitCode(), 0);
    assert.equal(gw.session.exitCode(true), 1);
    const { gw: strict, client: c2 } = await fresh({ strict: true });
    await c2.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised', false) });
    assert.equal(strict.session.exitCode(), 1);
    assert.equal(strict.session.report().passed, false);
  });
});

/** A POST through node:http, so that headers fetch would not send (Connection: close) go as written. */
function nodePost(url: string, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('what real SDKs send', () => {
  it('is not a violation: extra envelope fields, per-request references, SDK headers, charset, gzip, Connection: close, escaped JSON, empty values', async () => {
    const { gw } = await fresh();
    const body = JSON.stringify({
      ...envelope({
        requesttypedescriptions: ['AUTH'],
        ...PAYMENT,
        ...card('authorised'),
        requestreference: 'A0001',
        versioninfo: 'Python::3.11::1.0.25::Linux',
        parenttransactionreference: '',
        billingcounty: null,
      }),
      libraryversion: 'python_1.0.25',
    }).replace('12/2031', '12\\/2031');
    const headers = {
      Authorization: JSON_HEADERS.Authorization,
      'Content-type': 'application/json;charset=utf-8',
      Accept: 'application/json',
      'Accept-Encoding': 'gzip',
      'Content-Encoding': 'gzip',
      Connection: 'close',
      REQUESTREFERENCE: 'A12345678',
      VERSIONINFO: 'Python::3.11.4::1.0.25::Linux',
    };
    const r = await nodePost(`${gw.url}/json/`, headers, gzipSync(body));
    assert.equal(r.status, 200);
    const answer = JSON.parse(r.text) as { requestreference: string; response: Obj[] };
    assert.equal(answer.requestreference, 'A12345678');
    assert.equal(answer.response[0].errorcode, '0');
    // PHP: escaped slashes and non-ASCII as \u escapes.
    const php = JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), billingfirstname: 'Zoë' }))
      .replace('12/2031', '12\\/2031')
      .replace('ë', '\\u00eb');
    const p = await nodePost(`${gw.url}/json/`, { ...headers, 'Content-Encoding': 'identity' }, php);
    assert.equal((JSON.parse(p.text) as { response: Obj[] }).response[0].errorcode, '0');
    assert.deepEqual(gw.session.violations(), []);
  });

  it('is not a violation in XML: a blank first line, no declaration, empty elements for unset fields', async () => {
    const { gw, client } = await fresh();
    const c = card('authorised') as Record<string, string>;
    const xml = `
<requestblock version="3.67"><alias>${USER.alias}</alias><request type="AUTH"><operation><sitereference>${SITE}</sitereference><accounttypedescription>ECOM</accounttypedescription><parenttransactionreference></parenttransactionreference></operation><merchant><orderreference>x-1</orderreference></merchant><billing><amount currencycode="GBP">1050</amount><payment type="VISA"><pan>${c.pan}</pan><expirydate>${c.expirydate}</expirydate><securitycode>${c.securitycode}</securitycode></payment><county/><name><first></first></name></billing></request></requestblock>`;
    const r = await client.raw('/xml/', xml, { Authorization: JSON_HEADERS.Authorization, 'Content-Type': 'text/xml;charset=utf-8', Accept: 'text/xml' });
    assert.equal(r.status, 200);
    assert.match(r.text, /<code>0<\/code>/);
    assert.deepEqual(gw.session.violations(), []);
    assert.equal(gw.session.report().requests.xml, 1);
    // A block with the wrong version is reported against the XML rule.
    await client.raw('/xml/', xml.replace('3.67', '3.66'), { Authorization: JSON_HEADERS.Authorization, 'Content-Type': 'text/xml' });
    assert.deepEqual(rules(gw), ['VER-XML']);
  });
});

describe('the report', () => {
  it('is served at GET /_cardspec/contract, masked, and says each rule once with its quote', async () => {
    const { client } = await fresh({ control: false });
    await client.part({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised') });
    await client.part({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised') });
    const r = await client.raw('/_cardspec/contract', undefined, {}, 'GET');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    const report = JSON.parse(r.text) as { violations: { byRule: { rule: string; errors: number; quote?: string }[] } };
    assert.deepEqual(report.violations.byRule, [
      { rule: 'FIELD-SECURITYCODE-NOT-IN-STORE', errors: 2, warnings: 0, section: 'Resources and their fields > Common request fields', quote: 'Must not be sent in STORE.' },
    ]);
    assert.doesNotMatch(r.text, /4111111111111111/);
    assert.equal((await client.raw('/_cardspec/contract', '{}', {})).status, 405);
  });
});
