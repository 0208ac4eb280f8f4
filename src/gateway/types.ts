/**
 * The gateway's hooks and call shapes: the runtime, what an operation handler gets and gives back, the mutation hook
 * and what the transport's observer sees (the ledger's data shapes are in transaction.ts). Kept apart so that the
 * mutation hook (a faulty variant overriding a handler) and the modules of the operations share one vocabulary.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestType } from '../../schemas/fields';
import type { OperationRow } from '../../schemas/operations';
import type { UserConfig } from '../testdata';
import type { Format, ResponseEnvelope, ResponsePart } from '../wire/types';
import type { Clock } from './clock';
import type { ResolvedConfig, SiteInfo } from './config';
import type { Engine } from './engine';
import type { Ledger, UnitOfWork } from './ledger';
import type { CardData, Fields, PartOutcome, SecurityResult, TxRecord } from './transaction';

export type { CardData, Fields, MutableRecord, PartOutcome, SecurityResult, SubscriptionState, ThreeDsState, TxRecord } from './transaction';

/**
 * One gateway's state and settings, passed to everything that needs them: the resolved configuration, the ledger,
 * the clock, the engine and the mutation hook (built by `createRuntime` in runtime.ts). Declared here, beside the
 * hooks that reach it through `CallEnv`, so that no module type-imports the one that builds it.
 */
export interface Runtime {
  readonly config: ResolvedConfig;
  readonly ledger: Ledger;
  readonly clock: Clock;
  readonly engine: Engine;
  readonly control: boolean;
  readonly mutate?: GatewayMutation;
}

/** The request object after the request check: everything an operation needs, already resolved. */
export interface PreparedRequest {
  readonly types: readonly RequestType[];
  readonly row: OperationRow;
  /** The request object's own string fields. */
  readonly own: Fields;
  /** Own fields over inherited ones: what the transaction is made of. */
  readonly fields: Fields;
  /** The site of the transaction; absent only for the follow-ups, whose site comes from their `filter`. */
  readonly site?: SiteInfo;
  readonly parent?: TxRecord;
  readonly card?: CardData;
  readonly securitycodeResult: SecurityResult;
  /** AUTH after 3-D Secure: the THREEDQUERY found by `md` or `pares`, and whether both were the issued values. */
  readonly threeds?: { readonly query: TxRecord; readonly intact: boolean };
  /** TRANSACTIONUPDATE / TRANSACTIONQUERY structures, as sent. */
  readonly filter?: unknown;
  readonly updates?: unknown;
}

/** Who is calling and through which transport. */
export interface CallContext {
  readonly user: UserConfig;
  readonly format: Format;
  /** `http://host:port` of the gateway as the client reached it: `acsurl` is built from it. */
  readonly baseUrl: string;
  /** The `REQUESTREFERENCE` header, echoed as `requestreference` when present. */
  readonly requestReference?: string;
}

/** What a mutation sees besides the value it may change. */
export interface MutationContext {
  readonly format: Format;
  /** The request types of the request object the part answers (empty for an envelope-level error). */
  readonly requesttypes: readonly string[];
  /** Position of the part in the response (parts only). */
  readonly index?: number;
}

/** A raw HTTP answer, for variants that misbehave below the envelope (status, headers, body). */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The hook for variants of the gateway (a gallery of faulty gateways): each member is optional and costs nothing
 * when absent. Parts and envelopes are changed after the ledger is written, so a variant lies on the wire while
 * the ledger stays right; `operations` replaces a handler, and gets the real one as `next` to wrap it.
 */
export interface GatewayMutation {
  /** Change a response part (return a new object), or drop it (return `null`). */
  part?(part: ResponsePart, ctx: MutationContext): ResponsePart | null;
  /** Change the response envelope (reorder parts, drop `secrand`, change `version`, ...). */
  envelope?(envelope: ResponseEnvelope, ctx: MutationContext): ResponseEnvelope;
  /** Change what goes on the wire for `/json/` and `/xml/` (status, content type, body text). */
  wire?(reply: WireReply, ctx: { readonly format: Format }): WireReply;
  /** Replace the handler of a request type. */
  operations?: Partial<Record<RequestType, (input: OperationInput, next: OperationHandler) => PartOutcome>>;
  /**
   * Change a request object before the request check (a variant that truncates, rewrites or mis-reads what it is
   * sent: the check itself refuses before any handler runs). `index` is the object's place in `request`.
   */
  request?(request: unknown, ctx: { readonly format: Format; readonly index: number }): unknown;
  /**
   * Write transaction references in another format, given the standard `<site>-<node>-<sequence>` one. It must
   * stay unique; the whole gateway (parents, follow-ups, the control API, the engine) then uses the new form.
   */
  reference?(standard: string): string;
}

/** What a handler gets: the prepared request, the parts already run in this request object, and the unit of work. */
export interface OperationInput {
  readonly type: RequestType;
  readonly index: number;
  readonly prepared: PreparedRequest;
  readonly previous: readonly PartOutcome[];
  readonly uow: UnitOfWork;
  readonly env: CallEnv;
}

export type OperationHandler = (input: OperationInput) => PartOutcome;

/** The call's environment: time of the call (one instant for all its parts), user, transport, runtime. */
export interface CallEnv {
  readonly ctx: CallContext;
  readonly now: number;
  readonly timestamp: string;
  readonly date: string;
  readonly runtime: Runtime;
}

/**
 * What the `observe` hook of the HTTP transport sees (contract testing, src/contract): every call to `/json/` and
 * `/xml/` once answered, and every call the transport refused before an envelope could be answered. Values are as
 * the client sent them (not masked): an observer must mask whatever it writes out.
 */
export type ObservedCall =
  | {
      readonly kind: 'answered';
      readonly format: Format;
      readonly method: string;
      readonly path: string;
      readonly headers: IncomingHttpHeaders;
      /** The body as text, inflated when it came gzip- or deflate-encoded. */
      readonly text: string;
      /** The request envelope in its JSON form as the gateway read it (XML mapped); undefined when unreadable. */
      readonly request: unknown;
      /** XML: what src/wire/xml.ts found wrong with the block's structure; JSON: why the body did not parse. */
      readonly problems: readonly string[];
      /**
       * What reading the body's bytes noticed that the document does not rule on: a byte order mark before JSON, a
       * charset that JSON does not obey, an XML body in another encoding than its label (src/wire/encoding.ts).
       */
      readonly notes?: readonly string[];
      /** The envelope answered (after any `mutate` of parts and envelope). */
      readonly response: ResponseEnvelope;
      readonly ctx: CallContext;
    }
  | {
      readonly kind: 'refused';
      /** The form of the endpoint, when the path was `/json/` or `/xml/`. */
      readonly format?: Format;
      readonly method: string;
      readonly path: string;
      readonly headers: IncomingHttpHeaders;
      readonly status: number;
      readonly reason: string;
    };
