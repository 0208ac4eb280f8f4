/**
 * Building response parts: the fields every part of a kind carries, echoes of the request, card and merchant data,
 * security check results and error parts. Values are always strings ("All values in JSON requests and responses
 * are strings"), and a field is left out rather than written as `undefined`.
 */
import { maskPan } from '../redact';
import { cardFor, SECURITY_TRIGGERS } from '../testdata';
import type { ResponsePart } from '../wire/types';
import { MERCHANT } from './config';
import type { ErrorSpec } from './errors';
import type { CardData, Fields, SecurityResult } from './types';

/** A part under construction: `set` skips absent values so no part ever holds `undefined`. */
export class PartBuilder {
  readonly part: Record<string, unknown> = {};

  set(name: string, value: string | undefined): this {
    if (value !== undefined) this.part[name] = value;
    return this;
  }

  /** Copies the named fields that are present in `from`. */
  echo(from: Fields, names: readonly string[]): this {
    for (const n of names) {
      const v = from[n];
      if (v !== undefined) this.part[n] = v;
    }
    return this;
  }

  list(name: string, values: readonly string[] | undefined): this {
    if (values && values.length > 0) this.part[name] = [...values];
    return this;
  }

  result(spec: ErrorSpec): this {
    this.part.errorcode = spec.code;
    this.part.errormessage = spec.message;
    return this;
  }

  /**
   * The finished part. Built by keyed stores, the object has gone to V8's slow dictionary mode (over a dozen
   * properties); a spread copy is a compact fast object again, which is what the ledger keeps (a third of the memory).
   */
  done(): ResponsePart {
    return { ...this.part };
  }
}

/** "`baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile`: Echoed from the request." */
export const ECHOED = ['baseamount', 'currencyiso3a', 'orderreference', 'accounttypedescription', 'credentialsonfile'] as const;

/** The gateway's issuer data for its test cards (cardspec's choice). */
export const ISSUER = { issuer: 'cardspec Test Issuer', issuercountryiso2a: 'GB' } as const;

/** `maskedpan`, `paymenttypedescription`, `issuer`, `issuercountryiso2a` of a card. */
export function cardPart(b: PartBuilder, card: CardData | undefined): PartBuilder {
  if (!card) return b;
  return b
    .set('maskedpan', maskPan(card.pan))
    .set('paymenttypedescription', cardFor(card.pan).scheme)
    .set('issuer', ISSUER.issuer)
    .set('issuercountryiso2a', ISSUER.issuercountryiso2a);
}

/** "`merchantname`, `merchantnumber`, `merchantcountryiso2a`, `tid`, `operatorname`: Merchant and operator data." */
export function merchantPart(b: PartBuilder, operator: string): PartBuilder {
  return b
    .set('merchantname', MERCHANT.merchantname)
    .set('merchantnumber', MERCHANT.merchantnumber)
    .set('merchantcountryiso2a', MERCHANT.merchantcountryiso2a)
    .set('tid', MERCHANT.tid)
    .set('operatorname', operator);
}

/** `livestatus` and `dccenabled` carry `0` and `splitfinalnumber` `1`, as in the document's examples. */
export function statusPart(b: PartBuilder): PartBuilder {
  return b.set('livestatus', '0').set('dccenabled', '0').set('splitfinalnumber', '1');
}

/**
 * A security check result from the value sent (SECURITY_TRIGGERS of src/testdata.ts): nothing sent gives `0` (not
 * given), the listed values give `4` (not matched) and `1` (not checked), any other value `2` (matched).
 */
export function securityResult(field: keyof typeof SECURITY_TRIGGERS, value: string | undefined): SecurityResult {
  if (value === undefined || value === '') return '0';
  const t = SECURITY_TRIGGERS[field];
  if (value === t.notMatched) return '4';
  if (value === t.notChecked) return '1';
  return '2';
}

/** The three security response fields of an AUTH or ACCOUNTCHECK part whose bank was contacted. */
export function securityPart(b: PartBuilder, fields: Fields, securitycodeResult: SecurityResult): PartBuilder {
  return b
    .set('securityresponseaddress', securityResult('billingpremise', fields.billingpremise))
    .set('securityresponsepostcode', securityResult('billingpostcode', fields.billingpostcode))
    .set('securityresponsesecuritycode', securitycodeResult);
}

/** A part that failed before anything was stored: type, code, message and, for field errors, `errordata`. */
export function errorPart(type: string, spec: ErrorSpec, errordata?: readonly string[], extra?: Fields): ResponsePart {
  const b = new PartBuilder().set('requesttypedescription', type).result(spec).list('errordata', errordata);
  if (extra) for (const [k, v] of Object.entries(extra)) b.set(k, v);
  return b.done();
}
