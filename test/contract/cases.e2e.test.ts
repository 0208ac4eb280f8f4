/**
 * Client conformance cases (scenario mode): a stand-in gateway answers each case's call with one documented answer,
 * and a real adapter process (test/contract/fixtures/adapter.js) reports what its client saw. A faithful client
 * passes every case; each kind of faulty client is caught by the cases that concern it, and only by those; habits
 * that break no rule of the document (translated messages, a hidden envelope) are not failures.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { OPERATIONS } from '../../schemas/operations';
import { ERRORS } from '../../schemas/errors';
import { startContractGateway, type RunningContractGateway } from '../../src/contract';
import { CLIENT_CASES, runClientCases, uncoveredRows, type ClientCaseResult } from '../../src/cases';
import { coveredErrors, errorRows } from '../../src/cases/catalogue';
import { compareParts } from '../../src/cases/case';
import { writeClientReport } from '../../src/cases/report';
import { launchChromium } from '../chromium';

const ADAPTER = path.join(__dirname, 'fixtures', 'adapter.js');
const command = (mode: string): string => `CARDSPEC_FIXTURE_MODE=${mode} "${process.execPath}" "${ADAPTER}"`;

let gw: RunningContractGateway;
let faithful: ClientCaseResult[] | undefined;
before(async () => {
  gw = await startContractGateway({ scenarios: true });
});
after(() => gw.close());

const failed = (results: ClientCaseResult[]): string[] => results.filter((r) => !r.passed).map((r) => r.id);
const byId = (results: ClientCaseResult[], id: string): ClientCaseResult => results.find((r) => r.id === id) ?? assert.fail(`no result for ${id}`);
const outcomes = (results: ClientCaseResult[]): Record<string, string> => Object.fromEntries(results.map((r) => [r.id, r.outcome]));

describe('the case catalogue', () => {
  it('covers every row of the Errors table, every row of the Request types table and every 3-D Secure state', () => {
    assert.deepEqual(uncoveredRows(), []);
    // and the check can fail: without the error cases, their rows are named
    const partial = uncoveredRows(CLIENT_CASES.filter((c) => c.group !== 'Errors'));
    assert.ok(partial.includes('errors 60031 THREEDQUERY') && partial.includes('errors 99999 TRANSACTIONQUERY'), partial.join());
    assert.ok(uncoveredRows(CLIENT_CASES.filter((c) => c.row !== 'store')).includes('request types store'));
    assert.ok(uncoveredRows(CLIENT_CASES.filter((c) => !c.states?.includes('status A'))).includes('3-D Secure status A'));
  });

  it('has one case for each non-zero code of each type the Errors table names, and code 0 for every request type', () => {
    const pairs = new Set(CLIENT_CASES.flatMap(coveredErrors));
    assert.equal(
      errorRows().length,
      ERRORS.reduce((n, e) => n + (e.where === 'any' ? 8 : e.where.length), 0),
    );
    for (const { code, type } of errorRows()) assert.ok(pairs.has(`${code}:${type}`), `${code} ${type}`);
    assert.deepEqual(new Set(CLIENT_CASES.map((c) => c.row)), new Set(OPERATIONS.map((o) => o.id)));
    assert.ok(CLIENT_CASES.length >= 55, `${CLIENT_CASES.length} cases`);
  });

  it('compares lists and objects, not only strings', () => {
    const kase = CLIENT_CASES.find((c) => c.id === 'transactionquery')!;
    const answered = [{ requesttypedescription: 'TRANSACTIONQUERY', errorcode: '0', records: [{ maskedpan: '411111######1111' }] }];
    assert.deepEqual(compareParts(kase, answered, [{ ...answered[0] }]), []);
    assert.match(compareParts(kase, answered, [{ ...answered[0], records: [] }])[0], /records was reported as \[\]; the gateway answered \[\{"maskedpan"/);
    assert.match(compareParts(kase, answered, [{ ...answered[0], records: { 0: {} } }])[0], /records was reported as/);
  });
});

describe('client conformance cases', () => {
  it('a faithful client passes every case, and its calls break no obligation', async () => {
    const results = await runClientCases(gw, { command: command('good') });
    assert.deepEqual(
      results.map((r) => r.id),
      CLIENT_CASES.map((c) => c.id),
    );
    assert.deepEqual(
      results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.problems]),
      [],
    );
    assert.deepEqual(gw.session.violations(), []);
    assert.equal(gw.session.exitCode(true), 0);
    assert.equal(gw.session.report().cases?.length, CLIENT_CASES.length);
    // each page has the exchange, masked: no password, no basic-auth header, no md in full
    const text = JSON.stringify(results);
    assert.ok(!text.includes('cardspec-password-1') && !/Basic [A-Za-z0-9+/=]{8,}/.test(text));
    assert.ok(results.every((r) => r.calls === 1 && r.exchange !== undefined));
    faithful = results;
  });

  it('the client report opens from disk in Chromium and lists every case, each with its page', async (t) => {
    assert.ok(faithful, 'needs the faithful run above');
    const mixed = [
      ...faithful.slice(0, -2),
      { ...faithful[faithful.length - 2], outcome: 'fail' as const, passed: false, problems: ['part 1 (AUTH): errorcode was reported as 0'] },
      { ...faithful[faithful.length - 1], outcome: 'informational' as const },
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-client-report-'));
    await writeClientReport(dir, mixed, { command: 'node adapter.js --password cardspec-password-1', strict: false });
    const all = fs.readdirSync(dir, { recursive: true }).map(String);
    assert.equal(all.filter((f) => f.endsWith('.html')).length, CLIENT_CASES.length + 1);
    for (const f of all) if (fs.statSync(path.join(dir, f)).isFile()) assert.ok(!fs.readFileSync(path.join(dir, f), 'utf8').includes('cardspec-password-1'), f);
    assert.match(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8'), new RegExp(`tests="${CLIENT_CASES.length}" failures="1" skipped="1"`));
    const browser = await launchChromium(t);
    if (!browser) return;
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
      const rows = await page.$$eval('#cases tr[data-case]', (els) => els.map((e) => [e.getAttribute('data-case'), e.querySelector('.outcome')?.textContent]));
      assert.deepEqual(rows.map((r) => r[0]).sort(), CLIENT_CASES.map((c) => c.id).sort());
      assert.equal(rows.filter((r) => r[1] === 'FAIL').length, 1);
      assert.equal(rows.filter((r) => r[1] === 'informational').length, 1);
      assert.match((await page.locator('h1').textContent()) ?? '', /client cases: FAIL/);
      await page.getByRole('link', { name: 'auth-60022', exact: true }).click();
      const text = (await page.locator('body').textContent()) ?? '';
      assert.match(text, /auth-60022: pass/);
      assert.match(text, /ERR-60022 \(Errors\)/);
      assert.match(text, /"errorcode": "60022"/);
      assert.match(text, /sent, not shown/);
      assert.doesNotMatch(text, /4000000000001018/);
    } finally {
      await browser.close();
    }
  });

  it('a client that hides the envelope and does not declare raw messages passes; the envelope cases are informational', async () => {
    const results = await runClientCases(gw, { command: command('parts-only'), only: ['secrand-short', 'secrand-long', 'unknown-envelope-fields', 'auth-60022'] });
    assert.deepEqual(outcomes(results), { 'auth-60022': 'pass', 'unknown-envelope-fields': 'informational', 'secrand-short': 'informational', 'secrand-long': 'informational' });
    assert.match(results.find((r) => r.id === 'auth-60022')!.notes.join(), /errormessage not compared/);
  });

  it('a localised-message SDK passes with the raw-text flag off, and fails on the message when it claims raw text', async () => {
    const ids = ['auth-60022', 'auth-70000', 'threedquery-30000', 'auth'];
    const localised = await runClientCases(gw, { command: command('localised'), only: ids });
    assert.deepEqual(failed(localised), []);
    const raw = await runClientCases(gw, { command: command('localised-raw'), only: ids });
    assert.deepEqual(failed(raw), ['auth-60022', 'auth-70000', 'threedquery-30000']);
    assert.match(byId(raw, 'auth-60022').problems[0], /errormessage was reported as "Nicht authentifiziert"; the gateway answered "Unauthenticated"/);
  });

  it('a client that reads only the first part fails the two-part cases', async () => {
    const results = await runClientCases(gw, { command: command('first-part'), only: ['subscription-not-enrolled', 'riskdec-then-auth', 'riskdec-challenge'] });
    assert.deepEqual(failed(results), ['subscription-not-enrolled', 'riskdec-then-auth']);
    assert.match(byId(results, 'subscription-not-enrolled').problems.join(), /reported 1 part\(s\); the gateway answered 2/);
  });

  it('a client that truncates md fails the enrolled cases, without the md being quoted', async () => {
    const results = await runClientCases(gw, { command: command('truncate-md'), only: ['threedquery-enrolled-Y', 'threedquery-enrolled-N', 'boundary-md-1024'] });
    assert.deepEqual(failed(results), ['threedquery-enrolled-Y', 'boundary-md-1024']);
    assert.deepEqual(byId(results, 'threedquery-enrolled-Y').problems, ['part 1 (THREEDQUERY): md was reported changed (32 characters; 64 answered): it must be kept in full, unmodified']);
    // the exchange and the adapter's answer show md, pareq and pares by length only
    assert.doesNotMatch(JSON.stringify(results), /"(md|pareq|pares)":"[A-Za-z0-9+/=]{16,}/);
    assert.match(JSON.stringify(byId(results, 'threedquery-enrolled-Y').exchange), /"md":"\(64 characters, not shown\)"/);
  });

  it('a client that turns strings into numbers, or drops lists, fails', async () => {
    const numbers = await runClientCases(gw, { command: command('numbers'), only: ['auth-60022', 'unknown-errorcode'] });
    assert.deepEqual(failed(numbers), ['auth-60022', 'unknown-errorcode']);
    assert.match(byId(numbers, 'auth-60022').problems[0], /errorcode was reported as 60022; the gateway answered "60022"/);
    const strings = await runClientCases(gw, { command: command('strings-only'), only: ['threedquery-30000', 'transactionquery', 'auth'] });
    assert.deepEqual(outcomes(strings), { 'threedquery-30000': 'fail', transactionquery: 'non-strict', auth: 'pass' });
    assert.match(byId(strings, 'threedquery-30000').problems.join(), /errordata was not reported/);
  });

  it('the envelope is compared when reported: a secrand cut short fails, one refused makes the client fail', async () => {
    const cut = await runClientCases(gw, { command: command('secrand-cut'), only: ['secrand-short', 'secrand-long'] });
    assert.deepEqual(outcomes(cut), { 'secrand-short': 'pass', 'secrand-long': 'fail' });
    assert.deepEqual(byId(cut, 'secrand-long').problems, ['envelope: secrand was reported changed (32 characters; 256 answered)']);
    const crash = await runClientCases(gw, { command: command('secrand-crash'), only: ['secrand-short', 'secrand-long', 'threedquery-enrolled-N'] });
    assert.deepEqual(failed(crash), ['secrand-short', 'secrand-long']);
    assert.deepEqual(byId(crash, 'secrand-short').problems, ['the client raised: invalid secrand']);
  });

  it('an SDK that gives an ERROR part of its own instead of raising is told how to report it', async () => {
    const results = await runClientCases(gw, { command: command('error-part'), only: ['auth', 'threedquery-enrolled-N'] });
    assert.deepEqual(failed(results), ['auth']);
    assert.match(byId(results, 'auth').problems[0], /an ERROR part of its own \("local failure"\).*\{"error": "\.\.\."\}/);
  });

  it('an SDK that sends its user name as alias fails the aliased-account case, on SEC-ALIAS', async () => {
    const fresh = await startContractGateway({ scenarios: true });
    try {
      const results = await runClientCases(fresh, { command: command('username-alias'), only: ['alias-not-username', 'auth'] });
      assert.deepEqual(failed(results), ['alias-not-username']);
      assert.match(byId(results, 'alias-not-username').problems[0], /answered errorcode 30000, not the 0 this case is about.*SEC-ALIAS/);
      assert.deepEqual(
        byId(results, 'alias-not-username').violations.map((v) => v.rule),
        ['SEC-ALIAS'],
      );
    } finally {
      await fresh.close();
    }
  });

  it('a client that refuses unknown fields fails a warning case: the gate fails only with --strict', async () => {
    const fresh = await startContractGateway({ scenarios: true });
    try {
      const results = await runClientCases(fresh, { command: command('unknown-crash'), only: ['unknown-envelope-fields', 'auth-60022'] });
      assert.deepEqual(outcomes(results), { 'auth-60022': 'pass', 'unknown-envelope-fields': 'non-strict' });
      assert.equal(fresh.session.exitCode(), 0);
      assert.equal(fresh.session.exitCode(true), 1);
    } finally {
      await fresh.close();
    }
  });

  it('an adapter that calls twice, prints nothing, or hangs fails with the reason', async () => {
    const twice = await runClientCases(gw, { command: command('two-calls'), only: ['threedquery-enrolled-N'] });
    assert.deepEqual(twice[0].problems, ['2 calls reached the gateway; a case is one call (an SDK that retries sends the request again: turn its retries off in the adapter)']);
    const pretty = await runClientCases(gw, { command: command('pretty'), only: ['threedquery-enrolled-N', 'subscription-not-enrolled'] });
    assert.deepEqual(failed(pretty), [], 'indented JSON over many lines is read too');
    const stderr = await runClientCases(gw, { command: command('stderr'), only: ['threedquery-enrolled-N'] });
    assert.match(stderr[0].problems.join(), /its standard error holds "parts": the answer goes to standard output/);
    const silent = await runClientCases(gw, { command: command('silent'), only: ['threedquery-enrolled-N'] });
    assert.deepEqual(silent[0].problems, ['the adapter printed no JSON line {"parts":[...]}']);
    const hung = await runClientCases(gw, { command: command('hang'), only: ['threedquery-enrolled-N'], timeoutMs: 1500 });
    assert.match(hung[0].problems.join('; '), /the adapter did not finish within 2 s/);
    assert.match(hung[0].problems.join('; '), /no call reached the gateway/);
    const missing = await runClientCases(gw, { command: `"${process.execPath}" /nonexistent/adapter.js`, only: ['threedquery-enrolled-N'] });
    assert.match(missing[0].problems.join('; '), /the adapter exited 1/);
  });
});
