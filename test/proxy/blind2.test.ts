/**
 * The second round of blind faults, seen by a passive observer: each named from the document and the traffic alone,
 * on a real proxy on loopback in front of the gallery's variant, and the reference gateway answering the same
 * traffic leaves no gateway error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startGateway } from '../../src/gateway';
import { startProxy } from '../../src/proxy';
import type { RunningContractGateway } from '../../src/contract';
import type { ResponsePart } from '../../src/wire/types';
import { ERR, refuse } from '../../src/selfcheck/gallery/helpers';
import { card, PAYMENT, Sender, SITE, SUBSCRIPTION, type Obj } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { open, path } = closedAtEnd();

const resumed = (): Obj => ({
  requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
  ...PAYMENT,
  orderreference: 'sub-resumed',
  ...SUBSCRIPTION,
  subscriptionnumber: '4',
  ...card('authorised'),
});

describe('a resumed subscription numbered below the number sent (SUB-NUMBER-RESUME)', () => {
  it('the reference gateway: no gateway error, the rule checked', async () => {
    const { client, proxy } = await path();
    await client.send(resumed());
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.equal(proxy.session.report().coverage.find((c) => c.rule === 'SUB-NUMBER-RESUME')?.status, 'passed');
  });

  it('a gateway that numbers it 1 again is named under SUB-NUMBER-RESUME', async () => {
    const { client, proxy } = await path('blind2-resumed-subscription-number-reset');
    const parts = await client.send(resumed());
    assert.equal(parts[1].subscriptionnumber, '1');
    assert.deepEqual(await broken(proxy, 'gateway'), ['SUB-NUMBER-RESUME']);
    // Where: the part the invariant names, the SUBSCRIPTION after the AUTH.
    const found = proxy.session.report().violations.list.filter((f) => f.rule === 'SUB-NUMBER-RESUME');
    assert.deepEqual(
      found.map((f) => f.field),
      ['response[1].subscriptionnumber'],
    );
  });
});

/** A stored card, then a TRANSACTIONQUERY of it: answers the records it finds. */
async function storeAndQuery(client: Sender): Promise<unknown> {
  const stored = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'q-1', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
  const query = await client.ok({
    requesttypedescriptions: ['TRANSACTIONQUERY'],
    filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: String(stored.transactionreference) }] },
  });
  return query.records;
}

describe("the records of a TRANSACTIONQUERY: maskedpan is masked with '#' there too (FIELD-MASKEDPAN)", () => {
  it('the reference gateway: no gateway error', async () => {
    const { client, proxy } = await path();
    const records = (await storeAndQuery(client)) as Obj[];
    assert.match(String(records[0].maskedpan), /#/);
    assert.deepEqual(await broken(proxy, 'gateway'), []);
  });

  it('a gateway that masks the records with X is named under FIELD-MASKEDPAN', async () => {
    const { client, proxy } = await path('blind2-query-masks-with-x');
    const records = (await storeAndQuery(client)) as Obj[];
    assert.match(String(records[0].maskedpan), /X/);
    assert.deepEqual(await broken(proxy, 'gateway'), ['FIELD-MASKEDPAN']);
  });
});

describe("a request the document refuses, answered errorcode 0: the gateway ran it (the field's own rule)", () => {
  it('the reference gateway refuses a THREEDQUERY sent with MOTO and an AUTH of 0: the client is named, not the gateway', async () => {
    const { client, proxy } = await path();
    const parts = await client.send(client.threedquery(await client.token('authorised'), { accounttypedescription: 'MOTO' }));
    assert.notEqual(parts[0].errorcode, '0');
    assert.notEqual((await client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, baseamount: '0', orderreference: 'zero', ...card('authorised') }))[0].errorcode, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.deepEqual(await broken(proxy, 'client'), ['FIELD-ACCOUNTTYPE-THREEDQUERY', 'FIELD-BASEAMOUNT-POSITIVE']);
  });

  it('a gateway that runs a THREEDQUERY sent with MOTO is named under FIELD-ACCOUNTTYPE-THREEDQUERY on its side too', async () => {
    const { client, proxy } = await path('blind2-threedquery-moto-accepted');
    const parts = await client.send(client.threedquery(await client.token('authorised'), { accounttypedescription: 'MOTO' }));
    assert.equal(parts[0].errorcode, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), ['FIELD-ACCOUNTTYPE-THREEDQUERY']);
  });

  it('a gateway that charges an AUTH of 0 is named under FIELD-BASEAMOUNT-POSITIVE on its side too', async () => {
    const { client, proxy } = await path('zero-amount-charged');
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, baseamount: '0', orderreference: 'zero', ...card('authorised') });
    assert.ok((await broken(proxy, 'gateway')).includes('FIELD-BASEAMOUNT-POSITIVE'));
  });

  it("an ACCOUNTCHECK of 0 (the exception the document makes) answered 0 is nobody's fault", async () => {
    const { client, proxy } = await path();
    await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 'ac-0', ...card('authorised') });
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.deepEqual(await broken(proxy, 'client'), []);
  });
});

