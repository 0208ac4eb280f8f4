/**
 * The passive detection score (docs/selfcheck.md): for each faulty variant of the self-check gallery whose fault is
 * in an answer (its build changes parts, the envelope or the wire form: `mutate.part`, `mutate.envelope`,
 * `mutate.wire`), the conformance suite is driven through the checking proxy to the variant, and the proxy's own
 * report (not the suite's assertions) must name the variant's rule among the gateway's errors. Every benign variant,
 * through the whole suite: no gateway error. The client side is not scored: the suite sends invalid requests on
 * purpose, and the proxy reports them as the client's.
 *
 *   node -r ./steps/register-ts.js src/proxy/score.ts [--only a,b] [--benign] [--markdown]
 */
import { GALLERY } from '../selfcheck/gallery';
import { startVariant } from '../selfcheck/start';
import { runSuite } from '../selfcheck/suite';
import { ALL_FORMATS, tagsFor } from '../selfcheck/run-variant';
import type { Variant } from '../selfcheck/types';
import type { TextSink } from '../io';
import { startProxy } from './server';

/** A variant whose fault is in what the gateway answers, as its build says. */
export function faultInAnswer(v: Variant): boolean {
  if (v.kind !== 'faulty') return false;
  const m = v.build().mutate;
  return m !== undefined && (m.part !== undefined || m.envelope !== undefined || m.wire !== undefined);
}

export interface PassiveVerdict {
  readonly name: string;
  readonly kind: Variant['kind'];
  readonly rule?: string;
  /** Faulty: the proxy named the rule among the gateway's errors. Benign: no gateway error. */
  readonly ok: boolean;
  /** The rules the proxy found the gateway broke (errors). */
  readonly named: readonly string[];
  readonly scenarios: number;
}

/** The gateway's rules the proxy named with an error, driving the suite's scenarios of `tags` through it to a fresh instance of `v`. */
async function drive(v: Variant, tags: string): Promise<{ named: string[]; scenarios: number }> {
  const gw = await startVariant(v);
  try {
    const proxy = await startProxy({ upstream: gw.url });
    try {
      const r = await runSuite({ baseUrl: proxy.url, formats: v.formats ?? ALL_FORMATS, tags });
      await proxy.settled();
      const report = proxy.session.report();
      return { named: report.violations.byRule.filter((b) => b.side === 'gateway' && b.errors > 0).map((b) => b.rule), scenarios: r.scenarios.length };
    } finally {
      await proxy.close();
    }
  } finally {
    await gw.close();
  }
}

/**
 * A faulty variant first gets the scenarios of its rule (tens of milliseconds), and the whole suite on a fresh
 * instance when the proxy did not name the rule from those: as the self-check judges the suite (src/selfcheck/
 * run-variant.ts), a variant is named when the proxy names its rule in a run of the whole suite. The rule's own
 * scenarios may not show what a passive observer needs: the XML locations' scenarios run in the XML run only, so
 * the same data's answer in JSON, which a swap of two locations is seen against, comes only from the other features.
 */
export async function passiveVerdict(v: Variant): Promise<PassiveVerdict> {
  const first = await drive(v, tagsFor(v));
  if (v.kind !== 'faulty') return { name: v.name, kind: v.kind, ok: first.named.length === 0, named: first.named, scenarios: first.scenarios };
  if (first.named.includes(v.rule)) return { name: v.name, kind: v.kind, rule: v.rule, ok: true, named: first.named, scenarios: first.scenarios };
  const whole = await drive(v, '');
  return { name: v.name, kind: v.kind, rule: v.rule, ok: whole.named.includes(v.rule), named: whole.named, scenarios: first.scenarios + whole.scenarios };
}

export interface ScoreOptions {
  /** The variants to judge, in order. */
  readonly variants: readonly Variant[];
  /** Where each verdict's line and the total go (the command line: the process's stdout). */
  readonly out: TextSink;
  /** Also a Markdown table row per variant, after the total (the table of docs/selfcheck.md). */
  readonly markdown?: boolean;
}

/** The variants a command line asks for: `--only a,b`, else every benign one with `--benign`, else the faulty ones whose fault is in an answer. */
export function chosenVariants(argv: readonly string[]): Variant[] {
  const i = argv.indexOf('--only');
  const only = i >= 0 ? (argv[i + 1] ?? '').split(',').filter((n) => n !== '') : undefined;
  return GALLERY.filter((v) => (only ? only.includes(v.name) : argv.includes('--benign') ? v.kind === 'benign' : faultInAnswer(v)));
}

const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);

/** Judges each variant through the proxy, writing a line per verdict as it comes and the score at the end. */
export async function passiveScore(opts: ScoreOptions): Promise<PassiveVerdict[]> {
  const verdicts: PassiveVerdict[] = [];
  for (const v of opts.variants) {
    const verdict = await passiveVerdict(v);
    verdicts.push(verdict);
    opts.out.write(`${verdict.ok ? 'ok  ' : 'MISS'} ${v.kind} ${v.name} ${verdict.rule ?? ''} named: ${verdict.named.join(' ') || '-'}\n`);
  }
  const faulty = verdicts.filter((v) => v.kind === 'faulty');
  const named = faulty.filter((v) => v.ok).length;
  const benign = verdicts.filter((v) => v.kind === 'benign');
  opts.out.write(`faulty named: ${named}/${faulty.length} (${pct(named, faulty.length)}); benign clean: ${benign.filter((v) => v.ok).length}/${benign.length}\n`);
  if (opts.markdown) for (const v of verdicts) opts.out.write(`| ${v.name} | ${v.kind} | ${v.rule ?? ''} | ${v.ok ? 'yes' : 'no'} | ${v.named.join(', ') || '-'} |\n`);
  return verdicts;
}

async function main(argv: readonly string[]): Promise<void> {
  const variants = chosenVariants(argv);
  if (variants.length === 0) {
    process.stderr.write('score: no variant chosen (--only names no variant of the gallery)\n');
    process.exitCode = 2;
    return;
  }
  await passiveScore({ variants, out: process.stdout, markdown: argv.includes('--markdown') });
}

if (require.main === module) void main(process.argv.slice(2));
