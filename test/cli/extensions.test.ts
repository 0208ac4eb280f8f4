/**
 * A user's own checks without a fork (issue 18): examples/bank-amount-limit's feature, step file and rule
 * catalogue join a run of the built-in target; its rules appear in the matrix, the summary's JUnit and the run's
 * catalogue under their own IDs. The built-in gateway follows the document's maximum, not the bank's, so the
 * over-limit rule fails there: the user's check can fail, and fails on its own rule only.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Matrix } from '../../src/report/model';
import { cardspec, cardspecAsync, ROOT } from './spawn';

const EXAMPLE = path.join(ROOT, 'examples', 'bank-amount-limit');
const EXT = ['--features', path.join(EXAMPLE, 'features'), '--require', path.join(EXAMPLE, 'steps'), '--rules', path.join(EXAMPLE, 'rules.yaml')];
const reports = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-ext-'));

describe('run --features, --require, --rules', () => {
  test("the example's rules appear in the matrix under their own IDs, beside the kit's", async () => {
    const dir = reports();
    const r = await cardspecAsync(['run', ...EXT, '--tags', '@rule:BANK-AMOUNT-AT-LIMIT or @rule:BANK-AMOUNT-OVER-LIMIT or @rule:AUTH-AUTHORISE', '--reports', dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const matrix = JSON.parse(fs.readFileSync(path.join(dir, 'matrix.json'), 'utf8')) as Matrix;
    const row = (id: string) => matrix.rules.find((x) => x.id === id);
    assert.equal(row('BANK-AMOUNT-AT-LIMIT')?.overall.verdict, 'passed');
    assert.equal(row('BANK-AMOUNT-OVER-LIMIT')?.overall.verdict, 'failed');
    assert.equal(row('BANK-AMOUNT-OVER-LIMIT')?.section, 'Example Bank acquiring contract > Amounts');
    assert.equal(row('AUTH-AUTHORISE')?.overall.verdict, 'passed', "the kit's rules are still there");
    assert.deepEqual(matrix.unknownRules, []);
    assert.match(r.stdout, /Rules that failed \(1\): BANK-AMOUNT-OVER-LIMIT/);
    assert.match(r.stdout, /the bank declines payments above 500000/);
    assert.match(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8'), /BANK-AMOUNT-OVER-LIMIT/);
    assert.match(fs.readFileSync(path.join(dir, 'rules.yaml'), 'utf8'), /id: BANK-AMOUNT-AT-LIMIT/, 'the catalogue the run was judged by');
  });

  test('--list shows the user scenarios under their rules; mistakes are told plainly (exit 2)', () => {
    const list = cardspec(['run', '--list', ...EXT, '--tags', '@rule:BANK-AMOUNT-OVER-LIMIT']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /amount-limit\.feature:\d+ +An AUTH above the bank's maximum amount is declined +\[BANK-AMOUNT-OVER-LIMIT\]/);

    const dir = reports();
    const kitId = path.join(dir, 'rules.yaml');
    fs.writeFileSync(kitId, "- id: AUTH-AUTHORISE\n  section: x\n  quote: 'y'\n  status: testable\n");
    const taken = cardspec(['run', '--features', path.join(EXAMPLE, 'features'), '--rules', kitId]);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /AUTH-AUTHORISE is the kit's own rule ID/);
    const missing = cardspec(['run', '--features', path.join(dir, 'nowhere')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--features .*nowhere: no such folder or file/);
    const stepsOnly = cardspec(['run', '--require', path.join(EXAMPLE, 'steps')]);
    assert.equal(stepsOnly.code, 2);
    assert.match(stepsOnly.stderr, /give --features DIR too/);
  });
});
