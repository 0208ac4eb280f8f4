/**
 * The element tree of an XML block, and a fast scanner for the plain XML that the kit and real clients write.
 *
 * Reading a block through the full parser (fast-xml-parser's validator, then its parser, then a walk of what it
 * returns) costs ten times what checking the fields costs (docs/bench.md, "Where the time of XML goes"). Almost
 * every block is plain: an optional XML declaration, elements and attributes with plain names, text with the five
 * entities and character references. `scanPlain` reads exactly that in one pass and gives up (undefined) on
 * anything else: a comment, CDATA, a processing instruction, a namespace, an unknown entity, a name outside ASCII,
 * a character the full parser might treat otherwise, or anything not well-formed. What it gives up on goes through
 * the full parser, which says what is wrong in the document's terms; what it reads is the tree the full parser
 * gives (test/wire/xml-scan.test.ts compares the two on every block the tests and the fuzzer write, and on
 * variants of them).
 */

/**
 * One parsed element: attributes and text already decoded; its attributes and children as lists linked through
 * `next`, in document order.
 *
 * Classes, not object and array literals: V8 may decide at a full collection that a literal's allocation site makes
 * long-lived objects, and then allocates all its later objects in the old generation ("pretenuring") for the life of
 * the process. The scanner makes a few dozen of these per block, all dead once the block is read; pretenured, they
 * filled the old generation, kept the young strings they point to alive into it, and made each block cost about
 * twice as much, in a process picked at random (docs/bench.md, "XML validation"). Objects made by `new` are never
 * pretenured, and lists linked through their items make no array at all.
 */
export class In {
  /** All text and CDATA directly inside, concatenated (whitespace between child elements included). */
  text = '';
  firstAttr: Attr | undefined = undefined;
  firstChild: In | undefined = undefined;
  /** The next sibling. */
  next: In | undefined = undefined;
  constructor(readonly name: string) {}
}

export class Attr {
  next: Attr | undefined = undefined;
  constructor(
    readonly name: string,
    readonly value: string,
  ) {}
}

/** The value of an element's attribute, or undefined. */
export function attrOf(el: In, name: string): string | undefined {
  for (let a = el.firstAttr; a !== undefined; a = a.next) if (a.name === name) return a.value;
  return undefined;
}

/** The open elements of the block being read, outermost first, and the last child of each so far. */
const STACK: In[] = [];
const LAST: (In | undefined)[] = [];

/** `<?xml version="1.x" encoding="..." standalone="..."?>` as XML 2.8 spells it, at the very start. */
const DECLARATION = /^<\?xml[ \t\n]+version=(["'])1\.[0-9]+\1(?:[ \t\n]+encoding=(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone=(["'])(?:yes|no)\3)?[ \t\n]*\?>/;

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));/y;

