/**
 * The passive detection score (src/proxy/score.ts) writes to the sink it is given: one line per verdict as it
 * comes, then the score. A faulty variant whose rule the proxy names from its rule's scenarios is "ok"; the suite
 * runs through a real proxy in front of the variant on loopback.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { variantNamed } from '../../src/selfcheck/gallery';
import { chosenVariants, passiveScore } from '../../src/proxy/score';

describe('the passive detection score', () => {
  it('writes each verdict and the score to the sink it is given', async () => {
    const v = variantNamed('maskedpan-stars');
    assert.ok(v);
    let text = '';
    const verdicts = await passiveScore({ variants: [v], out: { write: (t: string) => (text += t) }, markdown: true });
    assert.equal(verdicts.length, 1);
    assert.ok(verdicts[0].ok, text);
    assert.match(text, /^ok {3}faulty maskedpan-stars FIELD-MASKEDPAN named: .*\bFIELD-MASKEDPAN\b/m);
    assert.match(text, /^faulty named: 1\/1 \(100\.0 %\); benign clean: 0\/0$/m);
    assert.match(text, /^\| maskedpan-stars \| faulty \| FIELD-MASKEDPAN \| yes \| /m);
  });

  it('chooses the variants a command line names, else the benign ones, else the faulty ones whose fault is in an answer', () => {
    assert.deepEqual(
      chosenVariants(['--only', 'maskedpan-stars,no-such-variant']).map((v) => v.name),
      ['maskedpan-stars'],
    );
    assert.ok(chosenVariants(['--benign']).every((v) => v.kind === 'benign'));
    const faulty = chosenVariants([]);
    assert.ok(faulty.length > 0 && faulty.every((v) => v.kind === 'faulty'));
    assert.ok(!faulty.some((v) => v.name === 'acs-returns-by-get'), 'an ACS page changed through the front hook is not in the set');
  });
});
