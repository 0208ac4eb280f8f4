/**
 * Reading a request object: its string fields (`own`), the part of them a child would inherit (`inheritable`), the
 * keys read apart (`requesttypedescriptions`, `requesttypedescription`, `filter`, `updates`), the fields whose JSON
 * type is not a string, and whether any field fails its dictionary check. The request check (request.ts) works from
 * this; it names the fields at fault itself, with `checkFields`, only when something is wrong.
 *
 * Every request passes here, so it is made cheap for what clients do: send the same few kinds of request object
 * again and again (the same keys in the same order). The first object of a kind is read field by field and its
 * shape kept; later objects of that shape are read by a function made for the shape (see `compileShape`).
 */
import { fieldChecks, type Accepts, type CompiledField } from '../../schemas/check';
import { NOT_INHERITED } from '../wire/reading';

/** Fields that belong to one call and are not inherited by a child request (one list: src/wire/reading.ts). */
export { NOT_INHERITED };

export interface Normalised {
  own: Record<string, string>;
  /** The own fields a child would inherit (own minus NOT_INHERITED): the transaction's fields when it has no parent. */
  inheritable: Record<string, string>;
  types?: unknown;
  singular?: unknown;
  filter?: unknown;
  updates?: unknown;
  /** Fields whose JSON type is not a string ("All values in JSON requests and responses are strings"); absent when none. */
  wrongType?: string[];
  /** Whether some own field failed its dictionary check (`checkFields` then names them, in its own order). */
  invalid: boolean;
}

/** What the request check does with a key of a request object, decided once per name (the dictionary is fixed). */
interface KeyRule {
  /** One of the keys read apart from the string fields. */
  readonly special?: 'types' | 'singular' | 'filter' | 'updates';
  /** The field's compiled dictionary check, for fields the dictionary knows (request side, not structured). */
  readonly check?: CompiledField;
  /** The check reads another field (`validatedWhen`), so it runs once the whole object is read. */
  readonly deferred: boolean;
  readonly inherited: boolean;
}

const SPECIAL_KEYS = { requesttypedescriptions: 'types', requesttypedescription: 'singular', filter: 'filter', updates: 'updates' } as const;

let keyRules: Map<string, KeyRule> | undefined;
/** The rule of every key the dictionary or the request check names; any other key is an unknown field. */
function rulesByKey(): Map<string, KeyRule> {
  if (keyRules) return keyRules;
  const rules = new Map<string, KeyRule>();
  const checks = fieldChecks('request');
  const names = new Set([...checks.keys(), ...NOT_INHERITED, ...Object.keys(SPECIAL_KEYS)]);
  for (const name of names) {
    const check = checks.get(name);
    rules.set(name, {
      special: (SPECIAL_KEYS as Record<string, KeyRule['special']>)[name],
      check,
      deferred: check?.def.validatedWhen !== undefined,
      inherited: !NOT_INHERITED.has(name),
    });
  }
  return (keyRules = rules);
}

/** The rule for a key the dictionary does not know: checked by nothing, inherited. */
const UNKNOWN_KEY: KeyRule = { deferred: false, inherited: true };

/**
 * A kind of request object: its keys, in order, each a field sent (a string that is not empty) or a key read apart,
 * and the function that reads an object of that kind, or says it is not one after all (undefined).
 */
interface Shape {
  readonly keys: readonly string[];
  readonly read: (obj: Record<string, unknown>) => Normalised | undefined;
}
const shapes: Shape[] = [];
/** How many shapes are kept, the latest used first (a THREEDQUERY and its AUTH are two). */
const SHAPES_KEPT = 8;

/**
 * Reads a request object. Empty and null values count as not sent: real XML clients send empty elements for unset
 * fields, and PHP clients empty strings. An ACS `realPan` is dropped here, before anything could store or echo it.
 * Nothing is allocated for problems when there are none.
 */
