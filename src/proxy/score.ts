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

export async function passiveVerdict(v: Variant): Promise<PassiveVerdict> {
  const gw = await startVariant(v);
  try {
    const proxy = await startProxy({ upstream: gw.url });
    try {
      const r = await runSuite({ baseUrl: proxy.url, formats: v.formats ?? ALL_FORMATS, tags: tagsFor(v) });
      await proxy.settled();
      const report = proxy.session.report();
      const named = report.violations.byRule.filter((b) => b.side === 'gateway' && b.errors > 0).map((b) => b.rule);
      const ok = v.kind === 'faulty' ? named.includes(v.rule) : named.length === 0;
      return { name: v.name, kind: v.kind, rule: v.kind === 'faulty' ? v.rule : undefined, ok, named, scenarios: r.scenarios.length };
    } finally {
      await proxy.close();
    }
  } finally {
    await gw.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : undefined;
  const chosen = GALLERY.filter((v) => (only ? only.includes(v.name) : argv.includes('--benign') ? v.kind === 'benign' : faultInAnswer(v)));
  const verdicts: PassiveVerdict[] = [];
  for (const v of chosen) {
    const verdict = await passiveVerdict(v);
    verdicts.push(verdict);
    console.log(`${verdict.ok ? 'ok  ' : 'MISS'} ${v.kind} ${v.name} ${verdict.rule ?? ''} named: ${verdict.named.join(' ') || '-'}`);
  }
  const faulty = verdicts.filter((v) => v.kind === 'faulty');
  const benign = verdicts.filter((v) => v.kind === 'benign');
  const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
  console.log(
    `faulty named: ${faulty.filter((v) => v.ok).length}/${faulty.length} (${pct(faulty.filter((v) => v.ok).length, faulty.length)}); benign clean: ${benign.filter((v) => v.ok).length}/${benign.length}`,
  );
  if (argv.includes('--markdown')) {
    for (const v of verdicts) console.log(`| ${v.name} | ${v.kind} | ${v.rule ?? ''} | ${v.ok ? 'yes' : 'no'} | ${v.named.join(', ') || '-'} |`);
  }
}

if (require.main === module) void main(process.argv.slice(2));
