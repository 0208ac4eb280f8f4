/**
 * The JSON text of an answer envelope: exactly the text `JSON.stringify` gives, written faster on the gateway's hot
 * path. Node 20's `JSON.stringify` walks every part's thirty-odd fields generically; under load that was a fifth of
 * the gateway's own work per AUTH, beyond what a server that only parses pays (docs/bench.md, "Where the time goes").
 *
 * An answer's objects come in few shapes (the same keys in the same order: parts are built from templates, see
 * PartTemplates in parts.ts), so once a shape has been seen twice a writer is made for it, which reads each field by
 * name. A value equal to the one the shape was learnt from (the merchant data, the issuer, the status fields, a
 * result's message) is written from its JSON text made once; any other string is scanned for the characters JSON
 * escapes (quote, backslash, control characters, surrogates) and, only when it has one, written by `JSON.stringify`
 * itself. Anything else (a number or `undefined` a variant put in a part, a nested object beyond the envelope's
 * depth, a cycle, a `toJSON`) is written by `JSON.stringify` whole, so the text is the same whatever the envelope
 * holds, and what `JSON.stringify` throws is thrown as before. The mutation hook is untouched: this writes whatever
 * envelope the hook returned.
 */

/**
 * The text is written by appending (`+=`), and its UTF-8 byte length counted as it is written. Appending makes a
 * rope, a tree of the pieces, which nothing here reads back: the socket's write joins the response's head and this
 * body into one flat string anyway (node:http writes the head and a string body as one string), so the rope is
 * copied flat once, there. Joined here into a flat string first (a list of pieces and `join`, as before), the body's
 * bytes were copied twice and `Buffer.byteLength` read them a third time for `Content-Length`: about a third of a
 * microsecond per AUTH answer of some twenty pieces (docs/bench.md, the seventh pass at the gateway).
 *
 * `state.s` is the text so far, `state.extra` its UTF-8 bytes beyond one per UTF-16 unit (0 for ASCII text).
 */
const state = { s: '', extra: 0 };
/** The UTF-8 byte length of the text the last `envelopeText` call returned, or -1 when it did not count it. */
let lastBytes = -1;

/** Writes an object of a known shape; false when a value is not one this module writes (JSON.stringify does). */
type ShapeWriter = (o: Record<string, unknown>, depth: number) => boolean;

interface Shape {
  readonly keys: readonly string[];
  readonly write: ShapeWriter;
}

/** Writers kept, the latest used first: an AUTH answer has two (envelope, part); a flow's answers a few more. */
const SHAPES_KEPT = 16;
/** Key lists seen once, as joined text; forgotten in a batch beyond this, so ever-new shapes cannot pile up. */
const SEEN_KEPT = 256;
/** Objects within objects: envelope, list of parts, part, `errordata`; a TRANSACTIONQUERY's records one level more. */
const MAX_DEPTH = 6;

const shapes: Shape[] = [];
/** Key lists seen once, as joined text, with the string values the object had (what stays the same is learnt). */
const seenOnce = new Map<string, readonly unknown[]>();

/** The envelope as JSON text, exactly as `JSON.stringify(env)` writes it. */
export function envelopeText(env: unknown): string {
  lastBytes = -1;
  if (!isPlainObject(env)) return JSON.stringify(env);
  state.s = '';
  state.extra = 0;
  const ok = writeObject(env, 0);
  const text = state.s;
  // The module keeps no answer's text between calls.
  state.s = '';
  if (!ok) return JSON.stringify(env);
  lastBytes = text.length + state.extra;
  return text;
}

/**
 * The UTF-8 byte length of the text the last `envelopeText` call returned (its `Content-Length`), counted as it was
 * written: `Buffer.byteLength` of it, without reading the text again. -1 when the call did not count it (the text was
 * `JSON.stringify`'s), and the caller measures the text itself.
 */
export function envelopeTextBytes(): number {
  return lastBytes;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * -1 when `s` holds a character that JSON writes escaped (quote, backslash, control characters, surrogates), else its
 * UTF-8 bytes beyond one per character (0 for ASCII): written as is between quotes, it adds that many to the count.
 */
function plainExtra(s: string): number {
  let extra = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c < 0x20 || c === 0x22 || c === 0x5c) return -1;
    } else if (c < 0x800) extra += 1;
    else if (c >= 0xd800 && c <= 0xdfff) return -1;
    else extra += 2;
  }
  return extra;
}

