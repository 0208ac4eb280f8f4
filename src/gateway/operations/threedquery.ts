/**
 * THREEDQUERY: "checks whether a card is enrolled in the card issuer's 3-D Secure version 1 scheme". The card comes
 * from a `cachetoken`, a stored card or another parent holding one (rule 7), or `pan`+`expirydate` (as real STPP
 * accepts). Enrolment comes from the test card; for an enrolled card the part carries `acsurl` (the gateway's own
 * ACS page), `md` and `pareq`.
 */
import { cardFor } from '../../testdata';
import { ERR, type ErrorSpec } from '../errors';
import { cardPart, ECHOED, errorPart, merchantPart, PartBuilder, statusPart } from '../parts';
import { randomBase64 } from '../random';
import type { OperationHandler, ThreeDsState, TxRecord } from '../types';

/** "`threedversion`: Protocol version": the legacy flow of the document is 3-D Secure version 1. */
export const THREED_VERSION = '1.0.2';

export const threedquery: OperationHandler = ({ prepared: p, uow, env }) => {
  const card = p.card!;
  const test = cardFor(card.pan);
  if (test.unknownError) return { part: errorPart('THREEDQUERY', ERR.unknown) };
  const site = p.site!;
  const parent = p.parent;

  let result: ErrorSpec = ERR.ok;
  if (parent?.type === 'RISKDEC' && (parent.shield === 'CHALLENGE' || parent.shield === 'DENY')) {
    // Rule 5: "If the shield status is `CHALLENGE` or `DENY`, the THREEDQUERY fails with errorcode `60107`."
    result = ERR.fraudParent;
  } else if (test.no3ds) {
    result = ERR.no3ds;
  }

  const { transactionreference, seq } = uow.reference(site);
  const b = new PartBuilder()
    .set('transactionreference', transactionreference)
    .set('requesttypedescription', 'THREEDQUERY')
    .set('parenttransactionreference', parent?.transactionreference)
    .set('transactionstartedtimestamp', env.timestamp)
    .echo(p.fields, ECHOED);
  cardPart(b, card);
  merchantPart(b, env.ctx.user.username);
  statusPart(b);

  let threeds: ThreeDsState | undefined;
  if (result === ERR.ok) {
    // A v1 XID is 20 bytes, Base64.
    const xid = randomBase64(20);
    if (test.enrolled === 'Y') {
      threeds = { enrolled: 'Y', xid, md: randomBase64(48), pareq: randomBase64(180) };
      b.set('enrolled', 'Y').set('xid', xid).set('acsurl', `${env.ctx.baseUrl}/acs/`).set('md', threeds.md).set('pareq', threeds.pareq);
    } else {
      threeds = { enrolled: test.enrolled, xid };
      b.set('enrolled', test.enrolled).set('xid', xid);
    }
    b.set('threedversion', THREED_VERSION);
  }
  b.result(result);

  const record: TxRecord = {
    transactionreference,
    seq,
    type: 'THREEDQUERY',
    sitereference: site.config.sitereference,
    parent: parent?.transactionreference,
    createdAt: env.timestamp,
    fields: p.fields,
    card,
    securitycodeResult: p.securitycodeResult,
    errorcode: result.code,
    part: b.done(),
    threeds,
  };
  uow.add(record);
  return { part: record.part, record };
};
