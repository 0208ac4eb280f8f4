/**
 * Faulty variants of the XML envelope ("Endpoints > Transport", "Versioning", 2, and the XML locations of the
 * security and fraud-control fields). They change the block's text on the wire (the JSON form is untouched), or
 * what the gateway reads from a request block, and run over XML only.
 */
import type { WireReply } from '../../gateway';
import type { Variant } from '../types';
import { faulty, isObject } from './helpers';

/** A wire hook that rewrites XML answers only. */
const xmlText = (change: (body: string) => string) => ({
  mutate: { wire: (reply: WireReply, ctx: { readonly format: string }): WireReply => (ctx.format === 'xml' ? { ...reply, body: change(reply.body) } : reply) },
});

export const XML: readonly Variant[] = [
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
