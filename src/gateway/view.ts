/**
 * A ledger record as the outside sees it (TRANSACTIONQUERY records, the control API): the response part it was
 * answered with, brought up to date (settle status, `transactionactive`, a subscription's amount and numbers),
 * without the ACS values (`md`, `pareq`) and passed through `redact` so no card number or security code can leave.
 */
import { redact } from '../redact';
import type { ResponsePart } from '../wire/types';
import { addUnits } from '../calendar';
import type { TxRecord } from './types';

export function recordView(rec: TxRecord, internals = false): ResponsePart {
  const out: Record<string, unknown> = { ...rec.part };
  delete out.md;
  delete out.pareq;
  if (rec.settlestatus !== undefined) out.settlestatus = rec.settlestatus;
  if (rec.transactionactive !== undefined) out.transactionactive = rec.transactionactive;
  const sub = rec.subscription;
  if (sub) {
    // "`subscriptionnumber`... It is incremented with each subscription payment."
    out.baseamount = sub.baseamount;
    out.subscriptionnumber = String(sub.lastNumber);
    out.subscriptionfinalnumber = String(sub.finalNumber);
  }
  if (internals) {
    out.sitereference = rec.sitereference;
    if (sub) out.nextpaymentdate = addUnits(sub.begindate, sub.periodIndex * sub.frequency, sub.unit);
    if (rec.threeds?.outcome !== undefined) out.acsoutcome = rec.threeds.outcome;
  }
  return redact(out);
}
