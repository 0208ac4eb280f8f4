/**
 * One answered call as the contract checks see it: the envelope as the client sent it (JSON form; XML mapped by
 * src/wire/xml.ts), each request object with the row of the Request types table it is, the parts that answered it,
 * and the validator's findings, computed once (src/validate: the kit has no second validator).
 *
 * Empty strings and `null` count as not sent, as the reference gateway reads them (docs/gateway.md: "real XML
 * clients send empty elements for unset fields, PHP clients empty strings"): a client that sends
 * `"parenttransactionreference": ""` for an unset field is not reported for it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { OperationRow } from '../../schemas/operations';
import type { CallContext, Ledger, ObservedCall } from '../gateway';
import { selectRow, validateRequestEnvelope, type Violation } from '../validate';
import { parentFacts, withoutUnset, type ParentFacts } from '../wire/reading';
import type { Format, RequestObject, ResponsePart } from '../wire/types';
import { requestTypesOf } from '../wire/json';

export interface RequestView {
  readonly index: number;
  /** The request object without empty and null values; undefined when it is not an object. */
  readonly obj: RequestObject | undefined;
  /** The request types it names, as far as they are strings. */
  readonly types: readonly string[];
  /** Its row of the Request types table (the validator's `selectRow`), when there is one. */
  readonly row: OperationRow | undefined;
  /** The response parts that answered it, in order. */
  readonly parts: readonly ResponsePart[];
}

export interface CheckedCall {
  /** Position of the call among those the session saw, from 1. */
  readonly seq: number;
  readonly format: Format;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The envelope with empty and null request values removed; undefined when the body could not be read. */
  readonly envelope: Record<string, unknown> | undefined;
  /** Why the body could not be read (JSON), or what the XML block's structure got wrong. */
  readonly problems: readonly string[];
  /** What reading the body's bytes noticed that the document does not rule on (src/wire/encoding.ts). */
  readonly notes: readonly string[];
  readonly requests: readonly RequestView[];
  readonly parts: readonly ResponsePart[];
  readonly ctx: CallContext;
  /** What the validator finds in the envelope: every field, every row (masked). */
  readonly schema: readonly Violation[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The parent a request object names, as the gateway finds it: by `md`/`pares` (a THREEDQUERY), else by
 * `parenttransactionreference`, on a site of the caller; none for the follow-ups, whose references are filters.
 */
export function parentInLedger(ledger: Ledger, obj: RequestObject, ctx: CallContext): ParentFacts | undefined {
  const types = requestTypesOf(obj);
  if (types.length === 1 && (types[0] === 'TRANSACTIONUPDATE' || types[0] === 'TRANSACTIONQUERY')) return undefined;
  const md = str(obj.md);
  const pares = str(obj.pares);
  const ref = str(obj.parenttransactionreference);
  const rec = md !== undefined || pares !== undefined ? ledger.threeDsBy(md, pares) : ref !== undefined ? ledger.get(ref) : undefined;
  if (!rec || !ctx.user.sites.includes(rec.sitereference)) return undefined;
  if ((md !== undefined || pares !== undefined) && rec.type !== 'THREEDQUERY') return undefined;
  return parentFacts(rec.type, rec.fields);
}

/**
 * The parts of each request object: the gateway answers one part per request type, or one `ERROR` part for an
 * object whose types cannot be read, in the order of the objects. When the counts do not add up (an envelope-level
 * error answers one part for everything) no part is given to any object.
 */
function splitParts(objects: readonly unknown[], parts: readonly ResponsePart[]): ResponsePart[][] {
  const counts = objects.map((o) => Math.max(1, requestTypesOf(o).length));
  const total = counts.reduce((a, b) => a + b, 0);
  if (total !== parts.length) return objects.map(() => []);
  let at = 0;
  return counts.map((n) => {
    const mine = parts.slice(at, at + n);
    at += n;
    return mine;
  });
}

/**
 * One answered call, read once. With the gateway's ledger, each request object's row and required fields are read
 * with its parent as the gateway saw it (src/wire/reading.ts); without, as `cardspec validate` reads them.
 */
export function checkedCall(seq: number, call: Extract<ObservedCall, { kind: 'answered' }>, ledger?: Ledger): CheckedCall {
  const parts = Array.isArray(call.response.response) ? (call.response.response as unknown[]).filter(isObject) : [];
  let envelope: Record<string, unknown> | undefined;
  let requests: RequestView[] = [];
  // The row is selected here and again by the validator, each with the object's parent: looked up in the ledger
  // once per object (the validator reads the same objects, left as they are when nothing in them is unset).
  const parents: { obj: RequestObject; parent: ParentFacts | undefined }[] = [];
  const parentOf = ledger
    ? (o: RequestObject): ParentFacts | undefined => {
        for (const p of parents) if (p.obj === o) return p.parent;
        const parent = parentInLedger(ledger, o, call.ctx);
        if (parents.length < 16) parents.push({ obj: o, parent });
        return parent;
      }
    : undefined;
  if (isObject(call.request)) {
    const list = call.request.request;
    const objects = Array.isArray(list) ? list.map((o) => (isObject(o) ? withoutUnset(o) : o)) : undefined;
    envelope = objects ? { ...call.request, request: objects } : { ...call.request };
    if (objects) {
      const split = splitParts(objects, parts);
      requests = objects.map((o, index) => ({
        index,
        obj: isObject(o) ? o : undefined,
        types: requestTypesOf(o),
        row: isObject(o) ? selectRow(o, parentOf?.(o)) : undefined,
        parts: split[index],
      }));
    }
  }
  return {
    seq,
    format: call.format,
    path: call.path,
    headers: call.headers,
    envelope,
    problems: call.problems,
    notes: call.notes ?? [],
    requests,
    parts,
    ctx: call.ctx,
    schema: envelope ? validateRequestEnvelope(envelope, call.format, { parentOf }) : [],
  };
}

/** `request[2].baseamount` -> `{ index: 2, field: 'baseamount' }`; envelope fields have no index. */
export function locate(field: string): { index?: number; field: string } {
  const m = /^request\[(\d+)\]\.?(.*)$/.exec(field);
  if (!m) return { field };
  return { index: Number(m[1]), field: m[2] };
}
