/**
 * The interface document and public-facts.md are kept in docs/spec/ so that a clone checks its rule catalogue's
 * quotes on its own. Where the shared originals sit beside the repository, the copies must be identical to them:
 * a changed document must be noticed, re-read and copied, never silently tested against an old text.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const ROOT = path.join(__dirname, '..');
const SHARED = path.join(ROOT, '..', 'shared', 'spec');

for (const name of ['card-payment-web-service.md', 'public-facts.md']) {
  it(`docs/spec/${name} is the shared document, unchanged`, (t) => {
    const original = path.join(SHARED, name);
    if (!fs.existsSync(original)) {
      t.skip(`no ${original} beside this clone`);
      return;
    }
    assert.equal(fs.readFileSync(path.join(ROOT, 'docs', 'spec', name), 'utf8'), fs.readFileSync(original, 'utf8'), `copy ${original} to docs/spec/ and re-read the change`);
  });
}
