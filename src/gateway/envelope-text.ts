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
  if (!isPlainObject(env)) return JSON.stringify(env);
  state.count = 0;
  const ok = writeObject(env, 0);
  const n = state.count;
  // What was written so far stays in the list until the next answer cuts it.
  if (!ok) return JSON.stringify(env);
  // The list is cut to the answer: `join` pays for every entry, empty ones too (about 5 ns each, 20 a piece), and
  // pieces left over from a longer answer were as many as the answer's own. The engine gives back a list's storage
  // only when more than half of it goes unused, so answers of a flow (a THREEDQUERY's, then its AUTH's) of about the
  // same length do not cut and grow it in turn.
  // Set only when it changes: setting a list's length goes through the engine's runtime even when it is the same.
  if (pieces.length !== n) pieces.length = n;
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
 * learnt, the run is written as one piece made once. Joining the list costs about 20 ns a piece, and an AUTH answer
 * was some forty pieces, about a tenth of the gateway's own CPU per request (docs/bench.md, "Where the time goes").
 * When any value of a run differs, each of its fields is written as any other.
 */
function compileShape(keys: readonly string[], sample: Record<string, unknown>, first: readonly unknown[]): ShapeWriter {
  const known: string[] = [];
  const knownText: string[] = [];
  const lines: string[] = ['let v, n = state.count;'];
  /** The index in `known` of each field whose sample value is a string, else -1. */
  const knownAt = keys.map((key, i) => {
    const v = sample[key];
    if (typeof v !== 'string') return -1;
    knownText.push((i === 0 ? '{' : ',') + JSON.stringify(key) + ':' + stringText(v));
    return known.push(v) - 1;
  });
  /** The code of one field whose value is in `v`. */
  const field = (i: number): void => {
    const headText = (i === 0 ? '{' : ',') + JSON.stringify(keys[i]) + ':';
    const head = JSON.stringify(headText);
    const headQuote = JSON.stringify(headText + '"');
    const asString = `typeof v === 'string') { if (plain(v)) { p[n++] = ${headQuote}; p[n++] = v; p[n++] = '"'; } else { p[n++] = ${head}; p[n++] = JSON.stringify(v); } }`;
    if (knownAt[i] >= 0) lines.push(`if (v === known[${knownAt[i]}]) p[n++] = knownText[${knownAt[i]}];`, `else if (${asString}`);
    else lines.push(`if (${asString}`);
    // Anything else is written by the module's own functions, which take up the count where this writer left it.
    lines.push(`else { p[n++] = ${head}; state.count = n; if (!writeValue(v, depth)) return false; n = state.count; }`);
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
    lines.push(`if (${same}) p[n++] = runText[${runText.push(text.join('')) - 1}];`, 'else {');
    for (let j = i; j < end; j++) {
      lines.push(`v = r${j};`);
      field(j);
    }
    lines.push('}');
    i = end;
  }
  lines.push("p[n++] = '}';", 'state.count = n;', 'return true;');
  const make = new Function('known', 'knownText', 'runText', 'plain', 'writeValue', 'p', 'state', `'use strict'; return function writeShape(o, depth) {\n${lines.join('\n')}\n};`);
  return make(known, knownText, runText, plain, writeValue, pieces, state) as ShapeWriter;
}
