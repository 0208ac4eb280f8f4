/**
 * One vocabulary for checks: the fuzz oracles and the contract checks name rules of features/rules.yaml (every one
 * of them exists there, or is proposed with the document's words for the contract); `cardspec fuzz --checks` selects
 * oracles by name, `--exclude-checks` leaves some out, and `--checks ./module.js` adds a user's own oracle, which
 * then judges the run (a bank's lower amount limit) and shows in the summary under its own rule.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runCommand } from '../../src/cli/fuzz';
import { CHECKS } from '../../src/contract/checks';
import { PROPOSED_RULES } from '../../src/rules/contract';
import { ChecksError, selectOracles } from '../../src/fuzz/checks';
import { ORACLES } from '../../src/fuzz/oracles';
import { loadCatalogue } from '../../src/rules/catalogue';

const catalogue = new Set(loadCatalogue().rules.map((r) => r.id));

describe('every check names a rule of the catalogue', () => {
  it('fuzz oracles', () => {
    for (const o of ORACLES) assert.ok(catalogue.has(o.rule), `oracle ${o.name}: ${o.rule} is not in features/rules.yaml`);
  });
  it('contract checks (or a rule proposed with the document words in src/rules/contract.ts)', () => {
    const proposed = new Set(PROPOSED_RULES.map((r) => r.id));
    for (const c of CHECKS) for (const r of c.rules) assert.ok(catalogue.has(r) || proposed.has(r), `check ${c.name}: ${r} is not in features/rules.yaml`);
  });
});

describe('--checks and --exclude-checks', () => {
  const names = ORACLES.map((o) => o.name);
  it('no option: every built-in oracle; names select; all; exclusions', () => {
    assert.deepEqual(
      selectOracles(undefined, undefined).map((o) => o.name),
      names,
    );
    assert.deepEqual(
      selectOracles(names.slice(0, 2).join(','), undefined).map((o) => o.name),
      names.slice(0, 2),
    );
    assert.deepEqual(
      selectOracles('all', names[0]).map((o) => o.name),
      names.slice(1),
    );
  });
  it('unknown names and an empty selection are usage errors naming the known checks', () => {
    assert.throws(
      () => selectOracles('no-such-check', undefined),
      (e: unknown) => e instanceof ChecksError && e.message.includes(names[0]),
    );
    assert.throws(() => selectOracles(names[0], names[0]), ChecksError);
  });
  it('a module that does not hold oracles is refused with what is wrong', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-checks-'));
    fs.writeFileSync(path.join(dir, 'bad.js'), 'exports.oracles = [{ name: "Bad Name", rule: "lower", severity: "fatal" }];\n');
    assert.throws(
      () => selectOracles(path.join(dir, 'bad.js'), undefined),
      (e: unknown) => e instanceof ChecksError && /name.*rule.*severity/.test(e.message),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('a user check from a module judges the run', () => {
  it("an acquirer limit lower than the document's fails the run under its own rule", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-checks-'));
    const file = path.join(dir, 'bank-limit.js');
    // Every answered AUTH with an amount above 100 that the target authorised breaks the bank's own limit.
    fs.writeFileSync(
      file,
      `exports.oracles = [{
  name: 'bank-amount-limit', rule: 'BANK-AMOUNT-LIMIT', severity: 'error',
  checks: 'the acquiring bank refuses amounts above 100 (a lower limit than the document\\'s)',
  applies: (run) => run.exchange.envelope !== undefined,
  check: (run) => (run.exchange.envelope.response || []).some((p) => p.requesttypedescription === 'AUTH' && p.errorcode === '0' && Number(p.baseamount) > 100)
    ? 'an AUTH above 100 was authorised' : undefined,
}];\n`,
    );
    let out = '';
    const io = { out: { write: (s: string) => ((out += s), true) }, err: { write: (s: string) => ((out += s), true) }, tty: false, env: {} };
    const code = await runCommand(['--property', 'requests', '--runs', '60', '--format', 'json', '--checks', `answered,${file}`, '--max-time', '60', '--seed', '7'], io as never);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.match(out, /bank-amount-limit\s+BANK-AMOUNT-LIMIT/, out);
    assert.equal(code, 1, out);
    assert.match(out, /an AUTH above 100 was authorised/);
    // Only the oracles asked for ran.
    assert.doesNotMatch(out, new RegExp(`^${ORACLES.find((o) => o.name !== 'answered')!.name}\\s`, 'm'));
  });
});
