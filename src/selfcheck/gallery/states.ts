/**
 * Faulty variants of the state machines ("States and transitions"): the subscription (`transactionactive`, the
 * engine's schedule and numbering, the follow-up updates), the card store, and settlement with its fraud-control
 * effects. Most store a wrong state while answering as the reference does, so that only the state's later effect
 * (payments the engine takes, a request that inherits) shows the fault.
 */
import type { OperationHandler, OperationInput, PartOutcome } from '../../gateway';
import { addUnits } from '../../calendar';
import type { Variant } from '../types';
import { answers, changeStored, faulty, isObject, isType, withPrepared } from './helpers';

/** The `updates` of a TRANSACTIONUPDATE, as sent. */
const updatesOf = (input: OperationInput): Record<string, unknown> => (isObject(input.prepared.updates) ? input.prepared.updates : {});

/** The record a TRANSACTIONUPDATE names in its filter (`transactionreference: [{value}]`). */
function updatedRecord(input: OperationInput): ReturnType<OperationInput['uow']['get']> {
  const filter = input.prepared.filter;
  const list = isObject(filter) ? filter.transactionreference : undefined;
  const first = Array.isArray(list) && isObject(list[0]) ? list[0].value : undefined;
  return typeof first === 'string' ? input.uow.get(first) : undefined;
}

/** A TRANSACTIONUPDATE that answers Ok to an update of `field` on a `type`, and changes nothing. */
export function ignoreUpdate(type: string, field: string, value?: string): (input: OperationInput, next: OperationHandler) => PartOutcome {
  return (input, next) => {
    const updates = updatesOf(input);
    const hit = field in updates && (value === undefined || updates[field] === value) && updatedRecord(input)?.type === type;
    if (!hit) return next(input);
    const rest = Object.fromEntries(Object.entries(updates).filter(([k]) => k !== field));
    if (Object.keys(rest).length > 0) return next(withPrepared(input, { updates: rest }));
    return { part: { requesttypedescription: 'TRANSACTIONUPDATE', errorcode: '0', errormessage: 'Ok' } };
  };
}

/** A SUBSCRIPTION handler that stores the subscription changed (the answer stays the reference's). */
function storedSubscription(edit: Parameters<typeof changeStored>[2]): { SUBSCRIPTION: (input: OperationInput, next: OperationHandler) => PartOutcome } {
  return { SUBSCRIPTION: (input, next) => changeStored(input, next(input), edit) };
}

