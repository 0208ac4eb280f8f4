/**
 * Building response parts: the fields every part of a kind carries, echoes of the request, card and merchant data,
 * security check results and error parts. Values are always strings ("All values in JSON requests and responses
 * are strings"), and a field is left out rather than written as `undefined`.
 */
import { ECHOED_FIELDS } from '../../schemas/operations';
import { maskPan } from '../redact';
import { cardFor, SECURITY_TRIGGERS } from '../testdata';
import type { ResponsePart } from '../wire/types';
import { MERCHANT } from './config';
import type { ErrorSpec } from './errors';
import type { CardData, Fields, SecurityResult } from './transaction';

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

/** "Echoed from the request.": the dictionary's list (schemas/operations.ts). */
export const ECHOED = ECHOED_FIELDS;

/** The gateway's issuer data for its test cards (cardspec's choice). */
export const ISSUER = { issuer: 'cardspec Test Issuer', issuercountryiso2a: 'GB' } as const;

/*
 * The `put*` functions write a group of fields onto a part being built as a plain object, by name: the handlers of
 * the busiest operations (AUTH, ACCOUNTCHECK, THREEDQUERY) build their parts this way, in the same order the
 * PartBuilder would, because stores by name keep the object compact where a builder's computed-name stores do not.
 */

/** What every part on one card repeats, worked out once per card (the ledger gives each card one CardData). */
interface CardFacts {
  readonly maskedpan: string;
  readonly scheme: string;
}
const CARD_FACTS = new WeakMap<CardData, CardFacts>();

function cardFacts(card: CardData): CardFacts {
  let facts = CARD_FACTS.get(card);
  if (!facts) {
    facts = { maskedpan: maskPan(card.pan), scheme: cardFor(card.pan).scheme };
    CARD_FACTS.set(card, facts);
  }
  return facts;
}

/**
 * Templates of parts by shape. A shape is a number a handler computes from every choice of which fields a part
 * holds (a parent or not, which echoed fields, which outcome, ...), so that two parts of one shape hold the same
 * fields in the same order. The first part of a shape is kept (copied) as its template; later ones start as a copy
 * of it, one allocation of the right size, and then have every one of their fields written over by the same code
 * that built the first. A part built field after field from `{}` instead grows its storage a few fields at a time.
 */
export class PartTemplates {
  private readonly byShape = new Map<number, ResponsePart>();

  /** The template of a shape, or undefined before the first part of that shape was made. */
  get(shape: number): ResponsePart | undefined {
    return this.byShape.get(shape);
  }

  /** Keeps a copy of a finished part as the template of its shape (once), values blanked: it holds no data. */
  keep(shape: number, part: ResponsePart): void {
    if (this.byShape.has(shape)) return;
    const template = { ...part };
    for (const k of Object.keys(template)) template[k] = '';
    this.byShape.set(shape, template);
  }
}

/**
 * The echoed request fields ("Echoed from the request.": ECHOED) read and written by functions made once for the
 * dictionary's list, each field by a name the code spells out. Every AUTH, ACCOUNTCHECK and THREEDQUERY part echoes
 * its request; a loop over the list read and wrote through a computed name, which costs several times more per field
 * (the same technique as read.ts and envelope-text.ts). Only the dictionary's own names are written into the code,
 * each as a JSON string literal.
 */
function compileEchoed(names: readonly string[]): { bits: (from: Fields) => number; put: (part: ResponsePart, from: Fields) => void } {
  const bits = names.map((n, i) => `if (from[${JSON.stringify(n)}] !== undefined) b |= ${1 << i};`);
  const puts = names.map((n) => `v = from[${JSON.stringify(n)}]; if (v !== undefined) part[${JSON.stringify(n)}] = v;`);
  return {
    bits: new Function(`'use strict'; return function echoedBits(from) {\nlet b = 0;\n${bits.join('\n')}\nreturn b;\n};`)() as (from: Fields) => number,
    put: new Function(`'use strict'; return function putEchoed(part, from) {\nlet v;\n${puts.join('\n')}\n};`)() as (part: ResponsePart, from: Fields) => void,
  };
}
const ECHOED_CODE = compileEchoed(ECHOED);