/** Text with its references decoded, or undefined for an `&` that is not one of the five entities or a character reference. */
function decodePlain(raw: string): string | undefined {
  let amp = raw.indexOf('&');
  if (amp < 0) return raw;
  let out = '';
  let from = 0;
  while (amp >= 0) {
    REFERENCE.lastIndex = amp;
    const m = REFERENCE.exec(raw);
    if (!m) return undefined;
    let s: string;
    if (m[3] !== undefined) s = PREDEFINED[m[3]];
    else {
      const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
      if (!(cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff))) return undefined;
      s = String.fromCodePoint(cp);
    }
    out += raw.slice(from, amp) + s;
    from = REFERENCE.lastIndex;
    amp = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

/** ASCII letter or `_`: the first character of a name the scanner reads. */
const nameStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
/** ASCII letter, digit, `_`, `.` or `-`. */
const nameChar = (c: number): boolean => nameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
const space = (c: number): boolean => c === 32 || c === 10 || c === 9;

/** Names of Object's own members (`constructor`, `toString`, `__proto__`, ...). */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Names the scanner leaves to the full parser: `xml...` is reserved (XML 2.3), and names of Object's own members
 * (looked up only for a name whose first letter and length could be one: this runs for every element).
 */
function plainName(name: string): boolean {
  const c0 = name.charCodeAt(0);
  if (c0 === 95 /* _ */) return name.charCodeAt(1) !== 95 && !OBJECT_MEMBERS.has(name);
  if ((c0 === 120 || c0 === 88) && name.length >= 3 && name.slice(0, 3).toLowerCase() === 'xml') return false;
  return !(MEMBER_SHAPES[memberShape(c0, name.length)] === 1 && OBJECT_MEMBERS.has(name));
}

/** A name's first character and length, as an index into `MEMBER_SHAPES`. */
const memberShape = (c0: number, length: number): number => ((c0 & 127) << 5) | Math.min(length, 31);

/** 1 where some member of Object has that first character and length: only such names are looked up. */
const MEMBER_SHAPES = new Uint8Array(128 << 5);
for (const m of OBJECT_MEMBERS) MEMBER_SHAPES[memberShape(m.charCodeAt(0), m.length)] = 1;

/** What `plainRun` saw in the run it read: a `&`, a tab or newline. */
let sawAmp = false;
let sawBlank = false;

/**
 * The end of a run of text or of an attribute value from `from` up to `stop` (`<`, or the closing quote), or -1 when
 * the run holds a character the scanner leaves to the full parser: `<` or `>` (markup), a control character other
 * than tab and newline, U+FFFE or U+FFFF; -1 too when `stop` never comes and `toEnd` is false.
 */
function plainRun(doc: string, from: number, stop: number, toEnd: boolean): number {
  sawAmp = false;
  sawBlank = false;
  const n = doc.length;
  for (let k = from; k < n; k++) {
    const c = doc.charCodeAt(k);
    if (c === stop) return k;
    if (c === 38) sawAmp = true;
    else if (c === 9 || c === 10) sawBlank = true;
    else if (c === 60 || c === 62 || c < 32 || c === 0xfffe || c === 0xffff) return -1;
  }
  return toEnd ? n : -1;
}

/**
 * The tree of `doc` (CR already read as LF, leading blanks and a byte-order mark gone, no DOCTYPE), or undefined
 * when it is not plain XML (see above): the caller then reads it with the full parser.
 */
export function scanPlain(doc: string): In | undefined {
  try {
    return scan(doc);
  } finally {
    // One list for every call, emptied on the way out: nothing of this block is kept past the call.
    STACK.length = 0;
    LAST.length = 0;
  }
}

/** `el`, closed, as the last child of the innermost open element. */
function close(el: In): void {
  const d = STACK.length - 1;
  const last = LAST[d];
  if (last === undefined) STACK[d].firstChild = el;
  else last.next = el;
  LAST[d] = el;
}

function scan(doc: string): In | undefined {
  const n = doc.length;
  let i = 0;
  if (doc.startsWith('<?')) {
    const m = DECLARATION.exec(doc);
    if (!m) return undefined;
    i = m[0].length;
    while (i < n && space(doc.charCodeAt(i))) i++;
  }
  const stack = STACK;
  let root: In | undefined;
  while (i < n) {
    if (doc.charCodeAt(i) !== 60 /* < */) {
      const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
      if (top === undefined) {
        // Outside the root: blanks only, and only after it (before it, they were skipped above).
        if (root === undefined) return undefined;
        for (let k = i; k < n; k++) if (!space(doc.charCodeAt(k))) return undefined;
        break;
      }
      const end = plainRun(doc, i, 60 /* < */, true);
      if (end < 0) return undefined;
      const raw = doc.slice(i, end);
      const text = sawAmp ? decodePlain(raw) : raw;
      if (text === undefined) return undefined;
      top.text = top.text === '' ? text : top.text + text;
      i = end;
      continue;
    }
    if (root !== undefined) return undefined; // a second root, or markup after the root
    const next = doc.charCodeAt(i + 1);
    if (next === 47 /* / */) {
      const top = stack.pop();
      if (top === undefined) return undefined;
      LAST.pop();
      const end = i + 2 + top.name.length;
      if (!doc.startsWith(top.name, i + 2) || doc.charCodeAt(end) !== 62 /* > */) return undefined;
      // An element closed is done: never changed again.
      if (stack.length > 0) close(top);
      else root = top;
      i = end + 1;
      continue;
    }
    if (!nameStart(next)) return undefined; // a comment, CDATA, a processing instruction, or not XML
    let j = i + 2;
    while (j < n && nameChar(doc.charCodeAt(j))) j++;
    const name = doc.slice(i + 1, j);
    if (!plainName(name)) return undefined;
    const el = new In(name);
    let lastAttr: Attr | undefined;
    let selfClosing = false;
    for (;;) {
      const before = j;
      while (j < n && space(doc.charCodeAt(j))) j++;
      const c = doc.charCodeAt(j);
      if (c === 62 /* > */) {
        j++;
        break;
      }
      if (c === 47 /* / */ && doc.charCodeAt(j + 1) === 62) {
        selfClosing = true;
        j += 2;
        break;
      }
      if (j === before || !nameStart(c)) return undefined; // attributes are separated by blanks
      const a0 = j;
      while (j < n && nameChar(doc.charCodeAt(j))) j++;
      const attr = doc.slice(a0, j);
      if (!plainName(attr) || doc.charCodeAt(j) !== 61 /* = */) return undefined;
      const quote = doc.charCodeAt(j + 1);
      if (quote !== 34 && quote !== 39) return undefined;
      const endQuote = plainRun(doc, j + 2, quote, false);
      if (endQuote < 0) return undefined;
      const raw = doc.slice(j + 2, endQuote);
      // Attribute-value normalisation (XML 3.3.3): a literal tab or newline is read as a space, a reference to one is not.
      const spaced = sawBlank ? raw.replace(/[\t\n]/g, ' ') : raw;
      const value = sawAmp ? decodePlain(spaced) : spaced;
      if (value === undefined) return undefined;
      if (attrOf(el, attr) !== undefined) return undefined;
      const a = new Attr(attr, value);
      if (lastAttr === undefined) el.firstAttr = a;
      else lastAttr.next = a;
      lastAttr = a;
      j = endQuote + 1;
    }
    if (selfClosing) {
      if (stack.length > 0) close(el);
      else root = el;
    } else {
      stack.push(el);
      LAST.push(undefined);
    }
    i = j;
  }
  return stack.length === 0 ? root : undefined;
}
