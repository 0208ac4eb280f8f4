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
 * The text is written as pieces into one list, joined once at the end: one flat string of the answer's length. Built
 * by `+=`, the text was a rope of a hundred-odd joined pieces per AUTH answer, twice the answer's size in short-lived
 * objects, which the socket's write (and `Buffer.byteLength`) then had to flatten into a copy anyway.
 */
const pieces: string[] = [];
/** How many pieces of the list belong to the answer being written (shared with the writers made per shape). */
const state = { count: 0 };
/** How many pieces of the list may hold text (every one beyond is an empty string). */
let filled = 0;

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
const seenOnce = new Set<string>();

/** The envelope as JSON text, exactly as `JSON.stringify(env)` writes it. */
export function envelopeText(env: unknown): string {
  if (!isPlainObject(env)) return JSON.stringify(env);
  state.count = 0;
  const ok = writeObject(env, 0);
  const n = state.count;
  if (!ok) {
    // What was written so far stays in the list until the next answer empties it.
    if (n > filled) filled = n;
    return JSON.stringify(env);
  }
  // The list keeps its room from answer to answer: pieces left over from a longer answer are emptied rather than cut
  // off (a shorter list would have its storage cut and grown again between a flow's answers), unless one answer was
  // far longer than the rest.
  if (pieces.length > 4 * n + 256) pieces.length = n;
  else for (let i = n; i < filled; i++) pieces[i] = '';
  filled = n;
  return pieces.join('');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `s` holds no character that JSON writes escaped (quote, backslash, control characters, surrogates). */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** A JSON string literal of `s`: as is between quotes unless it holds a character JSON writes escaped. */
function stringText(s: string): string {
  return plain(s) ? '"' + s + '"' : JSON.stringify(s);
}

function put(piece: string): void {
  pieces[state.count++] = piece;
}

/** Any value within an object or a list; false when JSON.stringify must write the whole envelope. */
function writeValue(v: unknown, depth: number): boolean {
  if (typeof v === 'string') {
    put(stringText(v));
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
  if (secondSighting(keys)) {
    const write = compileShape(keys, o);
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

/** Whether this key list was seen before (and not yet given a writer): a shape seen once may never come again. */
function secondSighting(keys: readonly string[]): boolean {
  const id = keys.join('\u0000');
  if (seenOnce.has(id)) {
    seenOnce.delete(id);
    return true;
  }
  if (seenOnce.size >= SEEN_KEPT) seenOnce.clear();
  seenOnce.add(id);
  return false;
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
 */
function compileShape(keys: readonly string[], sample: Record<string, unknown>): ShapeWriter {
  const known: string[] = [];
  const knownText: string[] = [];
  const lines: string[] = ['let v, n = state.count;'];
  keys.forEach((key, i) => {
    const v = sample[key];
    const headText = (i === 0 ? '{' : ',') + JSON.stringify(key) + ':';
    const head = JSON.stringify(headText);
    const headQuote = JSON.stringify(headText + '"');
    lines.push(`v = o[${JSON.stringify(key)}];`);
    const asString = `typeof v === 'string') { if (plain(v)) { p[n++] = ${headQuote}; p[n++] = v; p[n++] = '"'; } else { p[n++] = ${head}; p[n++] = JSON.stringify(v); } }`;
    if (typeof v === 'string') {
      known.push(v);
      knownText.push(headText + stringText(v));
      lines.push(`if (v === known[${known.length - 1}]) p[n++] = knownText[${known.length - 1}];`, `else if (${asString}`);
    } else lines.push(`if (${asString}`);
    // Anything else is written by the module's own functions, which take up the count where this writer left it.
    lines.push(`else { p[n++] = ${head}; state.count = n; if (!writeValue(v, depth)) return false; n = state.count; }`);
  });
  lines.push("p[n++] = '}';", 'state.count = n;', 'return true;');
  const make = new Function('known', 'knownText', 'plain', 'writeValue', 'p', 'state', `'use strict'; return function writeShape(o, depth) {\n${lines.join('\n')}\n};`);
  return make(known, knownText, plain, writeValue, pieces, state) as ShapeWriter;
}