/**
 * UTF-8 bytes beyond one per UTF-16 unit of any text, as `Buffer.byteLength` counts them: a surrogate pair is 4 bytes
 * for 2 units, a lone surrogate 3 for 1 (it is written as U+FFFD; JSON.stringify's text has none, it escapes them).
 */
export function utf8Extra(s: string): number {
  let extra = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) extra += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      extra += 2;
      i++;
    } else extra += 2;
  }
  return extra;
}

/** A JSON string literal of `s`: as is between quotes unless it holds a character JSON writes escaped. */
function stringText(s: string): string {
  return plainExtra(s) >= 0 ? '"' + s + '"' : JSON.stringify(s);
}

function put(piece: string): void {
  state.s += piece;
  state.extra += utf8Extra(piece);
}

/** A string value: between quotes as is when nothing in it is escaped, else as `JSON.stringify` writes it. */
function putString(v: string): void {
  const extra = plainExtra(v);
  if (extra >= 0) {
    state.s += '"' + v + '"';
    state.extra += extra;
  } else put(JSON.stringify(v));
}

/** Any value within an object or a list; false when JSON.stringify must write the whole envelope. */
function writeValue(v: unknown, depth: number): boolean {
  if (typeof v === 'string') {
    putString(v);
    return true;
  }
  if (typeof v !== 'object' || v === null || depth >= MAX_DEPTH) return false;
  return Array.isArray(v) ? writeList(v, depth + 1) : writeObject(v as Record<string, unknown>, depth + 1);
}

function writeList(list: readonly unknown[], depth: number): boolean {
  if (list.length === 0) {
    put('[]');
    return true;
  }
  put('[');
  for (let i = 0; i < list.length; i++) {
    if (i > 0) put(',');
    // A hole or `undefined` is `null` in JSON.stringify's text: left to it.
    if (!writeValue(list[i], depth)) return false;
  }
  put(']');
  return true;
}

function writeObject(o: Record<string, unknown>, depth: number): boolean {
  // Plain objects only: JSON.stringify writes a boxed string, a date or a class with `toJSON` otherwise. A `toJSON`
  // of Object.prototype would be called too; an own one is also a key, a function, which no writer writes.
  const proto: unknown = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || typeof o.toJSON === 'function') return false;
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i];
    if (!hasKeys(o, shape.keys)) continue;
    // The latest used first, moved in place.
    for (let j = i; j > 0; j--) shapes[j] = shapes[j - 1];
    shapes[0] = shape;
    return shape.write(o, depth);
  }
  const keys = Object.keys(o);
  if (keys.length === 0) {
    put('{}');
    return true;
  }
  const first = sighting(keys, o);
  if (first) {
    const write = compileShape(keys, o, first);
    shapes.unshift({ keys, write });
    if (shapes.length > SHAPES_KEPT) shapes.pop();
    return write(o, depth);
  }
  return writeByKeys(o, keys, depth);
}

/**
 * Whether the object's keys are exactly `keys`, in order, without making a list of them (`Object.keys` would be a
 * list per object written: a tenth of the gateway's garbage per AUTH). `for...in` walks the own keys in the same
 * order, then enumerable inherited ones, which make it another shape here (and Object.keys then decides).
 */
function hasKeys(o: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) if (i >= keys.length || k !== keys[i++]) return false;
  return i === keys.length;
}

/**
 * The string values of the first object of this key list when it was seen before (and not yet given a writer), else
 * undefined, the list and those values kept: a shape seen once may never come again. Values are an answer's, which
 * the client is sent anyway (masked by construction); anything that is not a string is kept as undefined.
 */
function sighting(keys: readonly string[], o: Record<string, unknown>): readonly unknown[] | undefined {
  const id = keys.join('\u0000');
  const first = seenOnce.get(id);
  if (first) {
    seenOnce.delete(id);
    return first;
  }
  if (seenOnce.size >= SEEN_KEPT) seenOnce.clear();
  seenOnce.set(
    id,
    keys.map((k) => {
      const v = o[k];
      return typeof v === 'string' ? v : undefined;
    }),
  );
  return undefined;
}

/** An object of a shape without a writer (yet): field by field. */
function writeByKeys(o: Record<string, unknown>, keys: readonly string[], depth: number): boolean {
  for (let i = 0; i < keys.length; i++) {
    put((i === 0 ? '{' : ',') + JSON.stringify(keys[i]) + ':');
    if (!writeValue(o[keys[i]], depth)) return false;
  }
  put('}');
  return true;
}

