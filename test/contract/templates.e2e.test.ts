/**
 * The adapter templates of examples/adapters/ (docs/contract.md, "The adapter protocol"): each runs as shipped
 * against the stand-in gateway and passes the cases, so that an SDK team starts from an adapter that works and only
 * swaps in its SDK's call. They hold no third-party code. A template whose interpreter is missing here is skipped
 * with the reason (CI installs Python; PHP is checked where it is present).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startContractGateway, type RunningContractGateway } from '../../src/contract';
import { runClientCases } from '../../src/cases';

const ROOT = path.join(__dirname, '..', '..');
const PYTHON = path.join(ROOT, 'examples', 'adapters', 'python', 'adapter.py');
const PHP = path.join(ROOT, 'examples', 'adapters', 'php', 'adapter.php');
/** One case of each kind of value the protocol carries: two parts, a list of objects, an error, the envelope, the aliased account. */
const CASES = ['auth-60022', 'subscription-not-enrolled', 'transactionquery', 'threedquery-30000', 'secrand-long', 'unknown-response-fields', 'alias-not-username'];

const has = (cmd: string): boolean => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;

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
  });

  it('the Python template passes the cases as shipped, the envelope compared', async (t) => {
    if (!has('python3')) return t.skip('no python3 here');
    const results = await runClientCases(gw, { command: `python3 "${PYTHON}"`, only: CASES });
    assert.deepEqual(results.map((r) => r.id).sort(), [...CASES].sort());
    assert.deepEqual(
      results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.problems]),
      [],
    );
    assert.ok(results.every((r) => r.compared.envelope.includes('secrand')));
    assert.ok(
      results.every((r) => r.compared.parts.includes('errormessage')),
      'it declares rawerrormessage',
    );
  });

  it('the PHP template passes the cases as shipped', async (t) => {
    if (!has('php')) return t.skip('no php here: the PHP template is checked where PHP is installed');
    const results = await runClientCases(gw, { command: `php "${PHP}"`, only: CASES });
    assert.deepEqual(
      results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.problems]),
      [],
    );
  });
});
