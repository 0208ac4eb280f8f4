/**
 * Taking a payment: the bank's part of AUTH and ACCOUNTCHECK ("1 part shaped as an AUTH part"), and of the
 * subscription engine's automatic payments. The bank's answer comes from the test card (src/testdata.ts).
 */
import { cardFor, type AcsStatus, type Enrolment } from '../../testdata';
import type { SiteInfo } from '../config';
import { ERR, type ErrorSpec } from '../errors';
import type { UnitOfWork } from '../ledger';
import { echoedBits, errorPart, PartTemplates, putCard, putEchoed, putMerchant, putResult, putSecurity, putStatus } from '../parts';
import { randomBase64 } from '../random';
import type { ResponsePart } from '../../wire/types';
import { DerivedRecord, type RecordData } from '../records';
import type { CardData, Fields, PartOutcome, SecurityResult } from '../transaction';

export interface PaymentSpec {
  readonly type: 'AUTH' | 'ACCOUNTCHECK';
  readonly site: SiteInfo;
  readonly parent?: string;
  readonly fields: Fields;
  readonly card: CardData;
  readonly securitycodeResult: SecurityResult;
  readonly timestamp: string;
  readonly date: string;
  readonly operator: string;
  /** 3-D Secure data of an AUTH based on a THREEDQUERY: `enrolled`, `xid`, and after the ACS, `status`. */
  readonly threeds?: { readonly enrolled: Enrolment; readonly xid: string; readonly status?: AcsStatus };
  /** "AUTH after 3-D Secure, enrolled card: errorcode `60022`... The acquirer is not contacted." */
  readonly unauthenticated?: boolean;
  /** "RISKDEC performed before AUTH: shield status CHALLENGE or DENY: Authorised transactions are automatically suspended." */
  readonly suspend?: boolean;
  /** Fields the part carries besides the usual ones (`subscriptionnumber` of an engine payment). */
  readonly extra?: Fields;
}

/** Electronic commerce indicators of 3-D Secure v1 (scheme values; cardspec's choice of which to use). */
function eciFor(scheme: string, status: AcsStatus): string | undefined {
  const mc = scheme === 'MASTERCARD' || scheme === 'MAESTRO';
  if (status === 'Y') return mc ? '02' : '05';
  if (status === 'A') return mc ? '01' : '06';
  return undefined;
}

/** Payment parts by shape (see PartTemplates). */
const TEMPLATES = new PartTemplates();

/** Authorisation codes of the test bank: `TEST00` to `TEST99` by sequence number (shared strings, not one per record). */
const AUTHCODES = Array.from({ length: 100 }, (_, i) => `TEST${String(i).padStart(2, '0')}`);

/** The 3-D Secure data a payment answered with: `enrolled`, `xid`, and after the ACS, `status`. */
type ThreeDsAnswer = NonNullable<PaymentSpec['threeds']>;

/**
 * A payment's record (AUTH, ACCOUNTCHECK): it keeps what its part is made from beside the record's own data, and
 * makes the part again when read (records.ts).
 */
class PaymentRecord extends DerivedRecord {
  readonly operator: string;
  /** The settle status answered (the record's own changes with settlement and updates; the answer does not). */
  readonly answeredSettlestatus: string;
  // Only 3-D Secure AUTHs and the engine's payments have these: held only when set (see DerivedRecord).
  declare readonly answeredThreeds?: ThreeDsAnswer;
  declare readonly cavv?: string;
  declare readonly extra?: Fields;

  constructor(
    data: RecordData,
    operator: string,
    answeredSettlestatus: string,
    answeredThreeds: ThreeDsAnswer | undefined,
    cavv: string | undefined,
    extra: Fields | undefined,
    setPart?: ResponsePart,
  ) {
    super(data, setPart);
    this.operator = operator;
    this.answeredSettlestatus = answeredSettlestatus;
    const self = this as { -readonly [K in 'answeredThreeds' | 'cavv' | 'extra']?: PaymentRecord[K] };
    if (answeredThreeds !== undefined) self.answeredThreeds = answeredThreeds;
    if (cavv !== undefined) self.cavv = cavv;
    if (extra !== undefined) self.extra = extra;
  }

  /** The bank's answer, from the errorcode the record holds. */
  get result(): ErrorSpec {
    return this.errorcode === ERR.unauthenticated.code ? ERR.unauthenticated : this.errorcode === ERR.decline.code ? ERR.decline : ERR.ok;
  }

  protected makePart(): ResponsePart {
    return paymentPart(this);
  }

