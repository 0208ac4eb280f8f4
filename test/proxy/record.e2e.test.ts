/**
 * `cardspec proxy --record x.har --reports DIR` and `cardspec audit x.har --reports DIR` as processes, in front of a
 * faulty variant on loopback: the HAR and run's reports (matrix, summary, certificate, JUnit, Allure) are written on
 * SIGTERM, the audit of the HAR gives the same verdict with its own reports, and none of the files holds the card
 * number, security code, password or Authorization header the client sent.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Matrix, Summary } from '../../src/report/model';
import { startVariant } from '../../src/selfcheck/start';
import { variantNamed } from '../../src/selfcheck/gallery';
import { TEST_CARDS } from '../../src/testdata';
import { card, envelope, JSON_HEADERS, PAYMENT, USER } from '../contract/helpers';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'bin', 'cardspec.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-proxy-record-'));
const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const c of closing) await c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function files(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)]));
}

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

describe('cardspec proxy --record x.har --reports DIR, then cardspec audit', () => {
  it('writes the HAR and the reports on SIGTERM; the audit of the HAR agrees; no secret in any file', async () => {
    const gw = await startVariant(variantNamed('maskedpan-stars')!);
    closing.push(gw);
    const har = path.join(dir, 'traffic.har');
    const reports = path.join(dir, 'proxy-reports');
    const child = spawn(process.execPath, [CLI, 'proxy', '--upstream', gw.url, '--record', har, '--reports', reports], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const url = new Promise<string>((resolve) =>
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
        const m = /Point the client at (http:\/\/\S+)/.exec(stdout);
        if (m) resolve(m[1]);
      }),
    );
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const res = await fetch(`${await url}/json/`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })) });
    assert.equal(res.status, 200);
    await res.text();
    child.kill('SIGTERM');
    assert.equal(await exited, 1, stdout + stderr);
    assert.match(stdout, /Reports \(matrix, summary\.html, junit\.xml, allure-results\) written to/);

    const entries = read<{ log: { version: string; entries: unknown[] } }>(har).log;
    assert.equal(entries.version, '1.2');
    assert.equal(entries.entries.length, 1);
    const summary = read<Summary>(path.join(reports, 'summary.json'));
    assert.equal(summary.result, 'failed');
    assert.ok(summary.causes.some((c) => c.rule === 'FIELD-MASKEDPAN'));
    const matrix = read<Matrix>(path.join(reports, 'matrix.json'));
    assert.equal(matrix.rules.find((r) => r.id === 'FIELD-MASKEDPAN')?.overall.verdict, 'failed');
    for (const f of ['summary.html', 'matrix.html', 'junit.xml', 'allure-results/environment.properties']) assert.ok(fs.existsSync(path.join(reports, f)), f);

    const audited = path.join(dir, 'audit-reports');
    const audit = await run(['audit', '--quiet', har, '--reports', audited]);
    assert.equal(audit.code, 1, audit.stdout + audit.stderr);
    assert.doesNotMatch(audit.stdout, /holds what a capture must not/, 'the proxy HAR holds no secret');
    const again = read<Summary>(path.join(audited, 'summary.json'));
    assert.equal(again.result, 'failed');
    assert.deepEqual(
      again.causes.map((c) => c.rule),
      summary.causes.map((c) => c.rule),
    );

    const c = TEST_CARDS.authorised;
    const secrets = [c.pan, `"securitycode":"${c.securitycode}"`, `\\"securitycode\\":\\"${c.securitycode}\\"`, USER.password, Buffer.from(`${USER.username}:${USER.password}`).toString('base64')];
    for (const f of [har, ...files(reports), ...files(audited)]) {
      const text = fs.readFileSync(f, 'utf8');
      for (const s of secrets) assert.ok(!text.includes(s), `${path.relative(dir, f)} holds a secret the client sent`);
    }
    for (const text of [stdout, stderr, audit.stdout, audit.stderr]) for (const s of secrets) assert.ok(!text.includes(s));
  });
});
