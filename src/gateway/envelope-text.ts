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

/** Writes an object of a known shape; undefined when a value is not one this module writes (JSON.stringify does). */
type ShapeWriter = (o: Record<string, unknown>, depth: number) => string | undefined;

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
  const text = isPlainObject(env) ? writeObject(env, 0) : undefined;
  return text ?? JSON.stringify(env);
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

/** Any value within an object or a list; undefined when JSON.stringify must write the whole envelope. */
function valueText(v: unknown, depth: number): string | undefined {
  if (typeof v === 'string') return stringText(v);
  if (typeof v !== 'object' || v === null || depth >= MAX_DEPTH) return undefined;
  return Array.isArray(v) ? writeList(v, depth + 1) : writeObject(v as Record<string, unknown>, depth + 1);
}

function writeList(list: readonly unknown[], depth: number): string | undefined {
  if (list.length === 0) return '[]';
  let out = '[';
  for (let i = 0; i < list.length; i++) {
    // A hole or `undefined` is `null` in JSON.stringify's text: left to it.
    const t = valueText(list[i], depth);
    if (t === undefined) return undefined;
    out += i === 0 ? t : ',' + t;
  }
  return out + ']';
}

function writeObject(o: Record<string, unknown>, depth: number): string | undefined {
  // Plain objects only: JSON.stringify writes a boxed string, a date or a class with `toJSON` otherwise. A `toJSON`
  // of Object.prototype would be called too; an own one is also a key, a function, which no writer writes.
  const proto: unknown = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || typeof o.toJSON === 'function') return undefined;
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i];
    if (!hasKeys(o, shape.keys)) continue;
    // The latest used first, moved in place.
    for (let j = i; j > 0; j--) shapes[j] = shapes[j - 1];
    shapes[0] = shape;
    return shape.write(o, depth);
  }
  const keys = Object.keys(o);
  if (keys.length === 0) return '{}';
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
function writeByKeys(o: Record<string, unknown>, keys: readonly string[], depth: number): string | undefined {
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const t = valueText(o[keys[i]], depth);
    if (t === undefined) return undefined;
    out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + t;
  }
  return out + '}';
}

/**
 * The writer of a shape: each field read by name (one hidden class per shape, so each read is a direct load), its
 * key's text written into the code, its value compared with the one the shape was learnt from, whose text was made
 * once. The code holds key names only; the values it compares with are passed in, not written into it.
 */
function compileShape(keys: readonly string[], sample: Record<string, unknown>): ShapeWriter {
  const known: string[] = [];
  const knownText: string[] = [];
  const lines: string[] = ['let v, t, out = "";'];
  keys.forEach((key, i) => {
    const v = sample[key];
    const head = JSON.stringify((i === 0 ? '{' : ',') + JSON.stringify(key) + ':');
    const headQuote = `${head.slice(0, -1)}\\""`;
    lines.push(`v = o[${JSON.stringify(key)}];`);
    const asString = `typeof v === 'string') out += plain(v) ? ${headQuote} + v + '"' : ${head} + JSON.stringify(v);`;
    if (typeof v === 'string') {
      known.push(v);
      knownText.push(stringText(v));
      lines.push(`if (v === known[${known.length - 1}]) out += ${head} + knownText[${known.length - 1}];`, `else if (${asString}`);
    } else lines.push(`if (${asString}`);
    lines.push(`else { t = valueText(v, depth); if (t === undefined) return undefined; out += ${head} + t; }`);
  });
  lines.push("return out + '}';");
  const make = new Function('known', 'knownText', 'plain', 'valueText', `'use strict'; return function writeShape(o, depth) {\n${lines.join('\n')}\n};`);
  return make(known, knownText, plain, valueText) as ShapeWriter;
}
