/**
 * What the self-check prints and writes: one row per variant (rule broken, the scenario that caught it, the
 * verdict, what the fuzz run alone made of it) and the detection score, as a console table and as Markdown for
 * docs/selfcheck.md and the README (between `<!-- selfcheck:start -->` and `<!-- selfcheck:end -->`). Every string
 * goes through `redactText` on the way out.
 */
import * as path from 'node:path';
import { redactText } from '../redact';
import type { Ablation } from './runner';
import type { VariantVerdict } from './types';
import { scoreOf, type Score } from './verdict';

export const MARKERS = { start: '<!-- selfcheck:start -->', end: '<!-- selfcheck:end -->' } as const;

const pct = (n: number, d: number): string => (d === 0 ? '-' : `${Math.floor((100 * n) / d)}%`);

/** `three-d-secure.feature:44`, plus how many other scenario runs caught it. */
function catcher(v: VariantVerdict): string {
  if (v.kind === 'benign') return v.ok ? `${v.scenariosRun} scenarios passed` : '-';
  if (v.caughtBy.length === 0) return '-';
  const first = v.caughtBy[0].replace(/ \[(json|xml)\]$/, '');
  const more = v.caughtBy.length - 1;
  return `${path.basename(first)}${more > 0 ? ` (+${more})` : ''}`;
}

function verdictWord(v: VariantVerdict): string {
  if (v.kind === 'faulty') return v.ok ? 'caught' : 'NOT CAUGHT';
  return v.ok ? 'passed' : 'FAILED';
}

/** What the fuzz run alone did: caught under the rule, flagged under another, nothing; for benign, passed or not. */
function fuzzWord(v: VariantVerdict): string {
  if (v.fuzzOk === undefined) return 'not run';
  if (v.kind === 'benign') return v.fuzzOk ? 'passed' : `FAILED (${v.fuzzRules.join(', ')})`;
  if (v.fuzzOk) return 'caught';
  return v.fuzzRules.length > 0 ? `flagged: ${v.fuzzRules.join(', ')}` : '-';
}

export function scoreLines(score: Score): string[] {
  const { faulty, benign, fuzz } = score;
  const lines = [
    `Detection score: ${faulty.caught}/${faulty.total} faulty variants caught (${pct(faulty.caught, faulty.total)}), ${benign.passed}/${benign.total} benign variants passed (${pct(benign.passed, benign.total)})`,
  ];
  if (fuzz) {
    lines.push(
      `Fuzz run alone: ${fuzz.faulty.caught}/${fuzz.faulty.total} faulty variants caught under the rule they break (${pct(fuzz.faulty.caught, fuzz.faulty.total)}), ` +
        `${fuzz.faulty.flagged}/${fuzz.faulty.total} flagged under some rule (${pct(fuzz.faulty.flagged, fuzz.faulty.total)}); ` +
        `${fuzz.benign.passed}/${fuzz.benign.total} benign variants passed (${pct(fuzz.benign.passed, fuzz.benign.total)})`,
    );
  } else lines.push('Fuzz run alone: not run');
  return lines;
}

const pad = (s: string, n: number): string => (s.length >= n ? `${s.slice(0, n - 2)}… ` : s + ' '.repeat(n - s.length));

export function consoleTable(verdicts: readonly VariantVerdict[]): string {
  const lines = [pad('Variant', 40) + pad('Kind', 8) + pad('Rule broken', 31) + pad('Caught by', 40) + pad('Verdict', 12) + 'Fuzz alone'];
  for (const v of verdicts) {
    lines.push(pad(v.name, 40) + pad(v.kind, 8) + pad(v.rule ?? '(allowed)', 31) + pad(catcher(v), 40) + pad(verdictWord(v), 12) + fuzzWord(v));
  }
  const bad = verdicts.filter((v) => !v.ok);
  if (bad.length > 0) {
    lines.push('', `Not as expected (${bad.length}):`);
    for (const v of bad) lines.push(`  ${v.name} (${v.kind}${v.rule ? `, ${v.rule}` : ''}): ${v.note}`);
  }
  lines.push('', ...scoreLines(scoreOf(verdicts)));
  return redactText(lines.join('\n'));
}

export function ablationLines(ablations: readonly Ablation[]): string[] {
  if (ablations.length === 0) return ['Ablation: no faulty variant was caught by a single scenario.'];
  const wrong = ablations.filter((a) => a.stillCaught);
  const lines = [
    `Ablation: ${ablations.length} faulty variant(s) caught by a single scenario; without it, ${ablations.length - wrong.length}/${ablations.length} went uncaught (the self-check then fails).`,
  ];
  for (const a of wrong) lines.push(`  ${a.name} (${a.rule}) was still caught without ${a.scenario}`);
  return lines;
}

/** Text for a table cell: no column breaks, and no `<element>` that a Markdown viewer would take for HTML. */
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Markdown block: the score, then the table. */
export function markdownBlock(verdicts: readonly VariantVerdict[], facts: { readonly durationMs: number; readonly workers: number; readonly fuzz: string }): string {
  const lines = [
    ...scoreLines(scoreOf(verdicts)).flatMap((l) => [`**${l.replace(/: /, ':** ')}`, '']),
    `${verdicts.length} variants, ${facts.workers} worker process(es), ${(facts.durationMs / 1000).toFixed(0)} s; fuzz: ${facts.fuzz}. Written by \`npm run selfcheck -- --markdown <file>\`.`,
    '',
    '| Variant | Area | Rule broken | Caught by (first scenario) | Verdict | Fuzz alone |',
    '|---|---|---|---|---|---|',
  ];
  for (const v of verdicts) {
    const by = v.kind === 'faulty' && v.catcherName ? `${catcher(v)}: ${v.catcherName}` : catcher(v);
    lines.push(`| \`${v.name}\`: ${cell(v.what)} | ${v.area} | ${v.rule ? `\`${v.rule}\`` : 'benign'} | ${cell(by)} | ${verdictWord(v)} | ${cell(fuzzWord(v))} |`);
  }
  const bad = verdicts.filter((v) => !v.ok);
  if (bad.length > 0) {
    lines.push('', `Not as expected (${bad.length}):`, '');
    for (const v of bad) lines.push(`- \`${v.name}\` (${v.kind}${v.rule ? `, \`${v.rule}\`` : ''}): ${cell(v.note)}`);
  }
  return redactText(lines.join('\n'));
}

/** Where a marker stands on a line of its own (a marker quoted in the text, in a table say, is not one). */
function markerAt(text: string, marker: string, from = 0): number {
  const escaped = marker.replace(/[.*+?^$()|[\]\\{}-]/g, '\\$&');
  const re = new RegExp('^' + escaped + '[ \\t]*$', 'gm');
  re.lastIndex = from;
  return re.exec(text)?.index ?? -1;
}

/** `text` with the block between the markers replaced; appended with the markers when it has none. */
export function replaceBlock(text: string, block: string): string {
  const start = markerAt(text, MARKERS.start);
  const end = start < 0 ? -1 : markerAt(text, MARKERS.end, start);
  const wrapped = `${MARKERS.start}\n${block}\n${MARKERS.end}`;
  if (start < 0 || end < 0) return `${text.replace(/\n*$/, '\n\n')}${wrapped}\n`;
  return text.slice(0, start) + wrapped + text.slice(end + MARKERS.end.length);
}
