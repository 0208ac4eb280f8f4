/**
 * The shapes of what the ledger holds: a transaction record, its card, its 3-D Secure and subscription states, and
 * the part an operation answers with the record it made. Plain data with no gateway imports, so that the ledger,
 * the records and the operations share them without a cycle through the runtime (types.ts holds the hooks).
 */
import type { RequestType } from '../../schemas/fields';
import type { Unit } from '../calendar';
import type { AcsStatus, Enrolment, Shield } from '../testdata';
import type { ResponsePart } from '../wire/types';

/** String fields of a request object after normalisation (empty and null values removed). */
export type Fields = Readonly<Record<string, string>>;

/** A security check result: `0` not given, `1` not checked, `2` matched, `4` not matched. */
export type SecurityResult = '0' | '1' | '2' | '4';

/** Card data held in the ledger. The security code is never held: only the result of its check. */
export interface CardData {
  readonly pan: string;
  readonly expirydate: string;
}

/** The 3-D Secure state of a THREEDQUERY (enrolment and what the emulated ACS issued). */
export interface ThreeDsState {
  readonly enrolled: Enrolment;
  readonly xid: string;
  readonly md?: string;
  readonly pareq?: string;
  /** Set when the ACS page completed: the `PaRes` it issued and the outcome chosen. */
  readonly pares?: string;
  readonly outcome?: AcsStatus;
  /** An issued `md`/`pares` pair authenticates one AUTH only (cardspec's choice, docs/gateway.md). */
  readonly used?: boolean;
  /** The AUTH that used the pair, so that a later AUTH with it is told apart (the contract's 3DS-MD-PARES-UNMODIFIED). */
  readonly usedBy?: string;
}

/** A subscription's schedule ("Subscription fields"; "States and transitions > Subscription"). */
export interface SubscriptionState {
  readonly subscriptiontype: string;
  readonly unit: Unit;
  readonly frequency: number;
  readonly begindate: string;
  /** The number of the AUTH that opened the subscription (`1`, or the next number when resuming). */
  readonly startNumber: number;
  readonly finalNumber: number;
  /** The number of the last payment taken; the next one is `lastNumber + 1`. */
  readonly lastNumber: number;
  /** Periods since `subscriptionbegindate` of the next due payment: due = begindate + periodIndex x frequency x unit. */
  readonly periodIndex: number;
  readonly baseamount: string;
  /** The AUTH that took payment 1: its settlement moves a pending subscription to active. */
  readonly authRef: string;
}

export interface TxRecord {
  readonly transactionreference: string;
  readonly seq: number;
  readonly type: RequestType;
  readonly sitereference: string;
  readonly parent?: string;
  readonly createdAt: string;
  /** Inheritable request fields, own and inherited (never `pan`, `securitycode`, `md`, `pares`, `cachetoken`). */
  readonly fields: Fields;
  readonly card?: CardData;
  readonly securitycodeResult: SecurityResult;
  readonly errorcode: string;
  /** The response part as answered when the transaction was made (masked by construction). */
  readonly part: ResponsePart;
  readonly settlestatus?: string;
  readonly settleduedate?: string;
  /** SUBSCRIPTION: `0` inactive, `1` active, `2` pending; STORE: `1` enabled, `0` disabled. */
  readonly transactionactive?: string;
  readonly threeds?: ThreeDsState;
  readonly shield?: Shield | 'NOSCORE';
  readonly subscription?: SubscriptionState;
}

/** A record being changed inside a unit of work (copy on write). */
export type MutableRecord = { -readonly [K in keyof TxRecord]: TxRecord[K] };

/** The answer of one part, and the record it made (absent when nothing was stored). */
export interface PartOutcome {
  readonly part: ResponsePart;
  readonly record?: TxRecord;
}
