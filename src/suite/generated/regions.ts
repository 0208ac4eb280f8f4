/**
 * Scenarios written from the document's tables into the feature of their flow, between two marker lines, so that a
 * new row of a table (an error code, a card length, a card source) adds its scenarios without anyone copying it by
 * hand, while the feature still reads as one documented flow. `npm run scenarios` writes every region;
 * test/suite/generated.test.ts fails when a feature's region differs from what its table gives.
 */
import { errorsTableScenarios } from './errors-table';
import { cardLengthScenarios } from './card-lengths';
import { cardSourceScenarios } from './card-sources';
import { inheritanceScenarios } from './inheritance';
import { queryScenarios } from './queries';

export interface GeneratedRegion {
  /** The feature file, relative to the package root. */
  readonly feature: string;
  /** Names the region in its markers. */
  readonly name: string;
  /** Where its rows come from, said in the marker line. */
  readonly from: string;
  /** The region's text: scenarios, indented as a feature's. */
  text(): string;
}

export const GENERATED_REGIONS: readonly GeneratedRegion[] = [
  { feature: 'features/errors.feature', name: 'errors-by-part', from: 'schemas/errors.ts and schemas/operations.ts', text: errorsTableScenarios },
  { feature: 'features/fields-and-limits.feature', name: 'maskedpan-by-length', from: 'schemas/fields.ts (pan) and schemas/operations.ts', text: cardLengthScenarios },
  { feature: 'features/fields-and-limits.feature', name: 'maskedpan-in-queries', from: 'schemas/operations.ts', text: queryScenarios },
  { feature: 'features/inheritance.feature', name: 'inheritance-by-parent', from: 'schemas/operations.ts and schemas/errors.ts (60025)', text: inheritanceScenarios },
  { feature: 'features/three-d-secure.feature', name: 'enrolment-by-card-source', from: 'the 3-D Secure enrolment states and schemas/operations.ts', text: cardSourceScenarios },
];

const begin = (r: GeneratedRegion): string => `  # ---- generated ${r.name}: written by \`npm run scenarios\` from ${r.from} (src/suite/generated); do not edit by hand`;
const end = (r: GeneratedRegion): string => `  # ---- end of generated ${r.name}`;

/**
 * The feature's text with the region written in: between its markers where they are, else appended at its end.
 */
export function withRegion(feature: string, r: GeneratedRegion): string {
  const lines = feature.replace(/\n+$/, '').split('\n');
  const from = lines.findIndex((l) => l.startsWith(`  # ---- generated ${r.name}:`));
  const to = lines.findIndex((l) => l === end(r));
  const body = [begin(r), ...r.text().replace(/\n+$/, '').split('\n'), end(r)];
  if (from >= 0 && to > from) return [...lines.slice(0, from), ...body, ...lines.slice(to + 1)].join('\n') + '\n';
  return [...lines, '', ...body].join('\n') + '\n';
}
