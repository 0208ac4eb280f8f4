/** `npm run boundaries`: writes features/field-boundaries.feature from the field dictionary. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BOUNDARY_FEATURE, boundaryFeature } from './feature';

const file = path.join(__dirname, '..', '..', BOUNDARY_FEATURE);
fs.writeFileSync(file, boundaryFeature());
process.stdout.write(`wrote ${BOUNDARY_FEATURE}\n`);
