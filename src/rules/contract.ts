/**
 * The rule IDs the contract checks report, and where their words come from. The rule catalogue
 * (features/rules.yaml) is the one source of rule quotes; a report looks each ID up there. The few obligations of a
 * client that have no entry there yet are listed in `PROPOSED_RULES` with the document's sentence, so that a report
 * can still cite them, and test/contract/rules.test.ts fails when one of them appears in the catalogue (then the entry
 * here must go) or when a check names an ID found in neither place.
 */
import { DEFAULT_CATALOGUE, loadCatalogue, type CatalogueRule } from './catalogue';

export interface RuleText {
  readonly id: string;
  readonly section: string;
  /** The document's words, verbatim. */
  readonly quote: string;
  /** `catalogue`: read from features/rules.yaml; `proposed`: not there yet (see PROPOSED_RULES). */
  readonly source: 'catalogue' | 'proposed';
  /** The catalogue's status, when known: an `unspecified` rule never makes a client fail. */
  readonly status?: string;
}

/** Obligations of a client that the catalogue does not name yet: to be added there (then removed here). */
export const PROPOSED_RULES: readonly Omit<RuleText, 'source'>[] = [
  {
    id: 'FIELD-SITEREFERENCE',
    section: 'Resources and their fields > Common request fields',
    quote: '| `sitereference` | Alphanumeric incl. underscore | 50 | The merchant site identifier. |',
  },
];

let cache: Map<string, RuleText> | undefined;

/** Every rule the kit knows: the catalogue's, then the proposed ones. Read once, lazily. */
export function ruleTexts(catalogueFile: string = DEFAULT_CATALOGUE): ReadonlyMap<string, RuleText> {
  if (cache && catalogueFile === DEFAULT_CATALOGUE) return cache;
  const out = new Map<string, RuleText>();
  const { rules } = loadCatalogue(catalogueFile);
  for (const r of rules as CatalogueRule[]) out.set(r.id, { id: r.id, section: r.section, quote: r.quote, status: r.status, source: 'catalogue' });
  for (const r of PROPOSED_RULES) if (!out.has(r.id)) out.set(r.id, { ...r, source: 'proposed' });
  if (catalogueFile === DEFAULT_CATALOGUE) cache = out;
  return out;
}

export function ruleText(id: string): RuleText | undefined {
  return ruleTexts().get(id);
}
