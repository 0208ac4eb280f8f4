/**
 * Faults that hide in one situation of a rule's scope: a code of the Errors table answered otherwise in one part
 * type or in combined requests only, a mask wrong for long card numbers only, a stored card's enrolment read
 * otherwise than a token's. Each passed a suite that checked its rule in one situation; the scenarios generated
 * from the tables (src/suite/generated) reach the others.
 */
import type { Variant } from '../types';
import { ERR, faulty, isType, withPart } from './helpers';

/** `4111 11## #### ###1 111` style masks kept to 16 characters: a long card number loses digits of its mask. */
const cutMask = (masked: string): string => `${masked.slice(0, 6)}${'#'.repeat(6)}${masked.slice(-4)}`;

export const ONE_CONTEXT: readonly Variant[] = [
  faulty({
    name: 'unknown-error-in-threedquery-coded-50000',
    area: 'errors',
    rule: 'ERR-99999',
    what: 'answers 50000 where an unknown error needs manual inspection (99999), in THREEDQUERY parts only',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.errorcode === ERR.unknown.code ? { ...p, errorcode: '50000' } : p) } }),
  }),
  faulty({
    name: 'unknown-error-in-riskdec-coded-50000',
    area: 'errors',
    rule: 'ERR-99999',
    what: 'answers 50000 where an unknown error needs manual inspection (99999), in RISKDEC parts only',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.errorcode === ERR.unknown.code ? { ...p, errorcode: '50000' } : p) } }),
  }),
  faulty({
    name: 'mcc6012-in-combined-coded-30000',
    area: 'errors',
    rule: 'ERR-60025',
    what: 'answers 30000 where the fields mandated for category 6012 were not sent (60025), in the AUTH part of a combined request only',
    build: () => ({ mutate: { part: (p, ctx) => (ctx.requesttypes.length > 1 && isType(p, 'AUTH') && p.errorcode === ERR.mcc6012.code ? { ...p, errorcode: ERR.invalidField.code } : p) } }),
  }),
  faulty({
    name: 'maskedpan-cut-for-long-cards',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks a card number of more than 16 digits as 16 characters (first 6, six #, last 4)',
    build: () => ({ mutate: { part: (p) => (typeof p.maskedpan === 'string' && p.maskedpan.length > 16 ? { ...p, maskedpan: cutMask(p.maskedpan) } : p) } }),
  }),
  faulty({
    name: 'stored-card-not-enrolled-read-as-unknown',
    area: 'states',
    rule: '3DS-STORED-CARD',
    what: 'answers enrolled U to a THREEDQUERY on a stored card (a STORE as parent) that is not enrolled',
    build: () => ({
      mutate: {
        operations: {
          THREEDQUERY: (input, next) => {
            const out = next(input);
            return input.prepared.parent?.type === 'STORE' && out.part.enrolled === 'N' ? withPart(out, (p) => ({ ...p, enrolled: 'U' })) : out;
          },
        },
      },
    }),
  }),
];
