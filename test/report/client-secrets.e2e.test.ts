/**
 * "No secret leaves the run" (principle 4) with a client nobody here wrote: an SDK that sends the card number and
 * the security code under its own keys (`cvv`, `card.cvc`, `cardNumber` in groups, `card_number` not Luhn-valid,
 * `PAN`, `securityCode`) besides the document's, and logs them, the basic-auth header and the password. The real
 * paths run: `cardspec serve --client-cmd` (the client report folder and the console), `cardspec serve --contract
 * --log --report` (the log, the contract report as text and JSON) and the nock entry (`cardspec/nock`: its report
 * and its assertion message). Every file written and every line printed is scanned; with masking switched off the
 * same scan finds the values, so it would see a leak.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeLeak, scanFolder, scanText, type Leak, type ScanOptions } from '../../src/report/scan';
import { DEFAULT_CONFIG } from '../../src/testdata';

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'bin', 'cardspec.js');
const ADAPTER = path.join(__dirname, 'fixtures', 'leaky-adapter.js');
const USER = DEFAULT_CONFIG.users[0];
const SCAN: ScanOptions = { credentials: [{ user: USER.username, password: USER.password }] };
/** The adapter's values (test/report/fixtures/leaky-adapter.js), each of which must never be written. */
const VALUES = ['4000000000000002', '4111 1111 1111 1111', '5100000000000512'];

const kinds = (leaks: readonly Leak[]): string[] => [...new Set(leaks.map((l) => l.kind))].sort();

function env(unsafe: boolean): NodeJS.ProcessEnv {
  const e = { ...process.env };
  delete e.CARDSPEC_UNSAFE_NO_REDACTION;
  if (unsafe) e.CARDSPEC_UNSAFE_NO_REDACTION = '1';
  return e;
}

/** Runs `cardspec <args>` to its end (or until `whenUp` has run and SIGTERM stopped it); everything it printed. */
async function cardspec(args: string[], e: NodeJS.ProcessEnv, whenUp?: (base: string) => Promise<void>): Promise<{ out: string; code: number | null }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // A guard, not a speed: two cores shared with other test files can make a start take long.
  const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  try {
    if (whenUp) {
      // Its address when it prints it; undefined if it exits first.
      const base = await new Promise<string | undefined>((resolve) => {
        const address = (): string | undefined => /JSON\s+POST (http:\/\/127\.0\.0\.1:\d+)\/json\//.exec(out)?.[1];
        child.stdout.on('data', () => {
          if (address()) resolve(address());
        });
        void closed.then(() => resolve(address()));
      });
      assert.ok(base, `cardspec serve did not start:\n${out}`);
      try {
        await whenUp(base);
      } finally {
        child.kill('SIGTERM');
      }
    }
    return { out, code: await closed };
  } finally {
    clearTimeout(timer);
  }
}

/** The leaky client's request, as the adapter builds it: the document's fields and its own. */
function leakyEnvelope(): string {
  return JSON.stringify({
    alias: USER.alias,
    version: '1.00',
    request: [
      {
        requesttypedescriptions: ['AUTH'],
        sitereference: 'test_site12345',
        accounttypedescription: 'ECOM',
        currencyiso3a: 'GBP',
        baseamount: '100',
        orderreference: 'o-1',
        pan: '4000000000000002',
        expirydate: '12/2031',
        securitycode: '123',
        cvv: '739',
        securityCode: '8461',
        card: { cvc: '8461', cardNumber: '4111 1111 1111 1111', card_cvv: 739 },
        card_number: '5100000000000512',
        PAN: '4000000000000002',
      },
    ],
  });
}

const basic = `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`;

async function clientCases(unsafe: boolean): Promise<{ dir: string; out: string; code: number | null }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-client-secrets-'));
  const r = await cardspec(['serve', '--client-cmd', `"${process.execPath}" "${ADAPTER}"`, '--cases', 'auth,store,accountcheck', '--report', dir], env(unsafe));
  return { dir, ...r };
}

