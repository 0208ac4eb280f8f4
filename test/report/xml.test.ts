/**
 * The reports' XML (src/report/xml.ts) prints the bytes xmlbuilder2 printed for the same tree, which junit.xml was
 * written with before: the same escaping (an `&` that starts a reference kept), the same replacement of what XML
 * 1.0 cannot carry, the same layout of elements, texts and empty elements. Trees of awkward strings, drawn from a
 * fixed seed, go through both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { create } from 'xmlbuilder2';
import { xmlDocument, type XmlAttributes, type XmlElement } from '../../src/report/xml';

/** What a tree is made of: an element's attributes, then its children or its text. */
interface Node {
  readonly name: string;
  readonly attributes: XmlAttributes;
  readonly children: readonly Node[];
  readonly text?: string;
}

interface BuilderLike {
  ele(name: string, attributes?: Record<string, unknown>): BuilderLike;
  txt(text: string): unknown;
}

function ours(tree: Node): string {
  const doc = xmlDocument(tree.name, tree.attributes);
  const fill = (into: XmlElement, n: Node): void => {
    if (n.text !== undefined) into.txt(n.text);
    for (const c of n.children) fill(into.ele(c.name, c.attributes), c);
  };
  fill(doc.root, tree);
  return doc.xml();
}

function xmlbuilder2(tree: Node): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' });
  const fill = (into: BuilderLike, n: Node): void => {
    if (n.text !== undefined) into.txt(n.text);
    for (const c of n.children) fill(into.ele(c.name, c.attributes), c);
  };
  fill(doc.ele(tree.name, tree.attributes) as unknown as BuilderLike, tree);
  return doc.end({ prettyPrint: true });
}

const PIECES = [
  'a',
  ' ',
  'Rules broken:',
  '\n',
  '\r\n',
  '\t',
  '&',
  '&amp;',
  '&#65;',
  '&#x41;',
  '&lt',
  '&a b;',
  '<',
  '>',
  '"',
  "'",
  ']]>',
  '\u0000',
  '\u0007',
  '\u001f',
  '\u007f',
  '\u0085',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\ufffe',
  '\uffff',
  'é',
  '4111 1111',
  '</x>',
];

/** A small deterministic generator (a fixed seed: the test never changes between runs). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(next: () => number): string {
  let out = '';
  const n = Math.floor(next() * 6);
  for (let i = 0; i < n; i++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

function tree(next: () => number, depth: number): Node {
  const attributes: Record<string, string | number | undefined> = {};
  const count = Math.floor(next() * 4);
  for (let i = 0; i < count; i++) attributes[`a${i}`] = next() < 0.2 ? Math.floor(next() * 1000) : next() < 0.1 ? undefined : text(next);
  const kind = next();
  if (depth > 0 && kind < 0.5) {
    const children = Array.from({ length: 1 + Math.floor(next() * 3) }, () => tree(next, depth - 1));
    return { name: `e${depth}`, attributes, children };
  }
  return kind < 0.8 ? { name: `t${depth}`, attributes, children: [], text: text(next) } : { name: `x${depth}`, attributes, children: [] };
}

describe('report XML (junit.xml)', () => {
  it('prints what xmlbuilder2 printed, for trees of awkward strings', () => {
    const next = random(28);
    for (let i = 0; i < 400; i++) {
      const t = tree(next, 3);
      assert.equal(ours(t), xmlbuilder2(t), JSON.stringify(t));
    }
  });

  it('replaces what XML 1.0 cannot carry, and keeps a reference whole', () => {
    const doc = xmlDocument('r', { v: 'a\u0001b "q"' });
    doc.root.ele('t').txt('x &amp; y & \ud800 <z>');
    doc.root.ele('e');
    assert.equal(doc.xml(), '<?xml version="1.0" encoding="UTF-8"?>\n<r v="a\ufffdb &quot;q&quot;">\n  <t>x &amp; y &amp; \ufffd &lt;z&gt;</t>\n  <e/>\n</r>');
  });

  it('an element holds elements or a text, not both', () => {
    const doc = xmlDocument('r');
    doc.root.ele('c');
    assert.throws(() => doc.root.txt('t'), /holds elements or a text/);
    const leaf = doc.root.ele('l');
    leaf.txt('t');
    assert.throws(() => leaf.ele('c'), /holds a text/);
  });
});
