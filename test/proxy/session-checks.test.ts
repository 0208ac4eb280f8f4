/**
 * Two session checks of the answer side (src/proxy/answers.ts), through a real proxy on loopback in front of the
 * reference gateway and of the gallery's variants: the masked form of a long card number keeps its length, and an
 * AUTH whose md was changed (another letter case) is not answered as authenticated. The reference gateway leaves
 * no gateway error in either; the variants are named under the rule; the client's changed md is the client's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunningProxy } from '../../src/proxy';
import { SECURITY_TRIGGERS } from '../../src/testdata';
import { buildRequestBlock, buildResponseBlock } from '../../src/wire/xml-build';
import { AUTH_HEADER, card, PAYMENT, Sender, USER, type Obj } from '../contract/helpers';
import { closedAtEnd, type Path } from './helpers';
import { startProxy } from '../../src/proxy';
import type { RunningContractGateway } from '../../src/contract';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const { open, path } = closedAtEnd();

/** The rules the proxy found broken on one side, with errors, once every exchange so far is checked. */
async function broken(proxy: RunningProxy, side: 'client' | 'gateway'): Promise<string[]> {
  const s = (proxy as { settled?: () => Promise<void> }).settled;
  if (s) await s.call(proxy);
  return proxy.session
    .report()
    .violations.byRule.filter((b) => b.side === side && b.errors > 0)
    .map((b) => b.rule);
}