describe('an AUTH answered 60022 that shows the bank was reached: the sentence of what it shows', () => {
  /** A gateway on loopback whose 60022 AUTH parts carry `extra`, behind a proxy; the not-authenticated customer's AUTH. */
  async function unauthenticatedWith(extra: Obj): Promise<string[]> {
    const gw = await startGateway({ control: true, mutate: { part: (p: ResponsePart) => (p.requesttypedescription === 'AUTH' && p.errorcode === '60022' ? { ...p, ...extra } : p) } });
    open.push(gw);
    const proxy = await startProxy({ upstream: gw.url });
    open.push(proxy);
    const client = new Sender({ url: proxy.url } as RunningContractGateway);
    const query = await client.ok(client.threedquery(await client.token('acsNotAuthenticated')));
    const { md, pares } = await client.acs(query, 'N');
    assert.equal((await client.send({ requesttypedescriptions: ['AUTH'], md, pares }))[0].errorcode, '60022');
    return broken(proxy, 'gateway');
  }

  it('the reference gateway: no gateway error', async () => {
    assert.deepEqual(await unauthenticatedWith({}), []);
  });

  it('a bank response code alone: 3DS-60022-SETTLE ("The acquirer is not contacted")', async () => {
    assert.deepEqual(await unauthenticatedWith({ acquirerresponsecode: '05' }), ['3DS-60022-SETTLE']);
  });

  it('an authorisation code: ERR-60022 ("No funds are transferred"), the one sentence that rules it out', async () => {
    assert.deepEqual(await unauthenticatedWith({ authcode: 'TEST01', acquirerresponsecode: '05' }), ['ERR-60022']);
  });
});

describe('what a parent supplies to the bank, and what it cannot', () => {
  const store = (client: Sender): Promise<Obj> =>
    client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's-2', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
  const payOn = (client: Sender, parent: Obj): Promise<ResponsePart[]> =>
    client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'child', parenttransactionreference: parent.transactionreference });
  const accountCheck = (client: Sender): Promise<Obj> =>
    client.ok({
      requesttypedescriptions: ['ACCOUNTCHECK'],
      ...PAYMENT,
      baseamount: '0',
      orderreference: 'ac-1',
      billingpremise: '789',
      billingpostcode: 'TE45 6ST',
      billingcountryiso2a: 'GB',
      ...card('authorised'),
    });

  it('the reference gateway: a payment on a stored card, and a child of an account check, leave no gateway error', async () => {
    const { client, proxy } = await path();
    const onStore = await payOn(client, await store(client));
    assert.equal(onStore[0].securityresponsesecuritycode, '0');
    const child = await payOn(client, await accountCheck(client));
    assert.notEqual(child[0].securityresponseaddress, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    const status = (rule: string): string | undefined => proxy.session.report().coverage.find((c) => c.rule === rule)?.status;
    assert.equal(status('STORE-KEEPS-CARD'), 'passed');
    assert.equal(status('AC-INHERITED'), 'passed');
  });

  it('a security code "matched" on a stored card sent without one: STORE-KEEPS-CARD ("The security code is not")', async () => {
    const { client, proxy } = await path('blind2-stored-card-child-code-matched');
    assert.equal((await payOn(client, await store(client)))[0].securityresponsesecuritycode, '2');
    assert.deepEqual(await broken(proxy, 'gateway'), ['STORE-KEEPS-CARD']);
  });

  it('an account check\'s premise and postcode "not given" in its child: AC-INHERITED', async () => {
    const { client, proxy } = await path('blind2-accountcheck-child-loses-billing');
    assert.equal((await payOn(client, await accountCheck(client)))[0].securityresponseaddress, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), ['AC-INHERITED']);
  });
});

