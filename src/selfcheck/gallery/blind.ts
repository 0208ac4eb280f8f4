/**
 * Faulty variants written from the interface document alone, before reading the suite (the way the kit is judged:
 * people write faulty gateways from the document without knowing the scenarios). Each breaks one sentence in a
 * context other than the most obvious example: another request type, a combined request, a child request, XML.
 */
import type { Variant } from '../types';
import { answers, faulty, isType, succeeded, withPart, threedqueryPassesShield, without } from './helpers';

export const BLIND: readonly Variant[] = [
  faulty({
    name: 'blind-active-answered-pending',
    area: 'states',
    rule: 'SUB-STATE-ACTIVE',
    what: 'answers transactionactive 2 (pending) in the SUBSCRIPTION part of a subscription sent with transactionactive 1',
    build: () => ({
      mutate: {
        operations: {
          SUBSCRIPTION: (input, next) => {
            const out = next(input);
            return input.prepared.own.transactionactive === '1' && out.part.transactionactive === '1' ? withPart(out, (p) => ({ ...p, transactionactive: '2' })) : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind-store-masks-with-stars',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks the card number of a STORE part with * instead of # (other parts keep #)',
    build: () => ({
      mutate: { part: (p) => (isType(p, 'STORE') && typeof p.maskedpan === 'string' ? { ...p, maskedpan: p.maskedpan.replace(/#/g, '*') } : p) },
    }),
  }),
  faulty({
    name: 'blind-store-without-transactionactive',
    area: 'types',
    rule: 'STORE-RESPONSE-FIELDS',
    what: 'leaves transactionactive out of the STORE part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') ? without(p, 'transactionactive') : p) } }),
  }),
  faulty({
    name: 'blind-deny-passes-3ds',
    area: 'errors',
    rule: 'ERR-60107',
    what: 'lets a THREEDQUERY through after a RISKDEC of DENY (it stops only CHALLENGE)',
    build: () => ({ mutate: threedqueryPassesShield('DENY') }),
  }),
  faulty({
    name: 'blind-acsurl-when-unknown',
    area: 'types',
    rule: '3DS-ACSURL-ONLY-ENROLLED',
    what: 'returns an acsurl for a card whose enrolment is unknown (U)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'U' ? { ...p, acsurl: 'https://acs.example.test/acs/' } : p) } }),
  }),
  faulty({
    name: 'blind-riskdec-ok-capitals',
    area: 'errors',
    rule: 'ERR-0',
    what: 'answers errormessage "OK" instead of "Ok" in successful RISKDEC parts',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && succeeded(p) ? { ...p, errormessage: 'OK' } : p) } }),
  }),
  faulty({
    name: 'blind-store-timestamp-with-t',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: 'writes transactionstartedtimestamp of a STORE part as YYYY-MM-DDTHH:MM:SS',
    build: () => ({
      mutate: {
        part: (p) => (isType(p, 'STORE') && typeof p.transactionstartedtimestamp === 'string' ? { ...p, transactionstartedtimestamp: p.transactionstartedtimestamp.replace(' ', 'T') } : p),
      },
    }),
  }),
  faulty({
    name: 'blind-riskdec-after-payment-unlinked',
    area: 'types',
    rule: 'RISKDEC-AFTER-PAYMENT',
    what: "leaves the payment's reference out of the RISKDEC part of a risk decision sent after a payment",
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'RISKDEC') && isType(p, 'RISKDEC') ? without(p, 'parenttransactionreference') : p) } }),
  }),
  faulty({
    name: 'blind-subscription-credentialsonfile-not-echoed',
    area: 'fields',
    rule: 'FIELD-ECHO',
    what: 'does not echo credentialsonfile in the parts of AUTH+SUBSCRIPTION',
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'AUTH', 'SUBSCRIPTION') ? without(p, 'credentialsonfile') : p) } }),
  }),
  faulty({
    name: 'blind-accountcheck-code-not-given-as-not-checked',
    area: 'fields',
    rule: 'SEC-RESULT-0',
    what: 'answers a security code not given to an ACCOUNTCHECK as not checked (1 instead of 0)',
    build: () => ({
      mutate: { part: (p) => (isType(p, 'ACCOUNTCHECK') && p.securityresponsesecuritycode === '0' ? { ...p, securityresponsesecuritycode: '1' } : p) },
    }),
  }),
  faulty({
    name: 'blind-xml-enrolled-auth-without-status',
    area: 'xml',
    rule: '3DS-STATUS',
    what: 'leaves status out of the AUTH after 3-D Secure of an enrolled card in XML answers (XML only: the JSON form keeps it)',
    formats: ['xml'],
    build: () => ({ mutate: { part: (p, ctx) => (ctx.format === 'xml' && isType(p, 'AUTH') ? without(p, 'status') : p) } }),
  }),
  faulty({
    name: 'blind-threedquery-parent-not-echoed',
    area: 'inheritance',
    rule: 'INHERIT-PARENT-ECHO',
    what: 'leaves parenttransactionreference out of a THREEDQUERY part based on an earlier request (a RISKDEC or a STORE)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') ? without(p, 'parenttransactionreference') : p) } }),
  }),
  faulty({
    name: 'blind-unauthenticated-in-subscription-settles',
    area: 'states',
    rule: '3DS-60022-SETTLE',
    what: 'answers settlestatus 0 instead of 3 for the AUTH part (60022) of an AUTH+SUBSCRIPTION of an enrolled card',
    build: () => ({
      mutate: {
        part: (p, ctx) => (answers(ctx, 'AUTH', 'SUBSCRIPTION') && isType(p, 'AUTH') && p.errorcode === '60022' ? { ...p, settlestatus: '0' } : p),
      },
    }),
  }),
  faulty({
    name: 'blind-xml-riskdec-first-unlinked',
    area: 'xml',
    rule: 'RISKDEC-FIRST',
    what: "leaves the RISKDEC's reference out of the AUTH part of RISKDEC+AUTH in XML answers (XML only: the JSON form keeps it)",
    formats: ['xml'],
    build: () => ({ mutate: { part: (p, ctx) => (ctx.format === 'xml' && answers(ctx, 'RISKDEC', 'AUTH') && isType(p, 'AUTH') ? without(p, 'parenttransactionreference') : p) } }),
  }),
  faulty({
    name: 'blind-zero-amount-not-echoed',
    area: 'fields',
    rule: 'FIELD-ECHO',
    what: 'leaves baseamount out of an ACCOUNTCHECK part whose amount is 0 (a test for a set amount that takes "0" for none)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'ACCOUNTCHECK') && p.baseamount === '0' ? without(p, 'baseamount') : p) } }),
  }),
];
