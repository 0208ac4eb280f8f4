/**
 * `cardspec selfcheck`: the kit checks itself. Every variant of the gallery (src/selfcheck/gallery) is started
 * in-process and run through the conformance suite (a faulty variant on the scenarios of the rule it breaks, a
 * benign one on all of them) and a short fuzz run; it prints a table and the detection score. See
 * docs/selfcheck.md.
 *
 * Exit codes: 0 every faulty variant caught by a scenario tagged with its rule and every benign variant passed
 * (and, with --ablate, every single catcher shown to be needed); 1 otherwise; 2 a usage error.
 */
import * as fs from 'node:fs';
import { redactText } from '../redact';
import { OptionValues, parseOptions, stringOption, UsageError } from './options';

export const USAGE = `Usage: cardspec selfcheck [options]

Runs the conformance suite (and a short fuzz run) against every variant of the gallery of faulty and benign
gateways, and prints a table and the detection score.

Options:
  --only <list>          variants to run, comma-separated: names, patterns (xml-*), faulty or benign
                         (default: the whole gallery)
  --workers N            processes running variants at once (default: the cores available, at most 4;
                         1 runs everything in this process)
  --no-fuzz              skip the short fuzz runs
  --fuzz-runs N          generated requests per format in each fuzz run (default: 80)
  --without <places>     leave scenarios out, comma-separated features/<file>:<line>: the self-check then runs
                         as if they had been removed from the features
  --ablate               then, for each faulty variant caught by a single scenario, run it again without that
                         scenario: it must go uncaught
  --markdown <file>      write the score and the table as Markdown into <file>, between
                         <!-- selfcheck:start --> and <!-- selfcheck:end --> (appended if the file has none)
  --list                 list the gallery and exit
  -h, --help             this text

Exit codes: 0 every faulty variant caught and every benign one passed, 1 otherwise, 2 a usage error.`;


function wholeNumber(text: string | undefined, name: string, dflt: number, min: number, max: number): number {
  if (text === undefined) return dflt;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return Number(text);
}

const list = (text: string | undefined): string[] => (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export async function run(args: string[]): Promise<number> {
  let values: OptionValues;
  try {
    values = parseOptions(args, {
      only: { type: 'string' },
      workers: { type: 'string' },
      'no-fuzz': { type: 'boolean' },
      'fuzz-runs': { type: 'string' },
      without: { type: 'string' },
      ablate: { type: 'boolean' },
      markdown: { type: 'string' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
  } catch (e) {
    console.error(redactText(`cardspec selfcheck: ${(e as Error).message}\n\n${USAGE}`));
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const str = (k: string): string | undefined => stringOption(values, k);

  const { GALLERY, selectVariants } = await import('../selfcheck/gallery');
  if (values.list) {
    for (const v of GALLERY) console.log(`${v.name.padEnd(40)} ${v.kind.padEnd(7)} ${(v.kind === 'faulty' ? v.rule : '').padEnd(31)} ${v.what}`);
    return 0;
  }

  let plan;
  try {
    const { variants, unknown } = selectVariants(list(str('only')));
    if (unknown.length > 0) throw new UsageError(`--only: no variant matches ${unknown.join(', ')} (see --list)`);
    const without = list(str('without'));
    const bad = without.filter((w) => !/^features\/[A-Za-z0-9._-]+\.feature:[0-9]+$/.test(w));
    if (bad.length > 0) throw new UsageError(`--without takes features/<file>.feature:<line>, not ${bad.join(', ')}`);
    const { defaultWorkers } = await import('../selfcheck/runner');
    const { SHORT_FUZZ } = await import('../selfcheck/fuzz');
    plan = {
      variants,
      without,
      workers: wholeNumber(str('workers'), 'workers', defaultWorkers(), 1, 16),
      fuzz: values['no-fuzz'] ? (false as const) : { ...SHORT_FUZZ, runs: wholeNumber(str('fuzz-runs'), 'fuzz-runs', SHORT_FUZZ.runs, 1, 100_000) },
      markdown: str('markdown'),
    };
  } catch (e) {
    console.error(redactText(`cardspec selfcheck: ${(e as Error).message}${e instanceof UsageError ? `\n\n${USAGE}` : ''}`));
    return 2;
  }

  const { runSelfcheck, ablate } = await import('../selfcheck/runner');
  const { ablationLines, consoleTable, markdownBlock, replaceBlock } = await import('../selfcheck/table');
  const { passed } = await import('../selfcheck/verdict');

  const faulty = plan.variants.filter((v) => v.kind === 'faulty').length;
  const fuzzText = plan.fuzz ? `a short fuzz run each (seed ${plan.fuzz.seed}, ${plan.fuzz.runs} requests per format, ${plan.fuzz.modelRuns} run per model)` : 'no fuzz runs';
  console.log(
    redactText(
      `cardspec selfcheck: ${plan.variants.length} variants (${faulty} faulty, ${plan.variants.length - faulty} benign), ${plan.workers} worker(s), ${fuzzText}` +
        (plan.without.length > 0 ? `, without ${plan.without.join(', ')}` : ''),
    ),
  );
  const tty = process.stdout.isTTY === true;
  let shown = 0;
  const result = await runSelfcheck({
    variants: plan.variants,
    workers: plan.workers,
    fuzz: plan.fuzz,
    exclude: plan.without,
    onVerdict: (v) => {
      if (!tty) return;
      process.stdout.write(v.ok ? '.' : 'F');
      if (++shown % 80 === 0) process.stdout.write('\n');
    },
  });
  if (tty && shown % 80 !== 0) process.stdout.write('\n');
  console.log('');
  console.log(consoleTable(result.verdicts));

  let ablationOk = true;
  if (values.ablate) {
    const ablations = await ablate(plan.variants, result.verdicts, plan.workers);
    ablationOk = ablations.every((a) => !a.stillCaught);
    console.log('');
    console.log(redactText(ablationLines(ablations).join('\n')));
  }
  console.log(`\n${plan.variants.length} variants in ${(result.durationMs / 1000).toFixed(1)} s.`);

  if (plan.markdown) {
    try {
      const old = fs.existsSync(plan.markdown) ? fs.readFileSync(plan.markdown, 'utf8') : '';
      const block = markdownBlock(result.verdicts, { durationMs: result.durationMs, workers: plan.workers, fuzz: fuzzText });
      fs.writeFileSync(plan.markdown, replaceBlock(old, block));
      console.log(`Table written to ${plan.markdown}.`);
    } catch (e) {
      console.error(redactText(`cardspec selfcheck: could not write ${plan.markdown}: ${(e as Error).message}`));
      return 2;
    }
  }
  return passed(result.verdicts) && ablationOk ? 0 : 1;
}
