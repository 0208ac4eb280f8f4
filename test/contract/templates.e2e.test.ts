/**
 * The adapter templates of examples/adapters/ (docs/contract.md, "The adapter protocol"): each runs as shipped
 * against the stand-in gateway and passes the cases, so that an SDK team starts from an adapter that works and only
 * swaps in its SDK's call. They hold no third-party code. Python and PHP are JSON clients; Ruby is an XML client
 * (standard library: net/http, rexml) and passes every case in the XML blocks. A template whose interpreter is
 * missing here is skipped with the reason; under CI=true it fails instead, since CI installs all three
 * (scripts/install-interpreters.sh).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { startContractGateway, type RunningContractGateway } from '../../src/contract';
import { CLIENT_CASES, runClientCases, type ClientCaseResult } from '../../src/cases';

const ROOT = path.join(__dirname, '..', '..');
const PYTHON = path.join(ROOT, 'examples', 'adapters', 'python', 'adapter.py');
const PHP = path.join(ROOT, 'examples', 'adapters', 'php', 'adapter.php');
const RUBY = path.join(ROOT, 'examples', 'adapters', 'ruby', 'adapter.rb');
const RUBY_FAULTS = path.join(__dirname, 'fixtures', 'xml-faults.rb');
/** One case of each kind of value the protocol carries: two parts, a list of objects, an error, the envelope, the aliased account. */
const CASES = ['auth-60022', 'subscription-not-enrolled', 'transactionquery', 'threedquery-30000', 'secrand-long', 'unknown-response-fields', 'alias-not-username'];

const has = (cmd: string): boolean => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;

/** False (and the test skipped with the reason) when the interpreter is missing; under CI=true that fails the test. */
function interpreter(t: TestContext, cmd: string, pkg: string): boolean {
  if (has(cmd)) return true;
  if (process.env.CI === 'true') assert.fail(`${cmd} is missing: CI installs Debian's ${pkg} (scripts/install-interpreters.sh, called by .ci/run)`);
  t.skip(`no ${cmd} here (Debian's ${pkg}): the template is tested where it is installed, and always in CI`);
  return false;
}

const notPassed = (results: readonly ClientCaseResult[]): [string, string, readonly string[]][] => results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.format, r.problems]);

let gw: RunningContractGateway;
before(async () => {
  gw = await startContractGateway({ scenarios: true });
});
after(() => gw.close());

