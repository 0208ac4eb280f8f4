/**
 * "A target that differs from the document in any one documented rule makes `cardspec run` exit 1 on a scenario
 * tagged with that rule; a target that differs only where the document allows passes." Shown through the command
 * itself (its exit code and its summary) with a few variants of the gallery (src/selfcheck/gallery, the one list
 * of faulty and benign gateways): faulty ones on the scenarios of the rule they break, benign ones on the whole
 * suite. The whole gallery runs in `cardspec selfcheck` (test/selfcheck, docs/selfcheck.md).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { variantNamed } from '../../src/selfcheck/gallery';
import { startVariant } from '../../src/selfcheck/start';
import type { Variant } from '../../src/selfcheck/types';
import { runCli } from './cli';

async function runAgainst(variant: Variant, args: readonly string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
  const gw = await startVariant(variant);
  try {
    return await runCli(['--target', gw.url, ...args]);
  } finally {
    await gw.close();
  }
}

function named(name: string): Variant {
  const v = variantNamed(name);
  if (!v) throw new Error(`no variant ${name} in the gallery`);
  return v;
}

/** One per kind of fault: order, a state machine, a mask, a part's field, the version, 3-D Secure, a follow-up, XML. */
const FAULTY = [
  'parts-reversed',
  'unauthenticated-settles',
  'maskedpan-stars',
  'subscription-ecom',
  'version-1.0',
  'acsurl-when-not-enrolled',
  'deactivation-ignored',
  'xml-security-under-checks',
].map(named);

describe('a faulty target makes cardspec run exit 1 on a scenario tagged with the rule it breaks', () => {
  for (const v of FAULTY) {
    if (v.kind !== 'faulty') continue;
    it(`${v.rule}: a gateway that ${v.what}`, async () => {
      const format = v.formats?.[0] ?? 'json';
      const r = await runAgainst(v, ['--format', format, '--tags', `@rule:${v.rule}`]);
      assert.equal(r.code, 1, r.out);
      const failed = r.scenarios(format).filter((s) => s.verdict === 'failed');
      assert.ok(failed.length > 0, 'no scenario failed');
      assert.ok(failed.every((s) => s.rules.includes(v.rule)));
      assert.match(r.out, new RegExp(`Rules that failed \\(\\d+\\): .*${v.rule}`));
    });
  }
});

/** Extra fields, key order, secrand length, charset, wording: the original five, from the gallery. */
const BENIGN = ['extra-fields', 'keys-reversed', 'secrand-other-lengths', 'charset-on-content-type', 'messages-worded-otherwise'].map(named);

describe('a target that differs only where the document allows passes the whole suite', () => {
  for (const v of BENIGN) {
    it(`a gateway that ${v.what}`, async () => {
      const formats = v.formats?.length === 1 ? v.formats[0] : 'both';
      const r = await runAgainst(v, ['--format', formats]);
      assert.equal(r.code, 0, r.out);
      const scenarios = r.scenarios();
      assert.ok(scenarios.length > 100, `only ${scenarios.length} scenarios ran`);
      assert.ok(scenarios.every((s) => s.verdict === 'passed'));
    });
  }
});
