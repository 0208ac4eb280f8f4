/**
 * Faulty variants of the JSON envelope ("Resources and their fields > Envelope", "Endpoints > Transport",
 * "Versioning"): the order of the parts, a missing part, the version echo, numbers where strings are due,
 * `secrand`, `requestreference`, the names of the request types.
 */
import { envelopeWithout, faulty, partsOf } from './helpers';
import type { Variant } from '../types';

export const ENVELOPE: readonly Variant[] = [
  faulty({
    name: 'parts-reversed',
    area: 'envelope',
    rule: 'ENV-ORDER',
    what: 'answers the parts of a combined request in reverse order',
    build: () => ({ mutate: { envelope: (env) => (partsOf(env).length > 1 ? { ...env, response: [...partsOf(env)].reverse() } : env) } }),
  }),
  faulty({
    name: 'second-part-missing',
    area: 'envelope',
    rule: 'ENV-RESPONSE-ONE-PART-PER-TYPE',
    what: 'answers a combined request with its first part only',
    build: () => ({ mutate: { part: (p, ctx) => (ctx.requesttypes.length > 1 && (ctx.index ?? 0) > 0 ? null : p) } }),
  }),
  faulty({
    name: 'version-1.0',
    area: 'envelope',
    rule: 'VER-JSON',
    what: 'echoes the version as 1.0 instead of 1.00 (JSON: the XML block carries its own version)',
    formats: ['json'],
    build: () => ({ mutate: { envelope: (env) => ({ ...env, version: '1.0' }) } }),
  }),
  faulty({
    name: 'secrand-constant',
    area: 'envelope',
    rule: 'ENV-SECRAND',
    what: 'answers the same secrand every time ("Random string of varying length")',
    build: () => ({ mutate: { envelope: (env) => ({ ...env, secrand: 'cardspec0secrand' }) } }),
  }),
  faulty({
    name: 'secrand-missing',
    area: 'envelope',
    rule: 'TRANSPORT-RESPONSE-BODY',
    what: 'leaves secrand out of the response body',
    build: () => ({ mutate: { envelope: (env) => envelopeWithout(env, 'secrand') } }),
  }),
  faulty({
    name: 'requestreference-missing',
    area: 'envelope',
    rule: 'ENV-REQUESTREFERENCE',
    what: 'leaves requestreference out of the response body',
    build: () => ({ mutate: { envelope: (env) => envelopeWithout(env, 'requestreference') } }),
  }),
  faulty({
    name: 'amount-as-number',
    area: 'envelope',
    rule: 'FIELD-STRINGS',
    what: 'answers baseamount as a JSON number (JSON: XML has no numbers)',
    formats: ['json'],
    build: () => ({ mutate: { part: (p) => (typeof p.baseamount === 'string' ? { ...p, baseamount: Number(p.baseamount) } : p) } }),
  }),
  faulty({
    name: 'types-lower-case',
    area: 'envelope',
    // A response part's type (`auth`) that is no request type: the requested AUTH has no part. ENV-TYPES-NAMED
    // speaks of the request object, which this gateway reads correctly.
    rule: 'ENV-RESPONSE-ONE-PART-PER-TYPE',
    what: 'names the request type of each part in lower case (auth)',
    build: () => ({
      mutate: { part: (p) => (typeof p.requesttypedescription === 'string' ? { ...p, requesttypedescription: p.requesttypedescription.toLowerCase() } : p) },
    }),
  }),
];
