/**
 * The scenarios generated from the document's tables (src/suite/generated): written into their features as the
 * tables give them, one for every situation the tables name, and a table row the generators cannot place is an
 * error rather than a scenario left out.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERRORS } from '../../schemas/errors';
import { GENERATED_REGIONS, withRegion } from '../../src/suite/generated/regions';
import { errorScenarios } from '../../src/suite/generated/errors-table';
import { masksPan, panLengths, panOfLength } from '../../src/suite/generated/cards';
import { SENT_ROWS } from '../../src/suite/generated/rows';
import { cardLengthScenarios } from '../../src/suite/generated/card-lengths';
import { cardSourceScenarios, CARD_SOURCES } from '../../src/suite/generated/card-sources';
import { inheritanceScenarios, PARENT_ROWS } from '../../src/suite/generated/inheritance';
import { queryScenarios } from '../../src/suite/generated/queries';

const root = path.join(__dirname, '..', '..');

const luhn = (pan: string): boolean => {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

describe('the generated scenarios', () => {
  for (const r of GENERATED_REGIONS) {
    it(`${r.feature} holds the region ${r.name} as its table gives it (npm run scenarios)`, () => {
      const text = fs.readFileSync(path.join(root, r.feature), 'utf8');
      assert.equal(text, withRegion(text, r), `${r.feature} is stale: run \`npm run scenarios\``);
    });
  }

  it('writes a region in place between its markers, and appends one that is not there yet', () => {
    const r = { feature: 'x', name: 'demo', from: 'a table', text: () => '  Scenario: one' };
    const once = withRegion('Feature: x\n', r);
    assert.match(once, /# ---- generated demo:[^\n]*\n {2}Scenario: one\n {2}# ---- end of generated demo\n$/);
    assert.equal(withRegion(once, r), once);
    const changed = withRegion(once, { ...r, text: () => '  Scenario: two' });
    assert.ok(changed.includes('Scenario: two') && !changed.includes('Scenario: one'));
  });

  it('checks every code of the Errors table in every part type its "Where" cell names', () => {
    const scenarios = errorScenarios();
    const sentTypes = [...new Set(SENT_ROWS.flatMap((r) => r.requesttypes))];
    for (const e of ERRORS) {
      const where = e.where === 'any' ? sentTypes : e.where;
      for (const type of where) {
        assert.ok(
          scenarios.some((s) => s.code === e.code && s.parts.includes(type)),
          `no scenario answers ${e.code} in a ${type} part`,
        );
      }
    }
    // Separate and combined: a code of a type that is sent both ways is checked both ways.
    for (const code of ['0', '99999', '60025', '60022']) {
      const mine = scenarios.filter((s) => s.code === code);
      assert.ok(
        mine.some((s) => SENT_ROWS.find((r) => r.id === s.row)!.requesttypes.length === 1),
        `${code}: no separate request`,
      );
      assert.ok(
        mine.some((s) => SENT_ROWS.find((r) => r.id === s.row)!.requesttypes.length > 1),
        `${code}: no combined request`,
      );
    }
  });

  it('refuses a code of the Errors table it has no trigger for, rather than leaving it out', () => {
    assert.throws(() => errorScenarios([...ERRORS, { code: '12345', where: ['AUTH'], meaning: 'New.', section: 'Errors' }]), /12345 has no trigger/);
  });

  it('makes a Luhn-valid card number of every length the field table allows, and reads a mask as the document writes it', () => {
    assert.deepEqual(panLengths(), [12, 13, 14, 15, 16, 17, 18, 19]);
    for (const n of panLengths()) {
      const pan = panOfLength(n);
      assert.equal(pan.length, n);
      assert.match(pan, /^[0-9]+$/);
      assert.ok(luhn(pan), `${pan} is not Luhn-valid`);
    }
    const pan = panOfLength(19);
    assert.ok(masksPan(pan, `${pan.slice(0, 6)}${'#'.repeat(9)}${pan.slice(15)}`));
    assert.ok(!masksPan(pan, `${pan.slice(0, 6)}${'#'.repeat(6)}${pan.slice(15)}`), 'a mask that shortens the number');
    assert.ok(!masksPan(pan, `${pan.slice(0, 6)}${'*'.repeat(9)}${pan.slice(15)}`), 'a mask other than #');
    assert.ok(!masksPan(pan, pan), 'no mask at all');
    assert.ok(!masksPan(pan, `${'#'.repeat(15)}${pan.slice(15)}`), 'no leading digits: not the middle');
  });

  it('masks every allowed length in each row that takes the card itself, and each 3-D Secure outcome by each card source', () => {
    const lengths = cardLengthScenarios();
    for (const title of ['Card store', 'Ordinary AUTH without 3-D Secure', 'Account check', 'Risk decision on card data', 'Combined, risk decision first']) {
      assert.ok(lengths.includes(`When the merchant sends "${title}" with a card number of <length> digits`), title);
    }
    const sources = cardSourceScenarios();
    for (const s of CARD_SOURCES) {
      assert.ok(sources.includes(`as ${s.name}, enrolled (Y)`), s.name);
      assert.ok(sources.includes(`as ${s.name}, enrolled <enrolled>`), s.name);
    }
    for (const v of ['| authorised | Y |', '| not authenticated | N |', '| attempt made | A |', '| unable to authenticate | U |', '| not enrolled | N |', '| enrolment unknown | U |']) {
      assert.equal(sources.split(v).length - 1, CARD_SOURCES.length, v);
    }
  });

  it('makes a payment on a parent of each type that takes the card, for every group of inherited fields its row carries', () => {
    assert.deepEqual(
      PARENT_ROWS.map((r) => r.requesttypes[0]),
      ['AUTH', 'ACCOUNTCHECK', 'STORE', 'RISKDEC'],
    );
    const text = inheritanceScenarios();
    for (const row of PARENT_ROWS) {
      assert.ok(text.includes(`inherits the card of its parent, a "${row.title}"`), row.title);
      assert.ok(text.includes(`with a card of its own on a parent, a "${row.title}"`), row.title);
    }
    for (const title of ['Ordinary AUTH without 3-D Secure', 'Account check', 'Card store']) {
      assert.ok(text.includes(`inherits the billing details of its parent, a "${title}"`), title);
      assert.ok(text.includes(`own billing details differ from its parent's, a "${title}"`), title);
    }
    for (const title of ['Ordinary AUTH without 3-D Secure', 'Account check']) assert.ok(text.includes(`inherits the customer fields of its parent, a "${title}"`), title);
  });

  it('queries a transaction of every single-type row whose part is about a card', () => {
    const text = queryScenarios();
    for (const type of ['THREEDQUERY', 'AUTH', 'ACCOUNTCHECK', 'STORE', 'RISKDEC']) assert.ok(text.includes(`And the merchant sends a TRANSACTIONQUERY of the ${type}`), type);
    assert.equal(text.split('Scenario:').length - 1, 8);
  });
});
