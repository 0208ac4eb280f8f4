/** `cardspec fuzz` on the command line: usage errors are 2 and say what to fix, a replay replays, progress prints. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startGateway } from '../../src/gateway';
import { Progress } from '../../src/fuzz/progress';
import { TEST_CARDS } from '../../src/testdata';
import { fuzz } from './run';

describe('cardspec fuzz: usage', () => {
  it('--help prints the options and exits 0', async () => {
    const r = await fuzz(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /--allow-live/);
    assert.match(r.out, /--rate R/);
  });

  const usage: [string, string[], RegExp][] = [
    ['an unknown option', ['--colour'], /unknown option '--colour'/],
    ['an unknown property', ['--property', 'requests,nonsense'], /--property: unknown nonsense/],
    ['a path without a seed', ['--path', '3:0'], /give --seed too/],
    ['a path over two formats', ['--path', '3:0', '--seed', '1', '--format', 'both', '--property', 'requests'], /one --property and one --format/],
    ['a path that is not one', ['--path', 'x;rm', '--seed', '1', '--property', 'requests'], /--path must be a path/],
    ['runs that are not a number', ['--runs', 'many'], /--runs must be a whole number/],
    ['a rate of zero', ['--rate', '0'], /--rate must be/],
    ['a target that is not a URL', ['--target', 'ftp://x'], /http\(s\)/],
    ['a site that is not a test site', ['--site', 'live12345'], /not a test site.*--allow-live/],
    ['a shard past the last', ['--shard', '4/3', '--seed', '1'], /--shard must be I\/N/],
    ['a shard without a seed', ['--shard', '1/2'], /--shard needs --seed/],
  ];
  for (const [what, args, message] of usage) {
    it(`${what} is a usage error (2)`, async () => {
      const r = await fuzz(args);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, message);
      assert.equal(r.out, '');
    });
  }
});

describe('cardspec fuzz: replay', () => {
  it('replays one case of a seed against the built-in gateway and says so', async () => {
    const r = await fuzz(['--property', 'requests', '--seed', '42', '--path', '17', '--format', 'xml']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /seed 42, replaying path 17 of requests, XML/);
    assert.match(r.out, /1 sent/);
  });
});

describe('cardspec fuzz: shards', () => {
  it('three shards of one seed judge exactly the cases of one run, each once', async () => {
    const args = ['--property', 'requests', '--seed', '11', '--runs', '240', '--format', 'json'];
    // The checked/failed cells of every oracle row, and the "sent" count.
    const cells = (out: string): Map<string, number> => {
      const m = new Map<string, number>();
      for (const line of out.split('\n')) {
        const row = /^([a-z0-9-]+) +\S+ +(?:error|warning) +([0-9]+)\/([0-9]+)$/.exec(line);
        if (row) m.set(row[1], Number(row[2]));
        const sent = /\b([0-9]+) sent$/.exec(line);
        if (sent) m.set('(sent)', Number(sent[1]));
      }
      return m;
    };
    const whole = await fuzz(args);
    assert.equal(whole.code, 0, whole.out + whole.err);
    const sum = new Map<string, number>();
    for (const i of [1, 2, 3]) {
      const part = await fuzz([...args, '--shard', `${i}/3`]);
      assert.equal(part.code, 0, part.out + part.err);
      assert.match(part.out, new RegExp(`shard ${i}/3`));
      assert.match(part.out, new RegExp(`requests ${(i - 1) * 80} to ${i * 80 - 1} of 240 per format`));
      for (const [k, v] of cells(part.out)) sum.set(k, (sum.get(k) ?? 0) + v);
    }
    assert.equal(sum.get('(sent)'), 240);
    assert.deepEqual(sum, cells(whole.out));
  });
});

describe('cardspec fuzz: any target, as far as its profile goes', () => {
  it('runs what the capabilities allow and says why the rest did not run', async () => {
    const gw = await startGateway({ control: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-fuzz-'));
    const card = (c: { pan: string; expirydate: string; securitycode: string }) => ({ pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode });
    const profile = {
      name: 'no-control',
      credentials: { user: 'webservices@example.test', password: 'cardspec-password-1' },
      sites: { main: 'test_site12345' },
      cards: { authorised: card(TEST_CARDS.authorised), notEnrolled: card(TEST_CARDS.notEnrolled) },
      capabilities: { cardstore: true, fraudcontrol: true },
    };
    const file = path.join(dir, 'profile.json');
    fs.writeFileSync(file, JSON.stringify(profile));
    try {
      // Models that cannot run make the run INCOMPLETE (exit 3): --allow-incomplete gives 0, still saying so.
      const r = await fuzz(['--target', gw.url, '--profile', file, '--seed', '3', '--runs', '200', '--model-runs', '3', '--format', 'xml', '--allow-incomplete']);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^cardspec fuzz: INCOMPLETE: nothing failed, but not everything asked for was checked/m);
      assert.match(r.out, /^ {2}- model subscriptions \(XML\) did not run: the profile "no-control" lacks clock, ledger$/m);
      const alone = await fuzz(['--target', gw.url, '--profile', file, '--seed', '3', '--property', 'subscriptions', '--format', 'xml']);
      assert.equal(alone.code, 3, 'a model that could not run is not clean: ' + alone.out + alone.err);
      assert.match(alone.out, /INCOMPLETE/);
      assert.match(r.out, /200 sent/);
      assert.match(r.out, /^subscriptions +xml +0 +0 +not run: the profile "no-control" lacks clock, ledger$/m);
      assert.match(r.out, /^card-store +xml +0 +0 +not run: the profile "no-control" lacks transactionupdate$/m);
      assert.match(r.out, /^inheritance +xml +3 +[0-9]+ +ok$/m);
      assert.match(r.out, /^riskdec +xml +3 +[0-9]+ +ok$/m);
      assert.doesNotMatch(r.out, /cardspec-password-1/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await gw.close();
    }
  });
});

describe('progress', () => {
  it('redraws a bar on a terminal, prints a line now and then otherwise', () => {
    let tty = '';
    const bar = new Progress({ write: (t) => void (tty += t) }, true, 'requests JSON', 4);
    for (let i = 1; i <= 4; i++) bar.update(i, i === 4 ? 1 : 0);
    bar.end();
    assert.equal(tty.split('\r').length, 5);
    assert.match(tty, /\[#{30}\] 4\/4, 1 failing/);
    assert.ok(tty.endsWith('\n'));

    // A long run redraws every half percent, on a new failure and at the end, not on every case.
    let long = '';
    const many = new Progress({ write: (t) => void (long += t) }, true, 'requests JSON', 10_000);
    for (let i = 1; i <= 10_000; i++) many.update(i, i === 1234 ? 1 : i > 1234 ? 1 : 0);
    assert.equal(long.split('\r').length - 1, 200 + 1);
    assert.match(long, /10000\/10000, 1 failing/);

    let log = '';
    const plain = new Progress({ write: (t) => void (log += t) }, false, 'requests XML', 1000);
    for (let i = 1; i <= 1000; i++) plain.update(i);
    assert.deepEqual(log.trim().split('\n').length, 10);
    assert.doesNotMatch(log, /\r/);
  });
});