export const STATES: readonly Variant[] = [
  // ---- subscription: transactionactive ----------------------------------------------------------------------------
  faulty({
    name: 'pending-stored-as-active',
    area: 'states',
    rule: 'SUB-STATE-PENDING',
    what: 'answers a new subscription without transactionactive as pending (2) but schedules it at once, as active',
    build: () => ({
      mutate: {
        operations: {
          SUBSCRIPTION: (input, next) => {
            const out = next(input);
            return input.prepared.own.transactionactive === undefined ? changeStored(input, out, (r) => (r.transactionactive = '1')) : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'active-stored-as-pending',
    area: 'states',
    rule: 'SUB-STATE-ACTIVE',
    what: 'keeps a subscription sent with transactionactive 1 pending until its AUTH settles',
    build: () => ({
      mutate: {
        operations: {
          SUBSCRIPTION: (input, next) => {
            const out = next(input);
            return input.prepared.own.transactionactive === '1' ? changeStored(input, out, (r) => (r.transactionactive = '2')) : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'inactive-stored-as-active',
    area: 'states',
    rule: 'SUB-STATE-INACTIVE',
    what: 'takes payments for a subscription sent with transactionactive 0',
    build: () => ({
      mutate: {
        operations: {
          SUBSCRIPTION: (input, next) => {
            const out = next(input);
            return input.prepared.own.transactionactive === '0' ? changeStored(input, out, (r) => (r.transactionactive = '1')) : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'pending-never-activates',
    area: 'states',
    rule: 'SUB-STATE-PENDING-TO-ACTIVE',
    what: 'never moves a pending subscription to active when its AUTH settles (it watches the wrong transaction)',
    build: () => ({
      mutate: { operations: storedSubscription((r) => (r.subscription = r.subscription && { ...r.subscription, authRef: `${r.subscription.authRef}-none` })) },
    }),
  }),
  faulty({
    name: 'pending-answered-active',
    area: 'states',
    rule: 'SUB-TRANSACTIONACTIVE-VALUES',
    what: 'answers transactionactive 1 for a new subscription that is pending (2)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') && p.transactionactive === '2' ? { ...p, transactionactive: '1' } : p) } }),
  }),
  faulty({
    name: 'deactivation-ignored',
    area: 'states',
    rule: 'SUB-STATE-DEACTIVATE',
    what: 'answers Ok to a TRANSACTIONUPDATE of transactionactive 0 on a subscription and keeps it active',
    build: () => ({ mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate('SUBSCRIPTION', 'transactionactive', '0') } } }),
  }),

  // ---- subscription: the engine's schedule and numbering ------------------------------------------------------------
  faulty({
    name: 'final-number-ignored',
    area: 'states',
    rule: 'SUB-STATE-FINAL',
    what: 'keeps taking payments after subscriptionfinalnumber',
    build: () => ({ mutate: { operations: storedSubscription((r) => (r.subscription = r.subscription && { ...r.subscription, finalNumber: 0 })) } }),
  }),
  faulty({
    name: 'final-number-update-ignored',
    area: 'states',
    rule: 'SUB-STATE-RESUME',
    what: 'answers Ok to a greater subscriptionfinalnumber and does not resume the payments',
    build: () => ({ mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate('SUBSCRIPTION', 'subscriptionfinalnumber') } } }),
  }),
  faulty({
    name: 'missed-payments-dropped',
    area: 'states',
    rule: 'LIMIT-CATCH-UP',
    what: 'resumes a subscription stopped by its count at the next date, dropping the payments missed meanwhile',
    build: () => ({
      mutate: {
        operations: {
          TRANSACTIONUPDATE: (input, next) => {
            const rec = updatedRecord(input);
            const out = next(input);
            const sub = rec?.subscription;
            if (!sub || !('subscriptionfinalnumber' in updatesOf(input)) || out.part.errorcode !== '0') return out;
            // Skip every payment due before today: the schedule moves on as if they had been taken.
            const today = input.env.date;
            input.uow.update(rec.transactionreference, (r) => {
              const s = r.subscription!;
              let { periodIndex, lastNumber } = s;
              const due = (i: number): string => addUnits(s.begindate, i * s.frequency, s.unit);
              while (due(periodIndex) < today) {
                periodIndex++;
                lastNumber++;
              }
              r.subscription = { ...s, periodIndex, lastNumber };
            });
            return out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'amount-update-ignored',
    area: 'states',
    rule: 'SUB-AMOUNT-UPDATE',
    what: "answers Ok to a new baseamount for a subscription and keeps taking the first payment's amount",
    build: () => ({ mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate('SUBSCRIPTION', 'baseamount') } } }),
  }),
  faulty({
    name: 'resume-numbering-restarts',
    area: 'states',
    rule: 'SUB-NUMBER-RESUME',
    what: 'numbers the payments of a resumed subscription from 2, ignoring the subscriptionnumber sent',
    build: () => ({
      mutate: { operations: storedSubscription((r) => (r.subscription = r.subscription && { ...r.subscription, startNumber: 1, lastNumber: 1 })) },
    }),
  }),
  faulty({
    name: 'numbering-starts-at-2',
    area: 'states',
    rule: 'SUB-NUMBER-START',
    what: 'counts a new subscription from 2, so its first automatic payment is numbered 3',
    build: () => ({
      mutate: {
        operations: storedSubscription((r) => (r.subscription = r.subscription && { ...r.subscription, startNumber: r.subscription.startNumber + 1, lastNumber: r.subscription.lastNumber + 1 })),
      },
    }),
  }),
  faulty({
    name: 'first-payment-a-period-late',
    area: 'states',
    rule: 'SUB-BEGINDATE',
    what: 'takes the first automatic payment one period after subscriptionbegindate',
    build: () => ({ mutate: { operations: storedSubscription((r) => (r.subscription = r.subscription && { ...r.subscription, periodIndex: 1 })) } }),
  }),

  // ---- card store ------------------------------------------------------------------------------------------------------
  faulty({
    name: 'stored-card-created-disabled',
    area: 'states',
    rule: 'STORE-STATE-ENABLED',
    what: 'answers a STORE as enabled (1) but stores the card disabled',
    build: () => ({ mutate: { operations: { STORE: (input, next) => changeStored(input, next(input), (r) => (r.transactionactive = '0')) } } }),
  }),
  faulty({
    name: 'disable-ignored',
    area: 'states',
    rule: 'STORE-STATE-DISABLE',
    what: 'answers Ok to disabling a stored card (transactionactive 0) and keeps it usable',
    build: () => ({ mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate('STORE', 'transactionactive', '0') } } }),
  }),
  faulty({
    name: 'reenable-ignored',
    area: 'states',
    rule: 'STORE-STATE-REENABLE',
    what: 'answers Ok to enabling a disabled stored card again (transactionactive 1) and keeps it disabled',
    build: () => ({ mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate('STORE', 'transactionactive', '1') } } }),
  }),
  faulty({
    name: 'stored-card-keeps-code',
    area: 'states',
    rule: 'STORE-KEEPS-CARD',
    what: 'keeps the result of the security code check with a stored card, so a later payment reports it matched',
    build: () => ({
      mutate: {
        operations: { AUTH: (input, next) => (input.prepared.parent?.type === 'STORE' && !input.prepared.own.securitycode ? next(withPrepared(input, { securitycodeResult: '2' })) : next(input)) },
      },
    }),
  }),

  // ---- settlement and fraud-control effects --------------------------------------------------------------------------
  faulty({
    name: 'unauthenticated-settles',
    area: 'states',
    rule: '3DS-60022-SETTLE',
    what: 'gives an unauthenticated AUTH (60022) settlestatus 0 instead of 3',
    build: () => ({ mutate: { part: (p) => (p.errorcode === '60022' ? { ...p, settlestatus: '0' } : p) } }),
  }),
  faulty({
    name: 'challenge-not-suspended',
    area: 'states',
    rule: 'RISKDEC-SUSPEND-BEFORE-AUTH',
    what: 'does not suspend an AUTH after a RISKDEC of CHALLENGE or DENY in the same request',
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'RISKDEC', 'AUTH') && isType(p, 'AUTH') && p.settlestatus === '2' ? { ...p, settlestatus: '0' } : p) } }),
  }),
  faulty({
    name: 'suspension-ignored',
    area: 'states',
    rule: 'RISKDEC-SUSPEND-AFTER-AUTH',
    what: 'answers Ok to a TRANSACTIONUPDATE of settlestatus 2 on a payment and leaves it to settle',
    build: () => ({ mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate('AUTH', 'settlestatus', '2') } } }),
  }),
];
