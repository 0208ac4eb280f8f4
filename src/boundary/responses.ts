/**
 * The response side of the field boundary phase: for each row the phase sends, every response field of the
 * dictionary that the row's answer carries, held to its documented form (type class, length, listed values) and
 * reported under its rule qualified by the field. Which fields a row's answer carries is read once from the
 * reference gateway, in process, with the card the suite sends (deterministic: the values vary, the fields do not).
 */
import { FIELD } from '../../schemas/fields';
import { OPERATION, PART_SHAPES } from '../../schemas/operations';
import { createRuntime } from '../gateway/runtime';
import { formRuleOf } from '../suite/attribution';
import { processEnvelope } from '../gateway/core';
import { DEFAULT_CONFIG } from '../testdata';
import { BUILTIN_PROFILE } from '../target/profile';
import { buildRequest } from '../target/requests';
import { JSON_VERSION } from '../wire/types';
import { BOUNDARY_ROWS } from './cases';

export interface ResponseCase {
  readonly row: string;
  /** The request type of the part the field is read from. */
  readonly type: string;
  readonly field: string;
  readonly rule: string;
  /** The rule (qualified by the field) that requires the field in this part, when a sentence of the document does. */
  readonly presence?: string;
}

// "The STORE response holds ...": the listed fields, as schemas/operations.ts reads the sentence.
const STORE_LISTED: ReadonlySet<string> = new Set(PART_SHAPES.STORE.requiredOnSuccess);
const CARD_PARTS = new Set(['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'STORE', 'RISKDEC']);
const PAYMENT_PARTS = new Set(['AUTH', 'ACCOUNTCHECK']);

/**
 * The sentence that requires a field in a successful part of a type, by the rule that quotes it; undefined where
 * no sentence does (the Common response fields give no part that must hold the field): dropping it is then
 * equivalent to the reference.
 */
export function presenceRule(type: string, field: string): string | undefined {
  // "The STORE response holds `transactionreference`, ..."
  if (type === 'STORE') return STORE_LISTED.has(field) ? 'STORE-RESPONSE-FIELDS' : undefined;
  // "It identifies the transaction and is the value used as `parenttransactionreference` later."
  if (field === 'transactionreference') return 'FIELD-TRANSACTIONREFERENCE';
  // "Responses return a masked form in `maskedpan`": every part about a card.
  if (field === 'maskedpan') return CARD_PARTS.has(type) ? 'FIELD-MASKEDPAN' : undefined;
  if (PAYMENT_PARTS.has(type)) {
    // "`authcode`, `acquirerresponsecode`: present when the bank was contacted" (AUTH; ACCOUNTCHECK is "shaped as an AUTH part").
    if (field === 'authcode' || field === 'acquirerresponsecode') return 'AUTH-BANK-CONTACTED';
    // "Echoed from the request."
    if (['baseamount', 'currencyiso3a', 'orderreference', 'accounttypedescription'].includes(field)) return 'FIELD-ECHO';
    if (field === 'transactionstartedtimestamp') return 'FIELD-TIMESTAMP';
    if (field === 'settleduedate') return 'FIELD-SETTLEDUEDATE';
  }
  // "`ACCOUNTCHECK`: validates address, postcode and security code".
  if (type === 'ACCOUNTCHECK' && field.startsWith('securityresponse')) return 'AC-VALIDATES';
  // "In a response, the SUBSCRIPTION part carries `RECUR`." (schemas/operations.ts: the part requires it.)
  if (type === 'SUBSCRIPTION' && field === 'accounttypedescription') return 'SUB-RECUR';
  // "Check `transactionactive`, the timing fields and the amount in the SUBSCRIPTION part."
  if (type === 'SUBSCRIPTION' && ['transactionactive', 'subscriptionbegindate', 'subscriptionunit', 'subscriptionfrequency', 'subscriptionfinalnumber', 'baseamount'].includes(field))
    return 'SUB-AUTH-FIRST-PAYMENT';
  // "1 part with `enrolled`, `xid`, and for enrolled cards `acsurl`, `md`, `pareq`".
  if (type === 'THREEDQUERY' && ['enrolled', 'xid', 'acsurl', 'md', 'pareq'].includes(field)) return '3DS-QUERY-RESPONSE';
  // "It returns a shield status code".
  if (type === 'RISKDEC' && field === 'fraudcontrolshieldstatuscode') return 'RISKDEC-SHIELD';
  return undefined;
}

/**
 * The rule a response field's form is reported under: the rule the schema check of every other step blames for a
 * value of the wrong form (src/suite/attribution.ts `formRuleOf`), so that one fault is one rule in both readers.
 */
export function responseRule(field: string): string {
  return formRuleOf(field, FIELD[field]?.response?.values !== undefined) ?? 'FIELD-TYPES';
}

/** Fields whose form is a mask or a reference the suite checks elsewhere by meaning, not only by form. */
const ELSEWHERE = new Set(['requesttypedescription', 'errorcode', 'errormessage']);

let cached: ResponseCase[] | undefined;

export function responseCases(): ResponseCase[] {
  if (cached) return cached;
  const out: ResponseCase[] = [];
  const rt = createRuntime({ control: true });
  const user = DEFAULT_CONFIG.users[0];
  const card = BUILTIN_PROFILE.cards.authorised!;
  for (const r of BOUNDARY_ROWS) {
    const row = OPERATION[r.id];
    const request = buildRequest(row, { profile: BUILTIN_PROFILE, site: BUILTIN_PROFILE.sites.main, today: '2026-01-05', orderreference: 'cardspec-boundary-1' }, { card });
    const env = processEnvelope(rt, { alias: user.alias, version: JSON_VERSION, request: [request] }, { user, format: 'json', baseUrl: 'http://127.0.0.1:1' });
    const parts = Array.isArray(env.response) ? (env.response as Record<string, unknown>[]) : [];
    for (const part of parts) {
      const type = String(part.requesttypedescription);
      for (const field of Object.keys(part).sort()) {
        if (ELSEWHERE.has(field) || !FIELD[field]?.response || FIELD[field].source) continue;
        const presence = presenceRule(type, field);
        out.push({ row: r.id, type, field, rule: `${responseRule(field)}:${field}`, ...(presence ? { presence: `${presence}:${field}` } : {}) });
      }
    }
  }
  cached = out;
  return out;
}
