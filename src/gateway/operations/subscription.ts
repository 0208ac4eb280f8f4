/**
 * SUBSCRIPTION: "schedules recurring payments in a subscription engine. It is submitted combined with `AUTH` as
 * `["AUTH","SUBSCRIPTION"]`. The first payment is taken at once, and later payments are taken automatically."
 * The AUTH part (auth.ts) takes payment 1 (or the number sent, when resuming); this part creates the schedule the
 * engine (engine.ts) runs. Its state follows "States and transitions > Subscription".
 */
import { ERR } from '../errors';
import { cardPart, errorPart, merchantPart, PartBuilder } from '../parts';
import type { Unit } from '../../calendar';
import type { OperationHandler, TxRecord } from '../types';
import { withCredentialsOnFile } from './auth';

export const subscription: OperationHandler = ({ prepared: p, uow, env, index, previous }) => {
  const authPart = index > 0 ? previous[index - 1] : undefined;
  if (!authPart?.record || authPart.part.errorcode !== '0') {
    // Rule 2: "the AUTH part reports the first payment": when it failed, no subscription is made and this part
    // repeats why.
    const failed = authPart?.part;
    const code = typeof failed?.errorcode === 'string' ? failed.errorcode : ERR.unknown.code;
    const message = typeof failed?.errormessage === 'string' ? failed.errormessage : ERR.unknown.message;
    return { part: errorPart('SUBSCRIPTION', { code, message }) };
  }
  const site = p.site!;
  const fields = withCredentialsOnFile(p);
  const auth = authPart.record;
  // "`transactionactive`: `2` pending (default)"; `0` and `1` when sent.
  const active = p.own.transactionactive ?? '2';
  const startNumber = Number(fields.subscriptionnumber);
  const finalNumber = Number(fields.subscriptionfinalnumber);

  const { transactionreference, seq } = uow.reference(site);
  const b = new PartBuilder()
    .set('transactionreference', transactionreference)
    .set('requesttypedescription', 'SUBSCRIPTION')
    .set('parenttransactionreference', auth.transactionreference)
    .set('transactionstartedtimestamp', env.timestamp)
    .set('accounttypedescription', 'RECUR')
    .set('transactionactive', active)
    .echo(fields, ['baseamount', 'currencyiso3a', 'orderreference', 'credentialsonfile'])
    .echo(fields, ['subscriptiontype', 'subscriptionunit', 'subscriptionfrequency', 'subscriptionnumber', 'subscriptionfinalnumber', 'subscriptionbegindate']);
  cardPart(b, p.card);
  merchantPart(b, env.ctx.user.username);
  b.result(ERR.ok);

  const record: TxRecord = {
    transactionreference,
    seq,
    type: 'SUBSCRIPTION',
    sitereference: site.config.sitereference,
    parent: auth.transactionreference,
    createdAt: env.timestamp,
    fields,
    card: p.card,
    securitycodeResult: '0',
    errorcode: '0',
    part: b.done(),
    transactionactive: active,
    subscription: {
      subscriptiontype: fields.subscriptiontype,
      unit: fields.subscriptionunit as Unit,
      frequency: Number(fields.subscriptionfrequency),
      begindate: fields.subscriptionbegindate,
      startNumber,
      finalNumber,
      lastNumber: startNumber,
      periodIndex: 0,
      baseamount: fields.baseamount,
      authRef: auth.transactionreference,
    },
  };
  uow.add(record);
  return { part: record.part, record };
};
