/**
 * The audit of the XML form, the follow-ups and the Errors table: answers written the way other XML writers write
 * them (namespaces, CDATA, character references, attribute order and quotes, comments, empty elements), which the
 * document leaves free and the kit must read as the same answer; XML faults the text alone shows (the parts out of
 * order, no version, the request type as an element); and what the document leaves "not shown" about follow-ups
 * and errors (`errordata`, which records a query answers), which must never fail a target.
 */
import type { WireReply } from '../../gateway';
import type { ResponsePart } from '../../wire/types';
import type { Variant } from '../types';
import { benign, changeStored, ERR, faulty, isObject, isType, queryRecords, refuse, withPart, without } from './helpers';

/** A wire hook that rewrites XML answers only. */
const xmlText = (change: (body: string) => string) => ({
  mutate: { wire: (reply: WireReply, ctx: { readonly format: string }): WireReply => (ctx.format === 'xml' ? { ...reply, body: change(reply.body) } : reply) },
});

/** The text between tags, each run changed (entities decoded first, so `change` sees the value). */
const textRuns = (body: string, change: (value: string) => string): string =>
  body.replace(
    />([^<]+)</g,
    (_m, raw: string) =>
      `>${change(
        raw
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'")
          .replace(/&amp;/g, '&'),
      )}<`,
  );

/** Every element name, opening and closing, with a namespace prefix; the root declares it. */
const prefixed = (body: string): string => body.replace(/<(\/?)([A-Za-z_])/g, '<$1sp:$2').replace(/<sp:responseblock\b/, '<sp:responseblock xmlns:sp="urn:example:stpp:3.67"');

/** The `response` elements of a block in reverse order (only blocks of more than one). */
function partsReversed(body: string): string {
  const parts = body.match(/<response\b[^>]*>[\s\S]*?<\/response>|<response\b[^>]*\/>/g) ?? [];
  const [first, last] = [parts[0], parts[parts.length - 1]];
  if (parts.length < 2 || first === undefined || last === undefined) return body;
  const start = body.indexOf(first);
  const end = body.lastIndexOf(last) + last.length;
  return body.slice(0, start) + [...parts].reverse().join('') + body.slice(end);
}

