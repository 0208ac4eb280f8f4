/**
 * ACCOUNTCHECK: "validates address, postcode and security code without reserving funds. `baseamount` may be `0`."
 * Its part is "shaped as an AUTH part, with `requesttypedescription` `ACCOUNTCHECK`"; its fields are inherited by
 * its children (rule 4), which the ledger does for every record.
 */
import { ERR } from '../errors';
import { errorPart } from '../parts';
import type { OperationHandler } from '../types';
import { missing6012 } from './auth';
import { takePayment } from './payment';

export const accountcheck: OperationHandler = ({ prepared: p, uow, env }) => {
  const site = p.site!;
  const missing = missing6012(site, p.fields);
  if (missing) return { part: errorPart('ACCOUNTCHECK', ERR.mcc6012, missing) };
  return takePayment(uow, {
    type: 'ACCOUNTCHECK',
    site,
    parent: p.parent?.transactionreference,
    fields: p.fields,
    card: p.card!,
    securitycodeResult: p.securitycodeResult,
    timestamp: env.timestamp,
    date: env.date,
    operator: env.ctx.user.username,
  });
};
