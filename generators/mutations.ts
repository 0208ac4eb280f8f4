/**
 * One change that makes a valid request object (./requests) invalid, or at least unusual, per operation row:
 * a boundary value of a field (./boundaries), a wrong JSON type, a character outside the field's class or a value
 * outside its list (./invalid), a required field left out, an unknown request type, or request types in an order
 * (or combination) the "Request types" table does not have. A mutation is plain data, so a fuzz counterexample
 * shows exactly what was changed, and `applyMutation` is a pure function of the request and the mutation.
 *
 * Whether the mutated request is then invalid is not decided here: the kit's expectations are computed from the
 * request as it reaches the target (src/fuzz/expect.ts), because a mutation can be undone by the XML form (a JSON
 * number becomes text) or be harmless (an empty optional field means "not set").
 */
import fc from 'fast-check';
import { FIELD, REQUEST_TYPES } from '../schemas/fields';
import { rowsFor, type OperationRow } from '../schemas/operations';
import type { RequestObject } from '../src/wire/types';
import { boundaryValue, type CardDigits } from './boundaries';
import { outsiderValue, outsideListValue, classContext, wrongJsonType } from './invalid';
import { classString } from './values';

export type MutationKind = 'boundary' | 'wrong-type' | 'outsider' | 'outside-list' | 'missing' | 'unknown-type' | 'misordered';

export const MUTATION_KINDS: readonly MutationKind[] = ['boundary', 'wrong-type', 'outsider', 'outside-list', 'missing', 'unknown-type', 'misordered'];

export interface Mutation {
  readonly kind: MutationKind;
  /** The field changed (`requesttypedescriptions` for the request-type mutations). */
  readonly field: string;
  /** What was done: the boundary kind, the JSON type, the character class, ... */
  readonly detail: string;
  /** Fields set by the mutation (a value may be of any JSON type). */
  readonly set?: Readonly<Record<string, unknown>>;
  /** Fields removed by the mutation. */
  readonly remove?: readonly string[];
}

export interface MutationOptions {
  /** The test cards (card numbers are only ever made from these). */
  readonly cards?: readonly CardDigits[];
  /** Generate wrong JSON types (only the JSON form can carry them; default true). */
  readonly jsonTypes?: boolean;
  /** Mutation kinds to draw from (default: all). */
  readonly kinds?: readonly MutationKind[];
}

/** The request with the mutation applied; the input is not changed. */
export function applyMutation(request: RequestObject, m: Mutation): RequestObject {
  const out: RequestObject = { ...request };
  for (const f of m.remove ?? []) delete out[f];
  for (const [k, v] of Object.entries(m.set ?? {})) out[k] = v;
  return out;
}

/** Fields of the dictionary's request side that a row sends or may send (structures and lists left out). */
function candidateFields(row: OperationRow): string[] {
  const forbidden = new Set(row.forbidden ?? []);
  const named = [...row.required, ...(row.recommended ?? []), ...(row.optional ?? []), ...(row.cardSource ?? []).flat()];
  return [...new Set(named)].filter((f) => {
    const def = FIELD[f];
    return def?.request !== undefined && !def.structure && !def.list && !def.aliasOf && !forbidden.has(f);
  });
}

/** Fields the row needs: its required ones and the card source the request uses, as far as they are sent. */
function requiredFields(row: OperationRow, request: RequestObject): string[] {
  const source = (row.cardSource ?? []).find((set) => set.every((f) => request[f] !== undefined)) ?? [];
  return [...new Set([...row.required, ...source])].filter((f) => request[f] !== undefined);
}

/**
 * The base of invalid values: a card number only from the test cards (never drawn at random: it could be a real
 * customer's); other fields from the dictionary.
 */
function baseFor(field: string, cards: readonly CardDigits[]): fc.Arbitrary<string> | undefined {
  if (FIELD[field]?.sensitive === 'pan') return cards.length > 0 ? fc.constantFrom(...cards.map((c) => c.pan)) : undefined;
  return undefined;
}

/** With the field whose value switches another's class check on, so that the check applies (`billingpostcode`). */
function withContext(field: string, value: unknown): Record<string, unknown> {
  const def = FIELD[field];
  return { ...(def ? classContext(def) : {}), [field]: value };
}

/**
 * A mutation before it meets its request: every kind is independent of the request but "missing", which picks one
 * of the required fields the request sends (`pick`, taken modulo their number).
 */
type Draft = Mutation | { readonly kind: 'missing-pick'; readonly pick: number };

