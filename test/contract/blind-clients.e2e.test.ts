/**
 * A blind round of faulty clients (test/contract/fixtures/blind-clients.js): each mode breaks one sentence of the
 * document on the client side, in what it sends or in how it reports a documented answer, and was written before
 * the kit's checks were read. Each runs through a real adapter process against a fresh stand-in gateway, on the
 * cases it concerns. A fault in what the client sends must be named with its rule among the gate's violations, at
 * the severity the document gives it, and fail the gate; a fault in what it reports must fail the case it concerns
 * (and not the others run beside it); a benign mode must pass every case with no finding, even with --strict.
 * The fixture's header records what the blind run caught before the kit was read, and what was fixed.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startContractGateway } from '../../src/contract';
import { runClientCases, type ClientCaseResult } from '../../src/cases';

const ADAPTER = path.join(__dirname, 'fixtures', 'blind-clients.js');
const command = (mode: string): string => `CARDSPEC_FIXTURE_MODE=${mode} "${process.execPath}" "${ADAPTER}"`;

type Format = 'json' | 'xml';
interface Sends {
  /** a fault in the request: the gate names this rule, at this severity */
  readonly rule: string;
  readonly severity: 'error' | 'warning';
}
interface Reports {
  /** a fault in reporting: these cases fail (non-strict for a warning case), the others pass */
  readonly fails: readonly string[];
}
interface Mode {
  readonly cases: readonly string[];
  readonly format?: Format;
  readonly expect: Sends | Reports | 'benign';
}

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

const summary = (results: readonly ClientCaseResult[]): string => results.map((r) => `${r.id}: ${r.outcome} ${r.problems.join('; ')}`).join('\n');

describe('a blind round of faulty clients', () => {
  for (const [mode, { cases, format, expect }] of Object.entries(MODES)) {
    it(`${mode}: ${expect === 'benign' ? 'passes' : 'rule' in expect ? `named on ${expect.rule}` : `fails ${expect.fails.join(', ')}`}`, async () => {
      const gw = await startContractGateway({ scenarios: true });
      try {
        const results = await runClientCases(gw, { command: command(mode), only: [...cases], ...(format ? { format } : {}) });
        assert.deepEqual(results.map((r) => r.id).sort(), [...cases].sort());
        const found = gw.session.violations().map((v) => `${v.rule} ${v.severity}: ${v.message}`);
        if (expect === 'benign') {
          assert.deepEqual(
            results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.problems]),
            [],
          );
          assert.deepEqual(found, []);
          assert.equal(gw.session.exitCode(true), 0);
        } else if ('rule' in expect) {
          assert.ok(
            gw.session.violations().some((v) => v.rule === expect.rule && v.severity === expect.severity),
            `expected ${expect.rule} (${expect.severity}); the gate found:\n${found.join('\n') || '(nothing)'}\n${summary(results)}`,
          );
          assert.equal(gw.session.exitCode(expect.severity === 'warning'), 1);
          // The case's own findings are the gate's, at the same severity (read with the ledger).
          assert.ok(
            results.some((r) => r.violations.some((v) => v.rule === expect.rule && v.severity === expect.severity)),
            `the case does not name ${expect.rule} (${expect.severity}):\n${results.map((r) => r.violations.map((v) => `${v.rule} ${v.severity}`).join(', ')).join('\n')}`,
          );
        } else {
          const failed = results.filter((r) => r.outcome === 'fail' || r.outcome === 'non-strict').map((r) => r.id);
          assert.deepEqual(failed.sort(), [...expect.fails].sort(), summary(results));
        }
      } finally {
        await gw.close();
      }
    });
  }
});
