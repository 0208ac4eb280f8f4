/**
 * What the catalogue tests read: the interface document, the rule catalogue, and the suite's scenarios (a dry run
 * of cucumber over the real features and steps, so that tags and step definitions are seen exactly as a run sees
 * them).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope, Pickle } from '@cucumber/messages';
import { parse } from 'yaml';
import { runFeatures, SUITE } from '../../src/suite';

export interface Rule {
  id: string;
  section: string;
  quote: string;
  status: string;
  why?: string;
}

const ROOT = SUITE.root;

/**
 * The interface document: the copy in docs/spec/ (test/spec-copy.test.ts keeps it equal to the shared original),
 * else the shared original beside the repository; CARDSPEC_DOCUMENT names another copy.
 */
export function documentPath(): string {
  const candidates = [process.env.CARDSPEC_DOCUMENT, path.join(ROOT, 'docs', 'spec', 'card-payment-web-service.md'), path.join(ROOT, '..', 'shared', 'spec', 'card-payment-web-service.md')].filter(
    (p): p is string => !!p,
  );
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`the interface document was not found; looked at ${candidates.join(', ')} (set CARDSPEC_DOCUMENT)`);
  return found;
}

export const normalise = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function loadRules(): Rule[] {
  return parse(fs.readFileSync(path.join(ROOT, 'features', 'rules.yaml'), 'utf8')) as Rule[];
}

/** `Heading > Subheading` paths of the document's `##` and `###` headings. */
export function headingPaths(doc: string): string[] {
  const out: string[] = [];
  let h2 = '';
  for (const line of doc.split('\n')) {
    const m2 = /^## (.+)$/.exec(line);
    const m3 = /^### (.+)$/.exec(line);
    if (m2) out.push((h2 = m2[1].trim()));
    else if (m3) out.push(`${h2} > ${m3[1].trim()}`);
  }
  return out;
}

export interface DryRun {
  pickles: Pickle[];
  /** Steps without a definition, or with more than one. */
  problems: string[];
}

/** Cucumber over the real features and steps, executing nothing. */
export async function dryRun(): Promise<DryRun> {
  const pickles: Pickle[] = [];
  const stepText = new Map<string, string>();
  const problems: string[] = [];
  const onMessage = (m: Envelope): void => {
    if (m.pickle) {
      pickles.push(m.pickle);
      for (const s of m.pickle.steps) stepText.set(s.id, `${m.pickle.uri}: "${s.text}"`);
    }
    if (m.testCase) {
      for (const ts of m.testCase.testSteps) {
        if (ts.pickleStepId && ts.stepDefinitionIds && ts.stepDefinitionIds.length !== 1) {
          problems.push(`${ts.stepDefinitionIds.length === 0 ? 'no' : ts.stepDefinitionIds.length} step definitions for ${stepText.get(ts.pickleStepId)}`);
        }
      }
    }
  };
  await runFeatures({ dryRun: true, onMessage });
  return { pickles, problems };
}