export const AUDIT_XML_FOLLOWUPS: readonly Variant[] = [
  // ---- XML written otherwise: the same answer ---------------------------------------------------------------------
  benign({
    name: 'xml-namespace-prefixed',
    area: 'xml',
    what: 'writes every element of its answers with a namespace prefix (<sp:responseblock xmlns:sp="...">)',
    allowedBy:
      'Endpoints > Transport: "The response root is `responseblock`": in Namespaces in XML, <sp:responseblock> is the element responseblock in a namespace, as <responseblock xmlns="..."> is; the document names no namespace',
    formats: ['xml'],
    build: () => xmlText(prefixed),
  }),
  benign({
    name: 'xml-cdata-and-character-references',
    area: 'xml',
    what: 'writes every value of its answers as a CDATA section, and every other answer as character references (&#79;&#107;)',
    allowedBy: 'XML 1.0: a CDATA section and a character reference are the same characters as the text they stand for',
    formats: ['xml'],
    build: () => {
      let n = 0;
      return xmlText((b) => (n++ % 2 === 0 ? textRuns(b, (v) => `<![CDATA[${v.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`) : textRuns(b, (v) => [...v].map((c) => `&#${c.codePointAt(0)};`).join(''))));
    },
  }),
  benign({
    name: 'xml-attributes-otherwise',
    area: 'xml',
    what: "puts a default namespace and other attributes on its blocks, single quotes and spaces around '='",
    allowedBy: 'XML 1.0: the order of attributes and the quotes around their values carry no meaning; the document names no namespace',
    formats: ['xml'],
    build: () =>
      xmlText((b) =>
        b.replace(/<responseblock version="([^"]*)">/, `<responseblock xmlns="urn:example:stpp:3.67" id='r1' version = '$1'>`).replace(/<response type="([^"]*)">/g, `<response  seq="1"\ttype='$1' >`),
      ),
  }),
  benign({
    name: 'xml-comments-and-empty-elements',
    area: 'xml',
    what: 'adds comments, a processing instruction and empty elements (<authcode/>, <filler></filler>) for fields it does not set',
    allowedBy: 'XML 1.0 comments and processing instructions carry no data; public facts: real XML writers send empty elements for unset fields',
    formats: ['xml'],
    build: () =>
      xmlText((b) =>
        b
          .replace(/<response\b/g, '<!-- a part --><?audit part?><response')
          .replace(/<\/response>/g, (end) => `<authcode/><filler></filler>${end}`)
          .replace(/<\/responseblock>/, '<!-- end --></responseblock>'),
      ),
  }),

  // ---- XML faults the text shows ----------------------------------------------------------------------------------
  faulty({
    name: 'xml-parts-reversed',
    area: 'xml',
    rule: 'ENV-ORDER',
    what: 'writes the <response> elements of a combined answer in reverse order (the JSON form keeps the order)',
    formats: ['xml'],
    build: () => xmlText(partsReversed),
  }),
  faulty({
    name: 'xml-version-missing',
    area: 'xml',
    rule: 'VER-XML',
    what: 'answers a responseblock without its version attribute',
    formats: ['xml'],
    build: () => xmlText((b) => b.replace(/<responseblock version="[^"]*"/, '<responseblock')),
  }),
  faulty({
    name: 'xml-type-as-element',
    area: 'xml',
    rule: 'XML-FRAUDCONTROL-PATHS',
    what: 'writes requesttypedescription as a <requesttypedescription> element instead of the attribute /@type',
    formats: ['xml'],
    build: () => xmlText((b) => b.replace(/<response type="([^"]*)">/g, '<response><requesttypedescription>$1</requesttypedescription>')),
  }),

  faulty({
    name: 'xml-billing-postcode-premise-ignored',
    area: 'xml',
    rule: 'XML-REQUEST-BLOCK',
    what: 'does not read postcode and premise from the <billing> of an XML request block (the bank is given no address)',
    formats: ['xml'],
    build: () => ({
      mutate: {
        request: (r, ctx) => {
          if (ctx.format !== 'xml' || !isObject(r)) return r;
          const { billingpostcode: _postcode, billingpremise: _premise, ...rest } = r;
          return rest;
        },
      },
    }),
  }),

  faulty({
    name: 'xml-merchant-orderreference-ignored',
    area: 'xml',
    rule: 'XML-REQUEST-BLOCK',
    what: 'does not read orderreference from the <merchant> of an XML request block',
    formats: ['xml'],
    build: () => ({
      mutate: {
        request: (r, ctx) => {
          if (ctx.format !== 'xml' || !isObject(r)) return r;
          const { orderreference: _ignored, ...rest } = r;
          return rest;
        },
      },
    }),
  }),

  // ---- errors: a failed part whose money moves anyway --------------------------------------------------------------
  faulty({
    name: 'decline-stored-to-settle',
    area: 'errors',
    rule: 'ERR-70000',
    what: 'answers 70000 (the bank declined) with settlestatus 3, but stores the payment to settle at the next run',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const out = next(input);
            return out.part.errorcode === ERR.decline.code ? changeStored(input, out, (r) => (r.settlestatus = '0')) : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'unauthenticated-stored-to-settle',
    area: 'errors',
    rule: 'ERR-60022',
    what: 'answers 60022 (not authenticated) with settlestatus 3, but stores the payment to settle at the next run',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const out = next(input);
            return out.part.errorcode === ERR.unauthenticated.code ? changeStored(input, out, (r) => (r.settlestatus = '0')) : out;
          },
        },
      },
    }),
  }),

  // ---- follow-ups: what an update changes -------------------------------------------------------------------------
  faulty({
    name: 'stored-card-disabled-for-auth-only',
    area: 'states',
    rule: 'STORE-STATE-DISABLE',
    what: 'keeps a stored card disabled by TRANSACTIONUPDATE (transactionactive 0) out of AUTH only; every other request still uses it',
    build: () => {
      const disabled = new Set<string>();
      return {
        mutate: {
          operations: {
            TRANSACTIONUPDATE: (input, next) => {
              const filter = input.prepared.filter;
              const list = isObject(filter) ? filter.transactionreference : undefined;
              const ref = Array.isArray(list) && isObject(list[0]) ? String(list[0].value) : '';
              const active = isObject(input.prepared.updates) ? input.prepared.updates.transactionactive : undefined;
              if (input.uow.get(ref)?.type !== 'STORE' || (active !== '0' && active !== '1')) return next(input);
              if (active === '1') disabled.delete(ref);
              else disabled.add(ref);
              return { part: { requesttypedescription: 'TRANSACTIONUPDATE', errorcode: '0', errormessage: 'Ok' } };
            },
            AUTH: (input, next) => (disabled.has(input.prepared.parent?.transactionreference ?? '') ? refuse('AUTH', ERR.invalidField, ['parenttransactionreference']) : next(input)),
          },
        },
      };
    },
  }),

  faulty({
    name: 'ok-with-trailing-space',
    area: 'errors',
    rule: 'ERR-0',
    what: 'answers errormessage "Ok " (a trailing space) with errorcode 0',
    build: () => ({ mutate: { part: (p) => (p.errorcode === '0' ? { ...p, errormessage: 'Ok ' } : p) } }),
  }),
  faulty({
    name: 'query-masks-with-stars',
    area: 'types',
    // The number is still masked (the query row holds); the mask is not the document's `#`.
    rule: 'FIELD-MASKEDPAN',
    what: "masks the card number of a TRANSACTIONQUERY's records with * instead of # (other parts keep #)",
    build: () => ({
      mutate: queryRecords((r) => (typeof r.maskedpan === 'string' ? { ...r, maskedpan: r.maskedpan.replace(/#/g, '*') } : r)),
    }),
  }),

  // ---- follow-ups and errors: what the document does not show -----------------------------------------------------
  benign({
    name: 'errordata-left-out',
    area: 'errors',
    what: 'answers failed parts without errordata',
    allowedBy: 'Errors: "Every response part has `errorcode` (string) and `errormessage`"; errordata is public facts only, never a conformance rule',
    build: () => ({ mutate: { part: (p) => without(p, 'errordata') } }),
  }),
  benign({
    name: 'errordata-other-names',
    area: 'errors',
    what: 'names the field of a failure otherwise in errordata (upper case, a single string instead of a list)',
    allowedBy: 'the document does not mention errordata; public facts show a list naming the field, which the kit never requires',
    build: () => ({ mutate: { part: (p) => (Array.isArray(p.errordata) ? { ...p, errordata: (p.errordata as unknown[]).map(String).join(',').toUpperCase() } : p) } }),
  }),
  benign({
    name: 'query-answers-every-record',
    area: 'types',
    what: "answers a TRANSACTIONQUERY with every record of the merchant's sites, the one asked for among them (masked)",
    allowedBy:
      'Endpoints > Request types: "The exact payload and response shapes of TRANSACTIONUPDATE and TRANSACTIONQUERY ... not shown": the row asks that the STORE is identified and the card number masked, not that nothing else is answered',
    build: () => ({
      mutate: {
        operations: {
          TRANSACTIONQUERY: (input, next) => {
            const mine = next(input);
            if (mine.part.errorcode !== '0') return mine;
            const all = next({ ...input, prepared: { ...input.prepared, filter: { sitereference: (input.env.ctx.user.sites as readonly string[]).map((value) => ({ value })) } } });
            const records = (p: ResponsePart): ResponsePart[] => (Array.isArray(p.records) ? (p.records as ResponsePart[]) : []);
            const seen = new Set(records(mine.part).map((r) => r.transactionreference));
            const others = all.part.errorcode === '0' ? records(all.part).filter((r) => !seen.has(r.transactionreference) && !isType(r, 'TRANSACTIONQUERY')) : [];
            return withPart(mine, (p) => ({ ...p, records: [...others, ...records(p)], found: String(others.length + records(p).length) }));
          },
        },
      },
    }),
  }),
];
