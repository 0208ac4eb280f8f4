/**
 * "Every clock-driven scenario must pass against the reference gateway from any start date" (issue 26): a target's
 * clock, a long-lived one's or a real sandbox's, reaches the 29th-31st, the end of February and the end of a year.
 * Each scenario tagged `@requires:clock` runs alone against a gateway of its own whose clock starts on the date, so
 * that every scenario (not only the first of a run) starts there. Before the scenario and the gateway counted months
 * with one calendar (src/calendar.ts), SUB-FREQUENCY failed from 2027-01-24: the subscription began on the 31st,
 * and "1 month, then 1 month" reached 28 March while the third payment was due on 31 March.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { runSuite } from '../../src/selfcheck/suite';
import type { ScenarioOutcome } from '../../src/selfcheck/types';

const CLOCK = '@requires:clock';

const DATES = [
  // Each day 27-31 of a 31-day month followed by a 28-day one.
  '2027-01-27',
  '2027-01-28',
  '2027-01-29',
  '2027-01-30',
  '2027-01-31',
  // 28 and 29 February of a leap year.
  '2028-02-28',
  '2028-02-29',
  // The last day of a year.
  '2027-12-31',
  // Starts whose "<today + 7 days>" subscriptions begin on the 30th or 31st (the dates issue 26 reported), and on
  // 31 January of a leap year.
  '2027-01-23',
  '2027-01-24',
  '2027-03-24',
  '2040-10-24',
  '2028-01-24',
];

const place = (s: { uri: string; line: number }): string => `${s.uri}:${s.line}`;

describe('the clock-driven scenarios from calendar edges', () => {
  let scenarios: ScenarioOutcome[] = [];
  let gw: RunningGateway | undefined;

  before(async () => {
    // Which scenarios move the clock, read from a run of them all from the built-in start date.
    gw = await startGateway({ control: true });
    const all = await runSuite({ baseUrl: gw.url, formats: ['json'], tags: CLOCK });
    await gw.close();
    gw = undefined;
    assert.deepEqual(all.problems, []);
    scenarios = all.scenarios;
  });
  after(async () => {
    await gw?.close();
  });

  it('finds the clock-driven scenarios, passing from the built-in start date', () => {
    assert.ok(scenarios.length >= 10, `only ${scenarios.length} scenarios tagged ${CLOCK}`);
    assert.ok(scenarios.some((s) => s.rules.includes('SUB-FREQUENCY')));
    assert.deepEqual(
      scenarios.filter((s) => s.verdict !== 'passed').map((s) => `${s.name}: ${s.verdict} ${s.why ?? ''}`),
      [],
    );
  });

  for (const date of DATES) {
    it(`passes each of them, alone, from ${date} 09:00:00`, async () => {
      const failures: string[] = [];
      for (const scenario of scenarios) {
        gw = await startGateway({ control: true, clockStart: `${date} 09:00:00` });
        const exclude = scenarios.filter((s) => place(s) !== place(scenario)).map(place);
        const r = await runSuite({ baseUrl: gw.url, formats: ['json'], tags: CLOCK, exclude });
        await gw.close();
        gw = undefined;
        failures.push(...r.problems);
        const ran = r.scenarios.map((s) => place(s));
        assert.deepEqual(ran, [place(scenario)], 'one scenario per run');
        for (const s of r.scenarios) if (s.verdict !== 'passed') failures.push(`${s.name} (${place(s)}): ${s.verdict}: ${s.why ?? ''}`);
      }
      assert.deepEqual(failures, []);
    });
  }
});
