/**
 * The XML of the reports (junit.xml): elements with attributes, each holding other elements or one text, printed
 * two spaces a level. The bytes are those xmlbuilder2 wrote for the same tree (create with invalidCharReplacement
 * U+FFFD, end with prettyPrint; test/report/xml.test.ts holds them side by side): loading xmlbuilder2 and the DOM
 * under it took a tenth of a second of every run's start-up, for one file of a few elements when no scenario ran.
 */

/** Attribute values in the order given; an undefined one is left out. */
export type XmlAttributes = Readonly<Record<string, string | number | undefined>>;

export interface XmlElement {
  /** A child element, appended; returned to be filled. */
  ele(name: string, attributes?: XmlAttributes): XmlElement;
  /** The element's one text (an element holds either elements or a text). */
  txt(text: string): void;
}

class Element implements XmlElement {
  readonly children: Element[] = [];
  text: string | undefined;

  constructor(
    readonly name: string,
    readonly attributes: XmlAttributes,
  ) {}

  ele(name: string, attributes: XmlAttributes = {}): Element {
    if (this.text !== undefined) throw new Error(`XML: <${this.name}> holds a text: no element beside it`);
    const child = new Element(name, attributes);
    this.children.push(child);
    return child;
  }

  txt(text: string): void {
    if (this.children.length > 0 || this.text !== undefined) throw new Error(`XML: <${this.name}> holds elements or a text already`);
    this.text = text;
  }
}

/** A document of one root element; `xml()` prints it, without a line end after the root. */
export function xmlDocument(root: string, attributes?: XmlAttributes): { readonly root: XmlElement; xml(): string } {
  const top = new Element(root, attributes ?? {});
  return {
    root: top,
    xml: () => {
      const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
      print(top, 0, out);
      return out.join('').slice(0, -1);
    },
  };
}

function print(e: Element, level: number, out: string[]): void {
  const indent = '  '.repeat(level);
  const open = `${indent}<${legal(e.name)}${attributesOf(e.attributes)}`;
  if (e.children.length > 0) {
    out.push(`${open}>\n`);
    for (const c of e.children) print(c, level + 1, out);
    out.push(`${indent}</${legal(e.name)}>\n`);
  } else if (e.text !== undefined && e.text !== '') {
    out.push(`${open}>${escapeText(legal(e.text))}</${legal(e.name)}>\n`);
  } else {
    out.push(`${open}/>\n`);
  }
}

function attributesOf(attributes: XmlAttributes): string {
  let s = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    s += ` ${legal(name)}="${escapeText(legal(String(value))).replace(/"/g, '&quot;')}"`;
  }
  return s;
}

/** An `&` that does not already start a reference (`&amp;`, `&#65;`) is escaped: xmlbuilder2's reading. */
const LONE_AMPERSAND = /&(?![A-Za-z]+;|#\d+;)/g;

function escapeText(text: string): string {
  return text.replace(LONE_AMPERSAND, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Characters XML 1.0 cannot carry (control characters from a target's answer, a lone surrogate) become U+FFFD,
 * never a broken file.
 */
// eslint-disable-next-line no-control-regex -- the control characters are the point
const ILLEGAL = /[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

function legal(text: string): string {
  ILLEGAL.lastIndex = 0;
  return ILLEGAL.test(text) ? text.replace(ILLEGAL, '\ufffd') : text;
}
