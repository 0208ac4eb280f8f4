/**
 * Faulty variants of each request type ("What the service does", "Endpoints > Request types", "Rules tied to the
 * operations"): AUTH, THREEDQUERY and the AUTH after it, ACCOUNTCHECK, STORE and TRANSACTIONQUERY, RISKDEC in each
 * of its combinations, and the combined AUTH+SUBSCRIPTION.
 */
import { cardFor, DEFAULT_CONFIG, type GatewayConfig } from '../../testdata';
import type { Variant } from '../types';
import { answers, ERR, faulty, isType, partsOf, queryRecords, refuse, succeeded, withPart, without } from './helpers';

export const REQUEST_TYPE_VARIANTS: readonly Variant[] = [
  // ---- AUTH --------------------------------------------------------------------------------------------------
  faulty({
    name: 'authorisation-read-as-decline',
    area: 'types',
    rule: 'AUTH-AUTHORISE',
    what: 'answers an ordinary AUTH the bank authorised as declined (70000)',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const out = next(input);
            const ordinary = !input.prepared.threeds && input.prepared.parent?.type !== 'THREEDQUERY';
            return ordinary && out.part.errorcode === ERR.ok.code ? withPart(out, (p) => ({ ...without(p, 'authcode'), errorcode: ERR.decline.code, errormessage: ERR.decline.message })) : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'auth-without-authcode',
    area: 'types',
    rule: 'AUTH-BANK-CONTACTED',
    what: 'leaves authcode out of an AUTH the bank authorised',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && succeeded(p) ? without(p, 'authcode') : p) } }),
  }),

  // ---- THREEDQUERY and the AUTH after it ------------------------------------------------------------------------
  faulty({
    name: 'enrolled-read-as-unknown',
    area: 'types',
    rule: '3DS-ENROLMENT-CHECK',
    what: 'answers enrolled U (unable to determine) for a card that is enrolled',
    build: () => ({
      mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'Y' ? { ...without(p, 'acsurl', 'md', 'pareq'), enrolled: 'U' } : p) },
    }),
  }),
  faulty({
    name: 'threedquery-without-xid',
    area: 'types',
    rule: '3DS-QUERY-RESPONSE',
    what: 'leaves xid out of the THREEDQUERY part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') ? without(p, 'xid') : p) } }),
  }),
  faulty({
    name: 'md-when-not-enrolled',
    area: 'types',
    rule: '3DS-ONLY-ENROLLED',
    what: 'returns an md for a card that is not enrolled',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'N' ? { ...p, md: 'bm90LWVucm9sbGVkLW1k' } : p) } }),
  }),
  faulty({
    name: 'acsurl-when-not-enrolled',
    area: 'types',
    rule: '3DS-ACSURL-ONLY-ENROLLED',
    what: 'returns an acsurl for a card that is not enrolled',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'N' ? { ...p, acsurl: 'https://acs.example.test/acs/' } : p) } }),
  }),
  faulty({
    name: 'pareq-when-not-enrolled',
    area: 'types',
    rule: '3DS-PAREQ-ONLY-ENROLLED',
    what: 'returns a pareq for a card that is not enrolled',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'N' ? { ...p, pareq: 'bm90LWVucm9sbGVkLXBhcmVx' } : p) } }),
  }),
  faulty({
    name: 'status-always-y',
    area: 'types',
    rule: '3DS-STATUS',
    what: 'reports status Y after the ACS whatever the ACS answered (A, U)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && (p.status === 'A' || p.status === 'U') ? { ...p, status: 'Y' } : p) } }),
  }),
  faulty({
    name: 'authenticated-without-cavv',
    area: 'types',
    rule: '3DS-CAVV-ECI',
    what: 'leaves cavv out of an AUTH whose customer authenticated',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status === 'Y' ? without(p, 'cavv') : p) } }),
  }),
  faulty({
    name: 'enrolled-auth-without-xid',
    area: 'types',
    rule: '3DS-AUTH-ENROLLED',
    what: 'leaves xid out of the AUTH after 3-D Secure of an enrolled card',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status !== undefined ? without(p, 'xid') : p) } }),
  }),
  faulty({
    name: 'not-enrolled-auth-without-enrolled',
    area: 'types',
    rule: '3DS-AUTH-NOT-ENROLLED',
    what: 'leaves enrolled out of the AUTH after a THREEDQUERY of a card not enrolled or unknown',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.enrolled !== undefined && p.status === undefined ? without(p, 'enrolled') : p) } }),
  }),
  faulty({
    name: 'threedquery-once-per-order',
    area: 'types',
    rule: '3DS-NEXT-U',
    what: 'refuses the same THREEDQUERY sent again (a duplicate check on orderreference)',
    build: () => {
      const seen = new Set<string>();
      return {
        mutate: {
          operations: {
            THREEDQUERY: (input, next) => {
              const order = input.prepared.fields.orderreference ?? '';
              if (seen.has(order)) return refuse('THREEDQUERY', ERR.invalidField, ['orderreference']);
              seen.add(order);
              return next(input);
            },
          },
        },
      };
    },
  }),
  faulty({
    name: 'stored-card-not-for-3ds',
    area: 'types',
    rule: '3DS-STORED-CARD',
    what: 'refuses a THREEDQUERY whose parent is a stored card (STORE)',
    build: () => ({
      mutate: { operations: { THREEDQUERY: (input, next) => (input.prepared.parent?.type === 'STORE' ? refuse('THREEDQUERY', ERR.invalidField, ['parenttransactionreference']) : next(input)) } },
    }),
  }),
  faulty({
    name: 'no-fallback-after-60031',
    area: 'types',
    rule: '3DS-FALLBACK-AUTH',
    what: 'refuses an ordinary AUTH of a card whose payment type is not supported for 3-D Secure',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const card = input.prepared.card;
            return card && cardFor(card.pan).no3ds && !input.prepared.threeds ? refuse('AUTH', ERR.invalidField, ['pan']) : next(input);
          },
        },
      },
    }),
  }),

  // ---- ACCOUNTCHECK ---------------------------------------------------------------------------------------------
  faulty({
    name: 'accountcheck-labelled-auth',
    area: 'types',
    rule: 'AC-SHAPE',
    what: 'labels the ACCOUNTCHECK part as an AUTH part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'ACCOUNTCHECK') ? { ...p, requesttypedescription: 'AUTH' } : p) } }),
  }),
  faulty({
    name: 'accountcheck-checks-nothing',
    area: 'types',
    rule: 'AC-VALIDATES',
    what: 'answers "not checked" (1) for every security check of an ACCOUNTCHECK',
    build: () => ({
      mutate: {
        part: (p) => (isType(p, 'ACCOUNTCHECK') && succeeded(p) ? { ...p, securityresponseaddress: '1', securityresponsepostcode: '1', securityresponsesecuritycode: '1' } : p),
      },
    }),
  }),

  // ---- STORE and TRANSACTIONQUERY --------------------------------------------------------------------------------
  faulty({
    name: 'store-contacts-bank',
    area: 'types',
    rule: 'STORE-NO-BANK',
    what: 'contacts the bank for a STORE (authcode and acquirerresponsecode in the part)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') && succeeded(p) ? { ...p, authcode: 'TEST01', acquirerresponsecode: '00' } : p) } }),
  }),
  faulty({
    name: 'store-without-orderreference',
    area: 'types',
    rule: 'STORE-RESPONSE-FIELDS',
    what: 'leaves orderreference out of the STORE part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') ? without(p, 'orderreference') : p) } }),
  }),
  faulty({
    name: 'query-shows-card-number',
    area: 'types',
    rule: 'STORE-QUERY-MASKED',
    what: 'answers the full card number (pan) in the records of a TRANSACTIONQUERY',
    build: () => ({
      mutate: queryRecords((r, input) => {
        const card = input.uow.get(String(r.transactionreference))?.card;
        return card ? { ...r, pan: card.pan } : r;
      }),
    }),
  }),
  faulty({
    name: 'store-without-card-store',
    area: 'types',
    rule: 'SEC-FEATURES-ENABLED',
    what: 'stores cards for a site whose card store is not enabled',
    build: () => ({ config: withCardStoreEverywhere() }),
  }),

  // ---- RISKDEC ----------------------------------------------------------------------------------------------------
  faulty({
    name: 'deny-read-as-challenge',
    area: 'types',
    rule: 'RISKDEC-SHIELD',
    what: 'answers CHALLENGE where the fraud check gave DENY',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.fraudcontrolshieldstatuscode === 'DENY' ? { ...p, fraudcontrolshieldstatuscode: 'CHALLENGE' } : p) } }),
  }),
  faulty({
    name: 'noscore-as-accept',
    area: 'types',
    rule: 'RISKDEC-SHIELD-VALUES',
    what: 'answers ACCEPT where the parent AUTH was declined before the checks ran (NOSCORE)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.fraudcontrolshieldstatuscode === 'NOSCORE' ? { ...p, fraudcontrolshieldstatuscode: 'ACCEPT' } : p) } }),
  }),
  faulty({
    name: 'riskdec-first-unlinked',
    area: 'types',
    rule: 'RISKDEC-FIRST',
    what: "leaves the RISKDEC's reference out of the AUTH part of RISKDEC+AUTH",
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'RISKDEC', 'AUTH') && isType(p, 'AUTH') ? without(p, 'parenttransactionreference') : p) } }),
  }),
  faulty({
    name: 'riskdec-last-unlinked',
    area: 'types',
    rule: 'RISKDEC-LAST',
    what: "leaves the AUTH's reference out of the RISKDEC part of AUTH+RISKDEC",
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'AUTH', 'RISKDEC') && isType(p, 'RISKDEC') ? without(p, 'parenttransactionreference') : p) } }),
  }),
  faulty({
    name: 'riskdec-after-payment-noscore',
    area: 'types',
    rule: 'RISKDEC-AFTER-PAYMENT',
    what: 'scores a risk decision after an authorised payment NOSCORE, as if the payment had been declined',
    build: () => ({
      mutate: {
        operations: {
          RISKDEC: (input, next) => (input.prepared.parent?.type === 'AUTH' ? withPart(next(input), (p) => ({ ...p, fraudcontrolshieldstatuscode: 'NOSCORE' })) : next(input)),
        },
      },
    }),
  }),
  faulty({
    name: 'threedquery-refuses-riskdec-parent',
    area: 'types',
    rule: 'RISKDEC-BEFORE-3DS',
    what: 'refuses a THREEDQUERY whose parent is a RISKDEC (it looks parents up among payments only)',
    build: () => ({
      mutate: { operations: { THREEDQUERY: (input, next) => (input.prepared.parent?.type === 'RISKDEC' ? refuse('THREEDQUERY', ERR.missingParent, ['parenttransactionreference']) : next(input)) } },
    }),
  }),
  faulty({
    name: 'riskdec-links-first-of-chain',
    area: 'types',
    rule: 'RISKDEC-AFTER-3DS-AUTH',
    what: 'names the THREEDQUERY, not the AUTH, as the parent of a RISKDEC sent after THREEDQUERY and AUTH',
    build: () => ({
      mutate: {
        operations: {
          RISKDEC: (input, next) => {
            const parent = input.prepared.parent;
            const grand = parent?.type === 'AUTH' ? parent.parent : undefined;
            const out = next(input);
            return grand && input.uow.get(grand)?.type === 'THREEDQUERY' ? withPart(out, (p) => ({ ...p, parenttransactionreference: grand })) : out;
          },
        },
      },
    }),
  }),

  // ---- AUTH+SUBSCRIPTION ------------------------------------------------------------------------------------------
  faulty({
    name: 'subscription-part-without-amount',
    area: 'types',
    rule: 'SUB-AUTH-FIRST-PAYMENT',
    what: 'leaves baseamount out of the SUBSCRIPTION part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') ? without(p, 'baseamount') : p) } }),
  }),
  faulty({
    name: 'subscription-shares-auth-reference',
    area: 'types',
    rule: 'SUB-OWN-REFERENCE',
    what: "gives the SUBSCRIPTION part the AUTH part's transactionreference",
    build: () => ({
      mutate: {
        envelope: (env) => {
          const parts = partsOf(env);
          const auth = parts.find((p) => isType(p, 'AUTH'));
          if (!auth || !parts.some((p) => isType(p, 'SUBSCRIPTION'))) return env;
          return { ...env, response: parts.map((p) => (isType(p, 'SUBSCRIPTION') ? { ...p, transactionreference: auth.transactionreference } : p)) };
        },
      },
    }),
  }),
  faulty({
    name: 'subscription-ecom',
    area: 'types',
    rule: 'SUB-RECUR',
    what: 'gives the SUBSCRIPTION part accounttypedescription ECOM instead of RECUR',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') ? { ...p, accounttypedescription: 'ECOM' } : p) } }),
  }),
  faulty({
    name: 'subscription-refuses-3ds',
    area: 'types',
    rule: 'SUB-ENROLLED',
    what: 'refuses the SUBSCRIPTION of an AUTH+SUBSCRIPTION sent with md and pares',
    build: () => ({ mutate: { operations: { SUBSCRIPTION: (input, next) => (input.prepared.threeds ? refuse('SUBSCRIPTION', ERR.invalidField, ['md']) : next(input)) } } }),
  }),
  faulty({
    name: 'subscription-refuses-threedquery-parent',
    area: 'types',
    rule: 'SUB-NOT-ENROLLED',
    what: 'refuses the SUBSCRIPTION of an AUTH+SUBSCRIPTION whose parent is a THREEDQUERY',
    build: () => ({
      mutate: {
        operations: {
          SUBSCRIPTION: (input, next) =>
            !input.prepared.threeds && input.prepared.parent?.type === 'THREEDQUERY' ? refuse('SUBSCRIPTION', ERR.invalidField, ['parenttransactionreference']) : next(input),
        },
      },
    }),
  }),
];

/** The built-in configuration with card store enabled on every site. */
function withCardStoreEverywhere(): GatewayConfig {
  return { ...DEFAULT_CONFIG, sites: DEFAULT_CONFIG.sites.map((s) => ({ ...s, cardstore: true })) };
}
