/**
 * Client conformance cases (scenario mode): a stand-in gateway answers each case's call with one documented answer,
 * and a real adapter process (test/contract/fixtures/adapter.js) reports what its client saw. A faithful client
 * passes every case; each kind of faulty client is caught by the cases that concern it, and only by those.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLIENT_CASES, runClientCases, startContractGateway, type CaseResult, type RunningContractGateway } from '../../src/contract';

const ADAPTER = path.join(__dirname, 'fixtures', 'adapter.js');
const command = (mode: string): string => `CARDSPEC_FIXTURE_MODE=${mode} "${process.execPath}" "${ADAPTER}"`;

let gw: RunningContractGateway;
before(async () => {
  gw = await startContractGateway({ scenarios: true });
});
after(() => gw.close());

const failed = (results: CaseResult[]): string[] => results.filter((r) => !r.passed).map((r) => r.id);

describe('client conformance cases', () => {
  it('a faithful client passes every case, and its calls break no obligation', async () => {
    const results = await runClientCases(gw, { command: command('good') });
    assert.deepEqual(results.map((r) => r.id), CLIENT_CASES.map((c) => c.id));
    assert.deepEqual(results.filter((r) => !r.passed), []);
    assert.deepEqual(gw.session.violations(), []);
    assert.equal(gw.session.exitCode(true), 0);
    assert.equal(gw.session.report().cases?.length, CLIENT_CASES.length);
  });

  it('a client that reads only the first part fails the two-part cases', async () => {
    const results = await runClientCases(gw, { command: command('first-part'), only: ['subscription-two-parts', 'riskdec-then-auth', 'riskdec-challenge'] });
    assert.deepEqual(failed(results), ['subscription-two-parts', 'riskdec-then-auth']);
    assert.match(results.find((r) => r.id === 'subscription-two-parts')!.problems.join(), /reported 1 part\(s\); the gateway answered 2/);
    assert.equal(gw.session.exitCode(), 1);
  });

  it('a client that truncates md fails the enrolled case, without the md being quoted', async () => {
    const results = await runClientCases(gw, { command: command('truncate-md'), only: ['threedquery-enrolled-Y', 'threedquery-enrolled-N'] });
    assert.deepEqual(failed(results), ['threedquery-enrolled-Y']);
    assert.deepEqual(results[0].problems, ['part 1 (THREEDQUERY): md was reported changed (32 characters; 64 answered): it must be kept in full, unmodified']);
  });

  it('a client that turns strings into numbers fails every case', async () => {
    const results = await runClientCases(gw, { command: command('numbers'), only: ['auth-60022', 'auth-70000', 'unknown-errorcode'] });
    assert.deepEqual(failed(results), ['auth-60022', 'auth-70000', 'unknown-errorcode']);
    assert.match(results[0].problems[0], /errorcode was reported as 60022; the gateway answered "60022"/);
  });

  it('a client that refuses a secrand of another length fails the secrand cases', async () => {
    const results = await runClientCases(gw, { command: command('secrand-crash'), only: ['secrand-short', 'secrand-long', 'threedquery-enrolled-N'] });
    assert.deepEqual(failed(results), ['secrand-short', 'secrand-long']);
    assert.deepEqual(results.find((r) => r.id === 'secrand-short')?.problems, ['the client raised: invalid secrand']);
  });

  it('a client that refuses unknown fields fails a warning case: the gate fails only with --strict', async () => {
    const fresh = await startContractGateway({ scenarios: true });
    try {
      const results = await runClientCases(fresh, { command: command('unknown-crash'), only: ['unknown-response-fields', 'auth-60022'] });
      assert.deepEqual(failed(results), ['unknown-response-fields']);
      assert.equal(results.find((r) => r.id === 'unknown-response-fields')?.severity, 'warning');
      assert.equal(fresh.session.exitCode(), 0);
      assert.equal(fresh.session.exitCode(true), 1);
    } finally {
      await fresh.close();
    }
  });

  it('an adapter that calls twice, prints nothing, or hangs fails with the reason', async () => {
    const twice = await runClientCases(gw, { command: command('two-calls'), only: ['threedquery-enrolled-N'] });
    assert.deepEqual(twice[0].problems, ['2 calls reached the gateway; a case is one call']);
    const silent = await runClientCases(gw, { command: command('silent'), only: ['threedquery-enrolled-N'] });
    assert.deepEqual(silent[0].problems, ['the adapter printed no JSON line {"parts":[...]}']);
    const hung = await runClientCases(gw, { command: command('hang'), only: ['threedquery-enrolled-N'], timeoutMs: 1500 });
    assert.match(hung[0].problems.join('; '), /the adapter did not finish within 2 s/);
    const missing = await runClientCases(gw, { command: `"${process.execPath}" /nonexistent/adapter.js`, only: ['threedquery-enrolled-N'] });
    assert.match(missing[0].problems.join('; '), /the adapter exited 1/);
  });
});