test('serve --client-cmd with an SDK that sends and logs secrets under its own keys: no report file nor console line holds one', async () => {
  const safe = await clientCases(false);
  const unsafe = await clientCases(true);
  try {
    assert.ok(fs.existsSync(path.join(safe.dir, 'index.html')), `no client report; cardspec said:\n${safe.out.slice(-2000)}`);
    assert.ok(fs.existsSync(path.join(safe.dir, 'cases', 'auth.html')));
    const scan = scanFolder(safe.dir, SCAN);
    assert.ok(scan.files >= 6, `scanned ${scan.files} files`);
    assert.deepEqual(scan.leaks.map(describeLeak), []);
    assert.deepEqual(scanText(safe.out, 'console', SCAN).map(describeLeak), []);
    const written = fs.readdirSync(safe.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const e of written) {
      const text = fs.readFileSync(path.join(e.parentPath, e.name), 'utf8');
      for (const v of VALUES) assert.ok(!text.includes(v), `${e.name} holds ${v.slice(0, 4)}...`);
    }
    // The page still says what the client sent: its keys are there, their values masked.
    const page = fs.readFileSync(path.join(safe.dir, 'cases', 'auth.html'), 'utf8');
    assert.match(page, /cardNumber&quot;: &quot;411111######1111/);
    assert.match(page, /cvv&quot;: &quot;\*\*\*/);

    // With masking off, the same scan sees every kind the adapter leaks, in the report folder and on the console.
    const leaks = scanFolder(unsafe.dir, SCAN).leaks;
    assert.deepEqual(kinds(leaks), ['authorization', 'card-number', 'password', 'security-code'], leaks.slice(0, 20).map(describeLeak).join('\n'));
    assert.ok(
      leaks.some((l) => l.kind === 'security-code' && /under (cvv|cvc|card_cvv|securityCode)/.test(l.found)),
      'a security code under a client key is seen',
    );
    assert.ok(
      leaks.some((l) => l.kind === 'card-number' && /under card_number/.test(l.found)),
      'a card number that is not Luhn-valid is seen under its key',
    );
  } finally {
    fs.rmSync(safe.dir, { recursive: true, force: true });
    fs.rmSync(unsafe.dir, { recursive: true, force: true });
  }
});

async function contractGate(unsafe: boolean): Promise<{ out: string; files: Record<string, string> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-contract-secrets-'));
  try {
    const send = async (base: string): Promise<void> => {
      for (const [p, body, type] of [
        ['/json/', leakyEnvelope(), 'application/json'],
        [`/json/?cardNumber=5100000000000512&cvv=739&auth=${basic.slice('Basic '.length)}`, leakyEnvelope(), 'application/json'],
        ['/json/', leakyEnvelope().slice(0, 400), 'application/json'],
      ] as const) {
        const r = await fetch(`${base}${p}`, { method: 'POST', headers: { authorization: basic, 'content-type': type, accept: 'application/json' }, body });
        await r.text();
      }
    };
    let json = '';
    const run = await cardspec(['serve', '--contract', '--log', '--port', '0', '--report', path.join(dir, 'contract.txt')], env(unsafe), async (base) => {
      await send(base);
      json = await (await fetch(`${base}/_cardspec/contract`)).text();
    });
    const files = Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
    return { out: run.out, files: { ...files, 'GET /_cardspec/contract': json } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('serve --contract --log --report with such a client: the log and the contract reports hold no secret', async () => {
  const safe = await contractGate(false);
  assert.deepEqual(Object.keys(safe.files).sort(), ['GET /_cardspec/contract', 'contract.txt']);
  assert.match(safe.files['GET /_cardspec/contract'], /cardspec-contract-report/);
  assert.match(safe.out, /POST \/json\/ 200/);
  const leaks = [scanText(safe.out, 'console', SCAN), ...Object.entries(safe.files).map(([f, t]) => scanText(t, f, SCAN))].flat();
  assert.deepEqual(leaks.map(describeLeak), []);
  for (const v of VALUES) assert.ok(!safe.out.includes(v) && !Object.values(safe.files).some((t) => t.includes(v)));
  const unsafe = await contractGate(true);
  assert.ok(kinds(scanText(unsafe.out, 'console', SCAN)).includes('card-number'), 'with masking off the log shows the card number of the path');
});

test('the nock entry with such a client: its report and its assertion message hold no secret', async () => {
  const { interceptGateway } = await import('../../src/nock');
  const scope = interceptGateway({ strict: true });
  try {
    for (const body of [leakyEnvelope(), leakyEnvelope().replace('"AUTH"', '"STORE"')]) {
      const r = await fetch(`${scope.host}/json/`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body });
      await r.text();
    }
    const message = (() => {
      try {
        scope.done();
        return '';
      } catch (err) {
        return String(err);
      }
    })();
    assert.match(message, /broke its contract/);
    const texts = { message, report: JSON.stringify(scope.report()), violations: JSON.stringify(scope.violations()) };
    for (const [name, text] of Object.entries(texts)) {
      assert.deepEqual(scanText(text, name, SCAN).map(describeLeak), []);
      for (const v of VALUES) assert.ok(!text.includes(v), `${name} holds ${v.slice(0, 4)}...`);
    }
  } finally {
    scope.restore();
  }
});
