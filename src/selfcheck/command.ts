/**
 * `cardspec selfcheck` as a library call, `runSelfcheckCommand(plan, io)`: the gallery's variants through the suite
 * (and a short fuzz run each), the generated mutants, the ablation, the table printed and written; resolves to the
 * exit code (0 every faulty variant caught on its rule and every benign one passed, and with `ablate` every catcher
 * shown to be needed; 1 otherwise; 2 the table file could not be written). src/cli/selfcheck.ts reads the options
 * into the plan; output comes in `io` (src/io.ts).
 */
import * as fs from 'node:fs';
import type { CommandIo } from '../io';
import { redactText } from '../redact';
import type { ShortFuzz } from './fuzz';
import type { GeneratedVariant } from './mutants/operators';
import { scoreGenerated, scoreLines, generatedOk } from './mutants/score';
import { takeCensus } from './census';
import { ablate, runSelfcheck } from './runner';
import { ablationLines, consoleTable, markdownBlock, replaceBlock } from './table';
import type { Variant } from './types';
import { passed } from './verdict';

export interface SelfcheckPlan {
  /** The hand-written variants to run (src/selfcheck/gallery). */
  readonly variants: readonly Variant[];
  /** The generated mutants to run and score (none: an empty list). */
  readonly generated: readonly GeneratedVariant[];
  /** Scenarios left out, as `features/<file>.feature:<line>`. */
  readonly without: readonly string[];
  /** Processes running variants at once. */
  readonly workers: number;
  /** The short fuzz run of each variant, or false for none. */
  readonly fuzz: ShortFuzz | false;
  /** Also show that every catcher is needed (each left out in turn). */
  readonly ablate: boolean;
  /** A Markdown file whose self-check block is replaced with the table. */
  readonly markdown?: string;
}

/** What the self-check is given of its process: output, and whether it is a terminal (dots as it goes). */
export type SelfcheckIo = Pick<CommandIo, 'out' | 'err' | 'tty'>;

const line = (sink: CommandIo['out'], text: string): void => void sink.write(`${text}\n`);

export async function runSelfcheckCommand(plan: SelfcheckPlan, io: SelfcheckIo): Promise<number> {
  const faulty = plan.variants.filter((v) => v.kind === 'faulty').length;
  const fuzzText = plan.fuzz ? `a short fuzz run each (seed ${plan.fuzz.seed}, ${plan.fuzz.runs} requests per format, ${plan.fuzz.modelRuns} run per model)` : 'no fuzz runs';
  line(
    io.out,
    redactText(
      `cardspec selfcheck: ${plan.variants.length} variants (${faulty} faulty, ${plan.variants.length - faulty} benign), ${plan.workers} worker(s), ${fuzzText}` +
        (plan.without.length > 0 ? `, without ${plan.without.join(', ')}` : ''),
    ),
  );
  const tty = io.tty;
  let shown = 0;
  const result = await runSelfcheck({
    variants: plan.variants,
    workers: plan.workers,
    fuzz: plan.fuzz,
    exclude: plan.without,
    onVerdict: (v) => {
      if (!tty) return;
      io.out.write(v.ok ? '.' : 'F');
      if (++shown % 80 === 0) io.out.write('\n');
    },
  });
  if (tty && shown % 80 !== 0) io.out.write('\n');
  line(io.out, '');
  line(io.out, consoleTable(result.verdicts));

  let ablationOk = true;
  if (plan.ablate) {
    const ablations = await ablate(plan.variants, result.verdicts, plan.workers);
    ablationOk = ablations.every((a) => !a.stillCaught);
    line(io.out, '');
    line(io.out, redactText(ablationLines(ablations).join('\n')));
  }
  line(io.out, `\n${plan.variants.length} variants in ${(result.durationMs / 1000).toFixed(1)} s.`);

  let generatedPass = true;
  if (plan.generated.length > 0) {
    line(io.out, `\ncardspec selfcheck: ${plan.generated.length} generated variants, ${plan.workers} worker(s), no fuzz runs`);
    // The context-restricted mutants run where the census saw them change an answer (./census.ts).
    const restricted = plan.generated.filter((v) => v.context !== undefined && !v.equivalent);
    const census = restricted.length > 0 ? await takeCensus(restricted) : undefined;
    if (census) {
      line(
        io.out,
        redactText(
          `Census: ${census.scenarios} scenario runs of the whole suite against the reference in ${(census.durationMs / 1000).toFixed(1)} s; ${census.focus.size}/${restricted.length} context mutants placed` +
            (census.failed.length > 0 ? `; the reference failed ${census.failed.length} (${census.failed.slice(0, 3).join(', ')}): the census places none` : '') +
            (census.problems.length > 0 ? `; ${census.problems[0]}` : ''),
        ),
      );
    }
    let dots = 0;
    const gen = await runSelfcheck({
      variants: plan.generated,
      workers: plan.workers,
      fuzz: false,
      ...(census ? { focus: (v: Variant) => census.focus.get(v.name) } : {}),
      onVerdict: (v) => {
        if (!tty) return;
        io.out.write(v.ok ? '.' : 's');
        if (++dots % 80 === 0) io.out.write('\n');
      },
    });
    if (tty && dots % 80 !== 0) io.out.write('\n');
    const score = scoreGenerated(plan.generated, gen.verdicts);
    generatedPass = generatedOk(score);
    line(io.out, redactText(scoreLines(score).join('\n')));
    const times = gen.runs.map((r) => r.durationMs).sort((a, b) => a - b);
    const mid = times[Math.floor(times.length / 2)] ?? 0;
    const slowest = [...gen.runs]
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, 3)
      .map((r) => `${r.name} ${r.durationMs} ms`);
    line(
      io.out,
      `\n${plan.generated.length} generated variants in ${(gen.durationMs / 1000).toFixed(1)} s (per variant: median ${mid} ms, max ${times[times.length - 1] ?? 0} ms; slowest: ${slowest.join(', ')}).`,
    );
  }

  if (plan.markdown) {
    try {
      const old = fs.existsSync(plan.markdown) ? fs.readFileSync(plan.markdown, 'utf8') : '';
      const block = markdownBlock(result.verdicts, { durationMs: result.durationMs, workers: plan.workers, fuzz: fuzzText });
      fs.writeFileSync(plan.markdown, replaceBlock(old, block));
      line(io.out, `Table written to ${plan.markdown}.`);
    } catch (e) {
      line(io.err, redactText(`cardspec selfcheck: could not write ${plan.markdown}: ${(e as Error).message}`));
      return 2;
    }
  }
  return passed(result.verdicts) && ablationOk && generatedPass ? 0 : 1;
}
