/**
 * A blind round of faulty clients (test/contract/fixtures/blind-clients.js): each mode breaks one sentence of the
 * document on the client side, in what it sends or in how it reports a documented answer, and was written before
 * the kit's checks were read. Each runs through a real adapter process against a fresh stand-in gateway, on the
 * cases it concerns. A fault in what the client sends must be named with its rule among the gate's violations, at
 * the severity the document gives it, and fail the gate; a fault in what it reports must fail the case it concerns
 * (and not the others run beside it); a benign mode must pass every case with no finding, even with --strict.
 * The fixture's header records what the blind run caught before the kit was read, and what was fixed.
 */
import { blindRound, type Mode } from './blind-rounds';

const MODES: Record<string, Mode> = {
  // what the client sends
  'amount-zero-padded': { cases: ['auth', 'riskdec-card'], expect: { rule: 'FIELD-BASEAMOUNT-POSITIVE', severity: 'error' } },
  'update-amount-decimal': { cases: ['transactionupdate'], expect: { rule: 'FIELD-BASEAMOUNT-MINOR-UNITS', severity: 'error' } },
  'expiry-month-13': { cases: ['store', 'riskdec-card'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  'xml-currency-numeric': { cases: ['auth'], format: 'xml', expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  'securitycode-2-digits': { cases: ['accountcheck'], expect: { rule: 'FIELD-LENGTHS', severity: 'error' } },
  'sub-no-orderreference': { cases: ['subscription-not-enrolled'], expect: { rule: 'SUB-NOT-ENROLLED', severity: 'error' } },
  'threedquery-no-accept': { cases: ['threedquery-enrolled-N'], expect: { rule: '3DS-QUERY-REQUEST', severity: 'error' } },
  'auth-3ds-amount-added': { cases: ['auth-3ds-status-Y'], expect: { rule: '3DS-AUTH-ENROLLED', severity: 'error' } },
  'auth-3ds-echoes-pareq': { cases: ['auth-3ds-status-Y'], expect: { rule: '3DS-AUTH-ENROLLED', severity: 'error' } },
  'auth-n-card-added': { cases: ['auth-3ds-enrolled-N'], expect: { rule: '3DS-AUTH-NOT-ENROLLED', severity: 'error' } },
  'xml-securitycode-in-store': { cases: ['store'], format: 'xml', expect: { rule: 'FIELD-SECURITYCODE-NOT-IN-STORE', severity: 'error' } },
  'xml-version-element': { cases: ['auth'], format: 'xml', expect: { rule: 'VER-XML', severity: 'error' } },
  'xml-type-element': { cases: ['auth'], format: 'xml', expect: { rule: 'XML-REQUEST-BLOCK', severity: 'error' } },
  'parent-no-hyphens': { cases: ['auth-3ds-enrolled-N'], expect: { rule: 'FIELD-PARENT', severity: 'error' } },
  'query-filter-object': { cases: ['transactionquery'], expect: { rule: 'STORE-QUERY-SHAPE', severity: 'warning' } },
  'md-pares-swapped': { cases: ['auth-3ds-status-Y'], expect: { rule: '3DS-MD-PARES-UNMODIFIED', severity: 'error' } },
  'md-urlencoded': { cases: ['auth-3ds-status-Y'], expect: { rule: '3DS-MD-PARES-UNMODIFIED', severity: 'error' } },
  'sub-enrolled-no-pares': { cases: ['subscription-enrolled'], expect: { rule: 'SUB-ENROLLED', severity: 'error' } },
  'sub-begindate-feb30': { cases: ['subscription-no-3ds'], expect: { rule: 'SUB-BEGINDATE', severity: 'error' } },
  'sub-accounttype-recur': { cases: ['subscription-no-3ds'], expect: { rule: 'FIELD-ACCOUNTTYPE-PAYMENTS', severity: 'error' } },
  'sub-order-reversed': { cases: ['subscription-no-3ds'], expect: { rule: 'SUB-COMBINED', severity: 'error' } },
  'store-update-transactionactive-2': { cases: ['store-disable'], expect: { rule: 'STORE-STATE-DISABLE', severity: 'error' } },
  'update-on-auth-part': { cases: ['transactionupdate'], expect: { rule: 'SUB-AMOUNT-UPDATE', severity: 'error' } },
  'email-local-65': { cases: ['store'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  'types-string-not-list': { cases: ['auth', 'store'], expect: { rule: 'ENV-TYPES-NAMED', severity: 'error' } },
  'threedquery-termurl-relative': { cases: ['threedquery-enrolled-N'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  // added after the kit was read: the fixes in the XML block, and a few more edges
  'xml-auth-3ds-amount-added': { cases: ['auth-3ds-status-Y'], format: 'xml', expect: { rule: '3DS-AUTH-ENROLLED', severity: 'error' } },
  'xml-auth-n-card-added': { cases: ['auth-3ds-enrolled-N'], format: 'xml', expect: { rule: '3DS-AUTH-NOT-ENROLLED', severity: 'error' } },
  'xml-update-amount-decimal': { cases: ['transactionupdate'], format: 'xml', expect: { rule: 'FIELD-BASEAMOUNT-MINOR-UNITS', severity: 'error' } },
  'xml-store-update-transactionactive-2': { cases: ['store-disable'], format: 'xml', expect: { rule: 'STORE-STATE-DISABLE', severity: 'error' } },
  'xml-type-lowercase': { cases: ['auth'], format: 'xml', expect: { rule: 'ENV-TYPES-NAMED', severity: 'error' } },
  'threedquery-termurl-http': { cases: ['threedquery-enrolled-N'], expect: { rule: '3DS-QUERY-REQUEST', severity: 'error' } },
  'cachetoken-underscored': { cases: ['threedquery-enrolled-N'], expect: { rule: 'FIELD-TYPES', severity: 'error' } },
  'telephonetype-lowercase': { cases: ['store'], expect: { rule: 'FIELD-TELEPHONETYPE', severity: 'error' } },
  // how the client reports what was answered
  'code-70000-as-ok': { cases: ['auth-70000', 'auth'], expect: { fails: ['auth-70000'] } },
  'sub-reference-shared': { cases: ['subscription-no-3ds', 'auth'], expect: { fails: ['subscription-no-3ds'] } },
  'enrolled-only-on-threedquery': { cases: ['auth-3ds-status-Y', 'auth-3ds-enrolled-N', 'threedquery-enrolled-Y'], expect: { fails: ['auth-3ds-status-Y', 'auth-3ds-enrolled-N'] } },
  'errordata-joined': { cases: ['threedquery-30000'], expect: { fails: ['threedquery-30000'] } },
  'query-record-numbers': { cases: ['transactionquery', 'transactionquery-subscription'], expect: { fails: ['transactionquery', 'transactionquery-subscription'] } },
  'status-dropped-on-error': { cases: ['auth-60022', 'auth-3ds-status-Y'], expect: { fails: ['auth-60022'] } },
  'timestamp-reformatted': { cases: ['store'], expect: { fails: ['store'] } },
  'settleduedate-reformatted': { cases: ['auth', 'accountcheck'], expect: { fails: ['auth', 'accountcheck'] } },
  'security-booleans': { cases: ['auth', 'accountcheck'], expect: { fails: ['auth', 'accountcheck'] } },
  'raise-on-nonzero-multipart': { cases: ['subscription-99999', 'riskdec-then-auth'], expect: { fails: ['subscription-99999'] } },
  'invent-enrolled': { cases: ['auth', 'auth-3ds-status-Y'], expect: { fails: ['auth'] } },
  // what the document allows
  'benign-amount-13-digits': { cases: ['auth'], expect: 'benign' },
  'benign-compare-only': { cases: ['auth', 'subscription-no-3ds', 'threedquery-30000', 'threedquery-enrolled-Y', 'transactionquery'], expect: 'benign' },
  'benign-json-layout': { cases: ['auth', 'store'], expect: 'benign' },
  'benign-xml-cdata': { cases: ['auth', 'store', 'threedquery-enrolled-Y', 'transactionquery'], format: 'xml', expect: 'benign' },
  'benign-no-credentialsonfile': { cases: ['subscription-no-3ds'], expect: 'benign' },
  'benign-billingprefix': { cases: ['store'], expect: 'benign' },
  'benign-telephone-symbols': { cases: ['store'], expect: 'benign' },
  'benign-email-64-local': { cases: ['store'], expect: 'benign' },
  'benign-empty-defaults': { cases: ['auth', 'threedquery-30000', 'store'], expect: 'benign' },
  'benign-termurl-loopback': { cases: ['threedquery-enrolled-N', 'threedquery-enrolled-Y'], expect: 'benign' },
};

blindRound('a blind round of faulty clients', 'blind-clients.js', MODES);
