/**
 * From ajv's errors to violations in the document's terms. The rule, the section and the words come from the
 * schema node that failed (its `x-rule`, `x-section`, `description`, `x-quote`, all generated from the dictionary)
 * and from the dictionary itself; a message never quotes the offending value of a field, so no card number or
 * security code can travel through one, and every message still passes through `redactText`.
 */
import { misspeltCode } from '../../schemas/errors';
import { FIELD } from '../../schemas/fields';
import { TYPE_CLASSES } from '../../schemas/typeclasses';
import { redactText } from '../redact';
import type { Format } from '../wire/types';
import type { SchemaError } from './schemas';

export interface Violation {
  /** Where, relative to what was validated: `baseamount`, `request[0].baseamount`, `response[1].maskedpan`. */
  field: string;
  /** A short, stable name of the rule broken: `all-values-strings`, `maxLength`, `required`, `forbidden`, ... */
  rule: string;
  /** The document section the rule comes from. */
  section: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface Context {
  /** Prepended to every field (`request[0].`). */
  readonly prefix: string;
  /** What the schema describes, for messages ("Card store", "a STORE part"). */
  readonly subject: string;
  /** Section of the schema as a whole, when no node names one. */
  readonly section: string;
}

type Node = Record<string, unknown>;

/** `['request', 0, 'pan']` -> `request[0].pan`. */
export function joinPath(prefix: string, segments: readonly (string | number)[]): string {
  let out = prefix;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' || out.endsWith('.') ? s : `.${s}`;
  }
  return out.endsWith('.') ? out.slice(0, -1) : out;
}

function segmentsOf(instancePath: string): (string | number)[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const TYPE_WORDS: Record<string, string> = { object: 'an object', array: 'a list', string: 'a string' };

function list(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') : JSON.stringify(values);
}

/**
 * The one kind of value a message may repeat: a request type name as the client sent it, and only when it looks
 * like one (letters, at most 30), so that a card number sent in the wrong place is never echoed, masked or not.
 */
export function typeName(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z_]{1,30}$/.test(value) ? JSON.stringify(value) : 'a value that is not a request type name';
}

/** Names shown of a list of request types, at most: a body of 200,000 must not make a message of a megabyte. */
const MAX_TYPES_SHOWN = 8;

/** A list of request types as a message shows it (`typeName` each), cut after MAX_TYPES_SHOWN with the count. */
export function typeNames(values: readonly unknown[]): string {
  const names = values.slice(0, MAX_TYPES_SHOWN).map(typeName).join(', ');
  return values.length > MAX_TYPES_SHOWN ? `${names}, ... (${values.length} in all)` : names;
}

function shown(leaf: string | undefined, value: unknown): string {
  if (leaf === 'requesttypedescription') return ` (it is ${typeName(value)})`;
  if (leaf === 'requesttypedescriptions' && Array.isArray(value)) return ` (it is [${typeNames(value)}])`;
  return '';
}

function ruleOf(err: SchemaError, node: Node): string {
  const declared = node['x-rule'];
  if (typeof declared === 'string') return declared;
  if (err.keyword === 'type') return node.type === 'string' ? 'all-values-strings' : 'type';
  return err.keyword;
}

