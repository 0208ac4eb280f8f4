/**
 * One valid value for one side of one field, derived from the dictionary (schemas/fields.ts) and the type classes
 * (schemas/typeclasses.ts) only: alphabet and pattern from the class, lengths and listed values from the side.
 * Nothing here spells a length or a pattern of its own.
 *
 * Generated values are never empty: an empty element means "not set" in the XML form (public-facts.md), so an
 * empty string is a boundary value, left to the boundary generators. Where the document gives no maximum, the
 * length is left to fast-check's size (short by default); boundary generators reach the documented maxima.
 */
import fc from 'fast-check';
import { FIELD, type Direction, type FieldDef, type FieldSide } from '../schemas/fields';
import { checkValue } from '../schemas/check';
import { TYPE_CLASSES, type TypeClass } from '../schemas/typeclasses';

/** The side of a field, or a clear error: a generator asked for a field the dictionary lacks is a kit bug. */
export function sideFor(name: string, direction: Direction): { def: FieldDef; side: FieldSide } {
  const def = FIELD[name];
  const side = def?.[direction];
  if (!def || !side) throw new Error(`generators: the dictionary has no ${direction} side for field '${name}'`);
  return { def, side };
}

/** A string of a class's alphabet, `minLength` to `maxLength` characters. */
export function classString(type: TypeClass, minLength: number, maxLength?: number): fc.Arbitrary<string> {
  const alphabet = TYPE_CLASSES[type].alphabet;
  if (alphabet === '') return formatValue(type);
  // Arbitraries are immutable, so one per (class, lengths) serves every caller. Building `fc.string` is not cheap:
  // fast-check tokenizes a list of "dangerous" strings against the unit, cached per unit object only; a fresh
  // `constantFrom` per call made that happen for every field of every generated request (the fuzzer's hot path).
  const key = `${type}\u0000${minLength}\u0000${maxLength ?? ''}`;
  let arb = CLASS_STRINGS.get(key);
  if (!arb) {
    arb = new AlphabetString([...alphabet], minLength, maxLength ?? Number.MAX_SAFE_INTEGER);
    CLASS_STRINGS.set(key, arb);
  }
  return arb;
}

const CLASS_STRINGS = new Map<string, fc.Arbitrary<string>>();

/**
 * Strings of an alphabet, `min` to `max` characters: what `fc.string({unit: fc.constantFrom(...alphabet)})` draws,
 * drawn in one step. A fuzz run draws a dozen such strings per case, and fast-check's string (an array of
 * one-character values, mapped and joined) was most of the cost of generating a case. Lengths follow fast-check's
 * default size ("small": at most 2 * min + 10 unless the maximum is lower), with the shortest and the longest of
 * that range, and the field's maximum, drawn more often when fast-check asks for bias; shrinking goes to shorter strings, then to the
 * alphabet's first character.
 */
/** The longest value an edge draws: a field of a larger (or no) maximum is drawn this long. */
const LONG_EDGE = 1024;

class AlphabetString extends fc.Arbitrary<string> {
  private readonly chars: ReadonlySet<string>;
  private readonly maxGenerated: number;
  private readonly longEdge: number;

  constructor(
    private readonly alphabet: readonly string[],
    private readonly min: number,
    private readonly max: number,
  ) {
    super();
    this.chars = new Set(alphabet);
    this.maxGenerated = Math.min(2 * min + 10, max);
    this.longEdge = Math.max(this.maxGenerated, Math.min(max, LONG_EDGE));
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    const { min, maxGenerated, alphabet } = this;
    const edge = biasFactor !== undefined && mrng.nextInt(1, biasFactor) === 1;
    // An edge is the shortest, the longest of the small range, or the field's own maximum (up to LONG_EDGE): valid
    // requests then carry long values too, not only the boundary mutations (about 1 case in 700 per field).
    const pick = edge ? mrng.nextInt(0, 2) : -1;
    const length = pick === 0 ? min : pick === 1 ? maxGenerated : pick === 2 ? this.longEdge : mrng.nextInt(min, maxGenerated);
    const last = alphabet.length - 1;
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[mrng.nextInt(0, last)];
    return new fc.Value(out, undefined);
  }

  canShrinkWithoutContext(value: unknown): value is string {
    if (typeof value !== 'string') return false;
    const chars = [...value];
    return chars.length >= this.min && chars.length <= this.max && chars.every((c) => this.chars.has(c));
  }

