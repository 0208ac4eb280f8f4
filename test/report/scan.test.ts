import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { luhnValid, redactText } from '../../src/redact';
import { scanFolder, scanText } from '../../src/report/scan';

const CRED = { user: 'merchant@example.test', password: 'Tr0ub4dor&3' };

function kinds(text: string): string[] {
  return scanText(text, 'text', { credentials: [CRED] }).map((l) => l.kind);
}

test('finds a full card number, and never shows it', () => {
  const leaks = scanText('line one\npaid with 4111111111111111 today', 'log');
  assert.equal(leaks.length, 1);
  assert.deepEqual({ kind: leaks[0].kind, line: leaks[0].line, column: leaks[0].column, found: leaks[0].found }, { kind: 'card-number', line: 2, column: 11, found: '411111######1111' });
});

test('finds a security code in JSON, escaped JSON, XML, escaped XML and form encoding', () => {
  assert.deepEqual(kinds('{"securitycode":"123"}'), ['security-code']);
  assert.deepEqual(kinds('{"body":"{\\"securitycode\\":\\"1234\\"}"}'), ['security-code']);
  assert.deepEqual(kinds('<payment><securitycode>123</securitycode></payment>'), ['security-code']);
  assert.deepEqual(kinds('"\\x3Csecuritycode>123\\x3C/securitycode>"'), ['security-code']);
  assert.deepEqual(kinds('pan=x&securitycode=123&expirydate=12%2F2031'), ['security-code']);
  assert.deepEqual(kinds('securityCode: 987'), ['security-code']);
});

test('finds the password, its basic-auth token and an Authorization header value', () => {
  const token = Buffer.from(`${CRED.user}:${CRED.password}`).toString('base64');
  assert.deepEqual(kinds(`password was ${CRED.password}`), ['password']);
  assert.deepEqual(kinds(`Authorization: Basic ${token}`), ['authorization', 'password']);
  assert.deepEqual(kinds('{"authorization":"Bearer abc.def.ghi"}'), ['authorization']);
});

test('what the masking leaves is not a finding', () => {
  const masked = redactText(
    `{"pan":"4111111111111111","securitycode":"123"} <securitycode>4567</securitycode> Authorization: Basic ${Buffer.from(`${CRED.user}:x`).toString('base64')} securitycode=321`,
  );
  assert.deepEqual(kinds(masked), []);
  assert.deepEqual(kinds('"maskedpan":"411111######1111"'), []);
});

test('numbers that are not card numbers are not findings', () => {
  // Not Luhn-valid; a security check result (one digit); a millisecond timestamp; digits inside an MD5 and a UUID.
  assert.deepEqual(kinds('4111111111111112 "securityresponsesecuritycode":"2" <security><securitycode>x</securitycode></security>'), []);
  const luhnMillis = ['1767603600000', '1767603600001', '1767603600002', '1767603600003', '1767603600004', '1767603600005', '1767603600006', '1767603600007', '1767603600008', '1767603600009'];
  assert.ok(luhnMillis.some(luhnValid));
  assert.deepEqual(kinds(luhnMillis.map((m) => `"start":${m}`).join(',')), []);
  const md5 = 'abcd4111111111111111abcdefabcdef';
  assert.equal(md5.length, 32);
  assert.deepEqual(kinds(`"historyId":"${md5}" uuid 2b1c3d4e-1111-2222-3333-411111111117`), []);
});

test('scans every file of a folder, and says which are binary', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-scan-'));
  try {
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'clean.json'), '{"maskedpan":"411111######1111"}');
    fs.writeFileSync(path.join(dir, 'sub', 'leak.xml'), '<securitycode>123</securitycode>');
    fs.writeFileSync(path.join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const r = scanFolder(dir);
    assert.equal(r.files, 3);
    assert.deepEqual(r.binary, [path.join(dir, 'image.png')]);
    assert.deepEqual(
      r.leaks.map((l) => [path.relative(dir, l.source), l.kind]),
      [[path.join('sub', 'leak.xml'), 'security-code']],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
