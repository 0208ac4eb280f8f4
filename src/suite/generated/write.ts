/**
 * `npm run scenarios`: writes the generated scenarios into their features (./regions.ts). What it did is told to the
 * output it is given (the npm script gives the process's stdout), so that no library module writes to the console.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TextSink } from '../../io';
import { GENERATED_REGIONS, withRegion } from './regions';

/** The kit's folder: where features/ is. */
const KIT = path.join(__dirname, '..', '..', '..');

/** Writes every region into its feature under `root` (default: the kit's folder); returns the features changed. */
export function writeGeneratedScenarios(out: TextSink, root: string = KIT): string[] {
  const changed: string[] = [];
  for (const r of GENERATED_REGIONS) {
    const file = path.join(root, r.feature);
    const before = fs.readFileSync(file, 'utf8');
    const after = withRegion(before, r);
    if (after !== before) {
      fs.writeFileSync(file, after);
      changed.push(r.feature);
    }
    out.write(`${after === before ? 'unchanged' : 'wrote'} ${r.feature} (${r.name})\n`);
  }
  return changed;
}