/** A Visa number of 19 digits that passes the Luhn check. */
function longCard(): string {
  const body = '411111111111111111';
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

const recase = (s: string): string => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

describe('the masked form keeps the length of the number sent', () => {
  const auth = (pan: string): Obj => ({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'long', pan, expirydate: '12/2031', securitycode: '123' });

  it('a 19-digit card through the reference gateway: no gateway error', async () => {
    const { client, proxy } = await path();
    const part = (await client.send(auth(longCard())))[0];
    assert.equal(String(part.maskedpan).length, 19, JSON.stringify(part));
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.equal(proxy.session.report().coverage.find((c) => c.rule === 'FIELD-MASKEDPAN')?.status, 'passed');
  });

  it('a gateway that masks it as 16 characters is named under FIELD-MASKEDPAN', async () => {
    const { client, proxy } = await path('maskedpan-cut-for-long-cards');
    await client.send(auth(longCard()));
    assert.deepEqual(await broken(proxy, 'gateway'), ['FIELD-MASKEDPAN']);
  });
});

describe('an AUTH with a changed md is not authenticated', () => {
  async function changedMd(p: Path): Promise<Obj> {
    const query = await p.client.ok(p.client.threedquery(await p.client.token('authorised')));
    const { md, pares } = await p.client.acs(query, 'Y');
    assert.notEqual(recase(md), md, 'the md has letters');
    return (await p.client.send({ requesttypedescriptions: ['AUTH'], md: recase(md), pares }))[0];
  }

  it('the reference gateway does not authenticate it: the client is told, the gateway is not', async () => {
    const p = await path();
    const auth = await changedMd(p);
    assert.ok(!(auth.errorcode === '0' && auth.status === 'Y'), JSON.stringify(auth));
    assert.deepEqual(await broken(p.proxy, 'client'), ['3DS-MD-PARES-UNMODIFIED']);
    assert.deepEqual(await broken(p.proxy, 'gateway'), []);
  });

  it('a gateway that reads md in any case authenticates it: named on its side', async () => {
    const p = await path('md-read-in-any-case');
    const auth = await changedMd(p);
    assert.equal(auth.status, 'Y');
    assert.deepEqual(await broken(p.proxy, 'gateway'), ['3DS-MD-PARES-UNMODIFIED']);
    assert.deepEqual(await broken(p.proxy, 'client'), ['3DS-MD-PARES-UNMODIFIED']);
  });
});

describe('the security results in their XML places', () => {
  const XML_HEADERS = { Authorization: AUTH_HEADER, 'Content-Type': 'text/xml', Accept: 'text/xml' };
  /** An account check whose address and postcode results differ (so that an exchange of the two shows). */
  const check = (premise: 'matched' | 'notMatched', postcode: 'matched' | 'notMatched'): Obj => ({
    requesttypedescriptions: ['ACCOUNTCHECK'],
    ...PAYMENT,
    baseamount: '0',
    orderreference: 'places',
    ...card('authorised'),
    billingpremise: SECURITY_TRIGGERS.billingpremise[premise],
    billingpostcode: SECURITY_TRIGGERS.billingpostcode[postcode],
  });
  const A = check('matched', 'notMatched');
  const B = check('notMatched', 'matched');
  const inXml = async (p: Pick<Path, 'client'>, request: Obj): Promise<void> => {
    const r = await p.client.raw('/xml/', buildRequestBlock({ alias: USER.alias, version: '1.00', request: [request] }), XML_HEADERS);
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /<address>\d<\/address>/, r.text);
  };

  it('the same data in JSON and in XML through the reference gateway: no gateway error, the rule checked', async () => {
    const p = await path();
    const part = (await p.client.send(A))[0];
    assert.deepEqual([part.securityresponseaddress, part.securityresponsepostcode], ['2', '4'], JSON.stringify(part));
    await p.client.send(B);
    await inXml(p, A);
    await inXml(p, B);
    assert.deepEqual(await broken(p.proxy, 'gateway'), []);
    assert.equal(p.proxy.session.report().coverage.find((c) => c.rule === 'XML-SECURITY-PATHS')?.status, 'passed');
  });

  it('a gateway whose XML form exchanges the two places: named under XML-SECURITY-PATHS once two data sets show it', async () => {
    const p = await path('xml-security-address-postcode-swapped');
    await p.client.send(A);
    await inXml(p, A);
    assert.deepEqual(await broken(p.proxy, 'gateway'), [], 'one data set exchanged could be a bank that checks otherwise each time');
    await p.client.send(B);
    await inXml(p, B);
    assert.deepEqual(await broken(p.proxy, 'gateway'), ['XML-SECURITY-PATHS']);
  });

  /** A gateway on loopback answering the given address and postcode results in turn, per form. */
  async function bank(turns: Record<'json' | 'xml', [string, string][]>): Promise<Pick<Path, 'client' | 'proxy'>> {
    let n = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const form = req.url?.startsWith('/xml') ? 'xml' : 'json';
        const [address, postcode] = turns[form].shift() ?? ['1', '1'];
        n++;
        const part = {
          requesttypedescription: 'ACCOUNTCHECK',
          errorcode: '0',
          errormessage: 'Ok',
          transactionreference: `1-2-${n}`,
          securityresponseaddress: address,
          securityresponsepostcode: postcode,
          securityresponsesecuritycode: '2',
        };
        const env = { requestreference: `W${n}`, version: '1.00', response: [part], secrand: `secrand${n}xyz` };
        res.setHeader('Content-Type', form === 'xml' ? 'text/xml' : 'application/json');
        res.end(form === 'xml' ? buildResponseBlock(env) : JSON.stringify(env));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    open.push(proxy);
    return { proxy, client: new Sender({ url: proxy.url } as RunningContractGateway) };
  }
  const C = check('notMatched', 'notMatched');

  it('a bank that answered the same data otherwise once: no exchange named, though two data sets look exchanged', async () => {
    // A in JSON twice, other results the second time; then B and C exchanged between the forms.
    const p = await bank({
      json: [
        ['2', '4'],
        ['4', '2'],
        ['4', '2'],
        ['4', '1'],
      ],
      xml: [
        ['2', '4'],
        ['2', '4'],
        ['1', '4'],
      ],
    });
    await p.client.send(A);
    await p.client.send(A);
    await p.client.send(B);
    await p.client.send(C);
    for (const r of [A, B, C]) await inXml(p, r);
    assert.ok(!(await broken(p.proxy, 'gateway')).includes('XML-SECURITY-PATHS'));
  });

  it('a data set the two forms answer alike: no exchange named, though two others look exchanged', async () => {
    const p = await bank({
      json: [
        ['2', '4'],
        ['4', '2'],
        ['4', '1'],
      ],
      xml: [
        ['2', '4'],
        ['2', '4'],
        ['1', '4'],
      ],
    });
    for (const r of [A, B, C]) await p.client.send(r);
    for (const r of [A, B, C]) await inXml(p, r);
    assert.ok(!(await broken(p.proxy, 'gateway')).includes('XML-SECURITY-PATHS'));
    // The same bank without the data set answered alike names it: the test above is the guard's.
    const q = await bank({
      json: [
        ['4', '2'],
        ['4', '1'],
      ],
      xml: [
        ['2', '4'],
        ['1', '4'],
      ],
    });
    for (const r of [B, C]) await q.client.send(r);
    for (const r of [B, C]) await inXml(q, r);
    assert.ok((await broken(q.proxy, 'gateway')).includes('XML-SECURITY-PATHS'));
  });
});