describe('adapter templates', () => {
  it('hold the protocol only: standard library imports, no third-party code', () => {
    const py = fs.readFileSync(PYTHON, 'utf8');
    const imports = [...py.matchAll(/^(?:import|from) ([a-z0-9_.]+)/gm)].map((m) => m[1]);
    assert.deepEqual(imports.sort(), ['base64', 'json', 'sys', 'urllib.request']);
    const php = fs.readFileSync(PHP, 'utf8');
    assert.doesNotMatch(php, /\b(require|include)(_once)?\b|vendor\/autoload/);
    const rb = fs.readFileSync(RUBY, 'utf8');
    const requires = [...rb.matchAll(/^\s*require(?:_relative)? ['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    assert.deepEqual(requires.sort(), ['json', 'net/http', 'rexml/document', 'uri']);
    assert.doesNotMatch(rb, /\bgem\s|Gemfile|bundler/i);
  });

  it('the Python template passes the cases as shipped, the envelope compared', async (t) => {
    if (!interpreter(t, 'python3', 'python3')) return;
    const results = await runClientCases(gw, { command: `python3 "${PYTHON}"`, only: CASES });
    assert.deepEqual(results.map((r) => r.id).sort(), [...CASES].sort());
    assert.deepEqual(notPassed(results), []);
    assert.ok(results.every((r) => r.compared.envelope.includes('secrand')));
    assert.ok(
      results.every((r) => r.compared.parts.includes('errormessage')),
      'it declares rawerrormessage',
    );
  });

  it('the PHP template passes the cases as shipped', async (t) => {
    if (!interpreter(t, 'php', 'php-cli')) return;
    const results = await runClientCases(gw, { command: `php "${PHP}"`, only: CASES });
    assert.deepEqual(notPassed(results), []);
  });

  it('the JSON templates, told a case is in XML, say so and the case fails', async (t) => {
    if (!interpreter(t, 'python3', 'python3')) return;
    const [r] = await runClientCases(gw, { command: `python3 "${PYTHON}"`, only: ['auth-60022'], format: 'xml' });
    assert.equal(r.outcome, 'fail');
    assert.equal(r.format, 'xml');
    assert.ok(
      r.problems.some((p) => /the client raised: SdkError: this adapter speaks JSON only/.test(p)),
      r.problems.join('\n'),
    );
  });
});

describe('the Ruby template: an XML client', () => {
  it('passes every client case in the XML blocks, the envelope compared, through POST /xml/', async (t) => {
    if (!interpreter(t, 'ruby', 'ruby')) return;
    const results = await runClientCases(gw, { command: `ruby "${RUBY}"`, format: 'xml' });
    assert.deepEqual(
      results.map((r) => r.id),
      CLIENT_CASES.map((c) => c.id),
    );
    assert.ok(results.every((r) => r.format === 'xml'));
    assert.deepEqual(notPassed(results), []);
    assert.ok(results.every((r) => r.calls === 1 && r.compared.envelope.includes('version') && r.compared.envelope.includes('secrand')));
    // the exchange on its page is the XML as sent and answered, masked
    const tq = results.find((r) => r.id === 'threedquery-enrolled-Y')!;
    assert.match(tq.exchange?.requestText ?? '', /^<\?xml[^>]*><requestblock version="3\.67"><alias>/);
    assert.match(tq.exchange?.responseText ?? '', /<responseblock version="3\.67">.*<md>\(64 characters, not shown\)<\/md>/);
  });

  it('told a case is in JSON, it says it speaks XML, and the case fails', async (t) => {
    if (!interpreter(t, 'ruby', 'ruby')) return;
    const [r] = await runClientCases(gw, { command: `ruby "${RUBY}"`, only: ['auth-60022'], format: 'json' });
    assert.equal(r.outcome, 'fail');
    assert.ok(
      r.problems.some((p) => /this adapter speaks XML/.test(p)),
      r.problems.join('\n'),
    );
  });

  it('a faulty XML client is caught: md cut short, the JSON version, attributes lost', async (t) => {
    if (!interpreter(t, 'ruby', 'ruby')) return;
    const play = (mode: string, only: string[]): Promise<ClientCaseResult[]> =>
      runClientCases(gw, { command: `CARDSPEC_FIXTURE_MODE=${mode} ruby -r "${RUBY_FAULTS}" "${RUBY}"`, only, format: 'xml' });
    const [md] = await play('truncate-md', ['threedquery-enrolled-Y']);
    assert.equal(md.outcome, 'fail');
    assert.deepEqual(md.problems, ['part 1 (THREEDQUERY): md was reported changed (32 characters; 64 answered): it must be kept in full, unmodified']);
    const [version] = await play('json-version', ['auth-60022']);
    assert.deepEqual(version.problems, ['envelope: version was reported as "1.00"; the gateway answered "3.67"']);
    const [attrs] = await play('elements-only', ['auth-60022']);
    assert.deepEqual(attrs.problems, ['part 1 (AUTH): requesttypedescription was not reported']);
  });

  it('in both formats, each case is played twice, JSON first, and the JSON side fails for an XML-only client', async (t) => {
    if (!interpreter(t, 'ruby', 'ruby')) return;
    const results = await runClientCases(gw, { command: `ruby "${RUBY}"`, only: ['auth-60022', 'secrand-long'], format: 'both' });
    assert.deepEqual(
      results.map((r) => [r.id, r.format, r.outcome]),
      [
        ['auth-60022', 'json', 'fail'],
        ['secrand-long', 'json', 'fail'],
        ['auth-60022', 'xml', 'pass'],
        ['secrand-long', 'xml', 'pass'],
      ],
    );
    assert.deepEqual(
      gw.session.report().cases?.map((c) => c.id),
      ['auth-60022', 'secrand-long', 'auth-60022 (xml)', 'secrand-long (xml)'],
    );
  });
});