function message(rule: string, err: SchemaError, node: Node, field: string, leaf: string | undefined, ctx: Context): string {
  const def = leaf ? FIELD[leaf] : undefined;
  const name = field || 'the body';
  const p = err.params as Record<string, unknown>;
  switch (rule) {
    case 'all-values-strings':
      return `${name} must be a string, not ${jsonType(err.data)} ("All values in JSON requests and responses are strings, including numbers")`;
    case 'type':
      return `${name} must be ${TYPE_WORDS[String(p.type)] ?? String(p.type)}, not ${jsonType(err.data)}`;
    case 'maxLength':
    case 'minLength': {
      const len = typeof err.data === 'string' ? [...err.data].length : 0;
      const which = rule === 'maxLength' ? 'maximum' : 'minimum';
      return `${name} has ${len} characters; the document's ${which} is ${String(p.limit)}`;
    }
    case 'pattern': {
      if (!def) return `${name} has characters its type does not allow`;
      const notation = TYPE_CLASSES[def.type].notation;
      const when = def.validatedWhen ? ` (checked because ${def.validatedWhen.field} is ${list(def.validatedWhen.values).replace(/, ([^,]*)$/, ' or $1')})` : '';
      if (def.lenient) return `${name} must be printable text without control characters (documented as ${notation}, read leniently: ${def.lenient})`;
      return `${name} must be ${notation}${when}`;
    }
    case 'enum':
      return `${name} must be one of ${list(p.allowedValues)}${shown(leaf, err.data)}`;
    case 'fixed':
      return `${name} must be ${list(p.allowedValues).replace(/, ([^,]*)$/, ' or $1')} in ${ctx.subject}${shown(leaf, err.data)}`;
    case 'request-type':
      return `${name} must be ${JSON.stringify(p.allowedValue)} in ${ctx.subject}${shown(leaf, err.data)}`;
    case 'required': {
      const why = typeof node.description === 'string' ? node.description : `required in ${ctx.subject}`;
      return `${name} is missing: ${why}`;
    }
    case 'forbidden':
      return `${name} must not be sent in ${ctx.subject}${typeof node['x-quote'] === 'string' ? ` ("${node['x-quote']}")` : ''}`;
    case 'card-source': {
      const ways = Array.isArray(node.anyOf) ? (node.anyOf as Node[]).map((b) => (Array.isArray(b.required) ? b.required.join(' + ') : '?')) : [];
      return `the card is missing in ${ctx.subject}: send ${ways.join(', or ')}`;
    }
    case 'amount-above-zero':
      return `${name} must be greater than zero ("It must be greater than zero, except that ACCOUNTCHECK allows 0")`;
    case 'masked':
      return `${name} must be masked: digits with the middle digits replaced by "#" (it holds no "#")`;
    case 'ok-message':
      return `${name} must be "Ok" when errorcode is "0"`;
    case 'code-spelling': {
      // The pattern admits only digits, a point, a plus and spaces: the value is safe to show.
      const code = misspeltCode(err.data);
      return `${name} is ${JSON.stringify(err.data)}, code ${code ?? '?'} written otherwise: the Errors table writes it "${code ?? '?'}"`;
    }
    case 'one-request-object':
      return `${name} holds ${Array.isArray(err.data) ? err.data.length : 0} request objects: "One request object per call"`;
    case 'one-part-per-type':
      return `${name} holds no part: "The response holds one part per request type"`;
    case 'minProperties':
      return `${name} must name at least one field`;
    case 'minItems':
      return `${name} must hold at least ${String(p.limit)} item(s)`;
    default:
      return `${name}: ${err.message ?? rule}`;
  }
}

/**
 * The violations of one validation. Branch errors under a failed `anyOf` are folded into that one violation (the
 * card can come three ways; saying that all three are missing is one finding), and ajv's `if` errors are dropped
 * (the `then` branch's own errors say what is wrong).
 */
