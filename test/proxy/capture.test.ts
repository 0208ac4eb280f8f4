/**
 * Captured traffic: the proxy's `--record` capture is written masked and audited to the same findings as the live
 * session; a HAR 1.2 file is read (session included), and what it holds that a capture must not is reported by
 * where it is, never by its value.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { auditFiles, CaptureError, CaptureWriter, observedJunitXml, proxyReportJson, proxyReportText, readCapture } from '../../src/proxy';
import { AUTH_HEADER, card, JSON_HEADERS, PAYMENT, SITE, USER } from '../contract/helpers';
import { throughProxy } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-capture-'));
const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const c of closing) await c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PAN = '4111111111111111';
const gatewayRules = (r: ReturnType<typeof auditFiles>['report']): string[] => r.violations.byRule.filter((b) => b.side === 'gateway').map((b) => `${b.rule} ${b.errors}`);

describe('the proxy capture', () => {
  it('is written masked, and its audit finds what the live session found', async () => {
    const file = path.join(dir, 'live.jsonl');
    const record = new CaptureWriter(file);
    const p = await throughProxy('parent-not-echoed', { record });
    closing.push(p);
    const store = await p.client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    await p.client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'c', parenttransactionreference: store.transactionreference });
    await p.client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'd', ...card('authorised') });
    await p.proxy.settled();
    record.close();
    const text = fs.readFileSync(file, 'utf8');
    assert.doesNotMatch(text, new RegExp(PAN), 'no full card number');
    assert.doesNotMatch(text, /"securitycode":"123"/, 'no security code');
    assert.doesNotMatch(text, new RegExp(AUTH_HEADER.split(' ')[1]), 'no basic-auth token');
    assert.doesNotMatch(text, new RegExp(USER.password), 'no password');
    const live = p.proxy.session.report();
    const audited = auditFiles([file]);
    assert.deepEqual(gatewayRules(audited.report), gatewayRules(live));
    assert.deepEqual(gatewayRules(audited.report), ['INHERIT-PARENT-ECHO 1']);
    assert.equal(audited.report.violations.bySide.client.errors, 0, 'a masked card number is checked as a number of its length, not as a fault');
    assert.equal(audited.exitCode, 1);
    assert.equal(audited.report.exchanges.checked, live.exchanges.checked);
  });
});

/** A HAR 1.2 file as a browser exports it, from request/answer pairs. */
function har(entries: { body: unknown; answer: unknown; headers?: Record<string, string> }[]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: entries.map((e) => ({
        startedDateTime: '2026-01-05T09:00:00.000Z',
        time: 12,
        request: {
          method: 'POST',
          url: 'https://sandbox.example/json/',
          httpVersion: 'HTTP/1.1',
          headers: Object.entries(e.headers ?? JSON_HEADERS).map(([name, value]) => ({ name, value })),
          postData: { mimeType: 'application/json', text: JSON.stringify(e.body) },
        },
        response: { status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: 'application/json' }], content: { size: 1, mimeType: 'application/json', text: JSON.stringify(e.answer) } },
      })),
    },
  });
}

const answer = (parts: object[], secrand: string): object => ({ requestreference: 'W1', version: '1.00', secrand, response: parts });

describe('a HAR file', () => {
  it('is audited, session included, and its secrets are reported by where they are, never repeated', () => {
    const file = path.join(dir, 'shop.har');
    fs.writeFileSync(
      file,
      har([
        {
          body: {
            alias: USER.alias,
            version: '1.00',
            request: [{ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's', accounttypedescription: 'CARDSTORE', pan: PAN, expirydate: '12/2031' }],
          },
          answer: answer(
            [{ requesttypedescription: 'STORE', errorcode: '0', errormessage: 'Ok', transactionreference: '12-9-1001', maskedpan: '411111######1111', orderreference: 's', transactionactive: '1' }],
            'a8s7d6f5g4h3',
          ),
        },
        {
          body: { alias: USER.alias, version: '1.00', request: [{ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'c', parenttransactionreference: '12-9-1001' }] },
          // The child's answer drops parenttransactionreference: a session finding.
          answer: answer(
            [{ requesttypedescription: 'AUTH', errorcode: '0', errormessage: 'Ok', transactionreference: '12-9-1002', ...PAYMENT, orderreference: 'c', authcode: 'A1', acquirerresponsecode: '00' }],
            'q1w2e3r4t5y6',
          ),
        },
      ]),
    );
    const read = readCapture(file);
    assert.equal(read.kind, 'har');
    assert.equal(read.exchanges.length, 2);
    const result = auditFiles([file]);
    assert.ok(gatewayRules(result.report).includes('INHERIT-PARENT-ECHO 1'), JSON.stringify(result.report.violations.byRule));
    assert.deepEqual(
      result.leaks.map((l) => l.what),
      ['an Authorization header (credentials)', 'a full card number', 'an Authorization header (credentials)'],
    );
    assert.equal(result.leaks[1].where, `${file} entry 1 request body`);
    const junit = observedJunitXml(result.report, { command: 'audit', target: file });
    assert.match(
      junit,
      /<testcase classname="Observed traffic \(cardspec audit\)" name="INHERIT-PARENT-ECHO in the observed traffic \[json\]"[^>]*>(?:(?!<\/testcase>)[\s\S])*<failure message="Broke INHERIT-PARENT-ECHO:/,
    );
    assert.doesNotMatch(junit, /name="ACS-TO-MERCHANT in the observed traffic/, 'a rule never observed has no testcase of its own');
    assert.match(junit, /<testsuites name="cardspec" tests="[0-9]+" failures="[1-9][0-9]*"/);
    const shown = proxyReportText(result.report, { all: true }) + proxyReportJson(result.report) + JSON.stringify(result.leaks) + junit;
    assert.doesNotMatch(shown, new RegExp(PAN));
    assert.doesNotMatch(shown, new RegExp(AUTH_HEADER.split(' ')[1]));
  });

  it('that is not a capture is refused with the reason', () => {
    const file = path.join(dir, 'other.json');
    fs.writeFileSync(file, '{"not": "a har"}');
    assert.throws(
      () => readCapture(file),
      (e: unknown) => e instanceof CaptureError && /not a HAR file/.test(e.message),
    );
  });

  it('with no call to the interface: nothing observed (exit 3)', () => {
    const file = path.join(dir, 'empty.har');
    fs.writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const result = auditFiles([file]);
    assert.equal(result.exitCode, 3);
    assert.match(
      observedJunitXml(result.report, { command: 'audit', target: file }),
      /<error message="INCOMPLETE: nothing observed: no call to the interface \(\/json\/, \/xml\/\) is in the capture/,
      'a JUnit file of no failures never passes a gate for nothing checked',
    );
  });
});