function drafts(row: OperationRow, options: MutationOptions): fc.Arbitrary<Draft>[] {
  const cards = options.cards ?? [];
  const kinds = new Set(options.kinds ?? MUTATION_KINDS);
  const fields = candidateFields(row);
  const out: fc.Arbitrary<Draft>[] = [];
  const perField = (make: (field: string) => fc.Arbitrary<Draft> | undefined): void => {
    const arbs = fields.map(make).filter((a): a is fc.Arbitrary<Draft> => a !== undefined);
    if (arbs.length > 0) out.push(fc.oneof(...arbs));
  };
  const isPan = (field: string): boolean => FIELD[field].sensitive === 'pan';
  if (kinds.has('boundary')) {
    perField((field) =>
      isPan(field) && cards.length === 0 ? undefined : boundaryValue(field, 'request', cards).map((b): Draft => ({ kind: 'boundary', field, detail: b.kind, set: { [field]: b.value } })),
    );
  }
  if (kinds.has('wrong-type') && options.jsonTypes !== false) {
    perField((field) => {
      const base = baseFor(field, cards);
      if (isPan(field) && !base) return undefined;
      return wrongJsonType(field, 'request', base).map((w): Draft => ({ kind: 'wrong-type', field, detail: w.kind, set: { [field]: w.value } }));
    });
  }
  if (kinds.has('outsider')) {
    perField((field) => {
      const base = baseFor(field, cards);
      if (isPan(field) && !base) return undefined;
      return outsiderValue(field, 'request', base)?.map((v): Draft => ({ kind: 'outsider', field, detail: FIELD[field].type, set: withContext(field, v) }));
    });
  }
  if (kinds.has('outside-list')) {
    perField((field) => outsideListValue(field, 'request')?.map((v): Draft => ({ kind: 'outside-list', field, detail: 'not a listed value', set: { [field]: v } })));
  }
  if (kinds.has('missing') && row.required.length + (row.cardSource?.length ?? 0) > 0) {
    out.push(fc.nat().map((pick): Draft => ({ kind: 'missing-pick', pick })));
  }
  if (kinds.has('unknown-type')) out.push(unknownType(row));
  if (kinds.has('misordered')) {
    const m = misordered(row);
    if (m) out.push(m);
  }
  return out;
}

/** Request types the document does not name: a made-up name, a known one in lower case, or one added. */
function unknownType(row: OperationRow): fc.Arbitrary<Mutation> {
  const known = REQUEST_TYPES as readonly string[];
  const name = fc.oneof(
    classString('alpha', 1, 20).filter((t) => !known.includes(t)),
    fc.constantFrom(...row.requesttypes).map((t) => t.toLowerCase()),
  );
  return fc.tuple(name, fc.boolean()).map(([t, append]): Mutation => {
    const types = append ? [...row.requesttypes, t] : [t, ...row.requesttypes.slice(1)];
    return { kind: 'unknown-type', field: 'requesttypedescriptions', detail: append ? 'unknown type added' : 'unknown type', set: { requesttypedescriptions: types } };
  });
}

/**
 * Known request types in an order or combination the table does not have: the row's types reversed, doubled, or
 * with SUBSCRIPTION put where "It is submitted combined with `AUTH` as `["AUTH","SUBSCRIPTION"]`" forbids it.
 */
function misordered(row: OperationRow): fc.Arbitrary<Mutation> | undefined {
  const t = [...row.requesttypes] as string[];
  const candidates: string[][] = [[...t].reverse(), [...t, ...t], ['SUBSCRIPTION', ...t]];
  if (t.includes('SUBSCRIPTION')) candidates.push(t.filter((x) => x !== 'AUTH'));
  const seen = new Set<string>();
  const usable = candidates.filter((c) => {
    const key = c.join(',');
    if (seen.has(key) || rowsFor(c).length > 0) return false;
    seen.add(key);
    return true;
  });
  if (usable.length === 0) return undefined;
  return fc.constantFrom(...usable).map((types): Mutation => ({ kind: 'misordered', field: 'requesttypedescriptions', detail: types.join(','), set: { requesttypedescriptions: types } }));
}

const DRAFTS = new Map<string, fc.Arbitrary<Draft>>();

/** The drafts of a row, built once per row and options (building arbitraries costs more than drawing from them). */
function rowDrafts(row: OperationRow, options: MutationOptions): fc.Arbitrary<Draft> {
  const key = JSON.stringify([row.id, row.cardSource ?? null, (options.cards ?? []).map((c) => c.pan), options.jsonTypes !== false, options.kinds ?? null]);
  let arb = DRAFTS.get(key);
  if (!arb) {
    const arbs = drafts(row, options);
    if (arbs.length === 0) throw new Error(`generators: no mutation applies to row '${row.id}' with kinds ${[...(options.kinds ?? MUTATION_KINDS)].join(', ')}`);
    arb = fc.oneof(...arbs);
    DRAFTS.set(key, arb);
  }
  return arb;
}

/**
 * A valid request of a row and one mutation of it: the request, the mutation, and the request with it applied.
 * "Missing" takes one of the required fields the request sends; a request that sends none gets another mutation.
 */
export function mutatedRequest(
  row: OperationRow,
  request: fc.Arbitrary<RequestObject>,
  options: MutationOptions = {},
): fc.Arbitrary<{ request: RequestObject; mutation: Mutation; mutated: RequestObject }> {
  return fc
    .tuple(request, rowDrafts(row, options))
    .map(([req, draft]) => {
      let mutation: Mutation | undefined;
      if (draft.kind === 'missing-pick') {
        const required = requiredFields(row, req);
        if (required.length > 0) {
          const field = required[draft.pick % required.length];
          mutation = { kind: 'missing', field, detail: 'required field left out', remove: [field] };
        }
      } else mutation = draft;
      return mutation ? { request: req, mutation, mutated: applyMutation(req, mutation) } : undefined;
    })
    .filter((x): x is { request: RequestObject; mutation: Mutation; mutated: RequestObject } => x !== undefined);
}

/** One mutation of a given valid request of a row. */
export function mutationFor(row: OperationRow, request: RequestObject, options: MutationOptions = {}): fc.Arbitrary<Mutation> {
  return mutatedRequest(row, fc.constant(request), options).map((x) => x.mutation);
}
