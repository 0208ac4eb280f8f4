/**
 * The field boundary phase: derived from the dictionary, written to the feature file, and holding the boundaries
 * it claims (a longest value of the maximum length, one longer by one, a class case outside the class).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { OPERATION } from '../../schemas/operations';
import { BOUNDARY_ROWS, boundaryCase, boundaryCases, fieldsOf } from '../../src/boundary/cases';
import { BOUNDARY_FEATURE, boundaryFeature } from '../../src/boundary/feature';

const cases = boundaryCases();

describe('the field boundary phase', () => {
  it('is written to features/field-boundaries.feature as it is derived (npm run boundaries)', () => {
    const file = fs.readFileSync(path.join(__dirname, '..', '..', BOUNDARY_FEATURE), 'utf8');
    assert.equal(file, boundaryFeature(), 'the feature file is stale: run `npm run boundaries`');
  });

  it('has a case per field and constraint for every row it sends, each with a qualified rule', () => {
    for (const r of BOUNDARY_ROWS) {
      for (const field of fieldsOf(OPERATION[r.id])) {
        const mine = cases.filter((c) => c.row === r.id && c.field === field);
        assert.ok(mine.length > 0, `${r.id}: no case for ${field}`);
        if (FIELD[field].request?.maxLength !== undefined && FIELD[field].request!.maxLength! <= 4096) {
          assert.ok(
            mine.some((c) => c.label.startsWith('one longer')),
            `${r.id}: no "one longer" case for ${field}`,
          );
        }
        for (const c of mine) assert.match(c.rule, new RegExp(`^[A-Z0-9-]+:${field}$`));
      }
    }
    const labels = new Set(cases.map((c) => `${c.row}/${c.field}/${c.label}`));
    assert.equal(labels.size, cases.length, 'two cases share a row, field and label');
  });

  it('sends the boundary it names: the longest at the maximum, one longer above it, class cases outside the class', () => {
    for (const c of cases) {
      const side = FIELD[c.field].request!;
      const len = c.value === undefined ? 0 : [...c.value].length;
      if (c.label.startsWith('longest')) {
        assert.equal(len, side.maxLength, `${c.row}/${c.field}: ${c.label}`);
        assert.equal(checkValue(FIELD[c.field], 'request', c.value!, {}), null, `${c.row}/${c.field}: the longest value is not valid`);
      }
      if (c.label.startsWith('one longer')) assert.equal(len, side.maxLength! + 1, `${c.row}/${c.field}: ${c.label}`);
      if (c.label.startsWith('one shorter')) assert.equal(len, side.minLength! - 1, `${c.row}/${c.field}: ${c.label}`);
      if (c.expect === 'refuses' && c.value !== undefined && !c.rule.startsWith('FIELD-BASEAMOUNT-POSITIVE') && !c.label.includes('not listed')) {
        assert.notEqual(checkValue(FIELD[c.field], 'request', c.value, c.also ?? {}), null, `${c.row}/${c.field}: "${c.label}" is valid by the dictionary`);
      }
    }
    assert.ok(cases.length > 300, `${cases.length} cases`);
    assert.ok(boundaryCase('auth', 'billingemail', 'with 65 characters before the @'));
  });
});

describe('rules qualified by a field in the matrix', () => {
  it('are rows of their own after their rule, with its section, quote and status', async () => {
    const { withQualifiedRules } = await import('../../src/report/model');
    const base = { id: 'FIELD-LENGTHS', section: 'Resources and their fields', quote: 'q', status: 'testable' as const };
    const other = { id: 'FIELD-TYPES', section: 's', quote: 'q2', status: 'testable' as const };
    const rows = withQualifiedRules([base, other], ['FIELD-LENGTHS:billingemail', 'FIELD-LENGTHS:pan', 'NOPE:x', 'FIELD-TYPES']);
    assert.deepEqual(
      rows.map((r) => r.id),
      ['FIELD-LENGTHS', 'FIELD-LENGTHS:billingemail', 'FIELD-LENGTHS:pan', 'FIELD-TYPES'],
    );
    assert.equal(rows[1].quote, 'q');
  });
});

describe('the response side of the boundary phase', () => {
  it('reads every documented response field of each row, under its rule qualified by the field', async () => {
    const { responseCases } = await import('../../src/boundary/responses');
    const cases = responseCases();
    const of = (row: string): string[] => cases.filter((c) => c.row === row).map((c) => c.field);
    assert.ok(of('store').includes('transactionstartedtimestamp'));
    assert.ok(of('auth').includes('settleduedate'));
    assert.ok(of('threedquery').includes('acsurl'));
    assert.ok(cases.some((c) => c.rule === 'FIELD-TIMESTAMP:transactionstartedtimestamp'));
    for (const c of cases) assert.ok(FIELD[c.field].response, c.field);
  });
});