export function toViolations(errors: readonly SchemaError[], ctx: Context): Violation[] {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath + '/');
  const out: Violation[] = [];
  for (const err of errors) {
    if (err.keyword === 'if') continue;
    if (anyOfPaths.some((p) => err.schemaPath.startsWith(p))) continue;
    const node = (err.parentSchema ?? {}) as Node;
    const segments = segmentsOf(err.instancePath);
    const rule = ruleOf(err, node);
    if (err.keyword === 'required') segments.push(String((err.params as { missingProperty: string }).missingProperty));
    if (err.keyword === 'not') {
      const names = (node.not as Node | undefined)?.required;
      if (Array.isArray(names)) segments.push(names.join('+'));
    }
    let field = joinPath(ctx.prefix, segments);
    if (err.keyword === 'anyOf' && Array.isArray(node.anyOf)) {
      const alternatives = (node.anyOf as Node[]).map((b) => (Array.isArray(b.required) ? b.required.join('+') : '?'));
      field = joinPath(ctx.prefix, [...segments, alternatives.join('|')]);
    }
    const names = segments.filter((s): s is string => typeof s === 'string');
    const leaf = names.length ? names[names.length - 1] : undefined;
    const section =
      (typeof node['x-section'] === 'string' ? node['x-section'] : undefined) ??
      [...names]
        .reverse()
        .map((n) => FIELD[n]?.section)
        .find((s) => s !== undefined) ??
      ctx.section;
    out.push({
      field: redactText(field),
      rule,
      section,
      message: redactText(message(rule, err, node, field, leaf, ctx)),
      severity: severityOf(names),
    });
  }
  // A value that is not a string breaks "All values ... are strings" and only that: its value list, pattern or
  // length are the string's, and saying them too would put one fault (`"securityresponseaddress": 2`) on two rules.
  // Likewise a code of the Errors table spelt otherwise (` 0`, `0.0`) is that row's fault alone, not also the
  // characters of its type class.
  const decided = new Map<string, number>();
  for (const v of out) {
    const rank = SUBSUMING.indexOf(v.rule);
    if (rank >= 0 && rank < (decided.get(v.field) ?? SUBSUMING.length)) decided.set(v.field, rank);
  }
  return decided.size === 0 ? out : out.filter((v) => !decided.has(v.field) || !STRING_FORM.has(v.rule) || SUBSUMING.indexOf(v.rule) === decided.get(v.field));
}

/** Findings that say all there is to say about a value, strongest first: its other findings of form are dropped. */
const SUBSUMING = ['all-values-strings', 'code-spelling'];

/** Findings about a string's form, which a value of another type cannot be measured by. */
const STRING_FORM = new Set(['enum', 'const', 'pattern', 'format', 'maxLength', 'minLength', 'masked']);

/**
 * Public facts decide no conformance ("never fail a target on it"): a finding on a field that exists only in the
 * public shape (the follow-ups' `filter` and `updates`, `errordata`, `found`, `records`) is a warning. A field of the
 * document held in `updates` is the exception: where it sits is the public shape, but its value is the document's
 * field ("a TRANSACTIONUPDATE with the SUBSCRIPTION reference and the new `baseamount`"), held to its type, length
 * and values as anywhere else.
 */
export function severityOf(names: readonly string[]): 'error' | 'warning' {
  const shapes = names.filter((n) => FIELD[n]?.source === 'public-facts');
  if (shapes.length === 0) return 'error';
  const leaf = names[names.length - 1];
  const documentFieldInUpdates = shapes.every((n) => n === 'updates') && leaf !== 'updates' && FIELD[leaf] !== undefined;
  return documentFieldInUpdates ? 'error' : 'warning';
}

/** One violation per field and rule: an envelope and its request object's row may report the same thing. */
export function dedupe(violations: readonly Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.field}\u0000${v.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Longest field path and message a violation keeps. A field path is the client's own key names: a key of a
 * megabyte must not make every line that names it a megabyte (the document's own paths and messages are far
 * shorter, and stay whole).
 */
const MAX_FIELD_CHARS = 200;
const MAX_MESSAGE_CHARS = 2000;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 40)}... (${text.length} characters in all)` : text;
}

export function violation(field: string, rule: string, section: string, text: string, severity: 'error' | 'warning' = 'error'): Violation {
  const shownField = cut(redactText(field), MAX_FIELD_CHARS);
  let message = redactText(text);
  // The message names the field too, and says it the same way.
  if (shownField.length < field.length) message = message.split(redactText(field)).join(shownField);
  return { field: shownField, rule, section, message: cut(message, MAX_MESSAGE_CHARS), severity };
}

/**
 * The JSON envelope's own rules that an XML block does not have. The block's `version` attribute is the XML one
 * (`3.67`, Versioning 2) and src/wire/xml.ts reports it among the block's structure problems, so the JSON
 * `version` check would only say it twice; `secrand` belongs to the JSON response body (Endpoints > Transport),
 * and the XML block's fields are not shown.
 */
export function forFormat(violations: Violation[], format: Format, kind: 'request' | 'response'): Violation[] {
  if (format === 'json') return violations;
  return violations.filter((v) => v.field !== 'version' && !(kind === 'response' && v.field === 'secrand' && v.rule === 'required'));
}
