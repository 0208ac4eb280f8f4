/**
 * TRANSACTIONUPDATE and TRANSACTIONQUERY, "referred to as follow-up operations". Their shapes are "not shown";
 * the public shape is used (public-facts.md): `filter`, an object of lists of `{"value": ...}`, and for an update
 * `updates`, an object of the fields to change. Updatable here: a subscription's `baseamount` (rule 3),
 * `transactionactive` and `subscriptionfinalnumber` (the subscription state table), a stored card's
 * `transactionactive` (the card store state table), and a payment's `settlestatus` ("It is recommended to suspend
 * the transaction by updating it to settle status `2`").
 */
import { FIELD } from '../../../schemas/fields';
import { checkValue } from '../../../schemas/check';
import { addUnits } from '../../calendar';
import { ERR, type ErrorSpec } from '../errors';
import { errorPart, PartBuilder } from '../parts';
import type { CallEnv, MutableRecord, OperationHandler, PartOutcome, TxRecord } from '../types';
import { recordView } from '../view';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Filter keys by follow-up, and the dictionary field each value is checked against. */
export const FILTER_KEYS = {
  TRANSACTIONUPDATE: ['sitereference', 'transactionreference'],
  TRANSACTIONQUERY: ['sitereference', 'transactionreference', 'parenttransactionreference', 'orderreference', 'requesttypedescription'],
} as const;

/** Most records a query answers (cardspec's choice: "Rate limits... not shown"). */
export const QUERY_LIMIT = 1000;

export type Filter = Map<string, string[]>;

/**
 * Reads `filter`; answers the field(s) at fault when it is not an object of non-empty lists of `{value}`. The contract
 * checks read a client's filter with it too (src/contract/checks.ts `follow-up-shape`): one reading of the public shape.
 */
export function readFilter(raw: unknown, allowed: readonly string[]): Filter | { errordata: string[] } {
  if (!isObject(raw)) return { errordata: ['filter'] };
  const out: Filter = new Map();
  for (const [key, list] of Object.entries(raw)) {
    if (!allowed.includes(key)) return { errordata: [key] };
    if (!Array.isArray(list) || list.length === 0) return { errordata: [key] };
    const values: string[] = [];
    for (const item of list) {
      const v = isObject(item) ? item.value : undefined;
      const def = FIELD[key];
      if (checkValue(def, def.request ? 'request' : 'response', v) !== null || v === '') return { errordata: [key] };
      values.push(v as string);
    }
    out.set(key, values);
  }
  if (out.size === 0) return { errordata: ['filter'] };
  return out;
}

function fail(type: string, spec: ErrorSpec, errordata: string[]): PartOutcome {
  return { part: errorPart(type, spec, errordata) };
}

function canSee(env: CallEnv, rec: TxRecord, filter: Filter): boolean {
  const sites = filter.get('sitereference');
  return env.ctx.user.sites.includes(rec.sitereference) && (!sites || sites.includes(rec.sitereference));
}

/** The fields each kind of transaction lets an update change. */
const UPDATABLE: Readonly<Partial<Record<string, readonly string[]>>> = {
  SUBSCRIPTION: ['baseamount', 'transactionactive', 'subscriptionfinalnumber'],
  STORE: ['transactionactive'],
  AUTH: ['settlestatus'],
  ACCOUNTCHECK: ['settlestatus'],
};

/** Settle statuses a merchant may set, and those it may set them from (public facts: 0, 1, 2, 3; 100 is settled). */
const SETTLE_FROM = ['0', '1', '2'];
const SETTLE_TO = ['0', '1', '2', '3'];

