/**
 * What the gateway's busy path reuses from one request to the next (src/gateway/read.ts: request objects read by
 * their shape; parts.ts: part templates; records.ts: records that make their part again; ledger.ts: records found
 * by their sequence number) must never carry anything from one request into another, nor answer otherwise than a
 * gateway meeting each request for the first time. Pure core (`processEnvelope`): no server is involved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { processEnvelope } from '../../src/gateway';
import { acsComplete } from '../../src/gateway/acs';
import { control } from '../../src/gateway/control';
import { createRuntime, type Runtime } from '../../src/gateway/runtime';
import { recordView } from '../../src/gateway/view';
import type { GatewayMutation } from '../../src/gateway/types';
import { card, PAYMENT, SITE, USER, type Obj, type Part } from './helpers';

const ctx = { user: USER, format: 'json' as const, baseUrl: 'http://gateway.test' };

function call(rt: Runtime, ...request: unknown[]): Part[] {
  return processEnvelope(rt, { alias: USER.alias, version: '1.00', request }, ctx).response as Part[];
}

function token(rt: Runtime, name: Parameters<typeof card>[0]): string {
  return (control(rt, 'POST', '/_cardspec/cachetokens', new URLSearchParams(), card(name)).body as { cachetoken: string }).cachetoken;
}

/** A part with the values that differ on every answer (references, random values) replaced by their names. */
function stable(part: Part): Part {
  const out: Part = {};
  for (const [k, v] of Object.entries(part)) out[k] = ['transactionreference', 'authcode', 'xid', 'md', 'pareq', 'cavv'].includes(k) ? `<${k}>` : v;
  return out;
}

const AUTH: Obj = { requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'order 1', ...card('authorised'), billingpremise: '789', billingtown: 'Bangor' };

