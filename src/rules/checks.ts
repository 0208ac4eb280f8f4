/**
 * Check results: what each step assertion checked, by rule. The World records one per assertion (steps/world.ts)
 * and attaches them to the scenario's cucumber messages under CHECKS_MEDIA_TYPE; the reports read them back
 * (messages.ts) so that a failed assertion breaks the rule it names, not every `@rule` tag of its scenario, and so
 * that failures sharing a cause are told once (causes.ts). Each check carries the context of the exchange it looked
 * at (src/rules/scope.ts), so that the matrix tells in which of a rule's contexts it was checked.
 */
import type { ExchangeContext } from './scope';

/** The media type of the one attachment per scenario that lists its checks (JSON: `{ "checks": [...] }`). */
export const CHECKS_MEDIA_TYPE = 'application/x.cardspec.checks+json';

/** How the rule of a check was chosen: named by the step, by the field it looked at, or from the scenario's tags. */
export type Attribution = 'named' | 'field' | 'scenario';

/** One assertion about one rule, masked. */
export interface CheckRecord {
  readonly rule: string;
  readonly ok: boolean;
  readonly attribution: Attribution;
  /** What failed, in the document's words (failures only). */
  readonly message?: string;
  /** The field looked at (`maskedpan`), when there is one. */
  readonly field?: string;
  readonly expected?: string;
  readonly seen?: string;
  /** The request type of the part the field sat in. */
  readonly part?: string;
  /** The step's text. */
  readonly step?: string;
  /** One masked exchange that shows the fault (failures only; shortened). */
  readonly exchange?: string;
  /** Which of the scenario's exchanges it looked at (0 first); absent when it looked at none. */
  readonly call?: number;
  /** The context of each part of that exchange it looked at (one part, or all of them). */
  readonly contexts?: readonly ExchangeContext[];
}

/** What a step says about a check beyond its rule. */
export interface CheckDetail {
  readonly message: string;
  readonly field?: string;
  readonly expected?: string;
  readonly seen?: string;
  readonly part?: string;
  /** The errorcode of the part looked at (a hint to the rule: the Errors table's row of that code). */
  readonly errorcode?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Reads the checks attachment's body; anything unreadable is left out (the scenario then falls back to its tags). */
export function parseChecks(body: string): CheckRecord[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return [];
  }
  const list = isRecord(doc) && Array.isArray(doc.checks) ? doc.checks : [];
  const out: CheckRecord[] = [];
  for (const c of list) {
    if (!isRecord(c) || typeof c.rule !== 'string' || typeof c.ok !== 'boolean') continue;
    const attribution: Attribution = c.attribution === 'named' || c.attribution === 'field' ? c.attribution : 'scenario';
    const rec: CheckRecord = {
      rule: c.rule,
      ok: c.ok,
      attribution,
      ...pick(c, ['message', 'field', 'expected', 'seen', 'part', 'step', 'exchange']),
      ...(typeof c.call === 'number' && Number.isInteger(c.call) && c.call >= 0 ? { call: c.call } : {}),
      ...(Array.isArray(c.contexts) ? { contexts: c.contexts.filter(isContext) } : {}),
    };
    out.push(rec);
  }
  return out;
}

const CONTEXT_KEYS = ['type', 'outcome', 'card', 'length', 'request', 'parent', 'enrolled', 'shield'];

/** A context as the attachment carries it: a format and string values of the known keys only. */
function isContext(v: unknown): v is ExchangeContext {
  if (!isRecord(v) || (v.format !== 'json' && v.format !== 'xml')) return false;
  return Object.entries(v).every(([k, x]) => k === 'format' || (CONTEXT_KEYS.includes(k) && typeof x === 'string'));
}

function pick(c: Record<string, unknown>, keys: readonly (keyof CheckRecord)[]): Partial<CheckRecord> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = optString(c[k]);
    if (v !== undefined) out[k] = v;
  }
  return out as Partial<CheckRecord>;
}