  shrink(value: string): fc.Stream<fc.Value<string>> {
    const chars = [...value];
    const out: string[] = [];
    // Shorter first (the shortest allowed, half the excess, one less), keeping the start.
    const excess = chars.length - this.min;
    if (excess > 0) {
      for (const cut of new Set([excess, Math.ceil(excess / 2), 1])) out.push(chars.slice(0, chars.length - cut).join(''));
    }
    // Then the first character that is not the alphabet's first, made so.
    const first = this.alphabet[0];
    const at = chars.findIndex((c) => c !== first);
    if (at >= 0) out.push([...chars.slice(0, at), first, ...chars.slice(at + 1)].join(''));
    return fc.Stream.of(...out.map((v) => new fc.Value(v, undefined)));
  }
}

const two = (n: number): string => String(n).padStart(2, '0');

// The range of generated dates is cardspec's choice, not a document rule: years 2000-2099 keep every value four
// digits wide, and expiry dates start at 2027 so that a generated card has not expired at the built-in clock's
// start (2026-01-05) nor during a long subscription run.
const DATE_MIN = new Date(Date.UTC(2000, 0, 1));
const DATE_MAX = new Date(Date.UTC(2099, 11, 31, 23, 59, 59));
const EXPIRY_YEARS = { min: 2027, max: 2099 };

const isoDate = fc.date({ min: DATE_MIN, max: DATE_MAX, noInvalidDate: true }).map((d) => d.toISOString());

/**
 * The classes that are formats rather than alphabets: dates, timestamps, URLs and email addresses. `maxLength` is
 * the field's maximum, where it has one: URLs and email addresses are drawn up to it (see `webAddress`).
 */
export function formatValue(type: TypeClass, maxLength?: number): fc.Arbitrary<string> {
  // One arbitrary per (class, maximum), as for `classString`.
  const key = `${type}\u0000${maxLength ?? ''}`;
  let arb = FORMATS.get(key);
  if (!arb) {
    arb = buildFormat(type, maxLength);
    FORMATS.set(key, arb);
  }
  return arb;
}

const FORMATS = new Map<string, fc.Arbitrary<string>>();

