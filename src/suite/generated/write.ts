/** `npm run scenarios`: writes the generated scenarios into their features (./regions.ts). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENERATED_REGIONS, withRegion } from './regions';

const root = path.join(__dirname, '..', '..', '..');
for (const r of GENERATED_REGIONS) {
  const file = path.join(root, r.feature);
  const before = fs.readFileSync(file, 'utf8');
  const after = withRegion(before, r);
  if (after !== before) fs.writeFileSync(file, after);
  process.stdout.write(`${after === before ? 'unchanged' : 'wrote'} ${r.feature} (${r.name})\n`);
}