describe('reuse on the busy path', () => {
  it('a request object of a known shape is read afresh: its values, never the earlier one’s', () => {
    const rt = createRuntime();
    const first = call(rt, AUTH)[0];
    // Same keys in the same order, other values: nothing of the first request may show.
    const second = call(rt, { ...AUTH, baseamount: '2000', orderreference: 'order 2', billingpremise: '123', ...card('declined') })[0];
    assert.equal(first.baseamount, '1050');
    assert.equal(second.baseamount, '2000');
    assert.equal(second.orderreference, 'order 2');
    assert.equal(second.securityresponseaddress, '4', 'billingpremise 123 is "not matched"');
    assert.equal(second.errorcode, '70000');
    const rec = rt.ledger.get(String(second.transactionreference))!;
    assert.equal(rec.fields.billingpremise, '123');
    assert.equal(rec.fields.orderreference, 'order 2');
    assert.equal(rec.card?.pan, card('declined').pan);
    // Read by its shape, the request still gives the record no field of one call: no card number, no security code.
    assert.deepEqual(
      ['pan', 'expirydate', 'securitycode', 'requesttypedescriptions'].filter((f) => f in rec.fields),
      [],
    );
  });

  it('each record keeps the values its own request sent, when requests of one shape alternate between values', () => {
    const rt = createRuntime();
    const streets = ['Long Test Street 1', 'Another Long Street 2', 'Long Test Street 1', 'Long Test Street 1', 'Another Long Street 2'];
    const refs = streets.map((billingstreet) => String(call(rt, { ...AUTH, billingstreet })[0].transactionreference));
    assert.deepEqual(
      refs.map((r) => rt.ledger.get(r)!.fields.billingstreet),
      streets,
    );
  });

  it('records of equal fields share one object; a record differing in a value, a key or the order of keys keeps its own', () => {
    const rt = createRuntime();
    const fieldsOf = (obj: Obj): Readonly<Record<string, string>> => rt.ledger.get(String(call(rt, obj)[0].transactionreference))!.fields;
    const first = fieldsOf(AUTH);
    assert.equal(fieldsOf({ ...AUTH }), first, 'the same request again holds the same fields object');
    const { billingtown, ...withoutTown } = AUTH;
    const kinds: Obj[] = [
      { ...AUTH, orderreference: 'order 2' },
      { ...withoutTown, billingcounty: 'Gwynedd' },
      { billingtown, ...withoutTown },
      { ...AUTH, billingpremise: '123' },
      { ...AUTH, baseamount: '2000' },
    ];
    // Five kinds in turn, twice: more than the ledger remembers at once, so each is also met after being forgotten.
    for (const kind of [...kinds, ...kinds]) {
      const fields = fieldsOf(kind);
      const expected = Object.entries(kind).filter(([k]) => k in first || k === 'billingcounty');
      assert.deepEqual(Object.entries(fields), expected);
    }
    // The order of keys is the request's own: `billingtown` first when sent first.
    assert.equal(Object.keys(fieldsOf({ billingtown, ...withoutTown }))[0], 'billingtown');
    assert.notEqual(Object.keys(first)[0], 'billingtown');
    // Every earlier record still holds its own values.
    assert.equal(rt.ledger.get('12-9-1003')!.fields.orderreference, 'order 2');
    assert.equal(first.orderreference, 'order 1');
  });

  it('a value of a known shape that is empty, null or not a string counts as not sent, or is refused, as on first sight', () => {
    const rt = createRuntime();
    call(rt, AUTH);
    const empty = call(rt, { ...AUTH, billingtown: '' })[0];
    assert.equal(empty.errorcode, '0');
    assert.equal(rt.ledger.get(String(empty.transactionreference))!.fields.billingtown, undefined);
    const nulled = call(rt, { ...AUTH, orderreference: null })[0];
    assert.equal(nulled.orderreference, undefined);
    const number = call(rt, { ...AUTH, baseamount: 1050 })[0];
    assert.deepEqual([number.errorcode, number.errordata], ['30000', ['baseamount']]);
    const bad = call(rt, { ...AUTH, billingpremise: 'a\u0007b', pan: '4111' })[0];
    assert.deepEqual([bad.errorcode, bad.errordata], ['30000', ['pan', 'billingpremise']]);
    // The shape is still good for the next well-formed object.
    assert.equal(call(rt, AUTH)[0].errorcode, '0');
  });

  it('a field the dictionary does not know is read by name each time, inherited, and `realPan` is still dropped', () => {
    // The request as handlers (and variants' hooks) see it.
    const seen: Obj[] = [];
    const rt = createRuntime({ mutate: { operations: { AUTH: (input, next) => (seen.push({ ...input.prepared.own }), next(input)) } } });
    const withUnknown = { ...AUTH, merchantnote: 'first' };
    call(rt, withUnknown);
    const second = call(rt, { ...withUnknown, merchantnote: 'second', billingtown: 'Conwy' })[0];
    assert.equal(rt.ledger.get(String(second.transactionreference))!.fields.merchantnote, 'second');
    assert.deepEqual([seen[1].merchantnote, seen[1].billingtown, seen[1].pan], ['second', 'Conwy', card('authorised').pan]);
    const real = call(rt, { ...withUnknown, realPan: card('authorised').pan })[0];
    assert.equal(real.errorcode, '0');
    assert.equal(JSON.stringify(rt.ledger.get(String(real.transactionreference))!.fields).includes(String(card('authorised').pan)), false);
  });

  it('parts of one shape made one after the other hold the same fields in the same order, and no field of another shape', () => {
    const rt = createRuntime();
    const plain = stable(call(rt, AUTH)[0]);
    const declined = stable(call(rt, { ...AUTH, ...card('declined') })[0]);
    const withParent = stable(call(rt, { ...AUTH, parenttransactionreference: String(call(rt, AUTH)[0].transactionreference) })[0]);
    // Again, in another order: each part is made from its shape's template now.
    assert.deepEqual(stable(call(rt, { ...AUTH, ...card('declined') })[0]), declined);
    assert.deepEqual(Object.keys(stable(call(rt, AUTH)[0])), Object.keys(plain));
    assert.deepEqual(stable(call(rt, AUTH)[0]), plain);
    assert.equal('authcode' in declined, false, 'a declined AUTH has no authcode, even after authorised ones');
    assert.equal('parenttransactionreference' in plain, false);
    assert.equal('parenttransactionreference' in withParent, true);
  });

  it('3-D Secure AUTHs of every ACS outcome answer only their own fields, whatever came before', () => {
    const rt = createRuntime();
    const outcomes: Record<string, Part> = {};
    for (const name of ['authorised', 'acsAttempted', 'acsUnavailable', 'acsNotAuthenticated', 'authorised'] as const) {
      const q = call(rt, {
        requesttypedescriptions: ['THREEDQUERY'],
        termurl: 'https://m.test/r',
        accept: 'text/html',
        cachetoken: token(rt, name),
        currencyiso3a: 'GBP',
        accounttypedescription: 'ECOM',
        sitereference: SITE,
        baseamount: '1050',
      })[0];
      assert.equal(q.acsurl, 'http://gateway.test/acs/');
      const form = new URLSearchParams({ PaReq: String(q.pareq), TermUrl: 'https://m.test/r', MD: String(q.md) });
      const pares = /name="PaRes" value="([^"]*)"/.exec(acsComplete(rt, form).html)![1];
      const auth = call(rt, { requesttypedescriptions: ['AUTH'], md: q.md, pares })[0];
      outcomes[String(auth.status)] = auth;
    }
    assert.deepEqual(Object.keys(outcomes).sort(), ['A', 'N', 'U', 'Y']);
    assert.deepEqual(['cavv' in outcomes.Y, 'eci' in outcomes.Y], [true, true]);
    assert.deepEqual(['cavv' in outcomes.A, 'eci' in outcomes.A], [false, true]);
    assert.deepEqual(['cavv' in outcomes.U, 'eci' in outcomes.U], [false, false]);
    assert.deepEqual(['cavv' in outcomes.N, 'authcode' in outcomes.N, outcomes.N.errorcode], [false, false, '60022']);
  });

  it('a record gives its part as answered, after settlement, the ACS and a change of its part', () => {
    const rt = createRuntime({ control: true });
    const answered = call(rt, AUTH)[0];
    const ref = String(answered.transactionreference);
    assert.deepEqual(rt.ledger.get(ref)!.part, answered);
    control(rt, 'POST', '/_cardspec/clock', new URLSearchParams(), { advanceDays: 2 });
    const settled = rt.ledger.get(ref)!;
    assert.equal(settled.settlestatus, '100');
    assert.deepEqual(settled.part, answered, 'the part is the answer: settle status 0 as answered');
    assert.equal(recordView(settled).settlestatus, '100', 'the view brings it up to date');
    const q = call(rt, {
      requesttypedescriptions: ['THREEDQUERY'],
      termurl: 'https://m.test/r',
      accept: 'a',
      cachetoken: token(rt, 'authorised'),
      currencyiso3a: 'GBP',
      accounttypedescription: 'ECOM',
      sitereference: SITE,
      baseamount: '1050',
    })[0];
    rt.ledger.change(String(q.transactionreference), (r) => (r.threeds = { ...r.threeds!, pares: 'x', outcome: 'Y', used: false }));
    assert.deepEqual(rt.ledger.get(String(q.transactionreference))!.part, q);
    rt.ledger.change(ref, (r) => (r.part = { ...r.part, note: 'changed' }));
    assert.equal(rt.ledger.get(ref)!.part.note, 'changed');
    rt.ledger.change(ref, (r) => (r.settlestatus = '2'));
    assert.equal(rt.ledger.get(ref)!.part.note, 'changed', 'a part set by a change survives later changes');
  });

  it('records are found by their reference only: the same sequence under another site number or written otherwise is unknown', () => {
    const rt = createRuntime();
    const ref = String(call(rt, AUTH)[0].transactionreference);
    assert.match(ref, /^12-9-\d+$/);
    const seq = ref.split('-')[2];
    assert.equal(rt.ledger.get(ref)?.transactionreference, ref);
    for (const other of [`13-9-${seq}`, `12-9-0${seq}`, `12-8-${seq}`, `12-9-${seq}x`, seq, '', '-', `12-9-${Number(seq) + 1}`]) assert.equal(rt.ledger.get(other), undefined, other);
    const missing = call(rt, { requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: `13-9-${seq}` })[0];
    assert.equal(missing.errorcode, '20004');
  });

  it('with a variant’s own reference form, records are found by that form', () => {
    const mutate: GatewayMutation = { reference: (standard) => `X${standard.split('-').reverse().join('')}` };
    const rt = createRuntime({ mutate });
    const parts = [call(rt, AUTH)[0], call(rt, AUTH)[0]];
    const refs = parts.map((p) => String(p.transactionreference));
    assert.deepEqual(
      refs.map((r) => r.startsWith('X')),
      [true, true],
    );
    assert.deepEqual(
      refs.map((r) => rt.ledger.get(r)?.transactionreference),
      refs,
    );
    assert.deepEqual(
      [...rt.ledger.all()].map((r) => r.transactionreference),
      refs,
    );
    const child = call(rt, { requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: refs[0], securitycode: '123' })[0];
    assert.equal(child.errorcode, '0');
    assert.deepEqual(
      rt.ledger.children(refs[0]).map((r) => r.transactionreference),
      [child.transactionreference],
    );
  });
});
