/**
 * Waivers: the one way a run's scope narrows. A waivers file (`cardspec run --waivers FILE`, YAML or JSON) lists
 * rule IDs or scenario tags, each with a written reason; a waived rule need not be checked for the run to be PASSED
 * (a failure on it still fails the run), and a scenario with a waived tag is out of scope when skipped. Every entry
 * is printed in the certification summary, summary.json and the matrix, so that an auditor sees each one.
 *
 *   waivers:
 *     - rule: SUB-STATE-RESUME
 *       reason: the sandbox has no movable clock; resumption is certified on the acquirer's test bench (ticket 123)
 *     - tag: "@requires:clock"
 *       reason: ...
 */
import * as fs from 'node:fs';
import { parse } from 'yaml';
import { redactText } from '../redact';

export interface Waiver {
  /** A rule ID (`SUB-STATE-RESUME`, or a field row `FIELD-LENGTHS:billingemail`) or a tag (`@requires:clock`). */
  readonly id: string;
  readonly kind: 'rule' | 'tag';
  readonly reason: string;
}

/** A waivers file that cannot be used: the run does not start (exit 2), with what to fix. */
export class WaiverError extends Error {
  constructor(message: string) {
    super(redactText(message));
    this.name = 'WaiverError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads and checks a waivers file against the catalogue's rule IDs. */
export function loadWaivers(file: string, knownRules: ReadonlySet<string>): Waiver[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new WaiverError(`--waivers ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new WaiverError(`--waivers ${file}: neither YAML nor JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  return readWaivers(doc, file, knownRules);
}

export function readWaivers(doc: unknown, file: string, knownRules: ReadonlySet<string>): Waiver[] {
  const list = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.waivers) ? doc.waivers : undefined;
  if (!list) throw new WaiverError(`--waivers ${file}: expected a list of waivers (or "waivers:" holding one), each with rule or tag and reason`);
  const out: Waiver[] = [];
  const problems: string[] = [];
  list.forEach((entry: unknown, i: number) => {
    const where = `entry ${i + 1}`;
    if (!isRecord(entry)) return void problems.push(`${where} is not a mapping`);
    const rule = typeof entry.rule === 'string' ? entry.rule.trim() : undefined;
    const tag = typeof entry.tag === 'string' ? entry.tag.trim() : undefined;
    const reason = typeof entry.reason === 'string' ? entry.reason.replace(/\s+/g, ' ').trim() : '';
    if ((rule ? 1 : 0) + (tag ? 1 : 0) !== 1) return void problems.push(`${where}: give exactly one of rule (a rule ID) or tag (e.g. "@requires:clock")`);
    if (reason.length < 10) problems.push(`${where} (${rule ?? tag}): a written reason is required (at least a few words), so that an auditor can read why`);
    if (rule) {
      const base = rule.split(':')[0];
      if (!knownRules.has(rule) && !knownRules.has(base)) problems.push(`${where}: ${rule} is not a rule of the catalogue (see features/rules.yaml or the matrix)`);
      out.push({ id: rule, kind: 'rule', reason });
    } else if (tag) {
      if (!tag.startsWith('@')) problems.push(`${where}: a tag starts with "@" (e.g. "@requires:clock"), not "${tag}"`);
      out.push({ id: tag, kind: 'tag', reason });
    }
  });
  if (problems.length > 0) throw new WaiverError(`--waivers ${file}:\n  ${problems.join('\n  ')}`);
  return out.map((w) => ({ ...w, reason: redactText(w.reason) }));
}

/** The waiver that covers a rule (itself, or its base rule for a field row), if any. */
export function waiverOfRule(waivers: readonly Waiver[], rule: string): Waiver | undefined {
  const base = rule.split(':')[0];
  return waivers.find((w) => w.kind === 'rule' && (w.id === rule || w.id === base));
}

/** The waiver that covers a scenario by one of its tags, if any. */
export function waiverOfTags(waivers: readonly Waiver[], tags: readonly string[]): Waiver | undefined {
  return waivers.find((w) => w.kind === 'tag' && tags.includes(w.id));
}
