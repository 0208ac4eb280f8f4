/**
 * Faulty variants for the checks added where a stated rule could not fail a target (issue 16): each one a gateway
 * written from the document by someone who broke one plainly stated sentence.
 */
import type { Variant } from '../types';
import { ERR, changeStored, faulty, isObject, isType, refuse, succeeded, without } from './helpers';

/** The billing fields of the dictionary's Billing table, as the ledger stores them. */
const isBilling = (k: string): boolean => k.startsWith('billing');

export const TEETH: readonly Variant[] = [
  faulty({
    name: 'frequency-ignored',
    area: 'states',
    rule: 'SUB-FREQUENCY',
    what: 'schedules a SUBSCRIPTION one unit apart whatever subscriptionfrequency says',
    build: () => ({
      mutate: { operations: { SUBSCRIPTION: (input, next) => changeStored(input, next(input), (r) => (r.subscription = r.subscription && { ...r.subscription, frequency: 1 })) } },
    }),
  }),
  faulty({
    name: 'store-part-without-card-details',
    area: 'types',
    rule: 'STORE-RESPONSE-FIELDS',
    what: 'answers a STORE part without paymenttypedescription, issuer, issuercountryiso2a, merchantname, operatorname and livestatus',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') ? without(p, 'paymenttypedescription', 'issuer', 'issuercountryiso2a', 'merchantname', 'operatorname', 'livestatus') : p) } }),
  }),
  faulty({
    name: 'store-keeps-card-not-billing',
    area: 'types',
    rule: 'STORE-DETAILS',
    what: 'keeps the card of a STORE but not its billing details',
    build: () => ({
      mutate: { operations: { STORE: (input, next) => changeStored(input, next(input), (r) => (r.fields = Object.fromEntries(Object.entries(r.fields).filter(([k]) => !isBilling(k))))) } },
    }),
  }),
  faulty({
    name: 'mcc6012-refused-always',
    area: 'errors',
    rule: 'ERR-60025',
    what: 'answers 60025 to every AUTH on a category 6012 site, even with the mandated fields',
    build: () => ({
      mutate: {
        operations: { AUTH: (input, next) => (input.prepared.site?.config.mcc === '6012' ? refuse('AUTH', ERR.mcc6012) : next(input)) },
      },
    }),
  }),
  faulty({
    name: 'fraudcontrolreference-constant',
    area: 'types',
    rule: 'RISKDEC-REFERENCE-UNIQUE',
    what: 'answers the same fraudcontrolreference for every RISKDEC check',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.fraudcontrolreference !== undefined ? { ...p, fraudcontrolreference: 'FC-0001' } : p) } }),
  }),
  faulty({
    name: 'categoryflag-dropped',
    area: 'types',
    rule: 'RISKDEC-CATEGORYFLAG',
    what: 'answers a RISKDEC of CHALLENGE or DENY without rulecategoryflag',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') ? without(p, 'rulecategoryflag') : p) } }),
  }),
  faulty({
    name: 'status-for-cards-not-enrolled',
    area: 'types',
    rule: '3DS-STATUS',
    what: 'answers status Y in the AUTH of a card not enrolled or of unknown enrolment (after a THREEDQUERY)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && (p.enrolled === 'N' || p.enrolled === 'U') ? { ...p, status: 'Y' } : p) } }),
  }),
  faulty({
    name: 'cavv-eci-when-not-authenticated',
    area: 'types',
    rule: '3DS-CAVV-ECI',
    what: 'answers cavv and eci in every AUTH after a THREEDQUERY, authenticated or not',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.enrolled !== undefined && p.cavv === undefined ? { ...p, cavv: 'AAABBBCCCDDDEEEFFF0123456789=', eci: '05' } : p) } }),
  }),
  faulty({
    name: 'enrolled-auth-amount-not-inherited',
    area: 'inheritance',
    rule: '3DS-AUTH-ENROLLED',
    what: 'answers the AUTH after 3-D Secure (md and pares only) with its own amount, not the one inherited from the THREEDQUERY',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status !== undefined && succeeded(p) ? { ...p, baseamount: '1' } : p) } }),
  }),
  faulty({
    name: 'timestamp-left-out',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: 'leaves transactionstartedtimestamp out of every AUTH part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') ? without(p, 'transactionstartedtimestamp') : p) } }),
  }),
  faulty({
    name: 'settleduedate-left-out',
    area: 'fields',
    rule: 'FIELD-SETTLEDUEDATE',
    what: 'leaves settleduedate out of every part',
    build: () => ({ mutate: { part: (p) => without(p, 'settleduedate') } }),
  }),
  faulty({
    name: 'subscription-alone-taken',
    area: 'types',
    rule: 'SUB-REQUIRES-AUTH',
    what: 'takes a SUBSCRIPTION sent without AUTH (running the AUTH itself)',
    build: () => ({
      mutate: {
        request: (r) =>
          isObject(r) && Array.isArray(r.requesttypedescriptions) && r.requesttypedescriptions.join(',') === 'SUBSCRIPTION' ? { ...r, requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'] } : r,
      },
    }),
  }),
  faulty({
    name: 'subscription-timing-not-echoed',
    area: 'types',
    rule: 'SUB-AUTH-FIRST-PAYMENT',
    what: 'leaves subscriptionunit and subscriptionfrequency, the timing fields, out of the SUBSCRIPTION part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') ? without(p, 'subscriptionunit', 'subscriptionfrequency') : p) } }),
  }),
  faulty({
    name: 'us-state-code-only',
    area: 'fields',
    rule: 'FIELD-US-STATE',
    what: 'refuses an AUTH whose US state is written as the full name rather than a two-character code',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const f = input.prepared.fields;
            return f.billingcountryiso2a === 'US' && f.billingcounty !== undefined && f.billingcounty.length > 2 ? refuse('AUTH', ERR.invalidField, ['billingcounty']) : next(input);
          },
        },
      },
    }),
  }),
];
