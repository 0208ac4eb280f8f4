/**
 * One option vocabulary (issue 28): one reader of whole numbers and one of durations for every command, fuzz's old
 * `--timeout MS` still read with a one-line notice, one loopback check, one list of the kit-problem statuses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { durationOption, UsageError, wholeNumberOption } from '../../src/cli/options';
import { runCommand as fuzzCommand } from '../../src/cli/fuzz';
import { isLoopbackHost } from '../../src/client/safety';
import { isKitProblem } from '../../src/suite';

/** Thrown as a usage error (exit 2 with the usage text) with this message. */
const usage =
  (re: RegExp) =>
  (e: unknown): boolean =>
    e instanceof UsageError && re.test(e.message);

describe('durationOption', () => {
  it('reads 15s, 500ms, 2m and plain seconds as milliseconds', () => {
    assert.equal(durationOption('timeout', '15s'), 15_000);
    assert.equal(durationOption('timeout', '500ms'), 500);
    assert.equal(durationOption('timeout', '2m'), 120_000);
    assert.equal(durationOption('timeout', '90'), 90_000);
    assert.equal(durationOption('timeout', '1.5'), 1500);
  });

  it('refuses what is not a duration, zero, and more than its limit, naming the option and the limit', () => {
    for (const bad of ['', 'soon', '-1s', '0', '1h', '15 sec'])
      assert.throws(() => durationOption('max-time', bad), usage(/^--max-time must be a duration such as 15s, 500ms or 2m \(at most 24 hours\)/));
    assert.throws(
      () => durationOption('timeout', '11m', 600_000),
      (e: Error) => e instanceof UsageError && /at most 10 minutes\), not "11m"/.test(e.message),
    );
    assert.equal(durationOption('timeout', '10m', 600_000), 600_000);
  });
});

describe('wholeNumberOption', () => {
  it('reads a whole number in its range, or the default when absent', () => {
    assert.equal(wholeNumberOption('runs', undefined, 7, 1, 10), 7);
    assert.equal(wholeNumberOption('runs', '10', 7, 1, 10), 10);
    assert.equal(wholeNumberOption('parallel', '0', 0, 0, 64), 0);
  });

  it('refuses anything else in one wording', () => {
    for (const bad of ['11', '0', '1.5', 'two', '', '-3', '1e2'])
      assert.throws(() => wholeNumberOption('runs', bad, 7, 1, 10), usage(new RegExp(`^--runs must be a whole number from 1 to 10, not "${bad.replace(/[.]/g, '\\.')}"$`)));
  });
});

describe('fuzz --timeout', () => {
  const io = () => {
    let err = '';
    return { io: { out: { write: () => undefined }, err: { write: (t: string) => void (err += t) }, tty: false, env: {} }, err: () => err };
  };
  // A site that is not a test site ends the command after its options are read, before anything is sent.
  const LIVE = ['--site', 'livesite1', '--property', 'requests'];

  it('reads a plain number as milliseconds, the old form, with a one-line notice', async () => {
    const c = io();
    assert.equal(await fuzzCommand(['--timeout', '500', ...LIVE], c.io), 2);
    const notes = c
      .err()
      .split('\n')
      .filter((l) => /--timeout 500 is read as milliseconds/.test(l));
    assert.equal(notes.length, 1, c.err());
    assert.match(c.err(), /not a test site/);
  });

  it('takes durations like every command, without the notice; --max-time too', async () => {
    const c = io();
    assert.equal(await fuzzCommand(['--timeout', '2s', '--max-time', '10m', ...LIVE], c.io), 2);
    assert.doesNotMatch(c.err(), /old form/);
    assert.match(c.err(), /not a test site/);
    const bad = io();
    assert.equal(await fuzzCommand(['--max-time', 'forever', ...LIVE], bad.io), 2);
    assert.match(bad.err(), /--max-time must be a duration such as 15s, 500ms or 2m/);
  });
});

describe('one loopback check', () => {
  it('is localhost, 127.0.0.0/8 and ::1 (bare or as a URL writes it), and nothing else', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', new URL('http://[::1]:8080/').hostname]) assert.ok(isLoopbackHost(h), h);
    for (const h of ['0.0.0.0', '10.0.0.1', '127.example.com', 'localhost.example.com', '::', '128.0.0.1', '']) assert.ok(!isLoopbackHost(h), h);
  });
});

describe('one list of kit problems', () => {
  it("is a step without definition, two definitions, a pending step, a scenario cut off; never the target's verdicts", () => {
    for (const s of ['UNDEFINED', 'AMBIGUOUS', 'PENDING', 'UNFINISHED']) assert.ok(isKitProblem(s), s);
    for (const s of ['PASSED', 'FAILED', 'SKIPPED', 'UNKNOWN']) assert.ok(!isKitProblem(s), s);
  });
});