/**
 * The writer of a shape: each field read by name (one hidden class per shape, so each read is a direct load), its
 * key's text written into the code, its value compared with the one the shape was learnt from, whose text (with the
 * key's) was made once. The code holds key names only; the values it compares with are passed in, not written into it.
 *
 * Fields next to each other whose values were the same in the two objects the shape was learnt from (the merchant
 * data, the issuer, the status and result fields of a part) form a run: when every value of a run is still the one
 * learnt, the run is written as one piece made once. Each piece costs (a node of the rope now, an entry of a joined
 * list before, about 20 ns each), and an AUTH answer was some forty pieces, about a tenth of the gateway's own CPU
 * per request (docs/bench.md, "Where the time goes").
 * When any value of a run differs, each of its fields is written as any other.
 */
function compileShape(keys: readonly string[], sample: Record<string, unknown>, first: readonly unknown[]): ShapeWriter {
  const known: string[] = [];
  const knownText: string[] = [];
  /** UTF-8 bytes beyond one per unit of each text, added to the count in the code only where not 0 (not ASCII). */
  const knownExtra: number[] = [];
  const lines: string[] = ['let v, x, t, s = state.s, e = state.extra;'];
  const addExtra = (n: number): string => (n > 0 ? ` e += ${n};` : '');
  /** The index in `known` of each field whose sample value is a string, else -1. */
  const knownAt = keys.map((key, i) => {
    const v = sample[key];
    if (typeof v !== 'string') return -1;
    const text = (i === 0 ? '{' : ',') + JSON.stringify(key) + ':' + stringText(v);
    knownText.push(text);
    knownExtra.push(utf8Extra(text));
    return known.push(v) - 1;
  });
  /** The code of one field whose value is in `v`. */
  const field = (i: number): void => {
    const headText = (i === 0 ? '{' : ',') + JSON.stringify(keys[i]) + ':';
    const head = JSON.stringify(headText);
    const headQuote = JSON.stringify(headText + '"');
    const headExtra = utf8Extra(headText);
    const asString =
      `typeof v === 'string') { x = plainExtra(v); if (x >= 0) { s += ${headQuote}; s += v; s += '"'; e += x;${addExtra(headExtra)} }` +
      ` else { s += ${head}; t = JSON.stringify(v); s += t; e += utf8Extra(t);${addExtra(headExtra)} } }`;
    const at = knownAt[i];
    if (at >= 0) lines.push(`if (v === known[${at}]) { s += knownText[${at}];${addExtra(knownExtra[at])} }`, `else if (${asString}`);
    else lines.push(`if (${asString}`);
    // Anything else is written by the module's own functions, which take up the text and the count where this writer
    // left them.
    lines.push(`else { s += ${head};${addExtra(headExtra)} state.s = s; state.extra = e; if (!writeValue(v, depth)) return false; s = state.s; e = state.extra; }`);
  };
  const stable = (i: number): boolean => knownAt[i] >= 0 && first[i] === known[knownAt[i]];
  const runText: string[] = [];
  for (let i = 0; i < keys.length;) {
    let end = i;
    while (end < keys.length && stable(end)) end++;
    if (end - i < 2) {
      lines.push(`v = o[${JSON.stringify(keys[i])}];`);
      field(i);
      i++;
      continue;
    }
    // A run of fields i..end-1: read in order, written as one piece when each is the value learnt.
    const names: string[] = [];
    for (let j = i; j < end; j++) {
      names.push(`r${j}`);
      lines.push(`const r${j} = o[${JSON.stringify(keys[j])}];`);
    }
    const same = names.map((name, k) => `${name} === known[${knownAt[i + k]}]`).join(' && ');
    const text = knownAt.slice(i, end).map((at) => knownText[at]);
    const run = text.join('');
    lines.push(`if (${same}) { s += runText[${runText.push(run) - 1}];${addExtra(utf8Extra(run))} }`, 'else {');
    for (let j = i; j < end; j++) {
      lines.push(`v = r${j};`);
      field(j);
    }
    lines.push('}');
    i = end;
  }
  lines.push("s += '}';", 'state.s = s;', 'state.extra = e;', 'return true;');
  const make = new Function('known', 'knownText', 'runText', 'plainExtra', 'utf8Extra', 'writeValue', 'state', `'use strict'; return function writeShape(o, depth) {\n${lines.join('\n')}\n};`);
  return make(known, knownText, runText, plainExtra, utf8Extra, writeValue, state) as ShapeWriter;
}
