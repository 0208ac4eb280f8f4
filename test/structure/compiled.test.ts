/**
 * A packed kit carries each module compiled beside its source (scripts/build.js, run by `npm pack`), and node
 * resolves `./x` to x.js before x.ts. In a clone such a file would be run in place of the source it was compiled
 * from, however old: a change to the .ts would seem to do nothing. So a clone holds none; `npm run build` leaves
 * them for a try of the compiled start, `node scripts/build.js --clean` (npm pack's postpack) removes them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { LIBRARY_ROOTS, ROOT } from './graph';

function compiledBesideSources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return compiledBesideSources(p);
    return e.name.endsWith('.js') && fs.existsSync(p.slice(0, -3) + '.ts') ? [path.relative(ROOT, p)] : [];
  });
}

it('a clone holds no compiled module beside its source (it would run instead of the source)', { skip: !fs.existsSync(path.join(ROOT, '.git')) && 'not a clone' }, () => {
  const found = LIBRARY_ROOTS.flatMap((r) => compiledBesideSources(path.join(ROOT, r)));
  assert.deepEqual(found.slice(0, 10), [], `${found.length} compiled files beside their sources: node scripts/build.js --clean`);
});
