/**
 * JSON against XML in a whole-suite run (src/wire/twins.ts): a gateway that breaks a value in its XML answers only,
 * each answer of a valid form alone, fails on the rule of that field or XML location when both formats run, and
 * only then: the same gateway over XML alone passes that rule (nothing else saw the fault).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runAgainstVariant } from './cli';

// The documented flows; the generated boundary phase compares the same way, at much more time.
const TAGS = 'not @phase:boundary';

const CASES: readonly [variant: string, rule: string][] = [
  ['xml-maskedpan-first-four', 'FIELD-MASKEDPAN'],
  ['xml-security-address-postcode-swapped', 'XML-SECURITY-PATHS'],
  ['xml-categorymessage-cut', 'XML-FRAUDCONTROL-PATHS'],
];

describe('a value broken in XML answers only', () => {
  for (const [variant, rule] of CASES) {
    it(`${variant} fails ${rule} with both formats, and that rule only`, async () => {
      const v = await runAgainstVariant(variant, ['--format', 'both', '--tags', TAGS]);
      assert.equal(v.r.code, 1, v.r.out);
      assert.deepEqual(v.failed, [rule], v.r.out);
      assert.match(v.r.out, /the JSON answer to the same step/);
    });
  }

  it('goes unseen over XML alone (the comparison is what catches it)', async () => {
    const v = await runAgainstVariant('xml-categorymessage-cut', ['--format', 'xml', '--tags', TAGS]);
    assert.equal(v.r.code, 0, v.r.out);
  });
});
