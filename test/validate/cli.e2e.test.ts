/**
 * `cardspec validate`, run as a user runs it: `node bin/cardspec.js validate ...`, in a child process, on files
 * and on standard input. The runs are started together so that ts-node's start-up is paid in parallel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildRequestBlock } from '../../src/wire/xml';
import { example } from '../schemas/fixtures';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cardspec.js');
const PAN = '4111111111111111';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cardspec(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'validate', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-validate-'));
function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return p;
}

const sdk = example('envelopes', 'auth-sdk.request');
const numberAmount = { ...sdk, request: [{ ...(sdk.request as Record<string, unknown>[])[0], baseamount: 1050 }] };
const noUserAgent = { alias: 'a', version: '1.00', request: [{ ...example('requests', 'threedquery'), useragent: undefined }] };
const reversed = { ...example('envelopes', 'subscription.response') };
reversed.response = [...(reversed.response as unknown[])].reverse();

test('cardspec validate: exit codes, output and messages', async (t) => {
  const [ok, number, json, xml, warn, order, missing, garbage, help, unknown] = await Promise.all([
    cardspec([file('sdk.json', sdk)]),
    cardspec([file('number.json', numberAmount)]),
    cardspec(['--json', file('number2.json', numberAmount)]),
    cardspec(['-'], buildRequestBlock(sdk)),
    cardspec([file('warn.json', noUserAgent)]),
    cardspec(['--requested', 'AUTH,SUBSCRIPTION', file('order.json', reversed)]),
    cardspec([path.join(dir, 'no-such-file.json')]),
    cardspec(['-'], `{"pan": ${PAN}, "securitycode": "123"`),
    cardspec(['--help']),
    cardspec(['--frobnicate', file('sdk2.json', sdk)]),
  ]);

  await t.test('a well-formed AUTH as real SDKs send it is valid (exit 0)', () => {
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim(), 'valid request (json)');
  });

  await t.test('baseamount sent as a JSON number is reported (exit 1), with rule and section', () => {
    assert.equal(number.code, 1, number.stderr);
    const lines = number.stdout.trim().split('\n');
    assert.match(lines[0], /^request\[0\]\.baseamount {2}all-values-strings {2}.*All values in JSON requests and responses are strings.* {2}\[Resources and their fields > Common request fields\]$/);
    assert.equal(lines[1], 'invalid request (json): 1 error');
    assert.ok(!number.stdout.includes(PAN), 'no full card number in the output');
  });

  await t.test('--json prints the result as JSON', () => {
    assert.equal(json.code, 1);
    const body = JSON.parse(json.stdout) as { kind: string; format: string; valid: boolean; errors: number; violations: { field: string; rule: string }[] };
    assert.deepEqual([body.kind, body.format, body.valid, body.errors], ['request', 'json', false, 1]);
    assert.deepEqual(
      body.violations.map((v) => `${v.field} ${v.rule}`),
      ['request[0].baseamount all-values-strings'],
    );
  });

  await t.test('XML on standard input is detected and validated', () => {
    assert.equal(xml.code, 0, xml.stderr);
    assert.equal(xml.stdout.trim(), 'valid request (xml)');
  });

  await t.test('warnings alone are printed and exit 0', () => {
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stdout, /^request\[0\]\.useragent {2}recommended {2}.*\(warning\)$/m);
    assert.match(warn.stdout, /^valid request \(json\), 1 warning$/m);
  });

  await t.test('--requested checks the order of the parts', () => {
    assert.equal(order.code, 1);
    assert.match(order.stdout, /^response\[0\]\.requesttypedescription {2}part-order /m);
  });

  await t.test('an unreadable file exits 2 with what to do; a malformed body is a finding (exit 1); never a stack trace or the card number', () => {
    assert.equal(missing.code, 2, missing.stdout + missing.stderr);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /cannot read .*no-such-file\.json: no such file\. Give the path/);
    assert.equal(garbage.code, 1, garbage.stdout + garbage.stderr);
    assert.match(garbage.stdout, /^body {2}envelope {2}the body is not valid JSON/m);
    for (const r of [missing, garbage]) {
      assert.ok(!/\n\s+at /.test(r.stderr + r.stdout), r.stderr);
      assert.ok(!(r.stderr + r.stdout).includes(PAN));
    }
  });

  await t.test('--help exits 0; bad usage exits 2 with the usage', () => {
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: cardspec validate <file\|->/);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--frobnicate'/);
  });
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
