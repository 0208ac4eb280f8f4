/**
 * Faulty variants of the XML envelope ("Endpoints > Transport", "Versioning", 2, and the XML locations of the
 * security and fraud-control fields). They change the block's text on the wire (the JSON form is untouched), or
 * what the gateway reads from a request block, and run over XML only.
 */
import type { MutationContext, WireReply } from '../../gateway';
import type { ResponsePart } from '../../wire/types';
import type { Variant } from '../types';
import { faulty, isObject } from './helpers';

/** A wire hook that rewrites XML answers only. */
const xmlText = (change: (body: string) => string) => ({
  mutate: { wire: (reply: WireReply, ctx: { readonly format: string }): WireReply => (ctx.format === 'xml' ? { ...reply, body: change(reply.body) } : reply) },
});

/**
 * A part hook that changes values in XML answers only: each answer alone has a valid form, so only the comparison
 * with the JSON answer to the same step (src/wire/twins.ts) sees the fault. Run over both formats.
 */
const xmlValues = (change: (part: ResponsePart) => ResponsePart) => ({
  mutate: { part: (part: ResponsePart, ctx: MutationContext): ResponsePart => (ctx.format === 'xml' ? change(part) : part) },
});

export const XML: readonly Variant[] = [
  faulty({
    name: 'xml-maskedpan-first-four',
    area: 'xml',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks a 16-digit card number in XML answers keeping its first four digits (4111########1111), in JSON its first six',
    build: () =>
      xmlValues((p) => (typeof p.maskedpan === 'string' && p.maskedpan.length >= 16 ? { ...p, maskedpan: p.maskedpan.slice(0, 4) + '#'.repeat(p.maskedpan.length - 8) + p.maskedpan.slice(-4) } : p)),
  }),
  faulty({
    name: 'xml-security-address-postcode-swapped',
    area: 'xml',
    rule: 'XML-SECURITY-PATHS',
    what: 'writes the address check result at /security/postcode and the postcode result at /security/address in XML',
    build: () =>
      xmlValues((p) =>
        p.securityresponseaddress !== undefined || p.securityresponsepostcode !== undefined
          ? { ...p, securityresponseaddress: p.securityresponsepostcode, securityresponsepostcode: p.securityresponseaddress }
          : p,
      ),
  }),
  faulty({
    name: 'xml-categorymessage-cut',
    area: 'xml',
    rule: 'XML-FRAUDCONTROL-PATHS',
    what: 'cuts /fraudcontrol/categorymessage to its first 16 characters in XML answers',
    build: () => xmlValues((p) => (typeof p.rulecategorymessage === 'string' ? { ...p, rulecategorymessage: p.rulecategorymessage.slice(0, 16) } : p)),
  }),
  faulty({
    name: 'xml-security-under-checks',
    area: 'xml',
    rule: 'XML-SECURITY-PATHS',
    what: 'puts the security check results under <checks> instead of <security>',
    formats: ['xml'],
    build: () => xmlText((b) => b.replace(/<(\/?)security>/g, '<$1checks>')),
  }),
  faulty({
    name: 'xml-shield-status-renamed',
    area: 'xml',
    rule: 'XML-FRAUDCONTROL-PATHS',
    what: 'writes the shield status as <fraudcontrol><status> instead of <fraudcontrol><shieldstatuscode>',
    formats: ['xml'],
    build: () => xmlText((b) => b.replace(/<(\/?)shieldstatuscode>/g, '<$1status>')),
  }),
  faulty({
    name: 'xml-version-3.66',
    area: 'xml',
    rule: 'VER-XML',
    what: 'answers a responseblock with version 3.66 instead of 3.67',
    formats: ['xml'],
    build: () => xmlText((b) => b.replace(/<responseblock version="3\.67"/, '<responseblock version="3.66"')),
  }),
  faulty({
    name: 'xml-root-camel-case',
    area: 'xml',
    rule: 'XML-RESPONSE-ROOT',
    what: 'answers with the root <responseBlock> instead of <responseblock>',
    formats: ['xml'],
    build: () => xmlText((b) => b.replace(/<(\/?)responseblock/g, '<$1responseBlock')),
  }),
  faulty({
    name: 'xml-operation-parent-ignored',
    area: 'xml',
    rule: 'XML-REQUEST-BLOCK',
    what: 'does not read parenttransactionreference from the <operation> of an XML request block',
    formats: ['xml'],
    build: () => ({
      mutate: {
        request: (r, ctx) => {
          if (ctx.format !== 'xml' || !isObject(r) || !('parenttransactionreference' in r)) return r;
          const { parenttransactionreference: _ignored, ...rest } = r;
          return rest;
        },
      },
    }),
  }),
];
