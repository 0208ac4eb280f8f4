/**
 * The response side of the field boundary phase: for each row the phase sends, every response field of the
 * dictionary that the row's answer carries, held to its documented form (type class, length, listed values) and
 * reported under its rule qualified by the field. Which fields a row's answer carries is read once from the
 * reference gateway, in process, with the card the suite sends (deterministic: the values vary, the fields do not).
 */
import { FIELD } from '../../schemas/fields';
import { OPERATION } from '../../schemas/operations';
import { createRuntime } from '../gateway/runtime';
import { formRuleOf, presenceRuleOf } from '../rules/attribution';
import { processEnvelope } from '../gateway/core';
import { DEFAULT_CONFIG } from '../testdata';
import { BUILTIN_PROFILE } from '../client/profile';
import { buildRequest } from '../client/requests';
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

/** The sentence that requires a field in a successful part (src/rules/attribution.ts, where findings read it too). */
export const presenceRule = presenceRuleOf;

/**
 * The rule a response field's form is reported under: the rule the schema check of every other step blames for a
 * value of the wrong form (src/rules/attribution.ts `formRuleOf`), so that one fault is one rule in both readers.
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