export function normalise(obj: Record<string, unknown>): Normalised {
  objectsRead++;
  // The keys are compared in place: a list of them per request was a tenth of what the request check allocates.
  // An object whose prototype is not the plain one (a hook's) is read afresh, as `for...in` would walk its chain.
  const plain = Object.getPrototypeOf(obj) === Object.prototype;
  for (let i = 0; plain && i < shapes.length; i++) {
    const shape = shapes[i];
    if (!hasKeys(obj, shape.keys)) continue;
    // The latest used first, moved in place (a splice would make a list of what it removes).
    for (let j = i; j > 0; j--) shapes[j] = shapes[j - 1];
    shapes[0] = shape;
    const read = shape.read(obj);
    if (read) return read;
    break;
  }
  return readAndLearn(obj, Object.keys(obj));
}

/** Whether the object's own keys are `keys`, in that order (a plain object's enumerable keys are its own). */
function hasKeys(obj: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in obj) if (i >= keys.length || k !== keys[i++]) return false;
  return i === keys.length;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The keys read apart from the string fields; a null or empty one counts as not sent. */
function readSpecial(out: Normalised, special: NonNullable<KeyRule['special']>, v: unknown): void {
  if (v === null || v === '' || v === undefined) return;
  if (special === 'types') out.types = v;
  else if (special === 'singular') out.singular = v;
  else if (special === 'filter') out.filter = v;
  else out.updates = v;
}

/** Reads a request object field by field, and keeps its shape when every key was a field sent (or read apart). */
function readAndLearn(obj: Record<string, unknown>, keys: readonly string[]): Normalised {
  const all = rulesByKey();
  const out: Normalised = { own: {}, inheritable: {}, invalid: false };
  const own = out.own;
  const rules: KeyRule[] = [];
  let skipped = false;
  let deferred: string[] | undefined;
  for (const key of keys) {
    const v = obj[key];
    const rule = all.get(key) ?? UNKNOWN_KEY;
    rules.push(rule);
    if (rule.special !== undefined) {
      readSpecial(out, rule.special, v);
      continue;
    }
    if (v === null || v === '' || v === undefined) {
      skipped = true;
      continue;
    }
    // A field the dictionary does not know passes and is inherited, except an ACS `realPan` (any case).
    if (rule === UNKNOWN_KEY && key.length === 7 && key.toLowerCase() === 'realpan') {
      skipped = true;
      continue;
    }
    if (typeof v !== 'string') {
      // "All values ... are strings" holds the dictionary's fields to it; a field it does not know is accepted
      // whatever its value (src/wire/reading.ts), as validate and the contract read it, and is not kept.
      if (rule.check) (out.wrongType ??= []).push(key);
      skipped = true;
      continue;
    }
    own[key] = v;
    if (rule.inherited) out.inheritable[key] = v;
    if (rule.check) {
      if (rule.deferred) (deferred ??= []).push(key);
      else if (!rule.check.accepts(v, own)) out.invalid = true;
    }
  }
  if (deferred) for (const key of deferred) if (!all.get(key)!.check!.accepts(own[key], own)) out.invalid = true;
  if (!skipped && readersMade < READERS_FREE + objectsRead / OBJECTS_PER_READER && secondSighting(keys) && !shapes.some((shape) => sameKeys(keys, shape.keys))) {
    readersMade++;
    const read = rules.includes(UNKNOWN_KEY) ? byCopies(keys, rules, own, out.inheritable) : compileShape(keys, rules);
    shapes.unshift({ keys, read });
    if (shapes.length > SHAPES_KEPT) shapes.pop();
  }
  return out;
}

/**
 * Readers made, and objects read. Making a reader costs far more than one read by it, so beyond the first few the
 * gateway makes at most one per OBJECTS_PER_READER objects read: traffic of ever-new kinds (a fuzzer's, with
 * fields left out at random) keeps the few slots churning otherwise, each reader made and dropped unused.
 */
let readersMade = 0;
let objectsRead = 0;
const READERS_FREE = 16;
const OBJECTS_PER_READER = 64;

/**
 * Kinds of request object seen once. A reader is made for a kind only when it comes again: a client that sends a
 * few kinds over and over gets its readers after two requests, while traffic of ever-new kinds (a fuzzer's, with
 * fields left out at random) does not pay for making, and at once dropping, a reader per request. Bounded.
 */
