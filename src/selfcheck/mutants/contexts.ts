/**
 * Context-restricted operators: a mutant of the answer operators applied in one context only (one format, answers
 * to a request of one type or to a combined request, parts with or without a parent, parts of one request type). A fault applied everywhere is
 * killed by the one scenario that meets it; a gateway written from the document may break a rule in one of the
 * situations it names only, and a suite that checks the rule in one situation passes it. These mutants hide where
 * a real one would: killed, the kit checks the rule in that context too; surviving though reached, the kit has a
 * gap there (the self-check fails); never reached, no exchange of the suite has that context, and the survivor is
 * listed as such (the contexts of a rule no scenario builds).
 */
import { ERROR } from '../../../schemas/errors';
import { REQUEST_TYPES } from '../../../schemas/fields';
import type { MutationContext } from '../../gateway';
import type { ResponsePart } from '../../wire/types';
import type { GeneratedVariant } from './variant';

/** One context a mutant may be restricted to, read from what the part hook sees. */
export interface MutantContext {
  readonly name: string;
  /** Completes "..., <what>". */
  readonly what: string;
  holds(ctx: MutationContext, part: ResponsePart): boolean;
}

const hasParent = (p: ResponsePart): boolean => typeof p.parenttransactionreference === 'string' && p.parenttransactionreference !== '';

export const CONTEXTS: readonly MutantContext[] = [
  { name: 'json', what: 'in JSON answers only', holds: (c) => c.format === 'json' },
  { name: 'xml', what: 'in XML answers only', holds: (c) => c.format === 'xml' },
  { name: 'separate', what: 'in answers to a request of one type only', holds: (c) => c.requesttypes.length === 1 },
  { name: 'combined', what: 'in answers to a combined request only', holds: (c) => c.requesttypes.length > 1 },
  { name: 'with-parent', what: 'in parts that carry a parenttransactionreference only', holds: (_c, p) => hasParent(p) },
  { name: 'without-parent', what: 'in parts without a parenttransactionreference only', holds: (_c, p) => !hasParent(p) },
];

/** Parts of one request type: an error code the Errors table gives for several types, answered wrong for one. */
export const typeContext = (type: string): MutantContext => ({
  name: `type-${type.toLowerCase()}`,
  what: `in ${type} parts only`,
  holds: (_c, p) => p.requesttypedescription === type,
});

/**
 * The contexts that can split a mutant: a mutant of one row of the Request types table already answers one
 * request type, separate or combined as the row is, and its parts carry a parent or not as the row says, so only
 * the format splits it. An error code is answered in every context, and, where its row of the Errors table names
 * several request types (`any` is every type of the document), in the parts of each of them.
 */
function contextsFor(base: GeneratedVariant): readonly MutantContext[] {
  if (base.operator === 'error-code') {
    const where = ERROR[base.rule.replace(/^ERR-/, '')]?.where;
    const types: readonly string[] = where === 'any' ? REQUEST_TYPES : (where ?? []);
    return types.length > 1 ? [...CONTEXTS, ...types.map(typeContext)] : CONTEXTS;
  }
  // A mutant judged in one format (an echo required of the JSON answer only) has that format's context alone.
  return CONTEXTS.filter((c) => (c.name === 'json' || c.name === 'xml') && (!base.formats || (base.formats as readonly string[]).includes(c.name)));
}

/**
 * Codes whose row of the Errors table is "AUTH after 3-D Secure" (`60022`, `70000`); both rows of the Request
 * types table for it answer "1 AUTH part with `enrolled`", which tells such a part from another AUTH's.
 */
const AFTER_3DS: ReadonlySet<string> = new Set(['60022', '70000']);

/**
 * Whether a part is in the scope of the Errors table's row of `code` (its "Where" cell): outside it the document
 * names no code (a bank's decline of an AUTH without 3-D Secure), and a code changed there is no fault of that row.
 */
export function inCodeScope(code: string, part: ResponsePart): boolean {
  const row = ERROR[code];
  if (!row) return false;
  if (row.where !== 'any' && !(row.where as readonly string[]).includes(String(part.requesttypedescription))) return false;
  return !AFTER_3DS.has(code) || (part.enrolled !== undefined && part.enrolled !== '');
}

/**
 * A mutant applied in one context only, counting the answers it changed (`VariantBuild.reached`); `scope`, when
 * given, narrows it to the parts its rule speaks of.
 */
export function restrict(base: GeneratedVariant, c: MutantContext, scope?: (part: ResponsePart) => boolean): GeneratedVariant {
  return {
    ...base,
    name: `${base.name}-in-${c.name}`,
    what: `${base.what}, ${c.what}`,
    context: c.name,
    build: () => {
      const b = base.build();
      const part = b.mutate?.part;
      let reached = 0;
      return {
        ...b,
        mutate: {
          ...b.mutate,
          part: (p, ctx) => {
            if (!part || !c.holds(ctx, p) || (scope && !scope(p))) return p;
            const q = part(p, ctx);
            if (q !== p) reached++;
            return q;
          },
        },
        reached: () => reached,
      };
    },
  };
}

/**
 * The context-restricted mutants of the answer operators (error codes, a response field dropped or misformed):
 * each non-equivalent mutant whose change is a part hook alone, in each context that can split it. An equivalent
 * mutant stays equivalent in any context, and is left out.
 */
export function contextMutants(bases: readonly GeneratedVariant[]): GeneratedVariant[] {
  const out: GeneratedVariant[] = [];
  for (const base of bases) {
    if (base.equivalent || !['error-code', 'response-dropped', 'response-format'].includes(base.operator)) continue;
    // An error code changed where its row of the Errors table applies: the row's own scope, in one context.
    const code = base.operator === 'error-code' ? base.rule.replace(/^ERR-/, '') : undefined;
    for (const c of contextsFor(base)) out.push(restrict(base, c, code !== undefined ? (p) => inCodeScope(code, p) : undefined));
  }
  return out;
}
