/**
 * The census: one run of the whole suite, in both formats, against the reference gateway, watching where each
 * answer mutant would first change an answer. A mutant whose whole change is its part hook (the answer operators,
 * in one context or everywhere) runs exactly as the reference does until the first part its hook changes: the
 * requests the suite sends, the gateway's state and every answer are the reference's up to that part. So:
 * - a mutant whose hook changes no part of the census reaches no answer in a run of the whole suite either (it is
 *   the reference there): it is listed as reaching none without a run of its own;
 * - a scenario in which its hook changes no part, in either format, runs as against the reference, and cannot fail
 *   on its account (scenarios share no state): only the scenarios where the census saw it change a part can kill
 *   it, and they are the ones it runs (./run-variant.ts `runFocused`), in the order that finds a kill soonest.
 * A scenario where a mutant's change shows is one that sent the request it changed, or one that read that answer
 * (attached it: the answer of a row is shared by the examples of that row, steps/boundaries.ts). The hooks are
 * called on the reference's parts and their results thrown away: the census gateway answers as the reference. A part no scenario was running for (none, today) makes the census unusable for that mutant, which
 * then runs as any other (its rule's scenarios, then the whole suite).
 */
import { startGateway, type MutationContext } from '../gateway';
import type { Format, ResponseEnvelope, ResponsePart } from '../wire/types';
import { runSuite } from './suite';
import type { Focus, Variant } from './types';

export interface Census {
  /** Per mutant taken: where it would change an answer; absent for a mutant the census cannot speak for. */
  readonly focus: ReadonlyMap<string, Focus>;
  /** Scenario runs of the census (both formats). */
  readonly scenarios: number;
  /** Scenario runs the reference failed in the census: none, or the census places no mutant. */
  readonly failed: readonly string[];
  readonly problems: readonly string[];
  readonly durationMs: number;
}

type PartHook = (part: ResponsePart, ctx: MutationContext) => ResponsePart | null;

/** The part hook of a variant whose whole change is that hook, else undefined (a census cannot speak for it). */
export function partOnly(v: Variant): PartHook | undefined {
  if (v.kind !== 'faulty') return undefined;
  const b = v.build();
  if (b.config || b.front || !b.mutate) return undefined;
  const keys = Object.keys(b.mutate).filter((k) => (b.mutate as Record<string, unknown>)[k] !== undefined);
  return keys.length === 1 && keys[0] === 'part' ? b.mutate.part : undefined;
}

/** A rule's tag, or a per-field row of it (`@rule:FIELD-LENGTHS:pan` for FIELD-LENGTHS). */
const taggedWith = (rule: string, tags: readonly string[]): boolean => tags.some((t) => t === `@rule:${rule}` || t.startsWith(`@rule:${rule}:`));

/**
 * Takes the census for these variants (`only`: of these scenarios alone, for tests: a mutant it does not place there
 * may still change an answer elsewhere in the suite). The scenarios where a mutant changed a part come tagged with its rule first
 * (they were written to see that rule), then in the suite's order.
 */
export async function takeCensus(variants: readonly Variant[], only?: readonly string[]): Promise<Census> {
  const started = performance.now();
  const watched = variants.flatMap((v) => {
    const part = partOnly(v);
    return part ? [{ v, part }] : [];
  });
  const hits = new Map<string, Record<Format, Set<string>>>(watched.map((w) => [w.v.name, { json: new Set<string>(), xml: new Set<string>() }]));
  const unplaced = new Set<string>();
  const tagsOf = new Map<string, readonly string[]>();
  let current: { format: Format; place: string } | undefined;
  // The mutants that changed a part of the answer being built, then of each answer by its requestreference.
  let changing = new Set<string>();
  const changedIn = new Map<string, readonly string[]>();
  const part = (p: ResponsePart, ctx: MutationContext): ResponsePart => {
    for (const w of watched) {
      if (w.part(p, ctx) === p) continue;
      changing.add(w.v.name);
      if (current) hits.get(w.v.name)![current.format].add(current.place);
      else unplaced.add(w.v.name);
    }
    return p;
  };
  const envelope = (env: ResponseEnvelope): ResponseEnvelope => {
    if (changing.size > 0 && typeof env.requestreference === 'string') changedIn.set(env.requestreference, [...changing]);
    changing = new Set();
    return env;
  };
  // A scenario may read an answer another scenario asked for (steps/boundaries.ts: one answer per row, read by
  // each example of the row): every scenario that attached an answer a mutant changed is one where it shows.
  const read = (format: Format, place: string, body: string): void => {
    if (changedIn.size === 0) return;
    for (const m of body.matchAll(/"requestreference"\s*:\s*"([^"\\]+)"/g)) for (const name of changedIn.get(m[1]) ?? []) hits.get(name)![format].add(place);
  };
  const gw = await startGateway({ control: true, mutate: { part, envelope } });
  let run: Awaited<ReturnType<typeof runSuite>>;
  try {
    run = await runSuite({
      baseUrl: gw.url,
      formats: ['json', 'xml'],
      tags: '',
      only,
      onScenario: (format, place, tags) => {
        current = { format, place };
        tagsOf.set(place, tags);
      },
      onAttachment: read,
    });
  } finally {
    await gw.close();
  }
  const failed = run.scenarios.filter((s) => s.verdict === 'failed' || s.kitProblem).map((s) => `${s.uri}:${s.line} [${s.format}]`);
  // A scenario the reference failed stopped before its last steps: what they would have sent was never seen, so
  // such a census places no mutant (each then runs as any other: its rule's scenarios, then the whole suite).
  const usable = failed.length === 0 && run.problems.length === 0;
  const focus = new Map<string, Focus>();
  for (const w of watched) {
    if (unplaced.has(w.v.name) || !usable) continue;
    const rule = w.v.kind === 'faulty' ? w.v.rule : '';
    const tagged = (p: string): boolean => taggedWith(rule, tagsOf.get(p) ?? []);
    const order = (set: Set<string>): string[] => [...[...set].filter(tagged), ...[...set].filter((p) => !tagged(p))];
    const h = hits.get(w.v.name)!;
    focus.set(w.v.name, { json: order(h.json), xml: order(h.xml), tagged: { json: [...h.json].filter(tagged).length, xml: [...h.xml].filter(tagged).length } });
  }
  return {
    focus,
    scenarios: run.scenarios.length,
    failed,
    problems: run.problems,
    durationMs: Math.round(performance.now() - started),
  };
}
