/**
 * Setup mistakes are not non-conformance: a refused port, a target that accepts connections and never answers, a
 * target that refuses the credentials and one that answers no envelope each end `cardspec run` with exit 2 before
 * the suite, in seconds, saying what to fix. Real loopback servers; the run in this process (test/conformance/cli.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { startBroken } from '../client/broken-servers';
import { profileFile, runCli, tempDir } from './cli';
import type { Matrix } from '../../src/report/model';

/** A server that answers every request 401, as a target refusing the credentials does. */
async function start401(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="sandbox"', 'Content-Type': 'text/plain' });
    res.end('Unauthorized');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { value, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

describe('cardspec run: the preflight', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ control: false });
  });
  after(async () => {
    await gateway.close();
  });

  it('a refused port exits 2 at once, saying nothing listens there', async () => {
    const server = await startBroken('refuses');
    const { value: r, seconds } = await timed(() => runCli(['--target', server.url]));
    assert.equal(r.code, 2, r.out);
    assert.match(
      r.out,
      /the target is not ready: a known-good JSON Account check \(POST http:\/\/127\.0\.0\.1:\d+\/json\/\) was refused: nothing listens there\. Is the target running, and is --target right/,
    );
    assert.ok(seconds < 10, `took ${seconds} s`);
    assert.equal(r.scenarios().length, 0, 'the suite did not start');
  });

  it('a target that accepts connections and never answers exits 2 within the preflight timeout (10 s), well under 30 s', async () => {
    const server = await startBroken('hangs');
    try {
      const { value: r, seconds } = await timed(() => runCli(['--target', server.url]));
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /got no answer: no answer arrived .* within 10000 ms: the target hung\. The target accepts connections but does not answer: is it hung/);
      assert.match(r.out, /raise --timeout/);
      assert.ok(seconds < 20, `took ${seconds} s`);
    } finally {
      await server.close();
    }
  });

  it("--timeout sets the time a request may take, the preflight's included", async () => {
    const server = await startBroken('hangs');
    try {
      const { value: r, seconds } = await timed(() => runCli(['--target', server.url, '--timeout', '700ms']));
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /within 700 ms: the target hung/);
      assert.ok(seconds < 5, `took ${seconds} s`);
    } finally {
      await server.close();
    }
  });

  it('a target answering 401 exits 2, naming the credentials to check, never the password', async () => {
    const server = await start401();
    try {
      const r = await runCli(['--target', server.url, '--user', 'ws@merchant.test', '--password', 'Sekr3t-Pa55']);
      assert.equal(r.code, 2, r.out);
      assert.match(
        r.out,
        /was refused with HTTP 401: the target does not accept the credentials; check the user name and password \(options --user, --password; or CARDSPEC_USER, CARDSPEC_PASSWORD; or the profile's credentials\); the user name sent was "ws@merchant\.test"/,
      );
      assert.doesNotMatch(r.out, /Sekr3t-Pa55/);
    } finally {
      await server.close();
    }
  });

  it('the reference gateway with a wrong password exits 2 the same way', async () => {
    const r = await runCli(['--target', gateway.url, '--password', 'not-the-password']);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /HTTP 401: the target does not accept the credentials/);
    assert.doesNotMatch(r.out, /not-the-password/);
  });

  it('a target answering garbage exits 2, pointing at the base URL and the profile path', async () => {
    const server = await startBroken('answers garbage');
    try {
      const r = await runCli(['--target', server.url]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /was not answered with an envelope: the answer is not JSON, not a JSON envelope \(HTTP 200, application\/json\)/);
      assert.match(r.out, /Check --target \(the base URL, without \/json\/\) and the profile's paths\.json/);
    } finally {
      await server.close();
    }
  });

  it('a base URL that already ends in /json/ is told apart (404, not an envelope)', async () => {
    const r = await runCli(['--target', `${gateway.url}/json`]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /POST http:\/\/127\.0\.0\.1:\d+\/json\/json\/\) was not answered with an envelope: .*HTTP 404/);
  });

  it('XML is checked too: a wrong paths.xml exits 2 naming it', async () => {
    const profile = profileFile({ paths: { json: '/json/', xml: '/no-such-xml/', control: '/_cardspec/' } });
    const r = await runCli(['--target', gateway.url, '--profile', profile, '--format', 'both']);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /a known-good XML Account check .* the profile's paths\.xml/);
  });

  it("a target that is not ready leaves reports that say so, in place of an earlier run's PASSED (a CI gate reads them)", async () => {
    const server = await startBroken('refuses');
    const reports = tempDir('stale-reports');
    // What an earlier, passing run into the same folder left.
    fs.mkdirSync(path.join(reports, 'json'), { recursive: true });
    fs.writeFileSync(path.join(reports, 'summary.json'), JSON.stringify({ result: 'passed' }));
    fs.writeFileSync(path.join(reports, 'junit.xml'), '<testsuites name="cardspec" tests="1"><testsuite name="stale"/></testsuites>');
    fs.writeFileSync(path.join(reports, 'json', 'messages.ndjson'), '{}\n');
    const r = await runCli(['--target', server.url, '--reports', reports]);
    assert.equal(r.code, 2, r.out);
    const summary = JSON.parse(fs.readFileSync(path.join(reports, 'summary.json'), 'utf8')) as { result: string; problems: string[]; incompleteBecause: string[] };
    assert.equal(summary.result, 'incomplete');
    assert.match(summary.problems.join('\n'), /the target is not ready: .* was refused: nothing listens there/);
    assert.match(summary.incompleteBecause.join('\n'), /the target is not ready/);
    assert.match(fs.readFileSync(path.join(reports, 'summary.md'), 'utf8'), /INCOMPLETE/);
    const junit = fs.readFileSync(path.join(reports, 'junit.xml'), 'utf8');
    assert.doesNotMatch(junit, /stale/);
    // A JUnit reader must not see a green file of no tests: the run's verdict is a testcase in error.
    assert.match(junit, /<testsuites [^>]*tests="1" failures="0" errors="1"/);
    assert.match(junit, /<error message="INCOMPLETE: [^"]*the target is not ready/);
    assert.ok(!fs.existsSync(path.join(reports, 'json', 'messages.ndjson')), "the earlier run's results are gone");
  });

  it('one format answered HTTP 200 with no envelope while the other works is FAILED on the body rule, its scenarios not reached', async () => {
    // The service, with its address and credentials right, answers XML against the document: not a setup mistake.
    const faulty = await startGateway({
      control: false,
      mutate: { wire: (reply, ctx) => (ctx.format === 'xml' ? { ...reply, status: 200, headers: { ...reply.headers, 'content-type': 'text/xml' }, body: 'not a block' } : reply) },
    });
    try {
      const r = await runCli(['--target', faulty.url, '--format', 'both', '--tags', '@rule:AUTH-AUTHORISE or @rule:ENV-ORDER']);
      assert.equal(r.code, 1, r.out);
      const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as { result: string };
      const matrix = JSON.parse(fs.readFileSync(path.join(r.reports, 'matrix.json'), 'utf8')) as Matrix;
      assert.equal(summary.result, 'failed');
      assert.deepEqual(
        matrix.rules.filter((x) => x.overall.verdict === 'failed').map((x) => x.id),
        ['TRANSPORT-RESPONSE-BODY'],
      );
      const json = r.scenarios('json');
      const xml = r.scenarios('xml');
      assert.ok(json.length > 1 && json.every((s) => s.verdict === 'passed'), 'the JSON scenarios ran and passed');
      assert.equal(xml.length, json.length);
      assert.equal(xml.filter((s) => s.verdict === 'failed').length, 1, 'one scenario carries the finding');
      const skipped = xml.filter((s) => s.verdict === 'skipped');
      assert.equal(skipped.length, xml.length - 1);
      for (const s of skipped) assert.match(s.reason ?? '', /not reached: the known-good XML Account check was answered HTTP 200 with a body that is no envelope/);
      assert.match(fs.readFileSync(path.join(r.reports, 'xml', 'messages.ndjson'), 'utf8'), /not a block/, 'the exchange is in the reports');
    } finally {
      await faulty.close();
    }
  });

  it('a good target passes the preflight and the suite runs', async () => {
    const r = await runCli(['--target', gateway.url, '--tags', '@rule:AUTH-AUTHORISE']);
    assert.equal(r.code, 0, r.out);
    assert.ok(r.scenarios('json').length > 0);
    assert.ok(fs.existsSync(path.join(r.reports, 'summary.md')));
  });
});