/** One bit per echoed field `from` holds, in ECHOED's order: the echoed fields' part of a part's shape. */
export const echoedBits: (from: Fields) => number = ECHOED_CODE.bits;

/** Copies the echoed fields `from` holds onto the part, in ECHOED's order. */
export const putEchoed: (part: ResponsePart, from: Fields) => void = ECHOED_CODE.put;

/** `maskedpan`, `paymenttypedescription`, `issuer`, `issuercountryiso2a` of a card. */
export function putCard(part: ResponsePart, card: CardData): void {
  const facts = cardFacts(card);
  part.maskedpan = facts.maskedpan;
  part.paymenttypedescription = facts.scheme;
  part.issuer = ISSUER.issuer;
  part.issuercountryiso2a = ISSUER.issuercountryiso2a;
}

/** "`merchantname`, `merchantnumber`, `merchantcountryiso2a`, `tid`, `operatorname`: Merchant and operator data." */
export function putMerchant(part: ResponsePart, operator: string): void {
  part.merchantname = MERCHANT.merchantname;
  part.merchantnumber = MERCHANT.merchantnumber;
  part.merchantcountryiso2a = MERCHANT.merchantcountryiso2a;
  part.tid = MERCHANT.tid;
  part.operatorname = operator;
}

/** `livestatus` and `dccenabled` carry `0` and `splitfinalnumber` `1`, as in the document's examples. */
export function putStatus(part: ResponsePart): void {
  part.livestatus = '0';
  part.dccenabled = '0';
  part.splitfinalnumber = '1';
}

/** The three security response fields of an AUTH or ACCOUNTCHECK part whose bank was contacted. */
export function putSecurity(part: ResponsePart, fields: Fields, securitycodeResult: SecurityResult): void {
  part.securityresponseaddress = securityResult('billingpremise', fields.billingpremise);
  part.securityresponsepostcode = securityResult('billingpostcode', fields.billingpostcode);
  part.securityresponsesecuritycode = securitycodeResult;
}

/** `errorcode` and `errormessage`. */
export function putResult(part: ResponsePart, spec: ErrorSpec): void {
  part.errorcode = spec.code;
  part.errormessage = spec.message;
}

/** `maskedpan`, `paymenttypedescription`, `issuer`, `issuercountryiso2a` of a card. */
export function cardPart(b: PartBuilder, card: CardData | undefined): PartBuilder {
  if (card) putCard(b.part, card);
  return b;
}

/** "`merchantname`, `merchantnumber`, `merchantcountryiso2a`, `tid`, `operatorname`: Merchant and operator data." */
export function merchantPart(b: PartBuilder, operator: string): PartBuilder {
  putMerchant(b.part, operator);
  return b;
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

/** A part that failed before anything was stored: type, code, message and, for field errors, `errordata`. */
/**
 * Most entries an `errordata` list carries (cardspec's choice: the document shows `errordata` only in public facts,
 * naming "the field(s)"). Every part of a request object carries its list, so without a bound a request of n unknown
 * types would be answered n parts of n entries: one small request, an answer of gigabytes.
 */
export const ERRORDATA_MAX = 20;

export function errorPart(type: string, spec: ErrorSpec, errordata?: readonly string[], extra?: Fields): ResponsePart {
  const data = errordata !== undefined && errordata.length > ERRORDATA_MAX ? errordata.slice(0, ERRORDATA_MAX) : errordata;
  const b = new PartBuilder().set('requesttypedescription', type).result(spec).list('errordata', data);
  if (extra) for (const [k, v] of Object.entries(extra)) b.set(k, v);
  return b.done();
}
