/**
 * Two session checks of the answer side (src/proxy/answers.ts), through a real proxy on loopback in front of the
 * reference gateway and of the gallery's variants: the masked form of a long card number keeps its length, and an
 * AUTH whose md was changed (another letter case) is not answered as authenticated. The reference gateway leaves
 * no gateway error in either; the variants are named under the rule; the client's changed md is the client's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunningProxy } from '../../src/proxy';
import { PAYMENT, type Obj } from '../contract/helpers';
import { closedAtEnd, type Path } from './helpers';

const { path } = closedAtEnd();

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
