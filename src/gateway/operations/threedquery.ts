/**
 * THREEDQUERY: "checks whether a card is enrolled in the card issuer's 3-D Secure version 1 scheme". The card comes
 * from a `cachetoken`, a stored card or another parent holding one (rule 7), or `pan`+`expirydate` (as real STPP
 * accepts). Enrolment comes from the test card; for an enrolled card the part carries `acsurl` (the gateway's own
 * ACS page), `md` and `pareq`.
 */
import { cardFor } from '../../testdata';
import { ERR, type ErrorSpec } from '../errors';
import type { ResponsePart } from '../../wire/types';
import { echoedBits, errorPart, PartTemplates, putCard, putEchoed, putMerchant, putResult, putStatus } from '../parts';
import { randomBase64 } from '../random';
import { DerivedRecord, type RecordData } from '../records';
import type { OperationHandler, ThreeDsState } from '../types';

/** THREEDQUERY parts by shape (see PartTemplates). */
const TEMPLATES = new PartTemplates();

/** "`threedversion`: Protocol version": the legacy flow of the document is 3-D Secure version 1. */
export const THREED_VERSION = '1.0.2';

/** The `acsurl` of each base address seen (one string for all the records of a client). */
const ACS_URLS = new Map<string, string>();
function acsUrlOf(baseUrl: string): string {
  let url = ACS_URLS.get(baseUrl);
  if (url === undefined) {
    url = `${baseUrl}/acs/`;
    if (ACS_URLS.size >= 64) ACS_URLS.clear();
    ACS_URLS.set(baseUrl, url);
  }
  return url;
}

/**
 * A THREEDQUERY's record: it keeps what its part is made from beside the record's own data (and the 3-D Secure
 * state the ACS and the AUTH after it need), and makes the part again when read (records.ts).
 */
class ThreeDQueryRecord extends DerivedRecord {
  readonly operator: string;
  /** Only for an enrolled card: held only when set (see DerivedRecord). */
  declare readonly acsurl?: string;

  constructor(data: RecordData, operator: string, acsurl: string | undefined, setPart?: ResponsePart) {
    super(data, setPart);
    this.operator = operator;
    if (acsurl !== undefined) (this as { acsurl?: string }).acsurl = acsurl;
  }

  /** The answer, from the errorcode the record holds. */
  get result(): ErrorSpec {
    return this.errorcode === ERR.fraudParent.code ? ERR.fraudParent : this.errorcode === ERR.no3ds.code ? ERR.no3ds : ERR.ok;
  }

  protected makePart(): ResponsePart {
    return threedqueryPart(this);
  }

  copy(): ThreeDQueryRecord {
    return new ThreeDQueryRecord(this, this.operator, this.acsurl, this.partSet);
  }
}

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
  let threeds: ThreeDsState | undefined;
  if (result === ERR.ok) {
    // A v1 XID is 20 bytes, Base64.
    const xid = randomBase64(20);
    threeds = test.enrolled === 'Y' ? { enrolled: 'Y', xid, md: randomBase64(48), pareq: randomBase64(180) } : { enrolled: test.enrolled, xid };
  }

  const record = new ThreeDQueryRecord(
    {
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
      threeds,
    },
    env.ctx.user.username,
    threeds?.enrolled === 'Y' ? acsUrlOf(env.ctx.baseUrl) : undefined,
  );
  uow.add(record);
  return { part: threedqueryPart(record), record };
};

/** A THREEDQUERY's part, as answered, from its record: the answer when it is made, and whenever it is read. */
function threedqueryPart(rec: ThreeDQueryRecord): ResponsePart {
  const t = rec.threeds;
  // The part's shape: every choice below of which fields it holds (PartTemplates).
  const shape = (rec.parent !== undefined ? 1 : 0) | (echoedBits(rec.fields) << 1) | (t === undefined ? 0 : t.enrolled === 'Y' ? 2 << 6 : 1 << 6);
  const template = TEMPLATES.get(shape);
  // Field after field in the order the part has always had (see payment.ts), by name.
  const part: ResponsePart = template ? { ...template } : {};
  part.transactionreference = rec.transactionreference;
  part.requesttypedescription = 'THREEDQUERY';
  if (rec.parent !== undefined) part.parenttransactionreference = rec.parent;
  part.transactionstartedtimestamp = rec.createdAt;
  putEchoed(part, rec.fields);
  putCard(part, rec.card!);
  putMerchant(part, rec.operator);
  putStatus(part);
  if (t) {
    part.enrolled = t.enrolled;
    part.xid = t.xid;
    if (t.enrolled === 'Y') {
      part.acsurl = rec.acsurl;
      part.md = t.md;
      part.pareq = t.pareq;
    }
    part.threedversion = THREED_VERSION;
  }
  putResult(part, rec.result);
  TEMPLATES.keep(shape, part);
  return part;
}
