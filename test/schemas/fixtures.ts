/** The document's examples as fixtures (test/fixtures/examples), read once. */
import * as fs from 'fs';
import * as path from 'path';

export const EXAMPLES = path.join(__dirname, '..', 'fixtures', 'examples');

export function example(kind: 'requests' | 'responses' | 'envelopes', name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(EXAMPLES, kind, name.endsWith('.json') ? name : `${name}.json`), 'utf8')) as Record<string, unknown>;
}
