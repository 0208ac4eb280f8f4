/**
 * Small tools the variants of the gallery are written with, so that each variant reads as the one change it makes:
 * which parts it touches, which handler it wraps, which field it drops. Nothing here decides a verdict.
 */
import { ERR, type MutationContext, type GatewayMutation, type OperationInput, type PartOutcome } from '../../gateway';
import type { ErrorSpec } from '../../gateway/errors';
import { errorPart } from '../../gateway/parts';
import type { ResponseEnvelope, ResponsePart } from '../../wire/types';
import type { BenignVariant, FaultyVariant, VariantBuild } from '../types';

export { ERR };

export const faulty = (v: Omit<FaultyVariant, 'kind'>): FaultyVariant => ({ kind: 'faulty', ...v });
export const benign = (v: Omit<BenignVariant, 'kind'>): BenignVariant => ({ kind: 'benign', ...v });

/**
 * A build whose change counts the answers it touched (`VariantBuild.reached`), so that a change no exchange of the
 * suite reached is told from one the suite met and missed: the change calls `hit()` on each.
 */
export function countedBuild(make: (hit: () => void) => Omit<VariantBuild, 'reached'>): VariantBuild {
  let n = 0;
  return { ...make(() => void n++), reached: () => n };
}

/** A variant's `build` of a counted mutation alone, made afresh (its count and state) for every build. */
export function counted(make: (hit: () => void) => GatewayMutation): () => VariantBuild {
  return () => countedBuild((hit) => ({ mutate: make(hit) }));
}

/** The part is of this request type. */
export const isType = (p: ResponsePart, type: string): boolean => p.requesttypedescription === type;

/** The part answers a request object that named exactly these types, in this order. */
export const answers = (ctx: MutationContext, ...types: string[]): boolean => ctx.requesttypes.join(',') === types.join(',');

/** A successful part (errorcode `0`). */
export const succeeded = (p: ResponsePart): boolean => p.errorcode === '0';

/** The part without some fields. */
export function without(p: ResponsePart, ...fields: string[]): ResponsePart {
  const out = { ...p };
  for (const f of fields) delete out[f];
  return out;
}

/** The envelope without some fields. */
export function envelopeWithout(env: ResponseEnvelope, ...fields: string[]): ResponseEnvelope {
  const out = { ...env };
  for (const f of fields) delete out[f];
  return out;
}

/** The parts of an envelope, as a list (a variant may meet an envelope without any). */
export const partsOf = (env: ResponseEnvelope): ResponsePart[] => (Array.isArray(env.response) ? (env.response as ResponsePart[]) : []);

/** What a handler answers when it refuses: one failed part, nothing stored. */
export const refuse = (type: string, spec: ErrorSpec, errordata?: readonly string[]): PartOutcome => ({ part: errorPart(type, spec, errordata) });

/** A handler's outcome with its part changed (the record, if any, stays as stored). */
export const withPart = (out: PartOutcome, change: (p: ResponsePart) => ResponsePart): PartOutcome => ({ ...out, part: change(out.part) });

/** Hooks that change each record a TRANSACTIONQUERY found (its part otherwise as answered). */
export const queryRecords = (change: (r: ResponsePart, input: OperationInput) => ResponsePart): GatewayMutation => ({
  operations: {
    TRANSACTIONQUERY: (input, next) => withPart(next(input), (p) => ({ ...p, records: (Array.isArray(p.records) ? (p.records as ResponsePart[]) : []).map((r) => change(r, input)) })),
  },
});

/** The input with some prepared fields replaced (what the handler then reads). */
export function withPrepared(input: OperationInput, change: Partial<OperationInput['prepared']>): OperationInput {
  return { ...input, prepared: { ...input.prepared, ...change } };
}

/** A THREEDQUERY whose parent RISKDEC gave `shield` runs as if the RISKDEC had accepted (it is not stopped by 60107). */
export const threedqueryPassesShield = (shield: string): GatewayMutation => ({
  operations: {
    THREEDQUERY: (input, next) => {
      const parent = input.prepared.parent;
      return parent?.type === 'RISKDEC' && parent.shield === shield ? next(withPrepared(input, { parent: { ...parent, shield: 'ACCEPT' } })) : next(input);
    },
  },
});

/** The transaction a handler's outcome stored, changed after the fact (the part stays as answered). */
export function changeStored(input: OperationInput, out: PartOutcome, edit: Parameters<OperationInput['uow']['update']>[1]): PartOutcome {
  if (out.record) input.uow.update(out.record.transactionreference, edit);
  return out;
}

/** Request objects are plain objects here (anything else is left for the gateway's own check to refuse). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `transactionreference` an update's `filter` names, when it names one. */
export function filteredReference(filter: unknown): string | undefined {
  const list = isObject(filter) ? filter.transactionreference : undefined;
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  return isObject(first) && typeof first.value === 'string' ? first.value : undefined;
}

/**
 * An AUTH that does not inherit its parent's billing where `lost` says so: the address and postcode results of a
 * child that did not send the premise or the postcode come back 0 ("Not given").
 */
export const billingNotInherited = (lost: (input: OperationInput) => boolean): GatewayMutation => ({
  operations: {
    AUTH: (input, next) => {
      const out = next(input);
      if (!lost(input)) return out;
      const own = input.prepared.own;
      return withPart(out, (p) => ({
        ...p,
        ...(own.billingpremise === undefined && p.securityresponseaddress !== undefined ? { securityresponseaddress: '0' } : {}),
        ...(own.billingpostcode === undefined && p.securityresponsepostcode !== undefined ? { securityresponsepostcode: '0' } : {}),
      }));
    },
  },
});
