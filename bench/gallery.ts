/**
 * `npm run bench:gallery`: the generated self-check gallery's time, per variant and per operator (median, 90th
 * percentile, max of each variant's run: a fresh gateway and only the scenarios of its rule, both formats), and its
 * wall time with the workers used, written to bench/results/gallery.md. The CI budget is 10 minutes on 2 cores.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generatedGallery } from '../src/selfcheck/mutants/operators';
import { scoreGenerated } from '../src/selfcheck/mutants/score';
import { defaultWorkers, runSelfcheck } from '../src/selfcheck/runner';

const q = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export async function main(argv: string[]): Promise<number> {
  const workersArg = argv.indexOf('--workers');
  const workers = workersArg >= 0 ? Number(argv[workersArg + 1]) : defaultWorkers();
  const variants = generatedGallery();
  const load = os.loadavg()[0].toFixed(1);
  const r = await runSelfcheck({ variants, workers, fuzz: false });
  const score = scoreGenerated(variants, r.verdicts);
  const byOp = new Map<string, number[]>();
  r.runs.forEach((run, i) => byOp.set(variants[i].operator, [...(byOp.get(variants[i].operator) ?? []), run.durationMs]));
  const all = r.runs.map((x) => x.durationMs).sort((a, b) => a - b);
  const rows = [...byOp.entries()].map(([op, t]) => {
    const s = [...t].sort((a, b) => a - b);
    return `| ${op} | ${s.length} | ${q(s, 0.5)} | ${q(s, 0.9)} | ${s[s.length - 1]} |`;
  });
  const text = [
    '# Generated self-check gallery: time per variant',
    '',
    `${variants.length} variants, ${workers} worker process(es), ${os.cpus().length} cores, load average ${load} at the start; wall time ${(r.durationMs / 1000).toFixed(1)} s.`,
    `Kill score ${score.killed}/${score.total}; ${score.equivalent.length} equivalent survivors; ${score.unexplained.length} unexplained.`,
    '',
    '| operator | variants | median ms | p90 ms | max ms |',
    '|---|---|---|---|---|',
    ...rows,
    `| all | ${all.length} | ${q(all, 0.5)} | ${q(all, 0.9)} | ${all[all.length - 1]} |`,
    '',
  ].join('\n');
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'gallery.md'), text);
  process.stdout.write(text);
  return 0;
}
