/**
 * "A gateway variant that crashes, answers 500, leaks a PAN, accepts a field one character too long, or mishandles
 * a stored card after it was disabled makes `cardspec fuzz` exit 1 with a shrunk, replayable counterexample."
 * Each variant runs on a real loopback server; the replay command the report prints is run again and must fail
 * the same way, on the same path. No output may hold a full card number.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCardNumbers } from '../../src/redact';
import { fuzz, replayArgs } from './run';
import { acceptsOneTooLong, crashOnStore, disabledCardStillUsable, echoesOrderReferenceCut, panLeakInAuth, status500OnAccountCheck, type Running } from './variants';

const FAST = ['--seed', '20260105', '--max-failures', '3', '--shrink-steps', '150', '--max-time', '60'];

interface Expect {
  readonly args: readonly string[];
  /** `FAILED <oracle>` or `FAILED model <name>` as printed. */
  readonly failure: RegExp;
  /** What the shrunk case must show. */
  readonly shows: RegExp;
}

async function findAndReplay(variant: () => Promise<Running>, e: Expect): Promise<void> {
  const gw = await variant();
  try {
    const first = await fuzz(['--target', gw.url, ...FAST, ...e.args]);
    assert.equal(first.code, 1, `exit code 1 expected\n${first.out}${first.err}`);
    assert.match(first.out, e.failure);
    assert.match(first.out, e.shows);
    assert.match(first.out, /shrunk in [0-9]+ step/);
    assert.deepEqual(findCardNumbers(first.out + first.err), [], 'a full card number in the output');

    const args = replayArgs(first.out);
    const path = args[args.indexOf('--path') + 1];
    const again = await fuzz(args);
    assert.equal(again.code, 1, `the replay must fail too\n${again.out}${again.err}`);
    assert.match(again.out, e.failure);
    assert.match(again.out, new RegExp(`replaying path ${path.replace(/[+^$*.()|[\]{}?\\/]/g, '\\$&')}`));
    assert.deepEqual(findCardNumbers(again.out + again.err), []);
  } finally {
    await gw.close();
  }
}

describe('cardspec fuzz against faulty gateways', () => {
  it('a gateway that destroys the connection (crash) on a STORE', () =>
    findAndReplay(crashOnStore, {
      args: ['--property', 'requests', '--runs', '300'],
      failure: /FAILED answered \(TRANSPORT-RESPONSE-BODY\)/,
      shows: /"requesttypedescriptions":\["STORE"\]/,
    }));

  it('a gateway that answers HTTP 500 to an ACCOUNTCHECK', () =>
    findAndReplay(status500OnAccountCheck, {
      args: ['--property', 'requests', '--runs', '300', '--format', 'xml'],
      // The status alone is a warning (HTTP status codes are "not shown"); the page with no envelope fails.
      failure: /FAILED same-format \(TRANSPORT-RESPONSE-BODY\)/,
      shows: /ACCOUNTCHECK/,
    }));

  it('a gateway that leaks the full card number in an AUTH part', () =>
    findAndReplay(panLeakInAuth, {
      args: ['--property', 'requests', '--runs', '300'],
      failure: /FAILED no-full-pan \(FIELD-MASKEDPAN\)/,
      shows: /a full card number comes back in part [0-9]+ maskedpan/,
    }));

  it('a gateway that accepts a value one character over its maximum', () =>
    findAndReplay(acceptsOneTooLong, {
      args: ['--property', 'requests', '--runs', '600'],
      failure: /FAILED invalid-refused \(ERR-30000\)/,
      shows: /boundary of [a-z0-9]+ \(past-longest\)/,
    }));

  it('a gateway that gives back a long orderreference cut short (FIELD-ECHO, "Echoed from the request")', () =>
    findAndReplay(echoesOrderReferenceCut, {
      // Valid values are short; a long reference comes from the boundary mutations (about 1 case in 700).
      args: ['--property', 'requests', '--runs', '6000'],
      failure: /FAILED echoed \(FIELD-ECHO\)/,
      shows: /orderreference of the [A-Z]+ part is not the value the request sent/,
    }));

  it('a gateway whose disabled stored card is still usable', () =>
    findAndReplay(disabledCardStillUsable, {
      args: ['--property', 'card-store', '--model-runs', '40'],
      failure: /FAILED model card-store \(STORE-STATE-DISABLE\)/,
      shows: /commands: .*Store\(.*Disable\([0-9]+\).*Use\([0-9]+\)/,
    }));
});
