/**
 * The interface document and public-facts.md are kept in docs/spec/ so that a clone checks its rule catalogue's
 * quotes on its own. docs/spec/SHA256SUMS pins the copies: a changed copy fails in every clone, so the document
 * cannot change under the catalogue without someone re-reading it (and updating the sums on purpose). Where the
 * shared originals sit beside the repository (`../shared/spec/`), the copies must also be identical to them: a
 * changed original must be noticed, re-read and copied, never silently tested against an old text.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const ROOT = path.join(__dirname, '..');
const SPEC = path.join(ROOT, 'docs', 'spec');
const SHARED = path.join(ROOT, '..', 'shared', 'spec');
const NAMES = ['card-payment-web-service.md', 'public-facts.md'];

function sums(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of fs.readFileSync(path.join(SPEC, 'SHA256SUMS'), 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m) out.set(m[2], m[1]);
  }
  return out;
}

it('docs/spec/SHA256SUMS lists every copy of the document', () => {
  assert.deepEqual([...sums().keys()].sort(), [...NAMES].sort());
});

for (const name of NAMES) {
  it(`docs/spec/${name} matches docs/spec/SHA256SUMS`, () => {
    const actual = createHash('sha256')
      .update(fs.readFileSync(path.join(SPEC, name)))
      .digest('hex');
    assert.equal(actual, sums().get(name), `docs/spec/${name} changed: re-read the change, then update SHA256SUMS (cd docs/spec && sha256sum ${NAMES.join(' ')} > SHA256SUMS)`);
  });

  // Only where the shared original exists: an ordinary clone has none, and the sums above already pin its copy.
  const original = path.join(SHARED, name);
  if (fs.existsSync(original)) {
    it(`docs/spec/${name} is the shared original beside this clone, unchanged`, () => {
      assert.equal(fs.readFileSync(path.join(SPEC, name), 'utf8'), fs.readFileSync(original, 'utf8'), `copy ../shared/spec/${name} to docs/spec/ and re-read the change`);
    });
  }
}
