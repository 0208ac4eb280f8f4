/**
 * The transition operators: one row of the document's state tables each ("States and transitions": Subscription,
 * Card store, 3-D Secure enrolment, Settlement and fraud-control effects), skipped or landing in another state.
 * The rows are the catalogue's rules; the operators are the few ways a handler can miss a transition.
 */
import type { OperationHandler, OperationInput, PartOutcome } from '../../gateway';
import { changeStored, isType, refuse, ERR } from '../gallery/helpers';
import { ignoreUpdate } from '../gallery/states';
import type { GeneratedVariant } from './variant';

const variant = (name: string, rule: string, what: string, build: GeneratedVariant['build']): GeneratedVariant => ({
  kind: 'faulty',
  operator: 'transition',
  area: 'states',
  name: `gen-transition-${name}`,
  rule,
  what,
  build,
});

/** "none -> AUTH+SUBSCRIPTION -> `transactionactive` x": the state the SUBSCRIPTION is stored in, for what was sent. */
const SUBSCRIPTION_STARTS: readonly { readonly sent: string | undefined; readonly state: string; readonly rule: string }[] = [
  { sent: undefined, state: '2', rule: 'SUB-STATE-PENDING' },
  { sent: '1', state: '1', rule: 'SUB-STATE-ACTIVE' },
  { sent: '0', state: '0', rule: 'SUB-STATE-INACTIVE' },
];

function subscriptionStarts(): GeneratedVariant[] {
  const out: GeneratedVariant[] = [];
  for (const row of SUBSCRIPTION_STARTS) {
    for (const wrong of ['0', '1', '2'].filter((s) => s !== row.state)) {
      out.push(
        variant(
          `subscription-sent-${row.sent ?? 'omitted'}-stored-${wrong}`,
          row.rule,
          `stores a SUBSCRIPTION sent with transactionactive ${row.sent ?? 'omitted'} as ${wrong} instead of ${row.state} (answering as the reference)`,
          () => ({
            mutate: {
              operations: {
                SUBSCRIPTION: (input: OperationInput, next: OperationHandler): PartOutcome => {
                  const out = next(input);
                  return input.prepared.own.transactionactive === row.sent ? changeStored(input, out, (r) => (r.transactionactive = wrong)) : out;
                },
              },
            },
          }),
        ),
      );
    }
  }
  return out;
}

/** A follow-up's transition that the gateway answers Ok to and does not make. */
const UPDATES: readonly { readonly type: string; readonly field: string; readonly value?: string; readonly rule: string }[] = [
  { type: 'SUBSCRIPTION', field: 'transactionactive', value: '0', rule: 'SUB-STATE-DEACTIVATE' },
  { type: 'SUBSCRIPTION', field: 'subscriptionfinalnumber', rule: 'SUB-STATE-RESUME' },
  { type: 'SUBSCRIPTION', field: 'baseamount', rule: 'SUB-AMOUNT-UPDATE' },
  { type: 'STORE', field: 'transactionactive', value: '0', rule: 'STORE-STATE-DISABLE' },
  { type: 'STORE', field: 'transactionactive', value: '1', rule: 'STORE-STATE-REENABLE' },
  { type: 'AUTH', field: 'settlestatus', value: '2', rule: 'RISKDEC-SUSPEND-AFTER-AUTH' },
];

/** "3-D Secure enrolment": the next step after each value of `enrolled`, refused. */
const NEXT_STEPS: readonly { readonly enrolled: string; readonly rule: string }[] = [
  { enrolled: 'Y', rule: '3DS-NEXT-Y' },
  { enrolled: 'N', rule: '3DS-NEXT-N' },
  { enrolled: 'U', rule: '3DS-NEXT-U' },
];

export const TRANSITIONS: readonly GeneratedVariant[] = [
  ...subscriptionStarts(),
  variant('pending-never-activated', 'SUB-STATE-PENDING-TO-ACTIVE', 'never moves a pending SUBSCRIPTION to active when its AUTH settles', () => ({
    mutate: { operations: { SUBSCRIPTION: (input, next) => changeStored(input, next(input), (r) => (r.subscription = r.subscription && { ...r.subscription, authRef: 'none' })) } },
  })),
  variant('final-number-ignored', 'SUB-STATE-FINAL', 'keeps taking payments after subscriptionfinalnumber (stores it as 0)', () => ({
    mutate: { operations: { SUBSCRIPTION: (input, next) => changeStored(input, next(input), (r) => (r.subscription = r.subscription && { ...r.subscription, finalNumber: 0 })) } },
  })),
  variant('store-stored-disabled', 'STORE-STATE-ENABLED', 'stores a successful STORE disabled (0) while answering 1', () => ({
    mutate: { operations: { STORE: (input, next) => changeStored(input, next(input), (r) => (r.transactionactive = '0')) } },
  })),
  ...UPDATES.map((u) =>
    variant(
      `update-${u.type.toLowerCase()}-${u.field}${u.value !== undefined ? `-${u.value}` : ''}-skipped`,
      u.rule,
      `answers Ok to a TRANSACTIONUPDATE of ${u.field}${u.value !== undefined ? ` ${u.value}` : ''} on a ${u.type} and does not make it`,
      () => ({
        mutate: { operations: { TRANSACTIONUPDATE: ignoreUpdate(u.type, u.field, u.value) } },
      }),
    ),
  ),
  ...NEXT_STEPS.map((n) =>
    variant(`after-enrolled-${n.enrolled.toLowerCase()}-auth-refused`, n.rule, `refuses the AUTH that follows a THREEDQUERY of enrolled ${n.enrolled}`, () => ({
      mutate: {
        operations: {
          AUTH: (input, next) =>
            input.prepared.parent?.type === 'THREEDQUERY' && input.prepared.parent.threeds?.enrolled === n.enrolled ? refuse('AUTH', ERR.invalidField, ['parenttransactionreference']) : next(input),
        },
      },
    })),
  ),
  variant('60022-not-cancelled', '3DS-60022-SETTLE', 'gives an unauthenticated AUTH (60022) settlestatus 0 instead of 3', () => ({
    mutate: { part: (p) => (p.errorcode === '60022' ? { ...p, settlestatus: '0' } : p) },
  })),
  variant('riskdec-first-not-suspended', 'RISKDEC-SUSPEND-BEFORE-AUTH', 'does not suspend an AUTH after a RISKDEC of CHALLENGE or DENY (settlestatus 0, not 2)', () => ({
    mutate: { part: (p) => (isType(p, 'AUTH') && p.settlestatus === '2' ? { ...p, settlestatus: '0' } : p) },
  })),
];
