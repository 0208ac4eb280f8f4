/**
 * Real targets run the payment-page flows (THREEDQUERY, the ACS round trip, the combined RISKDEC/AUTH) without the
 * kit's test-control API: the card comes from the profile's cache-token provider command, or as pan and expirydate
 * where the target takes them. Against the reference gateway without `--control`, over loopback.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { BUILTIN_PROFILE } from '../../src/client/profile';
import { SUITE } from '../../src/suite';
import { profileFile, runCli } from './cli';

const PAYMENT_PAGE_FLOWS = '@type:THREEDQUERY or @requires:acsForm or @rule:RISKDEC-FIRST or @rule:RISKDEC-LAST';
const TEMPLATE = path.join(SUITE.root, 'examples', 'cachetoken-provider.js');

/** The built-in profile's capabilities with some switched. */
function capabilities(changes: Record<string, boolean>): Record<string, boolean> {
  return { ...BUILTIN_PROFILE.capabilities, ...changes };
}

describe('cardspec run: where the card of a payment-page flow comes from', () => {
  let plain: RunningGateway;
  let withControl: RunningGateway;
  before(async () => {
    plain = await startGateway({ control: false });
    withControl = await startGateway({ control: true });
  });
  after(async () => {
    await plain.close();
    await withControl.close();
  });

  it('against `cardspec serve` without --control, the 3-D Secure and combined flows are checked (pan and expirydate), not skipped', async () => {
    // The flows that move the clock need the test-control API: skipped, so the verdict is INCOMPLETE (exit 3) and says so.
    const r = await runCli(['--target', plain.url, '--tags', PAYMENT_PAGE_FLOWS, '--allow-incomplete']);
    assert.equal(r.code, 0, r.out);
    const scenarios = r.scenarios('json');
    assert.ok(scenarios.length >= 20, `${scenarios.length} scenarios`);
    // Only the flows that move the clock may be skipped.
    const skipped = scenarios.filter((s) => s.verdict !== 'passed');
    for (const s of skipped) assert.ok(s.requires.includes('clock'), `${s.name}: ${s.verdict} (${s.reason ?? s.error})`);
    if (skipped.length > 0) assert.match(r.out, /Result: INCOMPLETE: \d+ scenario\(s\) in scope skipped/);
    for (const rule of ['3DS-NEXT-Y', '3DS-NEXT-N', '3DS-AUTH-ENROLLED', 'RISKDEC-FIRST', 'RISKDEC-LAST', 'ACS-TO-MERCHANT']) {
      assert.ok(
        scenarios.some((s) => s.rules.includes(rule) && s.verdict === 'passed'),
        `${rule} checked`,
      );
    }
    assert.match(r.out, /the cards of THREEDQUERY and the combined flows go as pan and expirydate/);
  });

  it("takes cache tokens from the profile's provider command (the template in examples/)", async () => {
    const profile = profileFile({
      capabilities: capabilities({ cachetokens: false, threedqueryPan: false }),
      cachetokenProvider: { command: [process.execPath, TEMPLATE], timeoutMs: 20_000 },
    });
    const r = await runCli(['--target', withControl.url, '--profile', profile, '--tags', '@rule:3DS-NEXT-Y or @rule:3DS-NEXT-N or @rule:RISKDEC-FIRST']);
    assert.equal(r.code, 0, r.out);
    const scenarios = r.scenarios('json');
    assert.ok(scenarios.length >= 3);
    // The card data in a THREEDQUERY is a public fact (threedqueryPan): without it, those scenarios are not applicable.
    const notApplicable = /not applicable to this target: .*capabilities\.threedqueryPan/;
    for (const s of scenarios) assert.ok(s.verdict === 'passed' || (s.verdict === 'skipped' && notApplicable.test(s.reason ?? '')), `${s.name}: ${s.verdict} ${s.reason ?? s.error}`);
    assert.ok(scenarios.some((s) => s.name.includes('as a cache token') && s.verdict === 'passed'));
  });

  it('a provider that fails is a setup mistake: exit 2 before the suite, with its (masked) message', async () => {
    const profile = profileFile({
      capabilities: capabilities({ cachetokens: false }),
      cachetokenProvider: { command: `${JSON.stringify(process.execPath)} -e "console.error('no page at ' + process.env.CARDSPEC_SITE); process.exit(4)"` },
    });
    const r = await runCli(['--target', withControl.url, '--profile', profile]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /the cache-token provider \(.*\) exited with 4: no page at test_site12345\. Fix the profile's cachetokenProvider/);
    assert.equal(r.scenarios().length, 0);
  });

  it('a provider that prints no valid cachetoken fails the preflight too', async () => {
    const profile = profileFile({ cachetokenProvider: { command: 'echo "not a token!"' } });
    const r = await runCli(['--target', withControl.url, '--profile', profile]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /printed no valid cachetoken/);
  });

  it('without any source, the THREEDQUERY flows are skipped with why, and the combined flows still run on pan ("AUTH fields")', async () => {
    const profile = profileFile({ capabilities: capabilities({ cachetokens: false, threedqueryPan: false }) });
    const r = await runCli(['--target', withControl.url, '--profile', profile, '--tags', '@rule:3DS-ENROLMENT-CHECK or @rule:RISKDEC-FIRST or @rule:RISKDEC-LAST']);
    const scenarios = r.scenarios('json');
    const threeds = scenarios.filter((s) => s.rules.includes('3DS-ENROLMENT-CHECK'));
    assert.ok(threeds.length > 0);
    for (const s of threeds) {
      // A stored card needs no token ("A stored card (STORE) can be referenced in a THREEDQUERY"); the card data is
      // not applicable to a target not known to take it; every other THREEDQUERY waits for a token source.
      if (s.name.includes('as a stored card')) assert.equal(s.verdict, 'passed', `${s.name}: ${s.reason ?? s.error}`);
      else if (s.name.includes('as the card data')) assert.match(s.reason ?? '', /not applicable to this target: .*capabilities\.threedqueryPan/);
      else {
        assert.equal(s.verdict, 'skipped');
        assert.match(s.reason ?? '', /no source of cache tokens for the target: .*no cachetokenProvider command.*capabilities\.threedqueryPan/);
      }
    }
    const combined = scenarios.filter((s) => s.rules.includes('RISKDEC-FIRST') || s.rules.includes('RISKDEC-LAST'));
    assert.equal(combined.length, 2);
    for (const s of combined) assert.equal(s.verdict, 'passed', `${s.name}: ${s.reason ?? s.error}`);
  });
});