export const transactionupdate: OperationHandler = ({ prepared: p, uow, env }) => {
  const T = 'TRANSACTIONUPDATE';
  const filter = readFilter(p.filter, FILTER_KEYS.TRANSACTIONUPDATE);
  if (!(filter instanceof Map)) return fail(T, ERR.invalidField, filter.errordata);
  for (const s of filter.get('sitereference') ?? []) if (!env.ctx.user.sites.includes(s)) return fail(T, ERR.invalidField, ['sitereference']);
  const refs = filter.get('transactionreference');
  if (!refs || refs.length !== 1) return fail(T, ERR.invalidField, ['transactionreference']);
  const rec = uow.get(refs[0]);
  if (!rec || !canSee(env, rec, filter)) return fail(T, ERR.invalidField, ['transactionreference']);

  const updates = p.updates;
  if (!isObject(updates) || Object.keys(updates).length === 0) return fail(T, ERR.invalidField, ['updates']);
  const allowed = UPDATABLE[rec.type] ?? [];
  const changes: [string, string][] = [];
  for (const [key, value] of Object.entries(updates)) {
    const def = FIELD[key];
    if (!def?.request || def.structure || checkValue(def, 'request', value) !== null || value === '') return fail(T, ERR.invalidField, [key]);
    if (!allowed.includes(key) || rec.errorcode !== '0') return fail(T, ERR.notUpdatable, [key]);
    changes.push([key, value as string]);
  }
  for (const [key, value] of changes) {
    if (key === 'baseamount' && /^0+$/.test(value)) return fail(T, ERR.invalidField, [key]);
    if (key === 'transactionactive' && value !== '0' && value !== '1') return fail(T, ERR.invalidField, [key]);
    if (key === 'settlestatus') {
      if (!SETTLE_TO.includes(value)) return fail(T, ERR.invalidField, [key]);
      if (!SETTLE_FROM.includes(rec.settlestatus ?? '')) return fail(T, ERR.notUpdatable, [key]);
    }
  }

  uow.update(rec.transactionreference, (r) => {
    for (const [key, value] of changes) apply(r, key, value, env.date);
  });
  return { part: new PartBuilder().set('requesttypedescription', T).result(ERR.ok).done() };
};

function apply(r: MutableRecord, key: string, value: string, today: string): void {
  const sub = r.subscription;
  if (key === 'settlestatus') r.settlestatus = value;
  else if (key === 'transactionactive' && sub) {
    let periodIndex = sub.periodIndex;
    if (r.transactionactive === '0' && value === '1') {
      // "Inactive: Future payments are suspended until overridden": payments due while inactive are not taken
      // afterwards; the schedule resumes with the next date after today, numbers continuing without a gap.
      while (addUnits(sub.begindate, periodIndex * sub.frequency, sub.unit) <= today) periodIndex++;
    }
    r.transactionactive = value;
    r.subscription = { ...sub, periodIndex };
  } else if (key === 'transactionactive') r.transactionactive = value;
  else if (key === 'baseamount' && sub) r.subscription = { ...sub, baseamount: value };
  // "update of `subscriptionfinalnumber` to a greater value: payments resume at the original intervals; missed
  // payments are caught up within 24 hours": the schedule keeps its place, so the engine's next run catches up.
  else if (key === 'subscriptionfinalnumber' && sub) r.subscription = { ...sub, finalNumber: Number(value) };
}

export const transactionquery: OperationHandler = ({ prepared: p, uow, env }) => {
  const T = 'TRANSACTIONQUERY';
  const filter = readFilter(p.filter, FILTER_KEYS.TRANSACTIONQUERY);
  if (!(filter instanceof Map)) return fail(T, ERR.invalidField, filter.errordata);
  for (const s of filter.get('sitereference') ?? []) if (!env.ctx.user.sites.includes(s)) return fail(T, ERR.invalidField, ['sitereference']);
  const ledger = env.runtime.ledger;

  let candidates: Iterable<TxRecord>;
  const refs = filter.get('transactionreference');
  const parents = filter.get('parenttransactionreference');
  if (refs) candidates = refs.map((r) => uow.get(r)).filter((r): r is TxRecord => r !== undefined);
  else if (parents) candidates = parents.flatMap((r) => ledger.children(r));
  else candidates = ledger.all();

  const orders = filter.get('orderreference');
  const types = filter.get('requesttypedescription');
  const records: unknown[] = [];
  for (const rec of candidates) {
    if (!canSee(env, rec, filter)) continue;
    if (orders && !orders.includes(rec.fields.orderreference ?? '')) continue;
    if (types && !types.includes(rec.type)) continue;
    // "the card number is masked in the response"
    records.push(recordView(rec));
    if (records.length >= QUERY_LIMIT) break;
  }
  const part = new PartBuilder().set('requesttypedescription', T).set('found', String(records.length)).result(ERR.ok).done();
  part.records = records;
  return { part };
};
