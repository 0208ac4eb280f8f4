/**
 * Faults that hide in one situation of a rule's scope: a code of the Errors table answered otherwise in one part
 * type or in combined requests only, a mask wrong for long card numbers only, a stored card's enrolment read
 * otherwise than a token's; and values the document names exactly (md and pares "in full and unmodified", the
 * credentials) taken when trimmed or in another letter case. Each passed a suite that checked its rule in one
 * situation; the scenarios generated from the tables (src/suite/generated) and the changed-value outlines reach
 * the others.
 */
import { basicAuth } from '../../client/http';
import { DEFAULT_CONFIG } from '../../testdata';
import type { FrontRequest, Variant } from '../types';
import { ERR, faulty, isObject, isType, queryRecords, withPart, withPrepared } from './helpers';

const isEnvelope = (req: FrontRequest): boolean => /^\/(json|xml)\/?(\?|$)/.test(req.path);

/** A front that rewrites the basic-authentication credentials of envelope calls before the gateway reads them. */
function credentialsRewritten(rewrite: (user: string, password: string) => { user: string; password: string }) {
  return {
    front: {
      request: (req: FrontRequest): FrontRequest => {
        const header = req.headers.authorization;
        if (!isEnvelope(req) || typeof header !== 'string' || !/^Basic /i.test(header)) return req;
        const text = Buffer.from(header.slice(6), 'base64').toString('utf8');
        const colon = text.indexOf(':');
        if (colon < 0) return req;
        const { user, password } = rewrite(text.slice(0, colon), text.slice(colon + 1));
        return { ...req, headers: { ...req.headers, authorization: basicAuth(user, password) } };
      },
    },
  };
}

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
  faulty({
    name: 'md-pares-trimmed',
    area: 'acs',
    rule: '3DS-MD-PARES-UNMODIFIED',
    what: 'trims surrounding spaces from md and pares before matching them, so a changed value authenticates',
    build: () => ({
      mutate: { request: (r) => (isObject(r) ? { ...r, ...(typeof r.md === 'string' ? { md: r.md.trim() } : {}), ...(typeof r.pares === 'string' ? { pares: r.pares.trim() } : {}) } : r) },
    }),
  }),
  faulty({
    name: 'md-read-in-any-case',
    area: 'acs',
    rule: '3DS-MD-PARES-UNMODIFIED',
    what: 'matches the md it is sent to the one it issued whatever its letter case',
    build: () => {
      const issued = new Map<string, string>();
      return {
        mutate: {
          part: (p) => {
            if (isType(p, 'THREEDQUERY') && typeof p.md === 'string') issued.set(p.md.toLowerCase(), p.md);
            return p;
          },
          request: (r) => (isObject(r) && typeof r.md === 'string' && issued.has(r.md.toLowerCase()) ? { ...r, md: issued.get(r.md.toLowerCase()) } : r),
        },
      };
    },
  }),
  faulty({
    name: 'credentials-trimmed',
    area: 'transport',
    rule: 'SEC-BASIC-AUTH',
    what: 'trims surrounding spaces from the basic-authentication user name and password',
    build: () => credentialsRewritten((user, password) => ({ user: user.trim(), password: password.trim() })),
  }),
  faulty({
    name: 'user-name-any-case',
    area: 'transport',
    rule: 'SEC-BASIC-AUTH',
    what: "takes the account's user name in any letter case",
    build: () => {
      const names = DEFAULT_CONFIG.users.map((u) => u.username);
      return credentialsRewritten((user, password) => ({ user: names.find((n) => n.toLowerCase() === user.toLowerCase()) ?? user, password }));
    },
  }),
  faulty({
    name: 'password-any-case',
    area: 'transport',
    rule: 'SEC-BASIC-AUTH',
    what: "takes the account's password in any letter case",
    build: () => {
      const users = DEFAULT_CONFIG.users;
      return credentialsRewritten((user, password) => ({ user, password: users.find((u) => u.username === user && u.password.toLowerCase() === password.toLowerCase())?.password ?? password }));
    },
  }),
  faulty({
    name: 'account-type-case-folded',
    area: 'fields',
    rule: 'FIELD-ACCOUNTTYPE-PAYMENTS',
    what: 'takes accounttypedescription trimmed and in capitals (" ecom" as ECOM), where the document names ECOM and MOTO exactly',
    build: () => ({
      mutate: { request: (r) => (isObject(r) && typeof r.accounttypedescription === 'string' ? { ...r, accounttypedescription: r.accounttypedescription.trim().toUpperCase() } : r) },
    }),
  }),
  faulty({
    name: 'parent-billing-over-child',
    area: 'inheritance',
    rule: 'INHERIT-CHILD',
    what: "lets a payment's parent's billing details override the child's own",
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const parent = input.prepared.parent;
            if (!parent) return next(input);
            const billing = Object.fromEntries(Object.entries(parent.fields).filter(([k]) => k.startsWith('billing')));
            return next(withPrepared(input, { fields: { ...input.prepared.fields, ...billing } }));
          },
        },
      },
    }),
  }),
  faulty({
    name: 'customer-fields-not-inherited',
    area: 'inheritance',
    rule: 'INHERIT-CHILD',
    what: "does not let a payment inherit its parent's customer fields (a category 6012 site then refuses it with 60025)",
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const { own, fields, parent } = input.prepared;
            if (!parent) return next(input);
            return next(withPrepared(input, { fields: Object.fromEntries(Object.entries(fields).filter(([k]) => !k.startsWith('customer') || own[k] !== undefined)) }));
          },
        },
      },
    }),
  }),
  faulty({
    name: 'child-card-ignored',
    area: 'inheritance',
    rule: 'INHERIT-CHILD',
    what: "pays with the parent's card when the child sends a card of its own",
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const parent = input.prepared.parent;
            return parent?.card && input.prepared.own.pan !== undefined ? next(withPrepared(input, { card: parent.card })) : next(input);
          },
        },
      },
    }),
  }),
  faulty({
    name: 'query-masks-with-stars-but-store',
    area: 'types',
    rule: 'FIELD-MASKEDPAN',
    what: "masks the card number of a TRANSACTIONQUERY's records with * instead of #, except in a STORE's record",
    build: () => ({
      mutate: queryRecords((r) => (typeof r.maskedpan === 'string' && r.requesttypedescription !== 'STORE' ? { ...r, maskedpan: r.maskedpan.replace(/#/g, '*') } : r)),
    }),
  }),
];
