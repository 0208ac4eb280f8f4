/**
 * AUTH: "asks the acquiring bank to authorise a payment". Three rows of the Request types table meet here: the
 * ordinary AUTH of rule 1, the AUTH after 3-D Secure for an enrolled card (`md`, `pares`; "all other data is
 * inherited from the THREEDQUERY"), and the AUTH after a THREEDQUERY of a card not enrolled or unknown
 * (`parenttransactionreference`). The AUTH part of AUTH+SUBSCRIPTION, RISKDEC+AUTH and AUTH+RISKDEC is this one.
 */
import { MCC_6012_FIELDS, type AcsStatus } from '../../testdata';
import type { SiteInfo } from '../config';
import { ERR } from '../errors';
import type { UnitOfWork } from '../ledger';
import { errorPart } from '../parts';
import type { Fields, OperationHandler, PreparedRequest } from '../types';
import { takePayment } from './payment';

/** "`60025` AUTH, ACCOUNTCHECK: Additional fields mandated for merchants with category code 6012 were not sent." */
export function missing6012(site: SiteInfo, fields: Fields): string[] | undefined {
  if (site.config.mcc !== '6012') return undefined;
  const missing = MCC_6012_FIELDS.filter((f) => fields[f] === undefined);
  return missing.length > 0 ? missing : undefined;
}

/**
 * "RISKDEC performed before AUTH (default configuration): shield status `CHALLENGE` or `DENY`: Authorised
 * transactions are automatically suspended." The RISKDEC may be the parent or an earlier ancestor.
 */
export function suspendedByRiskdec(uow: UnitOfWork, ref: string | undefined): boolean {
  for (let depth = 0; ref !== undefined && depth < 32; depth++) {
    const rec = uow.get(ref);
    if (!rec) return false;
    if (rec.type === 'RISKDEC') return rec.shield === 'CHALLENGE' || rec.shield === 'DENY';
    ref = rec.parent;
  }
  return false;
}

/**
 * `credentialsonfile`: "If it is omitted, the service tries to set the correct value itself": a subscription's
 * credentials are stored for its later payments, so `1`.
 */
export function withCredentialsOnFile(p: PreparedRequest): Fields {
  if (p.fields.credentialsonfile !== undefined || !p.types.includes('SUBSCRIPTION')) return p.fields;
  return { ...p.fields, credentialsonfile: '1' };
}

export const auth: OperationHandler = ({ prepared: p, uow, env, index, previous }) => {
  const site = p.site!;
  const fields = withCredentialsOnFile(p);
  const missing = missing6012(site, fields);
  if (missing) return { part: errorPart('AUTH', ERR.mcc6012, missing) };

  // "Combined, risk decision first: the AUTH part's `parenttransactionreference` is the RISKDEC's `transactionreference`."
  const parent = (index > 0 ? previous[index - 1]?.record?.transactionreference : undefined) ?? p.parent?.transactionreference;

  let threeds: { enrolled: 'Y' | 'N' | 'U'; xid: string; status?: AcsStatus } | undefined;
  let unauthenticated = false;
  if (p.threeds) {
    const query = p.threeds.query;
    const t = query.threeds!;
    // "The ACS return values `md` and `pares` must be submitted in full and unmodified."
    const status: AcsStatus = p.threeds.intact && t.outcome !== undefined ? t.outcome : 'N';
    if (p.threeds.intact) uow.update(query.transactionreference, (r) => (r.threeds = { ...t, used: true }));
    threeds = { enrolled: t.enrolled, xid: t.xid, status };
    unauthenticated = status === 'N';
  } else if (p.parent?.type === 'THREEDQUERY' && p.parent.threeds) {
    // "AUTH after 3-D Secure, card not enrolled or unknown: 1 AUTH part with `enrolled`".
    threeds = { enrolled: p.parent.threeds.enrolled, xid: p.parent.threeds.xid };
  }

  const outcome = takePayment(uow, {
    type: 'AUTH',
    site,
    parent,
    fields,
    card: p.card!,
    securitycodeResult: p.securitycodeResult,
    timestamp: env.timestamp,
    date: env.date,
    operator: env.ctx.user.username,
    threeds,
    unauthenticated,
    suspend: !unauthenticated && suspendedByRiskdec(uow, parent),
  });
  const usedBy = outcome.record?.transactionreference;
  if (p.threeds?.intact && usedBy !== undefined) {
    const ref = p.threeds.query.transactionreference;
    uow.update(ref, (r) => (r.threeds = { ...r.threeds!, usedBy }));
  }
  return outcome;
};
