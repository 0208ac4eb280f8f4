/**
 * Benign variants: gateways that differ from the reference only where the document allows it, or says "not
 * shown". Each must pass the whole suite in both formats (and a short fuzz run): a kit that failed one of them
 * would fail a conforming target. `allowedBy` names the document's words or the public fact each follows.
 */
import { randomBytes } from 'node:crypto';
import { buildResponseBlock, parseRequestBlock } from '../../wire/xml';
import type { RequestEnvelope, ResponseEnvelope, ResponsePart } from '../../wire/types';
import type { FrontRequest, FrontResponse, Variant } from '../types';
import { benign, isType, partsOf, without } from './helpers';

/** Each key order reversed: the document fixes no order of fields. */
const reversed = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;

/** Response fields the document lists without making them part of any answer it describes (never a STORE's). */
const OPTIONAL_FIELDS = [
  'livestatus',
  'dccenabled',
  'splitfinalnumber',
  'merchantname',
  'merchantnumber',
  'merchantcountryiso2a',
  'tid',
  'operatorname',
  'issuer',
  'issuercountryiso2a',
  'paymenttypedescription',
  'threedversion',
];

/** Letters and digits, `n` of them, from the crypto source: still a random string. */
function randomText(n: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** JSON with `/` written `\/` and every non-ASCII character as `\uXXXX`: the same values, other text. */
function escapedJson(body: string): string {
  return body.replace(/\//g, '\\/').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The request types of a request body, JSON or XML (none when it cannot be read). */
function typesSent(req: FrontRequest, xml: boolean): string[] {
  try {
    const env = xml ? parseRequestBlock(req.body).envelope : (JSON.parse(req.body) as RequestEnvelope);
    const first: unknown = Array.isArray(env.request) ? env.request[0] : undefined;
    const t = typeof first === 'object' && first !== null ? (first as Record<string, unknown>).requesttypedescriptions : undefined;
    return Array.isArray(t) ? t.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * A 401 answered instead as HTTP 200 with an envelope whose parts failed ("the shape of a response to a malformed
 * request: not shown"): one failed part per type requested, or (`errorPart`) one part of type `ERROR`, the public
 * shape of "an error that stops the whole block".
 */
function refusalAsEnvelope(errorPart: boolean): (res: FrontResponse, req: FrontRequest) => FrontResponse {
  return (res, req) => {
    const xml = req.path.startsWith('/xml');
    if (res.status !== 401 || !(xml || req.path.startsWith('/json'))) return res;
    const types = errorPart ? [] : typesSent(req, xml);
    const parts: ResponsePart[] = (types.length > 0 ? types : ['ERROR']).map((t) => ({
      requesttypedescription: t,
      errorcode: '30000',
      errormessage: 'Invalid credentials',
      errordata: ['authorization'],
    }));
    const env: ResponseEnvelope = { requestreference: `A${randomText(9)}`, version: '1.00', response: parts, secrand: randomText(16) };
    const body = xml ? buildResponseBlock(env) : JSON.stringify(env);
    return { status: 200, headers: { 'content-type': xml ? 'text/xml; charset=utf-8' : 'application/json; charset=utf-8' }, body };
  };
}

export const BENIGN: readonly Variant[] = [
  benign({
    name: 'extra-fields',
    area: 'fields',
    what: 'adds fields the document does not name, to every part and to the envelope',
    allowedBy: 'Common request fields: "The full list of fields accepted in an AUTH request: not shown"; the kit checks the fields it knows',
    build: () => ({
      mutate: { part: (p) => ({ ...p, acquirertransactionid: 'TX123', customfield: 'extra' }), envelope: (env) => ({ ...env, libraryversion: 'gateway_9.9' }) },
    }),
  }),
  benign({
    name: 'keys-reversed',
    area: 'envelope',
    what: 'writes the fields of every part and of the envelope in reverse order (JSON: an XML block has its element order)',
    allowedBy: 'the document fixes no order of fields, only the order of the parts',
    formats: ['json'],
    build: () => ({
      mutate: {
        part: (p) => reversed(p),
        envelope: (env) => reversed({ ...env, response: partsOf(env).map((p) => reversed(p)) }),
      },
    }),
  }),
  benign({
    name: 'secrand-other-lengths',
    area: 'envelope',
    what: 'answers a secrand of another, varying length (1 to 64 characters)',
    allowedBy: 'Envelope: "`secrand`: Random string of varying length"',
    build: () => {
      let n = 0;
      return { mutate: { envelope: (env) => ({ ...env, secrand: randomText(1 + (n++ % 64)) }) } };
    },
  }),
  benign({
    name: 'charset-on-content-type',
    area: 'transport',
    what: 'puts a charset on the content type of its answers',
    allowedBy: 'the document names no response headers; public facts: the SDKs send `;charset=utf-8`',
    build: () => ({
      mutate: { wire: (reply, ctx) => ({ ...reply, headers: { ...reply.headers, 'Content-Type': ctx.format === 'json' ? 'application/json; charset=UTF-8' : 'text/xml; charset=UTF-8' } }) },
    }),
  }),
  benign({
    name: 'messages-worded-otherwise',
    area: 'errors',
    what: 'words the messages of failures differently where the document fixes no wording',
    allowedBy: 'Errors: only `0` ("`errormessage` is `Ok`") and `60022` ("`errormessage` is `Unauthenticated`") fix a message',
    build: () => ({ mutate: { part: (p) => (typeof p.errorcode === 'string' && !['0', '60022'].includes(p.errorcode) ? { ...p, errormessage: `Refused (code ${p.errorcode})` } : p) } }),
  }),
  benign({
    name: 'pretty-printed',
    area: 'envelope',
    what: 'pretty-prints its answers: indented JSON, XML with a line between elements',
    allowedBy: 'whitespace between JSON tokens and between XML elements carries no value',
    build: () => ({
      mutate: {
        wire: (reply, ctx) => ({ ...reply, body: ctx.format === 'json' ? JSON.stringify(JSON.parse(reply.body), null, 2) : reply.body.replace(/></g, '>\n  <') }),
      },
    }),
  }),
  benign({
    name: 'json-escapes',
    area: 'envelope',
    what: 'escapes / as \\/ and non-ASCII characters as \\uXXXX in its JSON answers',
    allowedBy: 'the same JSON values; public facts: the PHP SDK escapes `/` (`"12\\/2031"`) and both SDKs escape non-ASCII',
    formats: ['json'],
    build: () => ({ mutate: { wire: (reply, ctx) => (ctx.format === 'json' ? { ...reply, body: escapedJson(reply.body) } : reply) } }),
  }),
  benign({
    name: 'optional-fields-left-out',
    area: 'fields',
    what: 'leaves out the merchant, issuer and status fields of every part but STORE, and threedversion',
    allowedBy: 'Common response fields list them without requiring them in an answer; `threedversion` is "Returned only for accounts with certain acquiring banks"',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') ? p : without(p, ...OPTIONAL_FIELDS)) } }),
  }),
  benign({
    name: 'orderreference-only-in-store',
    area: 'fields',
    what: 'gives orderreference back in the STORE part only, leaving it out of every other part',
    allowedBy:
      'the document\'s examples: the AUTH and SUBSCRIPTION parts of the subscription example and the RISKDEC part of the risk decision after a payment carry no `orderreference`, though their requests sent one; "The STORE response holds ... `orderreference`" (the field dictionary\'s `ECHOES`)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') ? p : without(p, 'orderreference')) } }),
  }),
  benign({
    name: 'requestreference-other-format',
    area: 'envelope',
    what: 'answers requestreference in another format (W-<number>)',
    allowedBy: 'Envelope: "`requestreference`: Reference of the call" (no format)',
    build: () => {
      let n = 0;
      return { mutate: { envelope: (env) => ({ ...env, requestreference: `W-${++n}` }) } };
    },
  }),
  benign({
    name: 'references-other-format',
    area: 'fields',
    what: 'writes transaction references in another format (T1001N9S12 for 12-9-1001)',
    allowedBy: 'Common response fields: "`transactionreference`: Alphanumeric incl. hyphens, up to 25"',
    build: () => ({
      mutate: {
        reference: (standard) => {
          const [site, node, seq] = standard.split('-');
          return `T${seq}N${node}S${site}`;
        },
      },
    }),
  }),
  benign({
    name: 'xml-without-declaration',
    area: 'xml',
    what: 'answers XML blocks without the <?xml ...?> declaration',
    allowedBy: 'the declaration is optional in XML; public facts: real XML bodies may have none',
    formats: ['xml'],
    build: () => ({ mutate: { wire: (reply, ctx) => (ctx.format === 'xml' ? { ...reply, body: reply.body.replace(/^<\?xml[^>]*\?>\s*/, '') } : reply) } }),
  }),
  benign({
    name: 'refusal-as-failed-parts',
    area: 'transport',
    what: 'answers a call with missing or wrong credentials with HTTP 200 and a failed part per requested type, not HTTP 401',
    allowedBy: 'Errors: "HTTP status codes and the shape of a response to a malformed request: not shown"',
    build: () => ({ front: { response: refusalAsEnvelope(false) } }),
  }),
  benign({
    name: 'refusal-as-error-part',
    area: 'transport',
    what: 'answers a call with missing or wrong credentials with HTTP 200 and one part of type ERROR, not HTTP 401',
    allowedBy: 'Errors: "HTTP status codes and the shape of a response to a malformed request: not shown"; public facts: "An error that stops the whole block ... comes back as response@type="ERROR""',
    build: () => ({ front: { response: refusalAsEnvelope(true) } }),
  }),
  benign({
    name: 'settlestatus-manual',
    area: 'states',
    what: 'answers settlestatus 1 (manual settlement) where the reference answers 0 (pending)',
    allowedBy: 'States: "The full set of settlestatus values and the transitions between them: not shown"; public facts: 1 manual settlement',
    build: () => ({ mutate: { part: (p) => (p.settlestatus === '0' ? { ...p, settlestatus: '1' } : p) } }),
  }),
];
