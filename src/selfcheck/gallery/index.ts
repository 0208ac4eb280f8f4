/**
 * The gallery: every variant of the reference gateway the kit checks itself against, faulty ones (each breaking
 * one rule of features/rules.yaml) and benign ones (differing only where the document allows). One file per area;
 * the order here is the order of the table.
 */
import type { Variant } from '../types';
import { ACS_AND_TRANSPORT } from './acs-and-transport';
import { AUDIT_XML_FOLLOWUPS } from './audit-xml-followups';
import { AUDIT_OPERATIONS } from './audit-operations';
import { AUDIT_READING } from './audit-reading';
import { BENIGN } from './benign';
import { BLIND } from './blind';
import { BLIND2 } from './blind2';
import { BLIND3 } from './blind3';
import { BLIND4 } from './blind4';
import { BLIND5 } from './blind5';
import { BLIND6 } from './blind6';
import { ENVELOPE } from './envelope';
import { ERRORS } from './errors';
import { FIELDS } from './fields';
import { INHERITANCE } from './inheritance';
import { ONE_CONTEXT } from './one-context';
import { REQUEST_TYPE_VARIANTS } from './request-types';
import { STATES } from './states';
import { TEETH } from './teeth';
import { XML } from './xml';

export const GALLERY: readonly Variant[] = [
  ...ENVELOPE,
  ...FIELDS,
  ...REQUEST_TYPE_VARIANTS,
  ...STATES,
  ...ERRORS,
  ...INHERITANCE,
  ...ACS_AND_TRANSPORT,
  ...XML,
  ...TEETH,
  ...ONE_CONTEXT,
  ...AUDIT_OPERATIONS,
  ...AUDIT_XML_FOLLOWUPS,
  ...AUDIT_READING,
  ...BLIND,
  ...BLIND2,
  ...BLIND3,
  ...BLIND4,
  ...BLIND5,
  ...BLIND6,
  ...BENIGN,
];

const BY_NAME: ReadonlyMap<string, Variant> = new Map(GALLERY.map((v) => [v.name, v]));

/** A variant of the gallery, or of the generated gallery (loaded only when one of its names is asked for). */
export function variantNamed(name: string): Variant | undefined {
  const v = BY_NAME.get(name);
  if (v || !name.startsWith('gen-')) return v;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../mutants/operators') as typeof import('../mutants/operators')).generatedNamed(name);
}

/**
 * The variants a selection names: exact names, or `*` patterns (`xml-*`), or `faulty` / `benign`; all when empty.
 * Unknown names are returned apart, for a clear usage error.
 */
export function selectVariants(selection: readonly string[]): { variants: Variant[]; unknown: string[] } {
  if (selection.length === 0) return { variants: [...GALLERY], unknown: [] };
  const unknown: string[] = [];
  const chosen = new Set<Variant>();
  for (const s of selection) {
    const re = new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const hits = s === 'faulty' || s === 'benign' ? GALLERY.filter((v) => v.kind === s) : GALLERY.filter((v) => re.test(v.name));
    if (hits.length === 0) unknown.push(s);
    for (const v of hits) chosen.add(v);
  }
  return { variants: GALLERY.filter((v) => chosen.has(v)), unknown };
}
