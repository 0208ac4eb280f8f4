/**
 * `cardspec proxy` and `cardspec audit` as processes: the banner names the address to point the client at, a line
 * per violation as it happens (masked), SIGTERM ends it with the report written, and the exit codes are the contract
 * gate's (0 clean, 1 violations, 3 nothing observed, 2 usage).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { startVariant } from '../../src/selfcheck/start';
import { variantNamed } from '../../src/selfcheck/gallery';
import { card, envelope, JSON_HEADERS, PAYMENT } from '../contract/helpers';

const ROOT = path.join(__dirname, '..', '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-proxy-cli-'));
const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const c of closing) await c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Running {
  readonly url: Promise<string>;
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function proxyProcess(args: string[]): Running {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), 'proxy', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let seen: ((url: string) => void) | undefined;
  const url = new Promise<string>((resolve) => (seen = resolve));
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    const m = /Point the client at (http:\/\/\S+)/.exec(stdout);
    if (m) seen?.(m[1]);
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      return { code: await exited, stdout, stderr };
    },
  };
}

async function upstreamOf(variant: string): Promise<string> {
  const gw = await startVariant(variantNamed(variant)!);
  closing.push(gw);
  return gw.url;
}

describe('cardspec proxy', () => {
  it('prints where to point the client, a line per violation, and on SIGTERM the report (exit 1)', async () => {
    const report = path.join(dir, 'proxy.json');
    const record = path.join(dir, 'capture.jsonl');
    const p = proxyProcess(['--upstream', await upstreamOf('maskedpan-stars'), '--report', report, '--record', record]);
    const url = await p.url;
    const res = await fetch(`${url}/json/`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })) });
    assert.equal(res.status, 200);
    await res.text();
    const r = await p.stop();
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /#1 \[gateway\] ERROR FIELD-MASKEDPAN/);
    assert.match(r.stdout, /cardspec proxy report: FAIL/);
    const written = JSON.parse(fs.readFileSync(report, 'utf8')) as { kind: string; violations: { errors: number } };
    assert.equal(written.kind, 'cardspec-proxy-report');
    assert.equal(written.violations.errors, 1);
    for (const text of [r.stdout, r.stderr, fs.readFileSync(report, 'utf8'), fs.readFileSync(record, 'utf8')]) assert.doesNotMatch(text, /4111111111111111/);
    // The capture, audited: the same finding, exit 1.
    const audit = await run(['audit', '--quiet', record]);
    assert.equal(audit.code, 1, audit.stdout + audit.stderr);
    assert.match(audit.stdout, /\[gateway\] FIELD-MASKEDPAN: 1 error/);
  });

  it('exits 3 when no call went through, and says where the client should have been pointed', async () => {
    const p = proxyProcess(['--upstream', await upstreamOf('maskedpan-first-four')]);
    const url = await p.url;
    const r = await p.stop();
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`nothing was checked: exit 3\\. Point the client at ${url.replace(/[.]/g, '\\.')}`));
  });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('cardspec audit', () => {
  it('a file that is no capture is a usage error (exit 2), an empty HAR is nothing observed (exit 3)', async () => {
    const other = path.join(dir, 'other.txt');
    fs.writeFileSync(other, 'hello');
    assert.equal((await run(['audit', other])).code, 2);
    const empty = path.join(dir, 'empty.har');
    fs.writeFileSync(empty, JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const r = await run(['audit', empty]);
    assert.equal(r.code, 3, r.stdout + r.stderr);
  });
});
