/**
 * Where a rule applies (the catalogue's `scope`, read from the rule's own sentence) and where a check was made (the
 * context of the exchange it looked at), in one vocabulary, so that the matrix can say in which of a rule's
 * contexts it was checked and which no exchange reached: a rule asserted in one situation while the document
 * states it for six is then visibly checked in one of six.
 */
import { REQUEST_TYPES, SHIELD_STATUSES } from '../../schemas/fields';
import { ERRORS } from '../../schemas/errors';
import type { Format } from '../wire/types';

/** The dimensions a scope may name, in the order a context is written. */
export const DIMENSIONS = ['types', 'outcomes', 'cards', 'lengths', 'requests', 'parents', 'enrolled', 'shield'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** One mapping of a scope: each dimension it names, with its values (`all` already spelled out). */
export type ScopeEntry = Readonly<Partial<Record<Dimension, readonly string[]>>>;
/** A rule's scope: the union of its entries' contexts. */
export type Scope = readonly ScopeEntry[];

// "accepts several request types: AUTH, SUBSCRIPTION, THREEDQUERY, ACCOUNTCHECK, STORE and RISKDEC";
// TRANSACTIONUPDATE and TRANSACTIONQUERY are follow-ups, named where a sentence names them.
const SIX = REQUEST_TYPES.filter((t) => t !== 'TRANSACTIONUPDATE' && t !== 'TRANSACTIONQUERY');
const CODES = ERRORS.map((e) => e.code).filter((c) => c !== '0');
const LENGTHS = Array.from({ length: 8 }, (_, i) => String(12 + i));

/** Every value a dimension takes, and what `all` stands for. */
export const DIMENSION_VALUES: Readonly<Record<Dimension, { readonly values: readonly string[]; readonly all: readonly string[] }>> = {
  types: { values: REQUEST_TYPES, all: SIX },
  outcomes: { values: ['0', 'failed', ...CODES], all: ['0', 'failed'] },
  cards: { values: ['pan', 'cachetoken', 'stored'], all: ['pan', 'cachetoken', 'stored'] },
  lengths: { values: LENGTHS, all: LENGTHS },
  requests: { values: ['separate', 'combined'], all: ['separate', 'combined'] },
  parents: { values: ['none', ...SIX], all: SIX },
  enrolled: { values: ['Y', 'N', 'U'], all: ['Y', 'N', 'U'] },
  shield: { values: SHIELD_STATUSES, all: SHIELD_STATUSES },
};

/**
 * The context of one check: the format, and of the response part it looked at, its request type, its errorcode,
 * where its card came from and how long the card number is, whether the request was combined, its parent's type
 * (`none` without one), its 3-D Secure enrolment and its shield status. What the exchange does not show is left out.
 */
export interface ExchangeContext {
  readonly format: Format;
  readonly type?: string;
  readonly outcome?: string;
  readonly card?: string;
  readonly length?: string;
  readonly request?: string;
  readonly parent?: string;
  readonly enrolled?: string;
  readonly shield?: string;
}

/** The context's key of each dimension. */
const KEY: Readonly<Record<Dimension, Exclude<keyof ExchangeContext, 'format'>>> = {
  types: 'type',
  outcomes: 'outcome',
  cards: 'card',
  lengths: 'length',
  requests: 'request',
  parents: 'parent',
  enrolled: 'enrolled',
  shield: 'shield',
};

/** Does a context hold a scope's value of a dimension (`failed`: any non-zero code)? */
export function holds(dimension: Dimension, value: string, ctx: ExchangeContext): boolean {
  const seen = ctx[KEY[dimension]];
  if (seen === undefined) return false;
  if (dimension === 'outcomes' && value === 'failed') return seen !== '0';
  return seen === value;
}

/** One context of a rule's scope: a format and a value of each dimension its entry names. */
export interface ScopeContext {
  readonly format: Format;
  readonly values: readonly (readonly [Dimension, string])[];
}

/** A scope context in words (`XML AUTH errorcode failed, no parent`), stable for keys and reports. */
export function contextLabel(c: ScopeContext): string {
  const words = c.values.map(([d, v]) => {
    switch (d) {
      case 'outcomes':
        return v === 'failed' ? 'failed' : `errorcode ${v}`;
      case 'cards':
        return v === 'stored' ? 'stored card' : `card by ${v}`;
      case 'lengths':
        return `${v}-digit card`;
      case 'parents':
        return v === 'none' ? 'no parent' : `parent ${v}`;
      case 'enrolled':
        return `enrolled ${v}`;
      case 'shield':
        return `shield ${v}`;
      default:
        return v;
    }
  });
  return [c.format.toUpperCase(), ...words].join(' ');
}

/** Every context of a scope in the given formats, each once, in the scope's order. */
export function scopeContexts(scope: Scope, formats: readonly Format[]): ScopeContext[] {
  const out = new Map<string, ScopeContext>();
  for (const format of formats) {
    for (const entry of scope) {
      let combos: (readonly [Dimension, string])[][] = [[]];
      for (const d of DIMENSIONS) {
        const vs = entry[d];
        if (!vs) continue;
        combos = combos.flatMap((c) => vs.map((v) => [...c, [d, v] as const]));
      }
      for (const values of combos) {
        const c = { format, values };
        const key = contextLabel(c);
        if (!out.has(key)) out.set(key, c);
      }
    }
  }
  return [...out.values()];
}

/** Was a scope context reached by a check made in `ctx`? */
export function reaches(ctx: ExchangeContext, c: ScopeContext): boolean {
  return ctx.format === c.format && c.values.every(([d, v]) => holds(d, v, ctx));
}

/** Does a check's context lie in a rule's scope (any of its contexts in that format)? */
export function inScopeOf(ctx: ExchangeContext, scope: Scope): boolean {
  return scope.some((entry) => DIMENSIONS.every((d) => !entry[d] || entry[d].some((v) => holds(d, v, ctx))));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a catalogue entry's `scope`: a mapping or a non-empty list of mappings, each naming at least one dimension,
 * each dimension `all` or a list of its values. A problem names the dimension or value that is wrong.
 */
export function readScope(raw: unknown): { scope?: Scope; problems: string[] } {
  const problems: string[] = [];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) return { problems: ['scope is an empty list'] };
  const scope: ScopeEntry[] = [];
  for (const item of list) {
    if (!isRecord(item)) {
      problems.push(`scope must be a mapping of dimensions (${DIMENSIONS.join(', ')}) or a list of them`);
      continue;
    }
    const entry: Partial<Record<Dimension, readonly string[]>> = {};
    for (const [k, v] of Object.entries(item)) {
      if (!(DIMENSIONS as readonly string[]).includes(k)) {
        problems.push(`scope names an unknown dimension "${k}" (known: ${DIMENSIONS.join(', ')}${k === 'formats' ? "; a rule's formats are its own `formats` key" : ''})`);
        continue;
      }
      const d = k as Dimension;
      const known = DIMENSION_VALUES[d];
      if (v === 'all') {
        entry[d] = known.all;
        continue;
      }
      const values = (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'number' ? String(x) : x));
      const bad = values.filter((x) => typeof x !== 'string' || !known.values.includes(x));
      if (values.length === 0 || bad.length > 0) {
        problems.push(`scope ${d}: ${bad.length ? `unknown value ${bad.map((b) => JSON.stringify(b)).join(', ')}` : 'no value'} (known: all, ${known.values.join(', ')})`);
        continue;
      }
      entry[d] = [...new Set(values as string[])];
    }
    if (Object.keys(entry).length > 0) scope.push(entry);
    else if (Object.keys(item).length === 0) problems.push('scope names no dimension');
  }
  return scope.length > 0 && problems.length === 0 ? { scope, problems } : { problems };
}

