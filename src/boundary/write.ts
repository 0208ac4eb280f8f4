/**
 * `npm run boundaries`: writes features/field-boundaries.feature from the field dictionary. What it did is told to
 * the output it is given (the npm script gives the process's stdout), so that no library module writes to the
 * console.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TextSink } from '../io';
import { BOUNDARY_FEATURE, boundaryFeature } from './feature';

/** The kit's folder: where features/ is. */
const KIT = path.join(__dirname, '..', '..');

/** Writes the feature under `root` (default: the kit's folder); returns the file written. */
export function writeBoundaryFeature(out: TextSink, root: string = KIT): string {
  const file = path.join(root, BOUNDARY_FEATURE);
  fs.writeFileSync(file, boundaryFeature());
  out.write(`wrote ${BOUNDARY_FEATURE}\n`);
  return file;
}
