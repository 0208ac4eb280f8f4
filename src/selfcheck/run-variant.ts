/**
 * One variant through the kit: a fresh instance for the suite (only the scenarios of the rule it breaks for a faulty
 * variant, every scenario for a benign one), then another fresh instance for the short fuzz run, so that neither
 * sees the other's transactions or clock moves.
 */
import { redactText } from '../redact';
import { runShortFuzz, type ShortFuzz } from './fuzz';
import { startVariant } from './start';
import { runSuite } from './suite';
import type { FuzzOutcome, Variant, VariantRun } from './types';
import type { Format } from '../wire/types';

export interface VariantRunOptions {
  /** The short fuzz run, or `false` for none. */
  readonly fuzz: ShortFuzz | false;
  /** Scenarios left out (`features/<file>:<line>`). */
  readonly exclude?: readonly string[];
}

export const ALL_FORMATS: readonly Format[] = ['json', 'xml'];

/** The tag expression a variant runs with: the rule it breaks, or everything. */
export const tagsFor = (v: Variant): string => (v.kind === 'faulty' ? `@rule:${v.rule}` : '');

export async function runVariant(variant: Variant, opts: VariantRunOptions): Promise<VariantRun> {
  const started = performance.now();
  const formats = variant.formats ?? ALL_FORMATS;
  const tags = tagsFor(variant);
  const problems: string[] = [];
  let scenarios: VariantRun['scenarios'] = [];
  try {
    const gw = await startVariant(variant);
    try {
      const r = await runSuite({ baseUrl: gw.url, formats, tags, exclude: opts.exclude });
      scenarios = r.scenarios;
      problems.push(...r.problems);
    } finally {
      await gw.close();
    }
  } catch (e) {
    problems.push(redactText(`the variant could not be run: ${(e as Error).message.split('\n')[0]}`));
  }
  let fuzz: FuzzOutcome | undefined;
  if (opts.fuzz) {
    try {
      const gw = await startVariant(variant);
      try {
        fuzz = await runShortFuzz(gw.url, formats, opts.fuzz);
      } finally {
        await gw.close();
      }
    } catch (e) {
      fuzz = { ran: false, failures: [], problems: [redactText(`the fuzz run could not start: ${(e as Error).message.split('\n')[0]}`)], durationMs: 0 };
    }
  }
  return { name: variant.name, tags, formats, scenarios, problems, ...(fuzz ? { fuzz } : {}), durationMs: Math.round(performance.now() - started) };
}