  copy(): PaymentRecord {
    return new PaymentRecord(this, this.operator, this.answeredSettlestatus, this.answeredThreeds, this.cavv, this.extra, this.partSet);
  }
}

export function takePayment(uow: UnitOfWork, spec: PaymentSpec): PartOutcome {
  const test = cardFor(spec.card.pan);
  // "`99999` any: Unknown error": the test card for it; nothing is stored.
  if (test.unknownError) return { part: errorPart(spec.type, ERR.unknown) };

  const { transactionreference, seq } = uow.reference(spec.site);
  let result: ErrorSpec;
  let settlestatus: string;
  if (spec.unauthenticated) {
    // "`status` is `N` and settlestatus is `3`. The acquirer is not contacted.": no authcode, no bank response code.
    result = ERR.unauthenticated;
    settlestatus = '3';
  } else if (test.bank === '70000') {
    // "No funds are transferred": cancelled (public facts: settle status 3).
    result = ERR.decline;
    settlestatus = '3';
  } else {
    result = ERR.ok;
    settlestatus = spec.suspend ? '2' : '0';
  }
  // "`cavv`: Returned if enrolled and authenticated"; an attempt (A) gets an ECI but no CAVV (docs/gateway.md).
  const cavv = spec.threeds?.status === 'Y' && !spec.unauthenticated ? randomBase64(20) : undefined;

  const record = new PaymentRecord(
    {
      transactionreference,
      seq,
      type: spec.type,
      sitereference: spec.site.config.sitereference,
      parent: spec.parent,
      createdAt: spec.timestamp,
      fields: spec.fields,
      card: spec.card,
      securitycodeResult: spec.securitycodeResult,
      errorcode: result.code,
      settlestatus,
      settleduedate: spec.date,
    },
    spec.operator,
    settlestatus,
    spec.threeds,
    cavv,
    spec.extra,
  );
  uow.add(record);
  return { part: paymentPart(record), record };
}

/** A payment's part, as answered, from its record: the answer when the payment is made, and whenever it is read. */
function paymentPart(rec: PaymentRecord): ResponsePart {
  const card = rec.card!;
  const fields = rec.fields;
  const t = rec.answeredThreeds;
  const result = rec.result;
  const outcome = result === ERR.unauthenticated ? 0 : result === ERR.decline ? 1 : 2;
  const eci = t?.status !== undefined && outcome !== 0 ? eciFor(cardFor(card.pan).scheme, t.status) : undefined;
  // The part's shape: every choice below of which fields it holds (PartTemplates). `extra` fields are rare (engine
  // payments) and of any name, so those parts are built without a template.
  const shape = rec.extra
    ? -1
    : (rec.parent !== undefined ? 1 : 0) |
      (echoedBits(fields) << 1) |
      (outcome << 6) |
      ((t === undefined ? 0 : t.status === undefined ? 1 : 2) << 8) |
      (rec.cavv !== undefined ? 1 << 10 : 0) |
      (eci !== undefined ? 1 << 11 : 0);
  const template = shape < 0 ? undefined : TEMPLATES.get(shape);
  // Field after field in the order the part has always had (docs/gateway.md, Operations), by name.
  const part: ResponsePart = template ? { ...template } : {};
  part.transactionreference = rec.transactionreference;
  part.requesttypedescription = rec.type;
  if (rec.parent !== undefined) part.parenttransactionreference = rec.parent;
  part.transactionstartedtimestamp = rec.createdAt;
  putEchoed(part, fields);
  putCard(part, card);
  putMerchant(part, rec.operator);
  putStatus(part);
  if (outcome === 1) {
    part.acquirerresponsecode = '05';
    putSecurity(part, fields, rec.securitycodeResult);
  } else if (outcome === 2) {
    part.authcode = AUTHCODES[rec.seq % 100];
    part.acquirerresponsecode = '00';
    putSecurity(part, fields, rec.securitycodeResult);
  }
  part.settleduedate = rec.settleduedate;
  part.settlestatus = rec.answeredSettlestatus;
  if (t) {
    part.enrolled = t.enrolled;
    part.xid = t.xid;
    if (t.status !== undefined) part.status = t.status;
    if (rec.cavv !== undefined) part.cavv = rec.cavv;
    if (eci !== undefined) part.eci = eci;
  }
  if (rec.extra) for (const [k, v] of Object.entries(rec.extra)) if (v !== undefined) part[k] = v;
  putResult(part, result);
  if (shape >= 0) TEMPLATES.keep(shape, part);
  return part;
}