const seenOnce = new Set<string>();
const SEEN_ONCE_KEPT = 256;

function secondSighting(keys: readonly string[]): boolean {
  const signature = keys.join('\u0000');
  if (seenOnce.delete(signature)) return true;
  if (seenOnce.size >= SEEN_ONCE_KEPT) seenOnce.clear();
  seenOnce.add(signature);
  return false;
}

/**
 * The reader of a shape whose keys are all names the request check knows (the dictionary's fields and the keys read
 * apart): one function, made once per shape, that reads each field by its name and makes `own` and `inheritable`
 * as object literals. Reading by a name the code spells out, and making an object of known fields in one go, is
 * what JavaScript engines do fastest; the generic walk reads and writes each field through a computed name, which
 * costs several times more per field on the busiest path of the gateway. The same technique as ajv's compiled
 * validators. Only names of the request check's own tables are written into the code, each as a JSON string
 * literal, never a name a client chose: a shape with an unknown key is read by `byCopies` instead.
 */
function compileShape(keys: readonly string[], rules: readonly KeyRule[]): Shape['read'] {
  const checks: Accepts[] = [];
  const read: string[] = [];
  const own: string[] = [];
  const inheritable: string[] = [];
  const specials: string[] = [];
  const checked: string[] = [];
  const deferred: string[] = [];
  keys.forEach((key, i) => {
    const name = JSON.stringify(key);
    const rule = rules[i];
    read.push(`const v${i} = o[${name}];`);
    if (rule.special !== undefined) {
      specials.push(`if (v${i} !== null && v${i} !== '' && v${i} !== undefined) out.${rule.special} = v${i};`);
      return;
    }
    read.push(`if (typeof v${i} !== 'string' || v${i} === '') return undefined;`);
    own.push(`${name}: v${i}`);
    if (rule.inherited) inheritable.push(`${name}: v${i}`);
    if (rule.check) (rule.deferred ? deferred : checked).push(`if (!c[${checks.push(rule.check.accepts) - 1}](v${i}, own)) out.invalid = true;`);
  });
  const body = [
    ...read,
    `const own = { ${own.join(', ')} };`,
    `const out = { own, inheritable: { ${inheritable.join(', ')} }, invalid: false };`,
    ...specials,
    ...checked,
    ...deferred,
    'return out;',
  ].join('\n');
  return new Function('c', `'use strict'; return function readShape(o) {\n${body}\n};`)(checks) as Shape['read'];
}

/**
 * The reader of a shape with a key the dictionary does not know: copies of the `own` and `inheritable` objects the
 * first object of the shape gave (one allocation each, of the right size) have every value written over.
 */
function byCopies(keys: readonly string[], rules: readonly KeyRule[], own: Readonly<Record<string, string>>, inheritable: Readonly<Record<string, string>>): Shape['read'] {
  const ownTemplate = blankCopy(own);
  const inheritableTemplate = blankCopy(inheritable);
  return (obj) => {
    const own = { ...ownTemplate };
    const inheritable = { ...inheritableTemplate };
    const out: Normalised = { own, inheritable, invalid: false };
    let deferred = false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const v = obj[key];
      const rule = rules[i];
      if (rule.special !== undefined) {
        readSpecial(out, rule.special, v);
        continue;
      }
      // Anything but a string that is not empty makes it another shape: the object is read afresh.
      if (typeof v !== 'string' || v === '') return undefined;
      own[key] = v;
      if (rule.inherited) inheritable[key] = v;
      if (rule.check) {
        if (rule.deferred) deferred = true;
        else if (!rule.check.accepts(v, own)) out.invalid = true;
      }
    }
    if (deferred) for (let i = 0; i < keys.length; i++) if (rules[i].deferred && !rules[i].check!.accepts(own[keys[i]], own)) out.invalid = true;
    return out;
  };
}

/** A copy with every value blanked: a shape keeps no request's data (no card number, no security code). */
function blankCopy(fields: Readonly<Record<string, string>>): Record<string, string> {
  const copy = { ...fields };
  for (const k of Object.keys(copy)) copy[k] = '';
  return copy;
}
