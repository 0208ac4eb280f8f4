/**
 * The XML request block (`POST /xml/`, cardspec's choice of address), mapped by src/wire/xml.ts to the JSON form:
 * the same operations and answers, `responseblock` with version 3.67, malformed blocks answered with
 * `response@type="ERROR"`, and the Ruby gem's shapes (no XML declaration, a leading blank line, empty elements).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildRequestBlock, parseResponseBlock } from '../../src/wire/xml';
import type { ResponseEnvelope } from '../../src/wire/types';
import { AUTH_HEADER, card, type Obj, type Part, PAYMENT, SITE, threedquery, useGateway, USER } from './helpers';

const client = useGateway();

async function postXml(body: string, contentType = 'text/xml;charset=utf-8'): Promise<{ status: number; text: string; env: ResponseEnvelope; parts: Part[] }> {
  const res = await fetch(`${client.url}/xml/`, { method: 'POST', headers: { Authorization: AUTH_HEADER, 'Content-Type': contentType, Accept: 'text/xml' }, body });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.equal(res.headers.get('content-type'), 'text/xml; charset=utf-8');
  const { envelope, problems } = parseResponseBlock(text);
  assert.deepEqual(problems, [], text);
  return { status: res.status, text, env: envelope, parts: envelope.response as Part[] };
}

const block = (request: Obj): string => buildRequestBlock({ alias: USER.alias, version: '1.00', request: [request] });

describe('XML transport', () => {
  it('an AUTH as the Ruby gem sends it: leading blank line, no declaration, empty elements for unset fields', async () => {
    const c = card('authorised');
    const xml = `
<requestblock version="3.67"><alias>${USER.alias}</alias><request type="AUTH"><operation><sitereference>${SITE}</sitereference><accounttypedescription>ECOM</accounttypedescription><parenttransactionreference></parenttransactionreference></operation><merchant><orderreference>ruby-1</orderreference></merchant><billing><amount currencycode="GBP">1050</amount><payment type="VISA"><pan>${c.pan}</pan><expirydate>${c.expirydate}</expirydate><securitycode>${c.securitycode}</securitycode></payment><premise></premise><postcode/><county/><name><first></first></name></billing><customer><name/></customer></request></requestblock>`;
    const r = await postXml(xml);
    assert.match(r.text, /^<\?xml[^>]*\?><responseblock version="3\.67">|^<responseblock version="3\.67">/);
    assert.equal(r.env.version, '1.00');
    assert.equal(r.parts.length, 1);
    assert.deepEqual([r.parts[0].requesttypedescription, r.parts[0].errorcode, r.parts[0].errormessage], ['AUTH', '0', 'Ok']);
    assert.equal(r.parts[0].maskedpan, '411111######1111');
    assert.equal(r.parts[0].orderreference, 'ruby-1');
    assert.match(String(r.env.requestreference), /^A/);
  });

  it('THREEDQUERY, ACS and AUTH with md and pares over XML', async () => {
    const q = (await postXml(block(threedquery(await client.token('authorised'))))).parts[0];
    assert.deepEqual([q.errorcode, q.enrolled], ['0', 'Y']);
    const { md, pares } = await client.acs(q);
    const a = (await postXml(block({ requesttypedescriptions: ['AUTH'], md, pares }))).parts[0];
    assert.deepEqual([a.errorcode, a.status, a.enrolled], ['0', 'Y', 'Y']);
  });

  it('two request types give two response elements in order', async () => {
    const r = await postXml(block({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, ...card('shieldChallenge') }), 'application/xml');
    assert.deepEqual(
      r.parts.map((p) => p.requesttypedescription),
      ['RISKDEC', 'AUTH'],
    );
    assert.equal(r.parts[0].fraudcontrolshieldstatuscode, 'CHALLENGE');
    assert.equal(r.parts[1].settlestatus, '2');
  });

  it('30000 errordata and the error shape survive the mapping', async () => {
    const r = await postXml(block({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), currencyiso3a: 'POUND' }));
    assert.deepEqual([r.parts[0].errorcode, r.parts[0].errordata], ['30000', ['currencyiso3a']]);
  });

  it('TRANSACTIONQUERY over XML answers found and records', async () => {
    const s = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'xq', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    const r = await postXml(block({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { transactionreference: [{ value: s.transactionreference }] } }));
    assert.equal(r.parts[0].found, '1');
    const records = r.parts[0].records as Part[];
    assert.equal(records[0].transactionreference, s.transactionreference);
    assert.doesNotMatch(r.text, /4111111111111111/);
  });

  it('malformed XML: HTTP 200 and one response of type ERROR', async () => {
    for (const body of ['<requestblock version="3.67"><alias>x', 'not xml', '<other version="3.67"/>', '']) {
      const r = await postXml(body);
      assert.deepEqual([r.parts.length, r.parts[0].requesttypedescription, r.parts[0].errorcode], [1, 'ERROR', '30000'], body);
      assert.match(r.text, /<response type="ERROR">/);
    }
  });

  it('a block with another version attribute: ERROR naming version', async () => {
    const xml = block({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }).replace('version="3.67"', 'version="3.60"');
    const r = await postXml(xml);
    assert.deepEqual([r.parts[0].requesttypedescription, r.parts[0].errordata], ['ERROR', ['version']]);
  });
});
