/**
 * A second blind round of faulty clients (test/contract/fixtures/blind-clients2.js), written from the document and
 * docs/contract.md before the kit's checks and cases were read, as the first round was
 * (test/contract/blind-clients.e2e.test.ts): each mode runs through a real adapter process against a fresh stand-in
 * gateway, on the cases it concerns. A fault in what the client sends must be named with its rule among the gate's
 * violations, at the severity the document gives it, fail the gate, and be named by the case too; a fault in what
 * it reports must fail the cases it concerns and not the others run beside it; a benign mode must pass every case
 * with no finding, even with --strict. The fixture's header records the blind result and the fixes.
 */
import { blindRound, type Mode } from './blind-rounds';

const MODES: Record<string, Mode> = {
  // what the client sends
  'alias-is-username': { cases: ['alias-not-username'], expect: { rule: 'SEC-ALIAS', severity: 'error' } },
  'basic-auth-with-alias': { cases: ['alias-not-username'], expect: { rule: 'SEC-BASIC-AUTH', severity: 'error' } },
  'xml-version-1.00': { cases: ['auth'], format: 'xml', expect: { rule: 'VER-XML', severity: 'error' } },
  'termurl-1025': { cases: ['threedquery-enrolled-N'], expect: { rule: 'FIELD-LENGTHS', severity: 'error' } },
  'expiry-2-digit-year': { cases: ['store'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  'telephone-letters': { cases: ['store'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  'pares-line-wrapped': { cases: ['auth-3ds-status-Y'], expect: { rule: '3DS-MD-PARES-UNMODIFIED', severity: 'error' } },
  'auth-n-no-sitereference': { cases: ['auth-3ds-enrolled-N'], expect: { rule: '3DS-AUTH-NOT-ENROLLED', severity: 'error' } },
  'threedquery-moto': { cases: ['threedquery-enrolled-N'], expect: { rule: 'FIELD-ACCOUNTTYPE-THREEDQUERY', severity: 'error' } },
  'riskdec-accounttype-ecom': { cases: ['riskdec-card'], expect: { rule: 'RISKDEC-CARD', severity: 'error' } },
  'sub-number-zero': { cases: ['subscription-no-3ds'], expect: { rule: 'SUB-NUMBER-START', severity: 'error' } },
  'stored-card-sub-no-cof': { cases: ['stored-card-auth'], expect: { rule: 'FIELD-CREDENTIALSONFILE', severity: 'error' } },
  'update-active-number': { cases: ['store-disable'], expect: { rule: 'FIELD-STRINGS', severity: 'error' } },
  'xml-sitereference-in-merchant': { cases: ['auth'], format: 'xml', expect: { rule: 'XML-REQUEST-BLOCK', severity: 'error' } },
  'follow-y-with-parent': { cases: ['threedquery-enrolled-Y'], expect: { rule: '3DS-NEXT-Y', severity: 'error' } },
  'accept-xml-on-json': { cases: ['auth'], expect: { rule: 'TRANSPORT-HEADERS', severity: 'error' } },
  'two-request-objects': { cases: ['auth'], expect: { rule: 'ENV-ONE-REQUEST-OBJECT', severity: 'error' } },
  'credentialsonfile-true': { cases: ['subscription-no-3ds'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  // added after the kit was read: the fixes in the XML block
  'xml-pares-line-wrapped': { cases: ['auth-3ds-status-Y'], format: 'xml', expect: { rule: '3DS-MD-PARES-UNMODIFIED', severity: 'error' } },
  'xml-auth-n-no-sitereference': { cases: ['auth-3ds-enrolled-N'], format: 'xml', expect: { rule: '3DS-AUTH-NOT-ENROLLED', severity: 'error' } },
  'xml-basic-auth-with-alias': { cases: ['alias-not-username'], format: 'xml', expect: { rule: 'SEC-BASIC-AUTH', severity: 'error' } },
  'xml-no-alias': { cases: ['auth'], format: 'xml', expect: { rule: 'XML-REQUEST-BLOCK', severity: 'error' } },
  'xml-pan-twice': { cases: ['store'], format: 'xml', expect: { rule: 'XML-REQUEST-BLOCK', severity: 'error' } },
  // how the client reports what was answered
  'unlisted-code-as-ok': { cases: ['unknown-errorcode', 'auth'], expect: { fails: ['unknown-errorcode'] } },
  'enrolled-u-as-n': { cases: ['threedquery-enrolled-U', 'threedquery-enrolled-N'], expect: { fails: ['threedquery-enrolled-U'] } },
  'pending-as-active': { cases: ['subscription-pending', 'subscription-transactionactive-1'], expect: { fails: ['subscription-pending'] } },
  'shield-from-recommendation': { cases: ['riskdec-challenge', 'riskdec-card'], expect: { fails: ['riskdec-challenge'] } },
  'later-parts-ignored': {
    cases: ['riskdec-then-auth', 'auth-then-riskdec', 'subscription-no-3ds', 'auth'],
    expect: { fails: ['riskdec-then-auth', 'auth-then-riskdec', 'subscription-no-3ds'] },
  },
  'errordata-dropped': { cases: ['threedquery-30000', 'auth'], expect: { fails: ['threedquery-30000'] } },
  // (the blind run's expectation also passed threedquery-enrolled-N, whose answer carries maskedpan too: the test's
  // mistake, not the kit's; the other case is now one whose answer has no card)
  'maskedpan-stars': { cases: ['store', 'threedquery-enrolled-N', 'transactionupdate'], expect: { fails: ['store', 'threedquery-enrolled-N'] } },
  'cavv-eci-swapped': { cases: ['auth-3ds-status-Y', 'auth-3ds-enrolled-N'], expect: { fails: ['auth-3ds-status-Y'] } },
  'secrand-capped': { cases: ['secrand-long', 'secrand-short'], expect: { fails: ['secrand-long'] } },
  // what the document allows
  'benign-xml-prolog': { cases: ['auth', 'store', 'threedquery-enrolled-Y', 'transactionupdate'], format: 'xml', expect: 'benign' },
  'benign-store-minimal': { cases: ['store'], expect: 'benign' },
  'benign-request-layout': { cases: ['auth', 'subscription-no-3ds', 'riskdec-card', 'auth-3ds-status-Y'], expect: 'benign' },
  'benign-final-number-0': { cases: ['subscription-no-3ds', 'subscription-not-enrolled'], expect: 'benign' },
  'benign-orderreference-symbols': { cases: ['auth', 'store'], expect: 'benign' },
};

blindRound('a second blind round of faulty clients', 'blind-clients2.js', MODES);
