/**
 * Faulty variants of the reference gateway, built with its mutation hook (docs/gateway.md, "The mutation hook"),
 * each on a real loopback server (port 0): the fuzz tests point `cardspec fuzz` at them.
 *
 * - crash: a STORE's answer is never finished: the connection is destroyed half-way (the wire hook hands over a
 *   body that fails while being written, and the gateway's fail-safe destroys a connection whose headers are out);
 * - status 500: an ACCOUNTCHECK is answered HTTP 500 with a text body;
 * - PAN leak: AUTH parts carry the full card number in `maskedpan`;
 * - too long accepted: a value exactly one character over its documented maximum is read one shorter, so the
 *   request is accepted and stored;
 * - disabled card usable: TRANSACTIONUPDATE answers Ok to `transactionactive` `0` without disabling the card;
 * - echo cut: parts give back `orderreference` cut to 64 characters (a column narrower than the document's 255).
 */
import { FIELD } from '../../schemas/fields';
import { startGateway, type GatewayMutation, type WireReply } from '../../src/gateway';
import { maskPan } from '../../src/redact';
import { TEST_CARDS } from '../../src/testdata';

export interface Running {
  readonly url: string;
  close(): Promise<void>;
}

async function start(mutate: GatewayMutation): Promise<Running> {
  const gw = await startGateway({ control: true, mutate });
  return { url: gw.url, close: () => gw.close() };
}

/** The connection is destroyed while the answer of a STORE is written. */
export function crashOnStore(): Promise<Running> {
  let storeRan = false;
  return start({
    operations: {
      STORE: (input, next) => {
        storeRan = true;
        return next(input);
      },
    },
    wire: (reply) => {
      if (!storeRan) return reply;
      storeRan = false;
      let reads = 0;
      // The first read sizes Content-Length; the second, in `res.end`, throws after the headers are out.
      return {
        status: reply.status,
        headers: reply.headers,
        get body(): string {
          if (++reads > 1) throw new Error('variant: crash while writing the answer');
          return reply.body;
        },
      } as WireReply;
    },
  });
}

/** HTTP 500 with a text body for every ACCOUNTCHECK. */
export function status500OnAccountCheck(): Promise<Running> {
  let ran = false;
  return start({
    operations: {
      ACCOUNTCHECK: (input, next) => {
        ran = true;
        return next(input);
      },
    },
    wire: (reply) => {
      if (!ran) return reply;
      ran = false;
      return { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Internal Server Error' };
    },
  });
}

const UNMASK: ReadonlyMap<string, string> = new Map(Object.values(TEST_CARDS).map((c) => [maskPan(c.pan), c.pan]));

/** AUTH parts carry the full card number in `maskedpan`. */
export function panLeakInAuth(): Promise<Running> {
  return start({
    part: (p) => (p.requesttypedescription === 'AUTH' && typeof p.maskedpan === 'string' && UNMASK.has(p.maskedpan) ? { ...p, maskedpan: UNMASK.get(p.maskedpan) } : p),
  });
}

/**
 * Reads a value exactly one character over its field's documented request maximum as if it were one shorter (the
 * mutation hook's `request` member, which sees each request object before the request check): the request is
 * then accepted and stored.
 */
export function acceptsOneTooLong(): Promise<Running> {
  return start({
    request: (obj) => {
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
      const out: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
      for (const [k, v] of Object.entries(out)) {
        const max = FIELD[k]?.request?.maxLength;
        if (typeof v === 'string' && max !== undefined && [...v].length === max + 1) out[k] = [...v].slice(0, max).join('');
      }
      return out;
    },
  });
}

/** TRANSACTIONUPDATE says Ok to disabling a stored card, and leaves it enabled. */
export function disabledCardStillUsable(): Promise<Running> {
  return start({
    operations: {
      TRANSACTIONUPDATE: (input, next) => {
        const updates = input.prepared.updates as Record<string, unknown> | undefined;
        if (updates?.transactionactive === '0') return { part: { requesttypedescription: 'TRANSACTIONUPDATE', errorcode: '0', errormessage: 'Ok' } };
        return next(input);
      },
    },
  });
}

/** Parts give back `orderreference` cut to its first 64 characters: the scenarios' short references pass. */
export function echoesOrderReferenceCut(): Promise<Running> {
  return start({
    part: (p) => (typeof p.orderreference === 'string' && [...p.orderreference].length > 64 ? { ...p, orderreference: [...p.orderreference].slice(0, 64).join('') } : p),
  });
}
