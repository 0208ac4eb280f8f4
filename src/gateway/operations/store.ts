/**
 * STORE: "stores card and billing details for later use. The acquiring bank is not contacted. The security code is
 * never stored." The part holds the fields the document lists under "STORE response fields"; the stored card is
 * enabled (`transactionactive` `1`) until a TRANSACTIONUPDATE disables it.
 */
import { cardFor } from '../../testdata';
import { MERCHANT } from '../config';
import { ERR } from '../errors';
import { cardPart, errorPart, PartBuilder } from '../parts';
import type { OperationHandler, TxRecord } from '../types';

export const store: OperationHandler = ({ prepared: p, uow, env }) => {
  const card = p.card!;
  if (cardFor(card.pan).unknownError) return { part: errorPart('STORE', ERR.unknown) };
  const site = p.site!;
  const { transactionreference, seq } = uow.reference(site);
  const b = new PartBuilder()
    .set('transactionreference', transactionreference)
    .set('transactionactive', '1')
    .set('requesttypedescription', 'STORE')
    .set('parenttransactionreference', p.parent?.transactionreference)
    .set('orderreference', p.fields.orderreference)
    .set('accounttypedescription', 'CARDSTORE');
  cardPart(b, card);
  b.set('merchantname', MERCHANT.merchantname).set('operatorname', env.ctx.user.username).set('livestatus', '0').set('transactionstartedtimestamp', env.timestamp).result(ERR.ok);
  const record: TxRecord = {
    transactionreference,
    seq,
    type: 'STORE',
    sitereference: site.config.sitereference,
    parent: p.parent?.transactionreference,
    createdAt: env.timestamp,
    fields: p.fields,
    card,
    // "The security code is not [kept]": not even the result of its check.
    securitycodeResult: '0',
    errorcode: '0',
    part: b.done(),
    transactionactive: '1',
  };
  uow.add(record);
  return { part: record.part, record };
};