describe('a stored card disabled and enabled again by TRANSACTIONUPDATE (the Card store table)', () => {
  async function disableThenEnable(client: Sender): Promise<[ResponsePart, ResponsePart]> {
    const stored = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's-3', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    const update = (value: string): Promise<Obj> =>
      client.ok({
        requesttypedescriptions: ['TRANSACTIONUPDATE'],
        filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: String(stored.transactionreference) }] },
        updates: { transactionactive: value },
      });
    const pay = async (): Promise<ResponsePart> =>
      (await client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'on-store', parenttransactionreference: stored.transactionreference }))[0];
    await update('0');
    const disabled = await pay();
    await update('1');
    return [disabled, await pay()];
  }

  it('the reference gateway: refused while disabled, run once enabled again, no gateway error', async () => {
    const { client, proxy } = await path();
    const [disabled, enabled] = await disableThenEnable(client);
    assert.notEqual(disabled.errorcode, '0');
    assert.equal(enabled.errorcode, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    const status = (rule: string): string | undefined => proxy.session.report().coverage.find((c) => c.rule === rule)?.status;
    assert.equal(status('STORE-STATE-DISABLE'), 'passed');
    assert.equal(status('STORE-STATE-REENABLE'), 'passed');
  });

  it('a gateway that answers the re-enabling Ok but keeps the card disabled: STORE-STATE-REENABLE', async () => {
    const { client, proxy } = await path('blind2-store-reenable-ignored');
    const [, enabled] = await disableThenEnable(client);
    assert.notEqual(enabled.errorcode, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), ['STORE-STATE-REENABLE']);
  });

  it('a gateway that answers the disabling Ok but runs the next payment on the card: STORE-STATE-DISABLE', async () => {
    const { client, proxy } = await path('disable-ignored');
    const [disabled] = await disableThenEnable(client);
    assert.equal(disabled.errorcode, '0');
    assert.ok((await broken(proxy, 'gateway')).includes('STORE-STATE-DISABLE'));
  });
});

describe('the exception the document makes, refused: an ACCOUNTCHECK of 0 (FIELD-BASEAMOUNT-POSITIVE)', () => {
  it('a gateway refusing it naming baseamount is named; the reference gateway runs it (above)', async () => {
    const gw = await startGateway({
      control: true,
      mutate: {
        operations: {
          ACCOUNTCHECK: (input, next) => (/^0+$/.test(input.prepared.fields.baseamount ?? '') ? refuse('ACCOUNTCHECK', ERR.invalidField, ['baseamount']) : next(input)),
        },
      },
    });
    open.push(gw);
    const proxy = await startProxy({ upstream: gw.url });
    open.push(proxy);
    const client = new Sender({ url: proxy.url } as RunningContractGateway);
    const parts = await client.send({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 'ac-0', ...card('authorised') });
    assert.equal(parts[0].errorcode, '30000');
    assert.deepEqual(await broken(proxy, 'gateway'), ['FIELD-BASEAMOUNT-POSITIVE']);
    assert.deepEqual(await broken(proxy, 'client'), []);
  });
});

describe('errordata read as the field dictionary has it: a list of the fields behind the error', () => {
  it('a bare string is no list: the refused ACCOUNTCHECK of 0 is not named for it (the list form is, above)', async () => {
    const gw = await startGateway({
      control: true,
      mutate: {
        operations: {
          ACCOUNTCHECK: (input, next) => (/^0+$/.test(input.prepared.fields.baseamount ?? '') ? refuse('ACCOUNTCHECK', ERR.invalidField, ['baseamount']) : next(input)),
        },
        part: (part) => (Array.isArray(part.errordata) ? { ...part, errordata: part.errordata.join(',') } : part),
      },
    });
    open.push(gw);
    const proxy = await startProxy({ upstream: gw.url });
    open.push(proxy);
    const client = new Sender({ url: proxy.url } as RunningContractGateway);
    const parts = await client.send({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 'ac-0', ...card('authorised') });
    assert.equal(parts[0].errordata, 'baseamount');
    // errordata is a public fact, not the document's: its form fails nothing, and a text that is no list names no field.
    assert.deepEqual(await broken(proxy, 'gateway'), []);
  });
});