/** What a later request takes from a transaction of the scenario: its type, card and 3-D Secure and shield results. */
export interface TransactionFacts {
  readonly type?: string;
  readonly card?: string;
  readonly length?: string;
  readonly enrolled?: string;
  readonly shield?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The context of each part of one exchange, read from the exchange itself: the request sent, the parts answered,
 * and the transactions of the scenario a parent reference (or the `md` of an enrolled card's THREEDQUERY) names.
 * A card's source and length follow its parent where the request sends none (a stored card, a THREEDQUERY's card).
 * Without parts (no envelope), one context from the request alone.
 */
export function exchangeContexts(
  format: Format,
  request: Readonly<Record<string, unknown>>,
  parts: readonly Readonly<Record<string, unknown>>[],
  earlier: (key: string) => TransactionFacts | undefined,
): ExchangeContext[] {
  const rtd = request.requesttypedescriptions;
  const types = Array.isArray(rtd) ? rtd.filter((t): t is string => typeof t === 'string') : [];
  const requestKind = types.length > 1 ? 'combined' : types.length === 1 ? 'separate' : undefined;
  const sentPan = text(request.pan);
  const sentCard = sentPan ? 'pan' : text(request.cachetoken) ? 'cachetoken' : undefined;
  const sibling = (ref: string | undefined): TransactionFacts | undefined => {
    const p = ref === undefined ? undefined : parts.find((x) => x.transactionreference === ref);
    return p ? { type: text(p.requesttypedescription) } : undefined;
  };
  const siblingValue = (field: string): string | undefined => parts.map((p) => text(p[field])).find((v) => v !== undefined);
  const one = (part: Readonly<Record<string, unknown>> | undefined, i: number): ExchangeContext => {
    const sentParent = text(request.parenttransactionreference);
    const md = text(request.md);
    const parentRef = sentParent ?? text(part?.parenttransactionreference);
    const parent = parentRef !== undefined ? (earlier(parentRef) ?? sibling(parentRef)) : md !== undefined ? earlier(`md:${md}`) : undefined;
    const parentType = parentRef === undefined && md === undefined ? 'none' : parent?.type;
    const card = sentCard ?? (parentType === 'STORE' ? 'stored' : parent?.card);
    const masked = text(part?.maskedpan);
    const length = sentPan ? String(sentPan.length) : masked && masked.length >= 12 && masked.length <= 19 ? String(masked.length) : parent?.length;
    const enrolled = text(part?.enrolled) ?? siblingValue('enrolled') ?? (parentType === 'THREEDQUERY' ? parent?.enrolled : undefined);
    const shield = text(part?.fraudcontrolshieldstatuscode) ?? siblingValue('fraudcontrolshieldstatuscode') ?? (parentType === 'RISKDEC' ? parent?.shield : undefined);
    const values: Omit<ExchangeContext, 'format'> = {
      type: text(part?.requesttypedescription) ?? types[i],
      outcome: part && (typeof part.errorcode === 'string' || typeof part.errorcode === 'number') ? String(part.errorcode) : undefined,
      card,
      length,
      request: requestKind,
      parent: parentType,
      enrolled,
      shield,
    };
    const out: Record<string, string> = { format };
    for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
    return out as unknown as ExchangeContext;
  };
  return parts.length > 0 ? parts.map((p, i) => one(p, i)) : [one(undefined, 0)];
}

/** What a transaction of these contexts hands its children, by the keys `exchangeContexts` looks up. */
export function factsOf(parts: readonly Readonly<Record<string, unknown>>[], contexts: readonly ExchangeContext[]): [string, TransactionFacts][] {
  const out: [string, TransactionFacts][] = [];
  parts.forEach((p, i) => {
    const c = contexts[i];
    const facts: TransactionFacts = { type: c?.type, card: c?.card, length: c?.length, enrolled: c?.enrolled, shield: c?.shield };
    const ref = text(p.transactionreference);
    if (ref) out.push([ref, facts]);
    const md = text(p.md);
    if (md) out.push([`md:${md}`, facts]);
  });
  return out;
}

const KEY_ORDER = ['type', 'outcome', 'card', 'length', 'request', 'parent', 'enrolled', 'shield'] as const;

/** A context as one short text (`json|AUTH|0|pan|16|separate|none||`): a key, and how reports store it. */
export function contextKey(c: ExchangeContext): string {
  return [c.format, ...KEY_ORDER.map((k) => c[k])].map((v) => v ?? '').join('|');
}

/** The context a key stands for; undefined for a text that is none. */
export function contextFromKey(key: string): ExchangeContext | undefined {
  const parts = key.split('|');
  if (parts.length !== KEY_ORDER.length + 1 || (parts[0] !== 'json' && parts[0] !== 'xml')) return undefined;
  const out: Record<string, string> = { format: parts[0] };
  KEY_ORDER.forEach((k, i) => {
    if (parts[i + 1] !== '') out[k] = parts[i + 1];
  });
  return out as unknown as ExchangeContext;
}
