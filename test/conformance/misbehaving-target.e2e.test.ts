/**
 * A target that refuses connections, hangs, resets mid-body, answers HTML or garbage, answers 500, answers a huge
 * body or redirects elsewhere in the middle of a run (after a good preflight) fails the affected steps with a clear
 * message; the run goes on, ends with exit 1 and still writes its reports. Each case against a loopback proxy that
 * forwards the preflight to a real gateway and then misbehaves, through `cardspec run`. (A target broken from the
 * start is the preflight's: test/conformance/preflight.e2e.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { profileFile, runCli } from './cli';
import { startTurncoat, type Turn } from './turncoat';

const MESSAGE: Record<Turn, RegExp> = {
  refuses: /refused the connection/,
  hangs: /within 2000 ms: the target hung/,
  'resets mid-body': /in the middle of the answer/,
  'answers HTML': /the answer is HTML or XML, not a JSON envelope/,
  'answers garbage': /the answer is not JSON/,
  'answers 500': /HTTP 500/,
  'answers a huge body': /larger than 1048576 bytes/,
  'redirects elsewhere': /the answer is a redirect \(HTTP 302 to "http:\/\/127\.0\.0\.1:9\/elsewhere\/json\/"\)/,
};

// A short total time for the hung target only, so that it costs two seconds per request; every other kind must end on
// its own words, and gets a guard it ends long before (a busy CI machine must not turn a good answer into a hang).
const HUNG_PROFILE = profileFile({ limits: { connectTimeoutMs: 1000, totalTimeoutMs: 2000, maxResponseBytes: 1024 * 1024 } });
const PROFILE = profileFile({ limits: { connectTimeoutMs: 5000, totalTimeoutMs: 30_000, maxResponseBytes: 1024 * 1024 } });
// Two scenarios, each one request: the second runs after the first failed.
// (Tags that only these two carry: AUTH-AUTHORISE and FIELD-MASKEDPAN alone now select the generated scenarios too,
// and FIELD-TIMESTAMP alone a subscription's query as well.)
const TAGS = '(@rule:AUTH-AUTHORISE and @rule:ERR-0) or (@rule:FIELD-TIMESTAMP and @rule:FIELD-SETTLEDUEDATE)';

describe('cardspec run against a target that misbehaves after the preflight', () => {
  for (const kind of Object.keys(MESSAGE) as Turn[]) {
    it(`fails the steps of a target that ${kind}, goes on, exits 1 and writes its reports`, async () => {
      // One good request: the preflight's.
      const server = await startTurncoat(kind, 1);
      try {
        const r = await runCli(['--target', server.url, '--profile', kind === 'hangs' ? HUNG_PROFILE : PROFILE, '--tags', TAGS]);
        assert.equal(r.code, 1, r.out);
        const scenarios = r.scenarios('json');
        assert.equal(scenarios.length, 2, 'both scenarios ran');
        for (const s of scenarios) {
          assert.equal(s.verdict, 'failed');
          assert.match(s.error ?? '', MESSAGE[kind]);
          assert.match(s.error ?? '', /\[TRANSPORT-RESPONSE-BODY\]/);
        }
        // The fault is the answer's, not the scenario's rule: TRANSPORT-RESPONSE-BODY broke, AUTH-AUTHORISE was blocked by it.
        assert.match(r.out, /Rules that failed \(1\): TRANSPORT-RESPONSE-BODY/);
        assert.ok(scenarios.some((s) => s.blocked?.includes('AUTH-AUTHORISE')));
        const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as { result: string };
        assert.equal(summary.result, 'failed');
        assert.ok(fs.existsSync(path.join(r.reports, 'junit.xml')));
      } finally {
        await server.close();
      }
    });
  }
});
