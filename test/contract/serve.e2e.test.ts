/**
 * `cardspec serve --contract` through the real CLI, as a CI job runs it: serve in the background, run the client,
 * stop with a signal, and gate on the exit status (1 when the client broke an obligation, else 0), with the report
 * written to `--report FILE`. And the client cases through the example adapter (`--client-cmd`).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { card, envelope, JSON_HEADERS, PAYMENT, SITE } from './helpers';
import { serveInProcess } from '../gateway/helpers';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cardspec.js');
const dir = mkdtempSync(join(tmpdir(), 'cardspec-contract-'));

/** Starts `cardspec serve` with the arguments, resolves with its URL once it serves. */
function start(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', () => {
      const m = /JSON\s+POST (http:\/\/127\.0\.0\.1:[0-9]+)(?:\/[^\s]*)?\/json\//.exec(out);
      if (m && out.includes('Serving until')) resolve({ child, url: m[1], output: () => out, exit });
    });
    void exit.then((code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const post = (url: string, request: Record<string, unknown>): Promise<Response> => fetch(`${url}/json/`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(envelope(request)) });

describe('cardspec serve --contract', () => {
  it('gates a CI job: violations exit 1 after SIGTERM, with the report written and masked', async () => {
    const file = join(dir, 'report.json');
    const s = await start(['--contract', '--report', file]);
    assert.match(s.output(), /Contract: every request is checked/);
    const res = await post(s.url, { requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised') });
    const body = (await res.json()) as { response: { errorcode: string }[] };
    assert.equal(body.response[0].errorcode, '30000', 'answered as the reference gateway answers');
    s.child.kill('SIGTERM');
    assert.equal(await s.exit, 1, s.output());
    const report = JSON.parse(readFileSync(file, 'utf8')) as { passed: boolean; violations: { list: { rule: string }[] } };
    assert.equal(report.passed, false);
    assert.deepEqual(
      report.violations.list.map((v) => v.rule),
      ['FIELD-SECURITYCODE-NOT-IN-STORE'],
    );
    assert.match(s.output(), /cardspec contract report: FAIL/);
    assert.doesNotMatch(s.output() + readFileSync(file, 'utf8'), /4111111111111111|cardspec-password-1/);
  });

  it('passes a well-behaved client: exit 0 after SIGINT even with --strict, text report', async () => {
    const file = join(dir, 'report.txt');
    const s = await start(['--contract', '--strict', '--report', file]);
    const res = await post(s.url, { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });
    assert.equal(((await res.json()) as { response: { errorcode: string }[] }).response[0].errorcode, '0');
    s.child.kill('SIGINT');
    assert.equal(await s.exit, 0, s.output());
    assert.match(readFileSync(file, 'utf8'), /^cardspec contract report: PASS \(0 errors, 0 warnings\)/);
  });

  it('runs the client cases through the example adapter and exits with their verdict', async () => {
    const file = join(dir, 'cases.json');
    const adapter = `"${process.execPath}" -r ts-node/register/transpile-only "${join(ROOT, 'examples', 'payments-client', 'adapter.ts')}"`;
    const child = spawn(process.execPath, [BIN, 'serve', '--client-cmd', adapter, '--cases', 'threedquery-enrolled-Y,auth-60022', '--report', file], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, out);
    assert.match(out, /\[pass\] threedquery-enrolled-Y/);
    assert.match(out, /\[pass\] auth-60022/);
    const report = JSON.parse(readFileSync(file, 'utf8')) as { cases: { id: string; passed: boolean }[] };
    assert.deepEqual(
      report.cases.map((c) => [c.id, c.passed]),
      [
        ['threedquery-enrolled-Y', true],
        ['auth-60022', true],
      ],
    );
  });

  it('writes the client report into --report DIR: an index, a page per case, JUnit, the results and the contract report', async () => {
    const out = join(dir, 'client-report');
    const adapter = `CARDSPEC_FIXTURE_MODE=parts-only "${process.execPath}" "${join(ROOT, 'test', 'contract', 'fixtures', 'adapter.js')}"`;
    const child = spawn(process.execPath, [BIN, 'serve', '--client-cmd', adapter, '--cases', 'auth,secrand-long', '--report', out], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, text);
    assert.match(text, /\[pass\]\s+1\/2 auth/);
    assert.match(text, /\[info\]\s+2\/2 secrand-long/);
    assert.match(text, /Client report written to .*index\.html/);
    assert.match(text, /Client cases: 1 of 2 passed, 1 informational \(not observable through the adapter\)/);
    assert.match(text, /\[info\] secrand-long/);
    for (const f of ['index.html', 'junit.xml', 'cases.json', 'contract.json', join('cases', 'auth.html'), join('cases', 'secrand-long.html')]) assert.ok(existsSync(join(out, f)), f);
    const cases = JSON.parse(readFileSync(join(out, 'cases.json'), 'utf8')) as { cases: { id: string; outcome: string }[] };
    assert.deepEqual(
      cases.cases.map((c) => [c.id, c.outcome]),
      [
        ['auth', 'pass'],
        ['secrand-long', 'informational'],
      ],
    );
  });

  it('stopped by SIGTERM while an adapter hangs: the adapter is ended, the report of the cases run written, exit 3', async () => {
    const out = join(dir, 'interrupted');
    const pidFile = join(dir, 'adapter.pid');
    // An adapter that records its pid and never answers.
    const adapter = `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)" "${pidFile}"`;
    const child = spawn(process.execPath, [BIN, 'serve', '--client-cmd', adapter, '--cases', 'auth,store', '--report', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const written = (): boolean => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '';
    // Bounded by a guard, not a speed: serve and the adapter are two node starts on cores other test files share.
    for (let i = 0; i < 3000 && !written(); i++) await new Promise((r) => setTimeout(r, 100));
    const adapterPid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(adapterPid > 0, text);
    child.kill('SIGTERM');
    assert.equal(await exit, 3, text);
    assert.match(text, /Client cases: interrupted after 1 of 2 cases/);
    const results = (JSON.parse(readFileSync(join(out, 'cases.json'), 'utf8')) as { cases: unknown[] }).cases;
    assert.equal(results.length, 1);
    assert.match(JSON.stringify(results), /interrupted: cardspec was stopped while the adapter ran this case/);
    // Gone, or a zombie waiting for its reaper (killed, not running): /proc tells the two apart where there is one.
    const running = (): boolean => {
      try {
        process.kill(adapterPid, 0);
      } catch {
        return false;
      }
      const status = `/proc/${adapterPid}/status`;
      return !existsSync(status) || !/^State:\s+Z/m.test(readFileSync(status, 'utf8'));
    };
    for (let i = 0; i < 300 && running(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(running(), false, 'the adapter is not left running');
  });

  it('--base-path: a client configured with <url>/api passes; one posting beside it fails the gate on TRANSPORT-JSON-PATH', async () => {
    const file = join(dir, 'base.json');
    const s = await start(['--contract', '--base-path', '/api', '--report', file]);
    assert.match(s.output(), /JSON\s+POST http:\/\/127\.0\.0\.1:[0-9]+\/api\/json\//);
    const ok = await post(`${s.url}/api`, { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });
    assert.equal(((await ok.json()) as { response: { errorcode: string }[] }).response[0].errorcode, '0');
    assert.equal((await post(s.url, { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })).status, 404);
    s.child.kill('SIGINT');
    assert.equal(await s.exit, 1, s.output());
    const report = JSON.parse(readFileSync(file, 'utf8')) as { requests: { answered: number }; violations: { list: { rule: string }[] } };
    assert.equal(report.requests.answered, 1);
    assert.deepEqual(
      report.violations.list.map((v) => v.rule),
      ['TRANSPORT-JSON-PATH'],
    );
  });

  it('no request reached the gate (the client pointed elsewhere): nothing was checked, exit 3 rather than a pass', async () => {
    const s = await start(['--contract']);
    // Reading the report is not a client's request (and lets the server reach its event loop before the signal).
    assert.equal(((await (await fetch(`${s.url}/_cardspec/contract`)).json()) as { requests: { total: number } }).requests.total, 0);
    s.child.kill('SIGTERM');
    assert.equal(await s.exit, 3, s.output());
    assert.match(s.output(), /no request reached the stand-in gateway, so nothing was checked: exit 3/);
  });

  it('refuses contract options that do not fit, with exit 2 and the reason', async () => {
    const { run, restore } = serveInProcess();
    try {
      const help = await run('--help');
      assert.equal(help.code, 0);
      assert.match(help.text, /--contract[\s\S]*--report FILE[\s\S]*--strict[\s\S]*--client-cmd CMD/);
      assert.match((await run('--report', 'x.json')).text, /--report need --contract/);
      assert.equal((await run('--strict')).code, 2);
      assert.match((await run('--cases', 'auth-60022')).text, /--cases need --client-cmd/);
      const unknown = await run('--client-cmd', 'true', '--cases', 'auth-60022,no-such-case');
      assert.equal(unknown.code, 2);
      assert.match(unknown.text, /unknown case\(s\) no-such-case/);
      assert.equal((await run('--client-cmd', 'true', '--case-timeout', '0')).code, 2);
      assert.equal((await run('--client-cmd', ' ')).code, 2);
      const list = await run('--list-cases');
      assert.equal(list.code, 0);
      assert.match(list.text, /alias-not-username[\s\S]*\d+ cases/);
    } finally {
      restore();
    }
  });
});
