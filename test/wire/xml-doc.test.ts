import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { choicesList, mappingTable } from './xml-table';

const DOC = join(__dirname, '..', '..', 'docs', 'xml.md');

describe('docs/xml.md', () => {
  it('holds the mapping table and the list of choices as the dictionary gives them today', () => {
    const doc = readFileSync(DOC, 'utf8');
    const hint = 'regenerate with: node -r ts-node/register/transpile-only test/wire/xml-table.ts';
    assert.ok(doc.includes(mappingTable()), `the mapping table in docs/xml.md is out of date; ${hint}`);
    assert.ok(doc.includes(choicesList()), `the list of choices in docs/xml.md is out of date; ${hint}`);
  });
});
