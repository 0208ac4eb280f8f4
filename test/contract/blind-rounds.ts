/**
 * The blind rounds of faulty clients (./blind-clients.e2e.test.ts, ./blind-clients2.e2e.test.ts): each mode of a
 * fixture runs through a real adapter process against a fresh stand-in gateway, on the cases it concerns. A fault in
 * what the client sends must be named with its rule among the gate's violations, at the severity the document gives
 * it, fail the gate, and be named by the case too; a fault in what it reports must fail the cases it concerns and
 * not the others run beside it; a benign mode must pass every case with no finding, even with --strict.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { startContractGateway } from '../../src/contract';
import { runClientCases, type ClientCaseResult } from '../../src/cases';

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
export interface Mode {
  readonly cases: readonly string[];
  readonly format?: Format;
  readonly expect: Sends | Reports | 'benign';
  /** escaped the blind run (recorded in the fixture's header): asserted to escape until its fix asserts the catch */
  readonly escapes?: string;
}

const summary = (results: readonly ClientCaseResult[]): string => results.map((r) => `${r.id}: ${r.outcome} ${r.problems.join('; ')}`).join('\n');

const label = (mode: string, expect: Mode['expect']): string => `${mode}: ${expect === 'benign' ? 'passes' : 'rule' in expect ? `named on ${expect.rule}` : `fails ${expect.fails.join(', ')}`}`;

/** Registers a blind round: each mode of `adapter` (a fixture of ./fixtures) run on its cases and judged as `expect` says. */
export function blindRound(title: string, adapter: string, modes: Readonly<Record<string, Mode>>): void {
  const command = (mode: string): string => `CARDSPEC_FIXTURE_MODE=${mode} "${process.execPath}" "${path.join(__dirname, 'fixtures', adapter)}"`;
  describe(title, () => {
    for (const [mode, { cases, format, expect, escapes }] of Object.entries(modes)) {
      it(escapes ? `${label(mode, expect)} (a known escape: ${escapes})` : label(mode, expect), async () => {
        const gw = await startContractGateway({ scenarios: true });
        try {
          const results = await runClientCases(gw, { command: command(mode), only: [...cases], ...(format ? { format } : {}) });
          assert.deepEqual(results.map((r) => r.id).sort(), [...cases].sort());
          const judge = (): void => {
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
                `the case does not name ${expect.rule} (${expect.severity}):\n${results.map((r) => `${r.id}: ${r.violations.map((v) => `${v.rule} ${v.severity}`).join(', ')}`).join('\n')}`,
              );
            } else {
              const failed = results.filter((r) => r.outcome === 'fail' || r.outcome === 'non-strict').map((r) => r.id);
              assert.deepEqual(failed.sort(), [...expect.fails].sort(), summary(results));
            }
          };
          // A known escape is asserted as one: when a fix catches it, this fails until the mode is asserted caught.
          if (escapes) assert.throws(judge, assert.AssertionError, `${mode} is now caught: assert it`);
          else judge();
        } finally {
          await gw.close();
        }
      });
    }
  });
}
