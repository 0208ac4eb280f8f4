/**
 * Taking a payment: the bank's part of AUTH and ACCOUNTCHECK ("1 part shaped as an AUTH part"), and of the
 * subscription engine's automatic payments. The bank's answer comes from the test card (src/testdata.ts).
 */
import { cardFor, type AcsStatus, type Enrolment } from '../../testdata';
import type { SiteInfo } from '../config';
import { ERR, type ErrorSpec } from '../errors';
import type { UnitOfWork } from '../ledger';
import { cardPart, ECHOED, errorPart, merchantPart, PartBuilder, securityPart, statusPart } from '../parts';
import { randomBase64 } from '../random';
import type { CardData, Fields, PartOutcome, SecurityResult, TxRecord } from '../types';

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

/** Authorisation codes of the test bank: `TEST00` to `TEST99` by sequence number (shared strings, not one per record). */
const AUTHCODES = Array.from({ length: 100 }, (_, i) => `TEST${String(i).padStart(2, '0')}`);

export function takePayment(uow: UnitOfWork, spec: PaymentSpec): PartOutcome {
  const test = cardFor(spec.card.pan);
  // "`99999` any: Unknown error": the test card for it; nothing is stored.
  if (test.unknownError) return { part: errorPart(spec.type, ERR.unknown) };

  const { transactionreference, seq } = uow.reference(spec.site);
  const b = new PartBuilder()
    .set('transactionreference', transactionreference)
    .set('requesttypedescription', spec.type)
    .set('parenttransactionreference', spec.parent)
    .set('transactionstartedtimestamp', spec.timestamp)
    .echo(spec.fields, ECHOED);
  cardPart(b, spec.card);
  merchantPart(b, spec.operator);
  statusPart(b);

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
    b.set('acquirerresponsecode', '05');
    securityPart(b, spec.fields, spec.securitycodeResult);
  } else {
    result = ERR.ok;
    settlestatus = spec.suspend ? '2' : '0';
    b.set('authcode', AUTHCODES[seq % 100]).set('acquirerresponsecode', '00');
    securityPart(b, spec.fields, spec.securitycodeResult);
  }
  b.set('settleduedate', spec.date).set('settlestatus', settlestatus);

  const t = spec.threeds;
  if (t) {
    b.set('enrolled', t.enrolled).set('xid', t.xid).set('status', t.status);
    if (t.status !== undefined && !spec.unauthenticated) {
      // "`cavv`: Returned if enrolled and authenticated"; an attempt (A) gets an ECI but no CAVV (docs/gateway.md).
      if (t.status === 'Y') b.set('cavv', randomBase64(20));
      b.set('eci', eciFor(test.scheme, t.status));
    }
  }
  if (spec.extra) for (const [k, v] of Object.entries(spec.extra)) b.set(k, v);
  b.result(result);

  const record: TxRecord = {
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
    part: b.done(),
    settlestatus,
    settleduedate: spec.date,
  };
  uow.add(record);
  return { part: record.part, record };
}