function buildFormat(type: TypeClass, maxLength: number | undefined): fc.Arbitrary<string> {
  switch (type) {
    case 'date-month':
      return fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer(EXPIRY_YEARS)).map(([m, y]) => `${two(m)}/${y}`);
    case 'date':
      return isoDate.map((iso) => iso.slice(0, 10));
    case 'timestamp':
      return isoDate.map((iso) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`);
    case 'url':
      return webAddress(maxLength);
    case 'email':
      return emailAddress();
    default:
      return classString(type, 1);
  }
}

/*
 * URLs and email addresses. The document gives their class ("URL", "Email": the patterns of schemas/typeclasses.ts,
 * which every value is checked against), the fields' maxima and, for email, "at most 64 characters before the @";
 * the rest of their shape is the ordinary one (RFC 3986, RFC 5321), written here. fast-check's `webUrl` and
 * `emailAddress` draw the same shapes with percent-encoded and international parts, but cost about a second to
 * build and 30 to 60 microseconds per value (a fuzz case draws one or two); these are strings of an alphabet
 * (`AlphabetString`, drawn in one step), a few microseconds, and shrink as its strings do.
 */
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGIT = '0123456789';
/** A host label (lower-case: hosts are case-insensitive) and a top-level domain of letters. */
const label = (): fc.Arbitrary<string> => new AlphabetString([...(LOWER + DIGIT)], 1, HOST_LABEL_MAX);
const HOST_LABEL_MAX = 12;
const TLD_MAX = 6;
const TLD = new AlphabetString([...LOWER], 2, TLD_MAX);
/** RFC 3986's unreserved characters and sub-delimiters, `:`, `@` and `/` (a path), `?` (a query): no escapes. */
const PATH_CHARS = [...`${LOWER}${LOWER.toUpperCase()}${DIGIT}-._~!$&'()*+,;=:@/?`];
/** RFC 5321's atext: what a dot-atom local part is made of. */
const ATEXT = [...`${LOWER}${LOWER.toUpperCase()}${DIGIT}!#$%&'*+-/=?^_\`{|}~`];

/** `name.tld` or `sub.name.tld`: at most this long. */
const HOST_MAX = 2 * (HOST_LABEL_MAX + 1) + TLD_MAX;
const HOST: fc.Arbitrary<string> = fc.tuple(fc.option(label(), { nil: '' }), label(), TLD).map(([sub, name, tld]) => (sub === '' ? `${name}.${tld}` : `${sub}.${name}.${tld}`));

/**
 * An https address ("The browser is returned by HTTPS POST to the `termurl`"), with a path and query or none. The
 * path's longest edge fills the field's maximum but for the host, so valid requests carry long addresses too, not
 * only the boundary values (which pad to the maximum exactly).
 */
function webAddress(maxLength: number | undefined): fc.Arbitrary<string> {
  const scheme = 'https://';
  const pathMax = maxLength === undefined ? Number.MAX_SAFE_INTEGER : Math.max(maxLength - scheme.length - HOST_MAX - 1, 0);
  return fc.tuple(HOST, fc.option(new AlphabetString(PATH_CHARS, 0, pathMax), { nil: undefined })).map(([host, path]) => (path === undefined ? `${scheme}${host}` : `${scheme}${host}/${path}`));
}

/** The most characters before the @: from the class's pattern (`[^\s@]{1,64}@`), the document's one email rule. */
function localPartMax(): number {
  const m = /\{1,(\d+)\}@/.exec(TYPE_CLASSES.email.pattern);
  if (!m) throw new Error('generators: the email class no longer states a longest local part');
  return Number(m[1]);
}

/** `local@host`: a local part of atext up to its longest (an edge), at a host as for URLs. */
function emailAddress(): fc.Arbitrary<string> {
  return fc.tuple(new AlphabetString(ATEXT, 1, localPartMax()), HOST).map(([local, host]) => `${local}@${host}`);
}

/**
 * A valid value for a field side: a listed value where the side lists them, else the document's example values
 * where it shows only examples (`MONTH`, `RECURRING`: cardspec draws from them so that a generated request is one
 * the document shows working), else a value of the type class within the side's lengths. Lenient fields
 * (`accept`, `xid`, ...) still get values of their documented class, which the lenient check also accepts.
 */
export function fieldValue(name: string, direction: Direction): fc.Arbitrary<string> {
  // Arbitraries are immutable and some cost more to build than to draw from:
  // requests.ts builds its records per drawn card, so each field's arbitrary is built once and kept.
  const key = `${direction}:${name}`;
  let arb = FIELD_VALUES.get(key);
  if (!arb) {
    arb = buildFieldValue(name, direction);
    FIELD_VALUES.set(key, arb);
  }
  return arb;
}

const FIELD_VALUES = new Map<string, fc.Arbitrary<string>>();

function buildFieldValue(name: string, direction: Direction): fc.Arbitrary<string> {
  const { def, side } = sideFor(name, direction);
  if (side.values && side.values.length > 0) return fc.constantFrom(...side.values);
  if (def.examples && def.examples.length > 0) return fc.constantFrom(...def.examples);
  const min = Math.max(side.minLength ?? 1, 1);
  const base = TYPE_CLASSES[def.type].alphabet === '' ? formatValue(def.type, side.maxLength) : classString(def.type, min, side.maxLength);
  // Formats have their own lengths (an email address may outgrow 255): keep only what the field check accepts.
  return base.filter((v) => checkValue(def, direction, v) === null);
}

/**
 * The value of a field whose class applies only when another field has certain values (`validatedWhen`,
 * `billingpostcode`): outside those, any printable text of the right length is valid, and the generator says so.
 */
export function laxFieldValue(name: string, direction: Direction): fc.Arbitrary<string> {
  const { side } = sideFor(name, direction);
  return classString('alphanumeric-symbols', Math.max(side.minLength ?? 1, 1), side.maxLength);
}

/**
 * An amount in minor units greater than zero ("It must be greater than zero, except that ACCOUNTCHECK allows
 * `0`"), written without leading zeros, within the side's length.
 */
export function positiveAmount(direction: Direction = 'request'): fc.Arbitrary<string> {
  const { def, side } = sideFor('baseamount', direction);
  const digits = TYPE_CLASSES[def.type].alphabet;
  const restMax = side.maxLength === undefined ? undefined : side.maxLength - 1;
  return fc.tuple(fc.constantFrom(...digits.replace('0', '')), classString(def.type, Math.max((side.minLength ?? 1) - 1, 0), restMax)).map(([first, rest]) => first + rest);
}

/** `0` or a positive amount: the ACCOUNTCHECK rule (`zeroAmount` on the operation row). */
export function amount(zeroAllowed: boolean, direction: Direction = 'request'): fc.Arbitrary<string> {
  return zeroAllowed ? fc.oneof(fc.constant('0'), positiveAmount(direction)) : positiveAmount(direction);
}

/** A non-zero code of the `errorcode` class: a failed part ("A non-zero code in a part means that part failed"). */
export function nonZeroCode(): fc.Arbitrary<string> {
  const { def } = sideFor('errorcode', 'response');
  const digits = TYPE_CLASSES[def.type].alphabet;
  return fc.tuple(fc.constantFrom(...digits.replace('0', '')), classString(def.type, 0)).map(([a, b]) => a + b);
}
