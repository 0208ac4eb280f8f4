/**
 * Causes first: the failures of a run grouped by what broke (rule, field, what was expected), so that a target
 * whose only fault is one field reads as one cause on one rule with the number of scenarios it failed, not as a
 * hundred failures. Each cause keeps one example: the scenario, what was seen and the masked exchange.
 */
import type { Format } from '../wire/types';
import type { CheckRecord } from '../rules/checks';
import type { ScenarioResult } from './messages';
import { byText } from '../order';

export interface Cause {
  readonly rule: string;
  readonly field?: string;
  readonly expected?: string;
  /** What the first failing scenario saw (masked). */
  readonly seen?: string;
  /** The failure in the document's words (the first scenario's). */
  readonly message: string;
  /** Scenarios (per format) that failed on this cause. */
  readonly scenarios: number;
  readonly formats: readonly Format[];
  /** The request types of the parts it was seen in. */
  readonly parts: readonly string[];
  readonly example: { readonly scenario: string; readonly uri: string; readonly line: number; readonly format: Format; readonly step?: string; readonly exchange?: string };
}

/** `response[3].maskedpan must be ...` and `response[0].maskedpan must be ...` are one finding. */
const normalise = (s: string | undefined): string =>
  (s ?? '')
    .replace(/response\[\d+\]\./g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Failed checks of a failed scenario; a failure no check recorded is one check of its broken rules. */
function failedChecksOf(s: ScenarioResult): CheckRecord[] {
  if (s.failedChecks && s.failedChecks.length > 0) return [...s.failedChecks];
  const rules = s.broken && s.broken.length > 0 ? s.broken : s.rules.length > 0 ? s.rules : ['(no @rule tag)'];
  const message = (s.error ?? s.reason ?? 'failed').split('\n')[0].replace(/^\[[^\]]*\]\s*/, '');
  return rules.map((rule) => ({ rule, ok: false, attribution: 'scenario' as const, message }));
}

export function causesOf(scenarios: readonly ScenarioResult[]): Cause[] {
  const byKey = new Map<string, { cause: Omit<Cause, 'scenarios' | 'formats' | 'parts'>; seen: Set<string>; formats: Set<Format>; parts: Set<string> }>();
  for (const s of scenarios) {
    if (s.verdict !== 'failed') continue;
    for (const c of failedChecksOf(s)) {
      // A field's fault is one cause whatever scenario showed it; a check without a field is keyed by its words.
      const key = [c.rule, c.field ?? '', c.field ? normalise(c.expected) : normalise(c.message)].join('\u0000');
      let entry = byKey.get(key);
      if (!entry) {
        entry = {
          cause: {
            rule: c.rule,
            ...(c.field ? { field: c.field } : {}),
            ...(c.expected !== undefined ? { expected: c.expected } : {}),
            ...(c.seen !== undefined ? { seen: c.seen } : {}),
            message: c.message ?? (s.error ?? '').split('\n')[0],
            example: { scenario: s.name, uri: s.uri, line: s.line, format: s.format, ...(c.step ? { step: c.step } : {}), ...(c.exchange ? { exchange: c.exchange } : {}) },
          },
          seen: new Set(),
          formats: new Set(),
          parts: new Set(),
        };
        byKey.set(key, entry);
      }
      entry.seen.add(`${s.format}\u0000${s.uri}:${s.line}:${s.name}`);
      entry.formats.add(s.format);
      if (c.part) entry.parts.add(c.part);
    }
  }
  return [...byKey.values()]
    .map((e) => ({ ...e.cause, scenarios: e.seen.size, formats: [...e.formats].sort(), parts: [...e.parts].sort() }))
    .sort((a, b) => b.scenarios - a.scenarios || byText(a.rule, b.rule));
}

/** One cause in a line or two: rule, field, expected vs seen, how many scenarios; never cut before the cause. */
export function causeLines(c: Cause, width = 160): string[] {
  const head = `${c.rule}${c.field ? ` · ${c.field}` : ''}: ${c.scenarios} scenario(s)${c.formats.length ? ` (${c.formats.map((f) => f.toUpperCase()).join(', ')})` : ''}${c.parts.length ? ` in ${c.parts.join(', ')} parts` : ''}`;
  const what = c.field && c.expected !== undefined ? `expected ${c.expected}${c.seen !== undefined ? `; seen ${c.seen}` : ''}` : c.message;
  const lines = [head, ...wrap(what, width - 6).map((l) => `    ${l}`)];
  lines.push(`    e.g. ${c.example.uri}:${c.example.line} [${c.example.format}] ${c.example.scenario}`);
  return lines;
}

/** Wraps at spaces; the text is kept whole. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}
