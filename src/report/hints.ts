/**
 * What in scope was not checked, grouped by its reason (each reason once, with the rules and scenarios it kept
 * from being checked), and for each reason the way to check it: a capability names how to get it (`cardspec serve
 * --control`, the profile's `capabilities`), a rule blocked by a failure names the failure to fix. A waiver is
 * offered only where the target lacks something the operator may rightly leave out, never for a failure or a run
 * that was stopped: waiving is not the fix there.
 */
import type { Format } from '../wire/types';
import type { Unchecked } from './model';
import { byText } from '../order';

export interface UncheckedGroup {
  /** The reason, whole. */
  readonly reason: string;
  /** How to have it checked, in a sentence; absent when the kit knows no way. */
  readonly how?: string;
  /** Rules of the scope it left unchecked, with the formats. */
  readonly rules: readonly { readonly id: string; readonly formats: readonly Format[] }[];
  /** Scenarios in scope it skipped (a scenario counts once per format). */
  readonly scenarios: number;
  /** Whether a waiver is a fitting answer (a capability the target lacks), never for a failure or a stop. */
  readonly waivable: boolean;
}

const CONTROL = /test-control|capability "(clock|ledger|cachetokens)"|_cardspec/;

/** The way to check what a reason kept unchecked; undefined when there is none to give. */
export function howToCheck(reason: string): { how?: string; waivable: boolean } {
  const blocked = /blocked by ([A-Z0-9][A-Za-z0-9_:-]*)/.exec(reason);
  if (blocked) return { how: `fix the failure on ${blocked[1]} (see Causes): the rule is checked once the scenario gets past it`, waivable: false };
  if (/--bail/.test(reason)) return { how: 'run again without --bail: the scenarios after the first failure were not run', waivable: false };
  const unreached = /^not reached: .*\[([A-Z0-9][A-Za-z0-9_:-]*)\]/.exec(reason);
  if (unreached) return { how: `fix what the known-good request met (${unreached[1]}): every scenario of that format waits on it`, waivable: false };
  if (/--max-time|the run was stopped|stopped before its end|interrupted|SIGINT|SIGTERM|stopped answering|without an answer/.test(reason))
    return { how: 'run again to the end (a longer --max-time, a target that keeps answering)', waivable: false };
  if (/^kit:|undefined step|ambiguous|pending/i.test(reason)) return { how: "a problem of the kit's own steps, not of the target: report it to the kit's maintainers", waivable: false };
  if (/no source of cache tokens/.test(reason))
    return {
      how: 'give the profile a cachetokenProvider command (examples/), or serve the target with the test-control API (`cardspec serve --control`), or set capabilities.threedqueryPan where the target takes the card in a THREEDQUERY',
      waivable: true,
    };
  if (CONTROL.test(reason)) {
    const cap = /capability "(\w+)"/.exec(reason)?.[1];
    return {
      how: `start the reference gateway with \`cardspec serve --control\` (the built-in target has it); a target of your own that offers the test-control API (docs/architecture.md) says so in its profile${cap ? ` (capabilities.${cap}: true)` : ''}`,
      waivable: true,
    };
  }
  const lacks = /lacks the capability "(\w+)"/.exec(reason) ?? /does not offer the capability "(\w+)"/.exec(reason) ?? /does not offer (\w+)/.exec(reason);
  if (lacks) return { how: `where the target offers it, set capabilities.${lacks[1]}: true in the profile (docs/conformance.md)`, waivable: true };
  const card = /has no "([^"]+)" card/.exec(reason);
  if (card) return { how: `add the target's test card for "${card[1]}" to the profile's cards (docs/conformance.md)`, waivable: true };
  if (/security check triggers/.test(reason)) return { how: "add the target's security check triggers to the profile (security)", waivable: true };
  if (/no scenario results/.test(reason)) return { how: 'that format produced no results: see Problems for why, then run it again', waivable: false };
  if (/no scenario (checked|checks) (it|this rule)/.test(reason))
    return { how: 'no scenario selected checks it: run the whole suite (no --tags, every --shard) or, for a rule of your own, add a scenario tagged with it', waivable: false };
  return { waivable: false };
}

/** The reason of an unchecked entry without its scenario's place (`skipped f.feature:3 name: why` -> `why`). */
function reasonOf(u: Unchecked): string {
  if (u.reason) return u.reason;
  return u.why.replace(/^skipped \S+:\d+ .*?: /, '').replace(/^(skipped|blocked): /, '');
}

/** Each reason once, most rules and scenarios first. */
export function groupUnchecked(unchecked: readonly Unchecked[]): UncheckedGroup[] {
  const groups = new Map<string, { rules: Map<string, Set<Format>>; scenarios: number }>();
  for (const u of unchecked) {
    const reason = reasonOf(u);
    const g = groups.get(reason) ?? { rules: new Map(), scenarios: 0 };
    if (u.rule === 'scenario') g.scenarios += 1;
    else g.rules.set(u.rule, (g.rules.get(u.rule) ?? new Set()).add(u.format));
    groups.set(reason, g);
  }
  return [...groups.entries()]
    .map(([reason, g]) => ({
      reason,
      ...howToCheck(reason),
      rules: [...g.rules.entries()].sort((a, b) => byText(a[0], b[0])).map(([id, f]) => ({ id, formats: [...f].sort() })),
      scenarios: g.scenarios,
    }))
    .sort((a, b) => b.rules.length + b.scenarios - (a.rules.length + a.scenarios) || byText(a.reason, b.reason));
}

/** A group in a few lines (console, Markdown): the reason whole, what it left unchecked, the way to check it. */
export function groupLines(g: UncheckedGroup, maxRules = 12): string[] {
  const rules = g.rules.map((r) => `${r.id}${r.formats.length === 1 ? ` [${r.formats[0]}]` : ''}`);
  const what = [
    ...(rules.length ? [`${rules.length} rule(s): ${rules.slice(0, maxRules).join(', ')}${rules.length > maxRules ? `, ... and ${rules.length - maxRules} more` : ''}`] : []),
    ...(g.scenarios ? [`${g.scenarios} scenario(s) skipped`] : []),
  ].join('; ');
  return [g.reason, `  ${what}`, ...(g.how ? [`  To check it: ${g.how}${g.waivable ? '; or, if it is out of your certification, waive it with a reason (--waivers)' : ''}.`] : [])];
}
