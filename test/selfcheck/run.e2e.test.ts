/**
 * The self-check end to end, on real gateways on loopback: a faulty variant is caught by the scenario of its rule,
 * a benign one passes the whole suite, a variant that changes nothing is NOT caught (the check can fail), removing
 * the only scenario that catches a variant makes the self-check fail, the fuzz run and the worker processes work,
 * and `cardspec selfcheck` exits and prints as documented without a card number in its output.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../src/cli/selfcheck';
import { findCardNumbers } from '../../src/redact';
import { variantNamed } from '../../src/selfcheck/gallery';
import { ablate, catcherScenarios, runSelfcheck } from '../../src/selfcheck/runner';
import { MARKERS } from '../../src/selfcheck/table';
import type { Variant } from '../../src/selfcheck/types';
import { passed } from '../../src/selfcheck/verdict';
import { capturingIo } from '../console';

function named(...names: string[]): Variant[] {
  return names.map((n) => {
    const v = variantNamed(n);
    if (!v) throw new Error(`no variant ${n}`);
    return v;
  });
}

/** `cardspec selfcheck` in this process, its console output captured. */
async function selfcheck(args: string[]): Promise<{ code: number; out: string }> {
  const { io, text } = capturingIo();
  const code = await run(args, io);
  return { code, out: text() };
}

describe('the self-check on real gateways', () => {
  it('catches a faulty variant by a scenario of its rule, through the hook and through a front, and passes a benign one', async () => {
    const r = await runSelfcheck({ variants: named('secrand-constant', 'credentials-not-required', 'pretty-printed'), workers: 1, fuzz: false });
    const [secrand, credentials, pretty] = r.verdicts;
    assert.equal(secrand.ok, true, secrand.note);
    assert.ok(
      secrand.caughtBy.every((c) => c.startsWith('features/envelope-and-transport.feature:')),
      secrand.caughtBy.join(', '),
    );
    assert.equal(credentials.ok, true, credentials.note);
    assert.ok(credentials.caughtBy.some((c) => c.startsWith('features/authentication.feature:')));
    assert.equal(pretty.ok, true, pretty.note);
    assert.ok(pretty.scenariosRun > 200, `${pretty.scenariosRun} scenarios`);
    assert.equal(passed(r.verdicts), true);
  });

  it('does not call a variant caught when it changes nothing: a gap is reported, and the self-check fails', async () => {
    const unchanged: Variant = { kind: 'faulty', name: 'unchanged', area: 'envelope', rule: 'ENV-SECRAND', what: 'changes nothing', build: () => ({ mutate: { part: (p) => p } }) };
    const r = await runSelfcheck({ variants: [unchanged], workers: 1, fuzz: false });
    assert.equal(r.verdicts[0].ok, false);
    assert.match(r.verdicts[0].note, /the whole suite passed \([0-9]+ scenario runs\): a gap in the suite/);
    assert.equal(passed(r.verdicts), false);
  });

  it('judges a faulty variant as a user sees it: caught when its rule fails anywhere in the whole suite', async () => {
    // "`settleduedate` | Format `YYYY-MM-DD`" holds for every part that carries it; the scenario tagged
    // FIELD-SETTLEDUEDATE sends an AUTH, so a gateway that breaks the format in ACCOUNTCHECK parts only passes it.
    // The whole suite's account checks meet the answer, and its validation names the field's rule.
    const hidden: Variant = {
      kind: 'faulty',
      name: 'settleduedate-slashes-in-accountcheck',
      area: 'fields',
      rule: 'FIELD-SETTLEDUEDATE',
      what: 'writes settleduedate YYYY/MM/DD in ACCOUNTCHECK parts only',
      build: () => ({
        mutate: {
          part: (p) => (p.requesttypedescription === 'ACCOUNTCHECK' && typeof p.settleduedate === 'string' ? { ...p, settleduedate: p.settleduedate.replace(/-/g, '/') } : p),
        },
      }),
    };
    const tagged = await runSelfcheck({ variants: [hidden], workers: 1, fuzz: false, wholeSuite: false });
    assert.equal(tagged.verdicts[0].ok, false, `the rule's own scenarios caught it: ${tagged.verdicts[0].caughtBy.join(', ')}`);
    const whole = await runSelfcheck({ variants: [hidden], workers: 1, fuzz: false });
    assert.equal(whole.verdicts[0].ok, true, whole.verdicts[0].note);
    assert.equal(whole.runs[0].wholeSuite, true);
    assert.ok(
      whole.verdicts[0].caughtBy.some((c) => c.startsWith('features/account-check.feature:')),
      whole.verdicts[0].caughtBy.join(', '),
    );
  });

  it('catches, through the invariants every answer gets, a fault no step of its rule looks at', async () => {
    // "Echoed from the request" holds for every part that carries the field: a gateway that cuts orderreference in
    // the AUTH parts that carry a parent only is met by no step that checks an echo, but by the echo invariant of
    // every exchange (src/rules/answers.ts), told at the end of each scenario whose own checks held.
    const hidden: Variant = {
      kind: 'faulty',
      name: 'orderreference-cut-in-child-auth',
      area: 'fields',
      rule: 'FIELD-ECHO',
      what: 'cuts orderreference in AUTH parts with a parent only',
      build: () => ({
        mutate: {
          part: (p) =>
            p.requesttypedescription === 'AUTH' && typeof p.parenttransactionreference === 'string' && typeof p.orderreference === 'string'
              ? { ...p, orderreference: p.orderreference.slice(0, -1) }
              : p,
        },
      }),
    };
    const r = await runSelfcheck({ variants: [hidden], workers: 1, fuzz: false });
    assert.equal(r.verdicts[0].ok, true, r.verdicts[0].note);
    // Caught by the invariant (its words), not by a step of the scenario.
    assert.match(r.verdicts[0].note, /the answer breaks the document: .*orderreference.*Echoed from the request/);
  });

  it('fails when the only scenario that catches a variant is removed (--without, --ablate)', async () => {
    const variants = named('secrand-constant', 'store-without-orderreference');
    const first = await runSelfcheck({ variants, workers: 1, fuzz: false });
    for (const v of first.verdicts) assert.equal(catcherScenarios(v).length, 1, `${v.name} is caught by ${v.caughtBy.join(', ')}`);
    const only = catcherScenarios(first.verdicts[0])[0];
    const without = await runSelfcheck({ variants: variants.slice(0, 1), workers: 1, fuzz: false, exclude: [only], wholeSuite: false });
    assert.equal(without.verdicts[0].ok, false, `still caught without ${only}`);
    const ablations = await ablate(variants, first.verdicts, 1);
    assert.deepEqual(
      ablations.map((a) => [a.name, a.stillCaught]),
      [
        ['secrand-constant', false],
        ['store-without-orderreference', false],
      ],
    );
  });

  it('runs the short fuzz run beside the suite: it flags a missing secrand, and passes a benign variant', async () => {
    const r = await runSelfcheck({ variants: named('secrand-missing', 'keys-reversed'), workers: 1, fuzz: { runs: 40, modelRuns: 1, seed: 20260105 } });
    const [missing, reversed] = r.verdicts;
    assert.notEqual(missing.fuzzOk, undefined, 'the fuzz run did not run');
    assert.ok(missing.fuzzRules.length > 0, 'the fuzz run flagged nothing on an envelope without secrand');
    assert.equal(reversed.fuzzOk, true, reversed.note);
    assert.equal(reversed.ok, true, reversed.note);
  });

  it('runs variants in worker processes with the same verdicts', async () => {
    const r = await runSelfcheck({ variants: named('xml-version-3.66', 'parts-reversed', 'xml-without-declaration'), workers: 2, fuzz: false });
    assert.deepEqual(
      r.verdicts.map((v) => [v.name, v.ok]),
      [
        ['xml-version-3.66', true],
        ['parts-reversed', true],
        ['xml-without-declaration', true],
      ],
      r.verdicts.map((v) => v.note).join('\n'),
    );
    assert.ok(r.verdicts[0].caughtBy.every((c) => c.endsWith('[xml]')));
  });
});

