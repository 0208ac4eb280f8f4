/**
 * docs/gateway.md (and README.md's test data section) stay true to the code: its test data tables are the generated ones, it lists every test card and
 * every errorcode the gateway answers, and its default password is the built-in one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERR } from '../../src/gateway/errors';
import { testDataTables } from '../../src/gateway/docs';
import { DEFAULT_CONFIG, TEST_CARDS } from '../../src/testdata';

const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'gateway.md'), 'utf8');
const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('docs/gateway.md', () => {
  it('holds the test data tables generated from src/testdata.ts', () => {
    const m = /<!-- testdata:start -->\n([\s\S]*?)\n<!-- testdata:end -->/.exec(doc);
    assert.ok(m, 'the testdata markers are there');
    assert.equal(m[1], testDataTables(), 'regenerate with testDataTables() of src/gateway/docs.ts');
  });

  it('README.md holds the same test data tables ("one table, in code and in README")', () => {
    const m = /<!-- testdata:start -->\n([\s\S]*?)\n<!-- testdata:end -->/.exec(readme);
    assert.ok(m, 'the testdata markers are in README.md');
    assert.equal(m[1], testDataTables(), 'regenerate with testDataTables() of src/gateway/docs.ts');
  });

  it('lists every test card, every errorcode and the default credentials', () => {
    for (const c of Object.values(TEST_CARDS)) assert.ok(doc.includes(`\`${c.pan}\``), c.pan);
    for (const e of Object.values(ERR)) assert.ok(doc.includes(`| \`${e.code}\` | ${e.message} |`), `errorcode ${e.code}`);
    for (const u of DEFAULT_CONFIG.users) assert.ok(doc.includes(`\`${u.password}\``) && doc.includes(`\`${u.username}\``));
    for (const s of DEFAULT_CONFIG.sites) assert.ok(doc.includes(`\`${s.sitereference}\``));
  });
});
