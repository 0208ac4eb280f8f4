/**
 * `cardspec selfcheck`: the kit checks itself. Every variant of the gallery (src/selfcheck/gallery) is started
 * in-process and run through the conformance suite (a faulty variant on the scenarios of the rule it breaks, a
 * benign one on all of them) and a short fuzz run; it prints a table and the detection score. See
 * docs/selfcheck.md.
 *
 * Exit codes: 0 every faulty variant caught by a scenario tagged with its rule and every benign variant passed
 * (and, with --ablate, every single catcher shown to be needed); 1 otherwise; 2 a usage error.
 */
import { redactText } from '../redact';
import type { SelfcheckIo } from '../selfcheck/command';
import { OptionValues, parseOptions, stringOption, UsageError, wholeNumberOption } from './options';

export const USAGE = `Usage: cardspec selfcheck [options]

Runs the conformance suite (and a short fuzz run) against every variant of the gallery of faulty and benign
gateways, and prints a table and the detection score.

Options:
  --only <list>          variants to run, comma-separated: names, patterns (xml-*), faulty or benign
                         (default: the whole gallery); generated, or gen-* names and patterns, pick
                         from the generated gallery
  --generated            also run the generated gallery (mutants derived from the field dictionary, the
                         Request types, Errors and state tables): prints the kill score and each survivor
                         with why it is equivalent
  --contexts             with --generated: also each answer mutant in one context only (one format,
                         separate or combined, with or without a parent); a survivor no exchange reached
                         is listed apart
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

/** Generated variants by exact name or `*` pattern. */
function selectGenerated<T extends { name: string }>(all: readonly T[], picks: readonly string[]): T[] {
  const res = picks.map((s) => new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`));
  return all.filter((v) => res.some((re) => re.test(v.name)));
}

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The process's console. */
const processIo = (): SelfcheckIo => ({ out: process.stdout, err: process.stderr, tty: process.stdout.isTTY === true });

export async function run(args: string[], io: SelfcheckIo = processIo()): Promise<number> {
  let values: OptionValues;
  try {
    values = parseOptions(args, {
      only: { type: 'string' },
      workers: { type: 'string' },
      'no-fuzz': { type: 'boolean' },
      'fuzz-runs': { type: 'string' },
      without: { type: 'string' },
      ablate: { type: 'boolean' },
      generated: { type: 'boolean' },
      contexts: { type: 'boolean' },
      markdown: { type: 'string' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
  } catch (e) {
    io.err.write(`${redactText(`cardspec selfcheck: ${(e as Error).message}\n\n${USAGE}`)}\n`);
    return 2;
  }
  if (values.help) {
    io.out.write(`${USAGE}\n`);
    return 0;
  }
  const str = (k: string): string | undefined => stringOption(values, k);

  const { GALLERY, selectVariants } = await import('../selfcheck/gallery');
  const { contextGallery, generatedGallery } = await import('../selfcheck/mutants/operators');
  if (values.list) {
    for (const v of GALLERY) io.out.write(`${v.name.padEnd(40)} ${v.kind.padEnd(7)} ${(v.kind === 'faulty' ? v.rule : '').padEnd(31)} ${v.what}\n`);
    if (values.generated)
      for (const v of [...generatedGallery(), ...(values.contexts ? contextGallery() : [])]) io.out.write(`${v.name.padEnd(40)} ${v.operator.padEnd(7)} ${v.rule.padEnd(31)} ${v.what}\n`);
    return 0;
  }

  let plan;
  try {
    const only = list(str('only'));
    const isGenerated = (s: string): boolean => s === 'generated' || s.startsWith('gen-');
    const handPicked = only.filter((s) => !isGenerated(s));
    const genPicked = only.filter(isGenerated);
    // --only with nothing but generated names runs no hand-written variant.
    const { variants, unknown } = only.length > 0 && handPicked.length === 0 ? { variants: [], unknown: [] } : selectVariants(handPicked);
    const allGenerated = [...generatedGallery(), ...contextGallery()];
    const whole = [...generatedGallery(), ...(values.contexts ? contextGallery() : [])];
    const generated = values.generated || genPicked.includes('generated') ? whole : selectGenerated(allGenerated, genPicked);
    const genUnknown = genPicked.filter((s) => s !== 'generated' && selectGenerated(allGenerated, [s]).length === 0);
    if (unknown.length + genUnknown.length > 0) throw new UsageError(`--only: no variant matches ${[...unknown, ...genUnknown].join(', ')} (see --list)`);
    const without = list(str('without'));
    const bad = without.filter((w) => !/^features\/[A-Za-z0-9._-]+\.feature:[0-9]+$/.test(w));
    if (bad.length > 0) throw new UsageError(`--without takes features/<file>.feature:<line>, not ${bad.join(', ')}`);
    const { defaultWorkers } = await import('../selfcheck/runner');
    const { SHORT_FUZZ } = await import('../selfcheck/fuzz');
    plan = {
      variants,
      generated,
      without,
      workers: wholeNumberOption('workers', str('workers'), defaultWorkers(), 1, 16),
      fuzz: values['no-fuzz'] ? (false as const) : { ...SHORT_FUZZ, runs: wholeNumberOption('fuzz-runs', str('fuzz-runs'), SHORT_FUZZ.runs, 1, 100_000) },
      markdown: str('markdown'),
    };
  } catch (e) {
    io.err.write(`${redactText(`cardspec selfcheck: ${(e as Error).message}${e instanceof UsageError ? `\n\n${USAGE}` : ''}`)}\n`);
    return 2;
  }

  const { runSelfcheckCommand } = await import('../selfcheck/command');
  return runSelfcheckCommand({ ...plan, ablate: values.ablate === true }, io);
}
