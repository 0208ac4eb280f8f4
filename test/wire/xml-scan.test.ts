/**
 * The fast scanner (src/wire/xml-scan.ts) reads plain XML as the full parser does, and leaves everything else to it:
 * on every block the kit writes for generated envelopes of every operation and response shape, and on variants of
 * them as clients and attackers write them (laid out, single quotes, references, comments, CDATA, namespaces,
 * faults), reading a block with the scanner gives exactly the tree and problems of the full parser alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { REQUEST_TYPES } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import { DEFAULT_SEED, requestEnvelope, responseEnvelope, xmlRequestBody } from '../../generators';
import { buildRequestBlock, buildResponseBlock } from '../../src/wire/xml';
import { parseTree } from '../../src/wire/xml-read';
import { scanPlain } from '../../src/wire/xml-scan';

const blocks: string[] = [];
OPERATIONS.forEach((row, i) => {
  for (const env of fc.sample(requestEnvelope(row), { seed: DEFAULT_SEED + i, numRuns: 6 })) {
    blocks.push(buildRequestBlock(env), xmlRequestBody(env, { declaration: false, leadingBlankLine: true }));
  }
});
REQUEST_TYPES.forEach((t, i) => {
  for (const env of fc.sample(responseEnvelope([t]), { seed: DEFAULT_SEED + 100 + i, numRuns: 6 })) blocks.push(buildResponseBlock(env));
});

/** Ways clients and attackers write the same block: each keeps it XML or breaks it on purpose. */
const VARIANTS: readonly [string, (xml: string) => string][] = [
  ['laid out with newlines and indents', (x) => x.replace(/></g, '>\n    <')],
  ['tabs between elements', (x) => x.replace(/></g, '>\t<')],
  ['no declaration', (x) => x.replace(/^<\?xml[^>]*>/, '')],
  ['a standalone declaration', (x) => x.replace(/^<\?xml[^>]*>/, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')],
  ['a declaration in single quotes', (x) => x.replace(/^<\?xml[^>]*>/, "<?xml version='1.0' encoding='utf-8'?>")],
  ['a declaration without version', (x) => x.replace(/^<\?xml[^>]*>/, '<?xml encoding="utf-8"?>')],
  ['attributes in single quotes', (x) => x.replace(/="([^"]*)"/g, "='$1'")],
  ['blanks around =', (x) => x.replace(/ (\w+)="/g, ' $1 = "')],
  ['attributes without a blank between', (x) => x.replace(/" (\w+)=/g, '"$1=')],
  ['a tab and a newline in attribute values', (x) => x.replace(/version="/, 'version="\t\n')],
  ['character references in text', (x) => x.replace(/>([A-Za-z])/g, '>&#x41;&#66;$1')],
  ['the five entities in text', (x) => x.replace(/>([A-Za-z])/g, '>&lt;&gt;&amp;&quot;&apos;$1')],
  ['references in attribute values', (x) => x.replace(/type="/g, 'type="&#x9;&amp;')],
  ['an unknown entity', (x) => x.replace(/>([A-Za-z])/, '>&nbsp;$1')],
  ['a bare ampersand', (x) => x.replace(/>([A-Za-z])/, '>a & b $1')],
  ['a reference to NUL', (x) => x.replace(/>([A-Za-z])/, '>&#0;$1')],
  ['a surrogate reference', (x) => x.replace(/>([A-Za-z])/, '>&#xD800;$1')],
  ['a raw > in text', (x) => x.replace(/>([A-Za-z])/, '>a > b $1')],
  ['a raw > in an attribute', (x) => x.replace(/type="/, 'type=">')],
  ['a control character in text', (x) => x.replace(/>([A-Za-z])/, '>\u0001$1')],
  ['a comment inside', (x) => x.replace(/<\/(\w+)>$/, '<!-- note --></$1>')],
  ['a comment before the root', (x) => x.replace(/^(<\?xml[^>]*>)?/, '$1<!-- c -->')],
  ['CDATA', (x) => x.replace(/>([A-Za-z])/, '><![CDATA[a<b]]>$1')],
  ['a processing instruction inside', (x) => x.replace(/<\/(\w+)>$/, '<?pi x?></$1>')],
  ['a namespace prefix', (x) => x.replace(/<(\/?)(request|response)block/g, '<$1sp:$2block').replace(/<sp:(\w+) /, '<sp:$1 xmlns:sp="urn:x" ')],
  ['a default namespace', (x) => x.replace(/<(request|response)block /, '<$1block xmlns="urn:x" ')],
  ['an xsi:nil attribute', (x) => x.replace(/<(\w+)\/>/, '<$1 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>')],
  ['a repeated attribute', (x) => x.replace(/version="3.67"/, 'version="3.67" version="3.67"')],
  ['an attribute without a value', (x) => x.replace(/<request /, '<request flag ')],
  ['a self-closing empty element', (x) => x.replace(/<(\w+)><\/\1>/g, '<$1/>').replace(/<\/(\w+)>$/, '<empty /></$1>')],
  ['a blank before > in a closing tag', (x) => x.replace(/<\/(\w+)>$/, '</$1 >')],
  ['an element named after an Object member', (x) => x.replace(/<\/(\w+)>$/, '<constructor>x</constructor><__proto__>y</__proto__></$1>')],
  ['a name with a dot, a dash and a digit', (x) => x.replace(/<\/(\w+)>$/, '<a.b-c1>x</a.b-c1></$1>')],
  ['a name outside ASCII', (x) => x.replace(/<\/(\w+)>$/, '<café>x</café></$1>')],
  ['text after the root', (x) => `${x}trailing`],
  ['blanks after the root', (x) => `${x}\n \t`],
  ['a second root', (x) => `${x}<requestblock/>`],
  ['a comment after the root', (x) => `${x}<!-- end -->`],
  ['an unclosed element', (x) => x.replace(/<\/(\w+)>$/, '<open></$1>')],
  ['a mismatched closing tag', (x) => x.replace(/<\/(\w+)>$/, '</wrong>')],
  ['the last > missing', (x) => x.slice(0, -1)],
  ['cut in half', (x) => x.slice(0, Math.floor(x.length / 2))],
  ['a CR LF line end', (x) => x.replace(/></g, '>\r\n<')],
  ['a lone CR in text', (x) => x.replace(/>([A-Za-z])/, '>a\rb$1')],
  ['a byte order mark and a blank line first', (x) => `\uFEFF\n${x}`],
  ['a DOCTYPE naming the root', (x) => x.replace(/^(<\?xml[^>]*>)?/, '$1<!DOCTYPE requestblock>')],
  ['an internal DTD subset', (x) => x.replace(/^(<\?xml[^>]*>)?/, '$1<!DOCTYPE r [<!ENTITY e "x">]>')],
];

describe('the fast scanner reads as the full parser does', () => {
  it('reads every block the kit writes itself (the fast path is taken)', () => {
    assert.ok(blocks.length > 100);
    for (const xml of blocks) {
      const doc = xml.replace(/^\s+/, '');
      assert.ok(scanPlain(doc) !== undefined, `the scanner gave up on a block the kit wrote: ${doc.slice(0, 200)}`);
      assert.deepEqual(parseTree(xml), parseTree(xml, false));
    }
  });

  for (const [name, variant] of VARIANTS) {
    it(`gives the full parser's tree and problems: ${name}`, () => {
      for (const xml of blocks) {
        const text = variant(xml);
        assert.deepEqual(parseTree(text), parseTree(text, false), `differs on: ${text.slice(0, 300)}`);
      }
    });
  }

  it("gives the full parser's answer on pieces of XML put together at random", () => {
    const piece = fc.constantFrom(
      '<a>',
      '</a>',
      '<b x="1">',
      '</b>',
      '<c/>',
      "<a y='2'/>",
      'text',
      ' ',
      '\n',
      '&amp;',
      '&#65;',
      '&x;',
      '&',
      '>',
      '<!--c-->',
      '<![CDATA[d]]>',
      '<?xml version="1.0"?>',
      '"',
      '=',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        assert.deepEqual(parseTree(text), parseTree(text, false), `differs on: ${text}`);
      }),
      { seed: DEFAULT_SEED, numRuns: 3000 },
    );
  });
});
