/**
 * Faulty variants of inheritance ("What the service does", 4; "Rules tied to the operations", 4): what a child
 * request takes from the transaction named in its `parenttransactionreference`, what it may add, and what its
 * answer says about its parent.
 */
import type { OperationHandler, OperationInput, PartOutcome } from '../../gateway';
import type { Variant } from '../types';
import { ERR, faulty, refuse, withPrepared, without } from './helpers';

/** Fields a payment reads that are not billing data: the child keeps these whatever the variant drops. */
const PAYMENT_FIELDS = ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount', 'orderreference', 'credentialsonfile'];

/** The child's fields with only its own billing data (the card still comes from the parent). */
function ownBillingOnly(input: OperationInput): OperationInput {
  const { fields, own } = input.prepared;
  const kept = Object.fromEntries(Object.entries(fields).filter(([k]) => PAYMENT_FIELDS.includes(k) || k in own));
  return withPrepared(input, { fields: kept });
}

/** An AUTH handler that, for a child of `parentType` (any parent when not given), reads only its own billing data. */
function billingNotInherited(parentType?: string): (input: OperationInput, next: OperationHandler) => PartOutcome {
  return (input, next) => {
    const parent = input.prepared.parent;
    return parent && (!parentType || parent.type === parentType) ? next(ownBillingOnly(input)) : next(input);
  };
}

export const INHERITANCE: readonly Variant[] = [
  faulty({
    name: 'billing-not-inherited',
    area: 'inheritance',
    rule: 'INHERIT-CHILD',
    what: "takes the card of a child payment from its parent but not the parent's billing data",
    build: () => ({ mutate: { operations: { AUTH: billingNotInherited() } } }),
  }),
  faulty({
    name: 'accountcheck-fields-not-inherited',
    area: 'inheritance',
    rule: 'AC-INHERITED',
    what: 'does not pass the fields sent in an ACCOUNTCHECK on to its child requests',
    build: () => ({ mutate: { operations: { AUTH: billingNotInherited('ACCOUNTCHECK') } } }),
  }),
  faulty({
    name: 'child-extra-fields-ignored',
    area: 'inheritance',
    rule: 'INHERIT-EXTRA-FIELDS',
    what: "ignores billing fields a child adds that its parent lacked (the parent's data only)",
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const parent = input.prepared.parent;
            if (!parent) return next(input);
            const { fields } = input.prepared;
            const kept = Object.fromEntries(Object.entries(fields).filter(([k]) => PAYMENT_FIELDS.includes(k) || k in parent.fields));
            return next(withPrepared(input, { fields: kept }));
          },
        },
      },
    }),
  }),
  faulty({
    name: 'child-needs-its-own-card',
    area: 'inheritance',
    rule: 'INHERIT-PARENT',
    what: 'refuses a child payment that does not bring its own card (nothing is inherited from the parent)',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const { own, parent, threeds } = input.prepared;
            const ownCard = own.pan !== undefined || own.cachetoken !== undefined;
            return parent && !threeds && !ownCard ? refuse('AUTH', ERR.invalidField, ['pan']) : next(input);
          },
        },
      },
    }),
  }),
  faulty({
    name: 'parent-not-echoed',
    area: 'inheritance',
    rule: 'INHERIT-PARENT-ECHO',
    what: 'leaves parenttransactionreference out of a part based on an earlier request',
    build: () => ({ mutate: { part: (p) => without(p, 'parenttransactionreference') } }),
  }),
  faulty({
    name: 'credentials-on-file-refused',
    area: 'inheritance',
    rule: 'FIELD-CREDENTIALSONFILE',
    what: 'refuses credentialsonfile 1 on a new subscription whose card comes from a stored card',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => (input.prepared.own.credentialsonfile === '1' && input.prepared.parent?.type === 'STORE' ? refuse('AUTH', ERR.invalidField, ['credentialsonfile']) : next(input)),
        },
      },
    }),
  }),
];
