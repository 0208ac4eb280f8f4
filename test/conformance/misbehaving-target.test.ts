/**
 * Issue item 6: a target that refuses connections, hangs, resets mid-body, answers HTML or garbage, answers 500 or
 * answers a huge body fails the affected steps with a clear message; the run goes on, ends with exit 1 and still
 * writes its reports. Each case against a deliberately broken loopback server, through `cardspec run`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MISBEHAVIOURS, startBroken, type Misbehaviour } from '../target/broken-servers';
import { profileFile, runCli } from './cli';

const MESSAGE: Record<Misbehaviour, RegExp> = {
  refuses: /refused the connection/,
  hangs: /within 500 ms: the target hung/,
  'resets mid-body': /in the middle of the answer/,
  'answers HTML': /the answer is HTML or XML, not a JSON envelope/,
  'answers garbage': /the answer is not JSON/,
  'answers 500': /HTTP 500/,
  'answers a huge body': /larger than 1048576 bytes/,
};

// Short limits, so that the hung target costs half a second per request.
const PROFILE = profileFile({ limits: { connectTimeoutMs: 1000, totalTimeoutMs: 500, maxResponseBytes: 1024 * 1024 } });
// Two scenarios, each one request: the second runs after the first failed.
const TAGS = '@rule:AUTH-AUTHORISE or @rule:FIELD-MASKEDPAN';

describe('cardspec run against a misbehaving target', () => {
  for (const kind of MISBEHAVIOURS) {
    it(`fails the steps of a target that ${kind}, goes on, exits 1 and writes its reports`, async () => {
      const server = await startBroken(kind);
      try {
        const r = await runCli(['--target', server.url, '--profile', PROFILE, '--tags', TAGS]);
        assert.equal(r.code, 1, r.out);
        const scenarios = r.scenarios('json');
        assert.equal(scenarios.length, 2, 'both scenarios ran');
        for (const s of scenarios) {
          assert.equal(s.verdict, 'failed');
          assert.match(s.error ?? '', MESSAGE[kind]);
          assert.match(s.error ?? '', /\[TRANSPORT-RESPONSE-BODY\]/);
        }
        assert.match(r.out, /Rules that failed \(\d+\): .*AUTH-AUTHORISE/);
        const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as { result: string };
        assert.equal(summary.result, 'failed');
        assert.ok(fs.existsSync(path.join(r.reports, 'junit.xml')));
      } finally {
        await server.close();
      }
    });
  }
});
