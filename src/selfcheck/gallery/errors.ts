/**
 * Faulty variants of the Errors table: every code it lists (0, 30000, 60031, 60022, 70000, 60025, 60107, 99999)
 * answered wrongly once, and the two rules every part obeys (errorcode and errormessage; non-zero means failed).
 */
import type { Variant } from '../types';
import { ERR, faulty, isType, succeeded, threedqueryPassesShield, without } from './helpers';

/** Changes the errorcode of the parts that carry `from` (and, when given, their message). */
const recode = (from: string, to: string, message?: string) => ({
  mutate: { part: (p: Record<string, unknown>) => (p.errorcode === from ? { ...p, errorcode: to, ...(message ? { errormessage: message } : {}) } : p) },
});

export const ERRORS: readonly Variant[] = [
  faulty({
    name: 'ok-spelled-success',
    area: 'errors',
    rule: 'ERR-0',
    what: 'answers errormessage "Success" with errorcode 0 instead of "Ok"',
    build: () => ({ mutate: { part: (p) => (succeeded(p) ? { ...p, errormessage: 'Success' } : p) } }),
  }),
  faulty({
    name: 'failure-without-message',
    area: 'errors',
    rule: 'ERR-PART-FIELDS',
    what: 'leaves errormessage out of a failed part',
    build: () => ({ mutate: { part: (p) => (typeof p.errorcode === 'string' && !succeeded(p) ? without(p, 'errormessage') : p) } }),
  }),
  faulty({
    name: 'decline-coded-zero',
    area: 'errors',
    rule: 'ERR-NONZERO-FAILED',
    what: 'reports a payment the bank declined with errorcode 0 and the message "Decline"',
    build: () => recode(ERR.decline.code, ERR.ok.code),
  }),
  faulty({
    name: 'invalid-field-60018',
    area: 'errors',
    rule: 'ERR-30000',
    what: 'answers 60018 where a THREEDQUERY has an invalid field (30000)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.errorcode === ERR.invalidField.code ? { ...p, errorcode: ERR.invalidRequesttype.code } : p) } }),
  }),
  faulty({
    name: 'no-3ds-coded-30000',
    area: 'errors',
    rule: 'ERR-60031',
    what: 'answers 30000 where the payment type is not supported for 3-D Secure (60031)',
    build: () => recode(ERR.no3ds.code, ERR.invalidField.code),
  }),
  faulty({
    name: 'unauthenticated-worded-otherwise',
    area: 'errors',
    rule: 'ERR-60022',
    what: 'answers 60022 with errormessage "Not authenticated" instead of "Unauthenticated"',
    build: () => recode(ERR.unauthenticated.code, ERR.unauthenticated.code, 'Not authenticated'),
  }),
  faulty({
    name: 'unauthenticated-contacts-acquirer',
    area: 'errors',
    rule: 'ERR-60022',
    what: 'contacts the acquirer for an AUTH whose customer did not authenticate (authcode in the 60022 part)',
    build: () => ({ mutate: { part: (p) => (p.errorcode === ERR.unauthenticated.code && isType(p, 'AUTH') ? { ...p, authcode: 'TEST01', acquirerresponsecode: '05' } : p) } }),
  }),
  faulty({
    name: 'decline-coded-70001',
    area: 'errors',
    rule: 'ERR-70000',
    what: 'answers 70001 where the customer authenticated and the bank declined (70000)',
    build: () => recode(ERR.decline.code, '70001'),
  }),
  faulty({
    name: 'mcc6012-coded-30000',
    area: 'errors',
    rule: 'ERR-60025',
    what: 'answers 30000 where the fields mandated for category 6012 were not sent (60025)',
    build: () => recode(ERR.mcc6012.code, ERR.invalidField.code),
  }),
  faulty({
    name: 'challenge-passes-3ds',
    area: 'errors',
    rule: 'ERR-60107',
    what: 'lets a THREEDQUERY through after a RISKDEC of CHALLENGE (it stops only DENY)',
    build: () => ({ mutate: threedqueryPassesShield('CHALLENGE') }),
  }),
  faulty({
    name: 'unknown-error-coded-50000',
    area: 'errors',
    rule: 'ERR-99999',
    what: 'answers 50000 where an unknown error needs manual inspection (99999)',
    build: () => recode(ERR.unknown.code, '50000'),
  }),
];