describe('cardspec selfcheck', () => {
  it('exits 0 with the table and the score, writes the Markdown block, and exits 1 without the only catcher', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-selfcheck-')), 'table.md');
    fs.writeFileSync(file, '# Results\n');
    const ok = await selfcheck(['--only', 'secrand-constant', '--no-fuzz', '--workers', '1', '--markdown', file]);
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /^secrand-constant +faulty +ENV-SECRAND +envelope-and-transport\.feature:\d+.* caught +not run$/m);
    assert.match(ok.out, /Detection score: 1\/1 faulty variants caught \(100%\), 0\/0 benign variants passed/);
    const md = fs.readFileSync(file, 'utf8');
    assert.ok(md.startsWith(`# Results\n\n${MARKERS.start}\n`), md);
    assert.match(md, /\| `secrand-constant`: .* \| envelope \| `ENV-SECRAND` \| envelope-and-transport\.feature:\d+.*: secrand is a random string \| caught \| not run \|/);

    const place = /envelope-and-transport\.feature:(\d+)/.exec(ok.out)![0];
    const failed = await selfcheck(['--only', 'secrand-constant', '--no-fuzz', '--workers', '1', '--without', `features/${place}`]);
    assert.equal(failed.code, 1, failed.out);
    assert.match(failed.out, /NOT CAUGHT/);
  });

  it('never prints a full card number, even for variants that leak one', async () => {
    const r = await selfcheck(['--only', 'maskedpan-unmasked,query-shows-card-number', '--no-fuzz', '--workers', '1']);
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(findCardNumbers(r.out), []);
  });

  it('answers a usage error with 2 and says what is wrong', async () => {
    for (const args of [['--only', 'no-such-variant'], ['--workers', 'many'], ['--without', 'auth.feature'], ['--bogus']]) {
      const r = await selfcheck(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}`);
      assert.match(r.out, /cardspec selfcheck: /);
    }
    const help = await selfcheck(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /Usage: cardspec selfcheck/);
  });
});
