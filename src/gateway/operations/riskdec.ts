/**
 * RISKDEC: "fraud risk decision... It returns a shield status code that recommends accepting, investigating or
 * refusing a transaction." The status comes from the test card; `NOSCORE` when "the parent AUTH was declined
 * before checks ran". Before an AUTH (RISKDEC+AUTH, or as the AUTH's parent) a CHALLENGE or DENY suspends the
 * AUTH (auth.ts); before a THREEDQUERY it makes the THREEDQUERY fail with 60107 (threedquery.ts).
 */
import { cardFor } from '../../testdata';
import { ERR } from '../errors';
import { cardPart, errorPart, merchantPart, PartBuilder } from '../parts';
import type { OperationHandler, PartOutcome, TxRecord } from '../types';

/** What each shield status answers besides itself (cardspec's choice of codes and flags; docs/gateway.md). */
export const SHIELD_ANSWERS = {
  ACCEPT: { action: 'C', responsecode: '0100' },
  CHALLENGE: { action: 'S', responsecode: '0300', flag: 'CARDSPEC_TEST_CHALLENGE', message: 'The test card is set to give CHALLENGE' },
  DENY: { action: 'S', responsecode: '0400', flag: 'CARDSPEC_TEST_DENY', message: 'The test card is set to give DENY' },
  NOSCORE: { action: 'C', responsecode: '0000' },
} as const;

export const riskdec: OperationHandler = ({ prepared: p, uow, env, index, previous }) => {
  const card = p.card!;
  if (cardFor(card.pan).unknownError) return { part: errorPart('RISKDEC', ERR.unknown) };
  const site = p.site!;

  // "Combined, risk decision last: the RISKDEC part carries the AUTH's reference in `parenttransactionreference`."
  const before: PartOutcome | undefined = index > 0 ? previous[index - 1] : p.parent ? { part: p.parent.part, record: p.parent } : undefined;
  const parentRef = index > 0 ? before?.record?.transactionreference : p.parent?.transactionreference;
  const paymentFailed = before !== undefined && before.part.requesttypedescription === 'AUTH' && before.part.errorcode !== '0';
  const shield = paymentFailed ? 'NOSCORE' : cardFor(card.pan).shield;
  const answer: { action: string; responsecode: string; flag?: string; message?: string } = SHIELD_ANSWERS[shield];

  const { transactionreference, seq } = uow.reference(site);
  const b = new PartBuilder()
    .set('transactionreference', transactionreference)
    .set('requesttypedescription', 'RISKDEC')
    .set('parenttransactionreference', parentRef)
    .set('transactionstartedtimestamp', env.timestamp)
    .set('accounttypedescription', 'FRAUDCONTROL')
    .echo(p.fields, ['baseamount', 'currencyiso3a', 'orderreference']);
  cardPart(b, card);
  merchantPart(b, env.ctx.user.username);
  b.set('fraudcontrolshieldstatuscode', shield)
    .set('acquirerrecommendedaction', answer.action)
    .set('fraudcontrolreference', `FC-${transactionreference}`)
    .set('fraudcontrolresponsecode', answer.responsecode)
    .set('rulecategoryflag', answer.flag)
    .set('rulecategorymessage', answer.message)
    .result(ERR.ok);

  const record: TxRecord = {
    transactionreference,
    seq,
    type: 'RISKDEC',
    sitereference: site.config.sitereference,
    parent: parentRef,
    createdAt: env.timestamp,
    fields: p.fields,
    card,
    securitycodeResult: p.securitycodeResult,
    errorcode: '0',
    part: b.done(),
    shield,
  };
  uow.add(record);
  return { part: record.part, record };
};
