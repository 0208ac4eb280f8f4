/**
 * The kill score of the generated gallery, as a mutation tester reports it: killed mutants over all, and each
 * survivor with why it is equivalent (the document does not constrain what it changed). A survivor without a
 * reason is a gap in the suite; a mutant declared equivalent that is killed is a kit that fails a target where
 * the document allows it. Either fails the self-check.
 */
import type { VariantVerdict } from '../types';
import type { GeneratedVariant, Operator } from './operators';

export interface GeneratedScore {
  readonly total: number;
  readonly killed: number;
  /** Survivors the document cannot tell from the reference, with why. */
  readonly equivalent: readonly { readonly name: string; readonly what: string; readonly why: string }[];
  /** Survivors with no reason: gaps. */
  readonly unexplained: readonly { readonly name: string; readonly rule: string; readonly what: string; readonly note: string }[];
  /**
   * Context-restricted survivors that no exchange of the whole suite reached: the suite builds no such context
   * (no scenario answers that code in that context, say). Explained, and listed as the contexts no exchange reached.
   */
  readonly unreached: readonly { readonly name: string; readonly rule: string; readonly what: string }[];
  /** Mutants declared equivalent that a scenario failed on. */
  readonly falseKills: readonly { readonly name: string; readonly what: string; readonly note: string }[];
  readonly byOperator: Readonly<Record<string, { total: number; killed: number }>>;
}

export function scoreGenerated(variants: readonly GeneratedVariant[], verdicts: readonly VariantVerdict[]): GeneratedScore {
  const byName = new Map(verdicts.map((v) => [v.name, v]));
  let killed = 0;
  const equivalent: GeneratedScore['equivalent'][number][] = [];
  const unexplained: GeneratedScore['unexplained'][number][] = [];
  const falseKills: GeneratedScore['falseKills'][number][] = [];
  const unreached: GeneratedScore['unreached'][number][] = [];
  const byOperator: Record<string, { total: number; killed: number }> = {};
  for (const v of variants) {
    const verdict = byName.get(v.name);
    const caught = verdict?.ok === true;
    const op = (byOperator[v.context ? `${v.operator} in one context` : (v.operator as Operator)] ??= { total: 0, killed: 0 });
    op.total++;
    if (caught) {
      killed++;
      op.killed++;
      if (v.equivalent) falseKills.push({ name: v.name, what: v.what, note: verdict?.note ?? '' });
    } else if (v.equivalent) equivalent.push({ name: v.name, what: v.what, why: v.equivalent });
    else if (v.context && verdict?.reached === 0) unreached.push({ name: v.name, rule: v.rule, what: v.what });
    else unexplained.push({ name: v.name, rule: v.rule, what: v.what, note: verdict?.note ?? 'not run' });
  }
  return { total: variants.length, killed, equivalent, unreached, unexplained, falseKills, byOperator };
}

export const generatedOk = (s: GeneratedScore): boolean => s.unexplained.length === 0 && s.falseKills.length === 0;

const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);

export function scoreLines(s: GeneratedScore): string[] {
  const killable = s.total - s.equivalent.length - s.falseKills.length - s.unreached.length;
  const out = [
    `Generated gallery: kill score ${s.killed}/${s.total} (${pct(s.killed, s.total)}); ${s.killed - s.falseKills.length}/${killable} non-equivalent mutants killed (${pct(s.killed - s.falseKills.length, killable)}); ${s.equivalent.length} equivalent survivors explained; ${s.unreached.length} restricted to a context no exchange of the suite reached.`,
    `  by operator: ${Object.entries(s.byOperator)
      .map(([op, c]) => `${op} ${c.killed}/${c.total}`)
      .join(', ')}`,
  ];
  if (s.unexplained.length > 0) {
    out.push(`Survivors with no reason (gaps in the suite): ${s.unexplained.length}`);
    for (const u of s.unexplained) out.push(`  - ${u.name} [${u.rule}]: ${u.what}; ${u.note}`);
  }
  if (s.falseKills.length > 0) {
    out.push(`Mutants the document allows that the suite failed (false positives): ${s.falseKills.length}`);
    for (const f of s.falseKills) out.push(`  - ${f.name}: ${f.what}; ${f.note}`);
  }
  if (s.unreached.length > 0) {
    out.push(`Restricted to a context no exchange of the whole suite reached (${s.unreached.length}): the suite builds no such answer`);
    for (const u of s.unreached) out.push(`  - ${u.name} [${u.rule}]: ${u.what}`);
  }
  if (s.equivalent.length > 0) {
    out.push(`Equivalent survivors (${s.equivalent.length}), each with why:`);
    for (const e of s.equivalent) out.push(`  - ${e.name}: ${e.what}. Equivalent: ${e.why}`);
  }
  return out;
}
