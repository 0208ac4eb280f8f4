/**
 * The public SDKs' request shapes (test/fixtures/sdk/, written from their public sources' structure), each sent
 * unchanged: the gateway answers `0`, validate reports no error, the contract records no error, and the answer
 * validates as a response (issue 17: the Ruby gem's XML AUTH with its customer block was refused by the gateway).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readAll, readers } from './readers';

const DIR = path.join(__dirname, '..', 'fixtures', 'sdk');
const FIXTURES = fs.readdirSync(DIR).filter((f) => f.endsWith('.json') || f.endsWith('.xml'));

test('every SDK fixture is there (Python and PHP JSON, the Ruby gem XML)', () => {
  assert.deepEqual(FIXTURES.sort(), ['php-stpp_json-4-auth.json', 'python-securetrading-1.0-auth.json', 'ruby-securetrading-gem-auth.xml']);
});

for (const name of FIXTURES) {
  test(`${name}: answered 0, valid for validate, no error in the contract, the answer a valid response`, () => {
    const r = readers();
    const text = fs.readFileSync(path.join(DIR, name), 'utf8');
    const reading = readAll(r, name.endsWith('.xml') ? 'xml' : 'json', text, ['AUTH']);
    assert.deepEqual(reading.codes, ['0'], JSON.stringify(reading.answer));
    assert.deepEqual(
      reading.violations.filter((v) => v.severity === 'error'),
      [],
      'validate',
    );
    assert.deepEqual(
      reading.findings.filter((f) => f.severity === 'error'),
      [],
      'contract',
    );
    assert.deepEqual(reading.answerViolations, [], 'the answer as a response');
  });
}

test("the Ruby gem shape: the customer block is read as the dictionary's customer fields, empty elements as not sent", () => {
  const r = readers();
  const text = fs.readFileSync(path.join(DIR, 'ruby-securetrading-gem-auth.xml'), 'utf8');
  const reading = readAll(r, 'xml', text, ['AUTH']);
  assert.deepEqual(
    reading.violations.filter((v) => v.rule === 'unknown-field'),
    [],
  );
  // A customer field out of its class is checked, not refused as unknown: the gateway names it, the others report it.
  const bad = readAll(readers(), 'xml', text.replace('<ip>192.0.2.10</ip>', `<ip>${'9'.repeat(46)}</ip>`), ['AUTH']);
  assert.deepEqual([...bad.gateway], ['customerip']);
  assert.deepEqual([...bad.validate], ['customerip']);
  assert.deepEqual([...bad.contract], ['customerip']);
});
