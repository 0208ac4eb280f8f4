/**
 * `npm run boundaries` and `npm run scenarios` as library calls: each writes under the folder it is given and tells
 * what it did to the output it is given (no library module writes to the console).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { BOUNDARY_FEATURE, boundaryFeature } from '../../src/boundary/feature';
import { writeBoundaryFeature } from '../../src/boundary/write';
import { GENERATED_REGIONS } from '../../src/suite/generated/regions';
import { writeGeneratedScenarios } from '../../src/suite/generated/write';

const ROOT = path.join(__dirname, '..', '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-write-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function sink(): { write(t: string): void; text: () => string } {
  let text = '';
  return { write: (t) => void (text += t), text: () => text };
}

describe('the generated features, written', () => {
  it('writeBoundaryFeature writes the feature under the root given and says so on the output given', () => {
    fs.mkdirSync(path.join(dir, 'features'), { recursive: true });
    const out = sink();
    const file = writeBoundaryFeature(out, dir);
    assert.equal(file, path.join(dir, BOUNDARY_FEATURE));
    assert.equal(fs.readFileSync(file, 'utf8'), boundaryFeature());
    assert.equal(out.text(), `wrote ${BOUNDARY_FEATURE}\n`);
  });

  it('writeGeneratedScenarios rewrites a region edited by hand, leaves the others, and says which', () => {
    const features = [...new Set(GENERATED_REGIONS.map((r) => r.feature))];
    for (const f of features) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    const edited = GENERATED_REGIONS[0];
    const file = path.join(dir, edited.feature);
    const marker = `  # ---- end of generated ${edited.name}`;
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes(marker), `${edited.feature} has the region ${edited.name}`);
    fs.writeFileSync(file, text.replace(marker, `  # a line written by hand\n${marker}`));
    const out = sink();
    assert.deepEqual(writeGeneratedScenarios(out, dir), [edited.feature]);
    assert.equal(fs.readFileSync(file, 'utf8'), text, 'the region is as its table gives it again');
    assert.match(out.text(), new RegExp(`^wrote ${edited.feature} \\(${edited.name}\\)\n`));
    assert.equal(
      out
        .text()
        .split('\n')
        .filter((l) => l.startsWith('unchanged ')).length,
      GENERATED_REGIONS.length - 1,
    );
  });
});
