/**
 * The one masking function. Every path that writes something a person or a file will see (reports, logs, error
 * messages, violations, fuzz counterexamples, snapshots) goes through `redact` (for structures) or `redactText`
 * (for text). Full card numbers become `maskedpan` form as the document shows it (`411111######1111`: the middle
 * digits replaced by `#`); security codes, passwords, basic-auth headers and an ACS `realPan` are replaced whole.
 * Which fields hold what is read from the field dictionary's `sensitive` flags (schemas/fields.ts), never listed
 * here; only the secrets outside the envelope (credentials, headers, `realPan`) are named.
 *
 * Masking can be switched off (`CARDSPEC_UNSAFE_NO_REDACTION=1`) only so that the redaction test can prove it
 * would catch a leak; nothing else may switch it off.
 */

import { FIELDS, type FieldDef, type Sensitivity } from '../schemas/fields';

const MASK = '***';

/**
 * How each kind of secret the dictionary names is masked. A `Record` so that a new kind cannot be added to
 * `Sensitivity` without deciding here; a new field of an existing kind needs no change at all (its name and XML
 * element are read from the dictionary below).
 * - `card-number`: the document's `maskedpan` form, by key and wherever a Luhn-valid run of digits stands;
 * - `whole`: the value replaced by `***`;
 * - `kept`: the ACS's `md`/`pares` are single-use tokens of one THREEDQUERY with no card data in them ("mask
 *   sensitive values such as card data"); a failed 3-D Secure exchange must show them to be read.
 */
export const MASKING: Readonly<Record<Sensitivity, 'card-number' | 'whole' | 'kept'>> = {
  pan: 'card-number',
  securitycode: 'whole',
  'acs-secret': 'kept',
};

/**
 * Secrets that are not fields of the document's envelope, handled explicitly: the basic-auth password (under any
 * key whose last word says so: `password`, `CARDSPEC_PASSWORD`, `proxy_password`), the header that carries it, and
 * the plain card number "some ACSs also send" as `realPan`.
 */
const CREDENTIAL_WORDS = ['password', 'passwd'] as const;
const HEADER_KEYS = ['authorization', 'proxy-authorization'] as const;

/** The keys a field is written under: its JSON name and the element name of its XML paths, lower-case. */
function keysOf(def: FieldDef): string[] {
  const xml = [def.request?.xml, def.response?.xml].filter((x): x is string => !!x).map((x) => x.split('/').at(-1) ?? '');
  return [...new Set([def.name, ...xml].map((k) => k.toLowerCase()).filter((k) => /^[a-z][a-z0-9_-]*$/.test(k)))];
}

/** The keys to mask, by policy, derived from a dictionary (the kit's own, or a test's). */
export function maskedKeys(fields: readonly FieldDef[] = FIELDS): { whole: string[]; cardNumber: string[] } {
  const of = (policy: 'card-number' | 'whole'): string[] => fields.filter((f) => f.sensitive !== undefined && MASKING[f.sensitive] === policy).flatMap(keysOf);
  return { whole: [...new Set(of('whole'))], cardNumber: [...new Set(of('card-number'))] };
}

/**
 * What a key holds, when it holds a secret: a card number (shown in `maskedpan` form), a security code (masked
 * whole, in text only when it has digits) or a credential (masked whole, whatever it is).
 */
export type KeyPolicy = 'card-number' | 'security-code' | 'credential';

/**
 * The policy of each spelling, derived from a dictionary: a masked field's name, its XML element and its
 * `spellings`, compacted (lower-case, letters and digits only); and the fields that are not secrets (`plain`).
 */
export function keyPolicies(fields: readonly FieldDef[] = FIELDS): { spellings: Map<string, KeyPolicy>; plain: Set<string> } {
  const spellings = new Map<string, KeyPolicy>();
  const plain = new Set<string>();
  const compact = (k: string): string => k.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const f of fields) {
    const policy = f.sensitive === undefined ? undefined : MASKING[f.sensitive];
    if (policy === 'card-number' || policy === 'whole') {
      const kind: KeyPolicy = policy === 'card-number' ? 'card-number' : 'security-code';
      for (const k of [...keysOf(f), ...(f.spellings ?? [])]) spellings.set(compact(k), kind);
    } else if (policy === undefined) plain.add(compact(f.name));
  }
  // A response's XML writes `maskedpan` as <pan> and a check result as <securitycode>: a secret's spelling wins.
  for (const k of spellings.keys()) plain.delete(k);
  for (const k of CREDENTIAL_WORDS) spellings.set(k, 'credential');
  // The ACS's `realPan` is a card number, but whole-masked like a security code: it has no `maskedpan` form to show.
  spellings.set('realpan', 'security-code');
  return { spellings, plain };
}

const POLICIES = keyPolicies();
/** The longest spelling: a key is read from its end, never further. */
const LONGEST = Math.max(...[...POLICIES.spellings.keys(), ...POLICIES.plain].map((k) => k.length));
const policyCache = new Map<string, KeyPolicy | null>();

/**
 * The policy of a key as a client, an SDK or a log writes it: the key itself or its ending (`card_cvv`,
 * `cardCvv`, `payment-card-number`), case, `_` and `-` ignored, spelled as the dictionary names a secret. The
 * longest ending that is a spelling or a field of the dictionary decides: `card_securitycode` is a security code,
 * `securityresponsesecuritycode` (a field, a check result) is not.
 */
export function sensitivityOfKey(key: string): KeyPolicy | undefined {
  const cached = policyCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const lower = key.toLowerCase();
  let found: KeyPolicy | undefined;
  if (HEADER_KEYS.includes(lower as (typeof HEADER_KEYS)[number])) found = 'credential';
  else {
    const compact = lower.replace(/[^a-z0-9]/g, '');
    for (let i = Math.max(0, compact.length - LONGEST); i < compact.length; i++) {
      const ending = compact.slice(i);
      if (POLICIES.plain.has(ending)) break;
      found = POLICIES.spellings.get(ending);
      if (found !== undefined) break;
    }
  }
  if (policyCache.size < 10_000) policyCache.set(key, found ?? null);
  return found;
}

const extraSecrets = new Set<string>();
/**
 * A structure's strings as masked, while no secret is registered: a text masks the same way every time, and
 * cucumber's messages repeat their step texts, names and ids (a run's: 36,000 strings, 10,000 distinct). Short
 * strings only, and a bounded number: emptied when full.
 */
const maskedStrings = new Map<string, string>();
const MEMO_LENGTH = 512;
const MEMO_SIZE = 20_000;

function maskString(text: string): string {
  if (text.length > MEMO_LENGTH) return maskText(text);
  const known = maskedStrings.get(text);
  if (known !== undefined) return known;
  const out = maskText(text);
  if (maskedStrings.size >= MEMO_SIZE) maskedStrings.clear();
  maskedStrings.set(text, out);
  return out;
}

function enabled(): boolean {
  return process.env.CARDSPEC_UNSAFE_NO_REDACTION !== '1';
}

/** Registers a value (a password in use) that must never appear in output, wherever it stands. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4 && !extraSecrets.has(value)) {
    extraSecrets.add(value);
    // What was masked before may hold the new secret.
    maskedStrings.clear();
  }
}

/**
 * Registers an account's password and its basic-auth token (`base64(user:password)`, what the `Authorization`
 * header carries): an SDK that logs the token without the header's name (`auth=d2Vi...`) shows the password,
 * barely encoded.
 */
export function registerCredential(user: string, password: string | undefined): void {
  if (password === undefined || password === '') return;
  registerSecret(password);
  const token = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
  registerSecret(token);
  registerSecret(token.replace(/=+$/, ''));
}

/** Luhn check, so that masking targets card numbers and not every long number (timestamps, references). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The document's `maskedpan` form: first six and last four digits kept, the middle replaced by `#`. */
export function maskPan(pan: string): string {
  if (pan.length < 12) return '#'.repeat(pan.length);
  const keepStart = pan.length >= 16 ? 6 : 4;
  return pan.slice(0, keepStart) + '#'.repeat(pan.length - keepStart - 4) + pan.slice(-4);
}

/**
 * A UUID is matched first and left alone: its last group is twelve hex digits and can be all decimal (and
 * Luhn-valid), and masking it would break the references between cucumber messages or Allure results.
 */
const PAN_OR_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9])[0-9]{12,19}(?![0-9])/gi;
/**
 * A card number written in groups, as people and SDKs print it (`4111 1111 1111 1111`, `3782-822463-10005`):
 * four digits, then groups of two to seven, one separator throughout (a date `2026-01-05 09:00` mixes two), 12 to
 * 19 digits in all (checked with Luhn where it is matched). Not inside a longer token (a UUID's groups, a hex id).
 */
const GROUPED_PAN = /(?<![0-9A-Za-z-])[0-9]{4}([ -])[0-9]{2,7}(?:\1[0-9]{1,7}){1,4}(?![0-9A-Za-z]|-[0-9])/g;
const groupedDigits = (run: string): string | undefined => {
  const digits = run.replace(/[ -]/g, '');
  return digits.length >= 12 && digits.length <= 19 && luhnValid(digits) ? digits : undefined;
};
/**
 * A digit as XML and HTML may write it: itself, or a character reference (`&#52;`, `&#x34;`). A target's XML answer
 * may carry a card number as references, which the reader decodes to the number: the raw text shown in a report
 * must not keep it either.
 */
const REF_DIGIT = '(?:[0-9]|&#0*(?:4[89]|5[0-7]);|&#x0*3[0-9];)';
const PAN_IN_REFERENCES = new RegExp(`(?<!${REF_DIGIT})${REF_DIGIT}{12,19}(?!${REF_DIGIT})`, 'gi');
const digitsOfReferences = (run: string): string => run.replace(/&#(x?)0*([0-9a-f]+);/gi, (_m, hex: string, n: string) => String.fromCharCode(parseInt(n, hex ? 16 : 10)));
/**
 * How a key or a tag may be written around a secret, beyond plain JSON and XML: a quote escaped once (a request
 * serialized inside another JSON string, as in cucumber messages) or as an HTML entity, and a `<` escaped the way
 * HTML pages embed JSON (`\x3C`, `\u003c`) or as `&lt;`. The leak scan (src/report/scan.ts) reads the same forms.
 */
export const SECRET_SYNTAX = {
  quote: `(?:\\\\?["']|&quot;|&#39;)`,
  lt: `(?:<|\\\\x3[cC]|\\\\u003[cC]|&lt;)`,
  gt: `(?:>|&gt;)`,
  /** A key starts a word, or follows an escaped line break or tab (`\\nsecuritycode=` in a JSON string). */
  keyStart: `(?:(?<![A-Za-z0-9])|(?<=\\\\[nrt]))`,
} as const;
const Q = SECRET_SYNTAX.quote;
const LT = SECRET_SYNTAX.lt;
const GT = SECRET_SYNTAX.gt;
/**
 * A value under a key. Quoted, it runs to its closing quote (a password or a card number may hold spaces: `"my
 * pass phrase"`, `"4111 1111 1111 1111"`; an escaped quote in it does not end it), up to 256 characters on one
 * line; unquoted, a card number may be written in groups (`4111 1111 1111 1111`), anything else ends at a quote, a
 * space, a comma, a brace, a `<` or an escape.
 */
const quotedValue = (quoteGroup: number): string => `(${Q})((?:(?!\\${quoteGroup})(?:\\\\[^\\r\\n]|[^\\r\\n<\\\\])){1,256})(?=\\${quoteGroup})`;
const UNQUOTED_VALUE = `(${Q}?)((?:[0-9]{2,7}[ -]){1,5}[0-9]{1,7}(?![^"'&\\s,}<\\\\])|[^"'&\\s,}<\\\\]*)`;
// Every `key: value`, `key=value` and `"key":"value"` whose key is a secret's spelling (sensitivityOfKey decides, so
// that `card_cvv`, `cardNumber` and `securityCode` are found as well as `securitycode`), but not
// `securityresponsesecuritycode` (a check result, a field of the dictionary). Every word followed by a separator is
// a candidate key, taken whole (a lookahead is atomic) and starting only where no key character stands before it:
// each character is tried as a key start once, linear time in the text's length. Only a secret's key has its value
// read (VALUE_AFTER_KEY, from the key's end), so that the value of any other key is read like the rest of the text
// (a serialized request in a `body`, a message quoting a secret).
// A key in form encoding's brackets (`card[cvc]=123`, percent-encoded `card%5Bcvc%5D=123`, as PHP and Stripe-style
// clients send nested fields) is a key too.
const BRACKET_CLOSE = '(?:\\]|%5[dD])';
const KEY_CANDIDATE = new RegExp(`(?:(?<![A-Za-z0-9_-])|(?<=\\\\[nrt])|(?<=%5[bB]))(?=([A-Za-z][A-Za-z0-9_-]*))\\1(?=${BRACKET_CLOSE}?${Q}?\\s*[:=])`, 'g');
// Groups: 1 the separator, 2 and 3 a quoted value's quote and text, 4 and 5 an unquoted value's (optional) quote and text.
const VALUE_AFTER_KEY = new RegExp(`(${BRACKET_CLOSE}?${Q}?\\s*[:=]\\s*)(?:${quotedValue(2)}|${UNQUOTED_VALUE})`, 'y');

interface KeyedValue {
  readonly index: number;
  readonly key: string;
  readonly policy: KeyPolicy;
  /** Where the value's text starts (after its quote). */
  readonly at: number;
  readonly value: string;
}

function keyedValues(text: string): KeyedValue[] {
  const out: KeyedValue[] = [];
  for (const m of text.matchAll(KEY_CANDIDATE)) {
    const key = m[1];
    const policy = textPolicy(key);
    if (policy === undefined) continue;
    const end = (m.index ?? 0) + key.length;
    VALUE_AFTER_KEY.lastIndex = end;
    const v = VALUE_AFTER_KEY.exec(text);
    if (!v) continue;
    out.push({ index: m.index ?? 0, key, policy, at: end + v[1].length + (v[2] ?? v[4] ?? '').length, value: v[3] ?? v[5] ?? '' });
  }
  return out;
}
// <securitycode>123</securitycode>, <cvv>123</cvv>, &lt;cardNumber&gt;...: an element whose name is a secret's spelling.
const TAGGED_SECRET = new RegExp(`(${LT}([A-Za-z][A-Za-z0-9_-]*)${GT})([^<&\\\\]*)(${LT}\\/\\2${GT})`, 'gi');

/**
 * How a value under a key of this policy is shown, or undefined to keep it: a security code or a card number has
 * digits ("the securitycode: not matched", a scenario's name, or a rule ID ending in REALPAN followed by its verdict
 * hold none and are left as they are); a card number keeps its `maskedpan` form; a password can be anything.
 */
function maskedValue(policy: KeyPolicy, value: string): string | undefined {
  if (policy === 'credential') return MASK;
  if (policy === 'security-code') return /[0-9]/.test(value) ? MASK : undefined;
  const digits = value.replace(/[ -]/g, '');
  return /^[0-9]{12,19}$/.test(digits) ? maskPan(digits) : undefined;
}

/** The policy of a key found in text, but for the header names (AUTH_HEADER below reads their schemes). */
function textPolicy(key: string): KeyPolicy | undefined {
  if (HEADER_KEYS.includes(key.toLowerCase() as (typeof HEADER_KEYS)[number])) return undefined;
  return sensitivityOfKey(key);
}
// A header value ends at a quote, a line end, a comma, a brace or a `<` (the end of the XML or HTML element that
// quotes it: masking must not swallow `</failure>` in a JUnit file). With a scheme (`Basic ...`) the credentials
// after it are masked; without one, only a value that looks like a token (no space, a digit or 16 characters and
// more): "authorization: missing" is a message, not a header.
const AUTH_HEADER = new RegExp(`(${SECRET_SYNTAX.keyStart}(?:proxy-)?authorization)(${Q}?\\s*[:=]\\s*${Q}?)(?:(basic|bearer|digest|negotiate)\\s+[^"'\\\\\\r\\n,}<]*|([^"'\\\\\\s,}<]+))`, 'gi');
// curl's `-u user:password` (the user name goes with it: the pair is one argument). A plain word after `--user`
// is not a credential: "give --user and --password" stays as written.
const CURL_USER = /(?<![A-Za-z0-9-])(-u|--user)(\s+|=)(['"]?)[^'"\s<:]*:[^'"\s<]+\3/g;
// `--password=s3cret` on a command line (with a space, the next word may be plain prose: the password in use is
// registered with `registerSecret` and masked wherever it stands).
const PASSWORD_FLAG = /(?<![A-Za-z0-9-])(--password=)(['"]?)[^'"\s<]+\2/g;
// https://user:password@host: the password part of a URL's user information. The scheme is bounded (schemes are short):
// unbounded, a long run of letters, digits and `+` (`X0+X1+...`, a client's request types) was rescanned from every
// word start, quadratic time in the text's length.
// The user information ends at the authority's last `@` (a password may hold `@` and `:`, as a URL parser reads it).
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/?#"'<>]+):([^\s/?#"'<>]*)@/gi;

/**
 * The card numbers in a text: every run of 12 to 19 digits (not part of a longer run, not the last group of a
 * UUID), plain, in groups or as character references, that passes the Luhn check. The masking below and the report leak scan (src/report/scan.ts) share it.
 */
export function findCardNumbers(text: string): { index: number; digits: string }[] {
  const out: { index: number; digits: string }[] = [];
  for (const m of text.matchAll(PAN_OR_UUID)) {
    if (!m[0].includes('-') && luhnValid(m[0])) out.push({ index: m.index ?? 0, digits: m[0] });
  }
  for (const m of text.matchAll(GROUPED_PAN)) {
    const digits = groupedDigits(m[0]);
    if (digits !== undefined) out.push({ index: m.index ?? 0, digits });
  }
  // The same number written with character references (what maskText masks too); plain runs are found above.
  if (text.includes('&#')) {
    for (const m of text.matchAll(PAN_IN_REFERENCES)) {
      const digits = digitsOfReferences(m[0]);
      if (m[0].includes('&#') && luhnValid(digits)) out.push({ index: m.index ?? 0, digits });
    }
  }
  return out;
}

/**
 * The values under a secret's key in a text (`"cvv":"123"`, `<cardNumber>...</cardNumber>`), as the masking reads
 * them: the leak scan (src/report/scan.ts) looks for those the masking did not hide.
 */
export function findKeyedSecrets(text: string): { index: number; key: string; policy: KeyPolicy; value: string }[] {
  const out = keyedValues(text).map(({ index, key, policy, value }) => ({ index, key, policy, value }));
  for (const m of text.matchAll(TAGGED_SECRET)) {
    const policy = textPolicy(m[2]);
    if (policy) out.push({ index: m.index ?? 0, key: m[2], policy, value: m[3] ?? '' });
  }
  return out;
}

// Control characters but tab and line ends (a lone CR too: it rewrites the line it stands on), DEL and the C1
// controls. Text from a target (an errormessage, a reference, a field name) reaches consoles and Markdown: an escape
// sequence in it could clear a terminal, hide a failure line or retitle a window. Shown as \uXXXX instead.
// eslint-disable-next-line no-control-regex -- the control characters are the point
const UNPRINTABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g;

function printable(text: string): string {
  UNPRINTABLE.lastIndex = 0;
  if (!UNPRINTABLE.test(text)) return text;
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Masks card numbers and secrets in free text (log lines, messages, serialized bodies, HTML), and makes it safe
 * to print (`printable`): everything written for a person goes through here.
 */
export function redactText(text: string): string {
  return printable(maskText(text));
}

/** Masks the values under secrets' keys (a value inside one already masked is part of it). */
function maskKeyed(text: string): string {
  let out = '';
  let last = 0;
  for (const kv of keyedValues(text)) {
    if (kv.at < last) continue;
    const shown = maskedValue(kv.policy, kv.value);
    if (shown === undefined) continue;
    out += text.slice(last, kv.at) + shown;
    last = kv.at + kv.value.length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * What the patterns below need before any can match: a card number four digits in a row (or a character
 * reference), every keyed or tagged secret, header, flag and URL a `:`, `=`, `<` or its escapes (`&lt;`, `\x3C`).
 * A text with neither (most strings of cucumber's messages: step texts, names, ids) skips those passes; a password
 * in use is looked for all the same.
 */
const MAY_HOLD_NUMBER = /[0-9]{4}|&#/;
const MAY_HOLD_KEYED = /[:=<&\\]/;

function maskText(text: string): string {
  if (!enabled() || text.length === 0) return text;
  let out = text;
  if (MAY_HOLD_NUMBER.test(text)) out = maskNumbers(out);
  if (MAY_HOLD_KEYED.test(out)) out = maskKeyedSecrets(out);
  for (const secret of extraSecrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** Card numbers, plain, in groups or as character references. */
function maskNumbers(text: string): string {
  let out = text.replace(PAN_OR_UUID, (run) => (!run.includes('-') && luhnValid(run) ? maskPan(run) : run));
  out = out.replace(GROUPED_PAN, (run) => {
    const digits = groupedDigits(run);
    return digits === undefined ? run : maskPan(digits);
  });
  if (out.includes('&#')) {
    // Only runs written with references: a plain run was read above, where a UUID's last group is left alone.
    out = out.replace(PAN_IN_REFERENCES, (run) => {
      const digits = digitsOfReferences(run);
      return run.includes('&#') && luhnValid(digits) ? maskPan(digits) : run;
    });
  }
  return out;
}

/** Secrets under a key, in an element, a header, a command line's flag or a URL's user information. */
function maskKeyedSecrets(text: string): string {
  let out = maskKeyed(text);
  out = out.replace(TAGGED_SECRET, (m: string, open: string, tag: string, inner: string, close: string) => {
    const policy = textPolicy(tag);
    const shown = policy && maskedValue(policy, inner);
    return shown === undefined ? m : `${open}${shown}${close}`;
  });
  out = out.replace(AUTH_HEADER, (m: string, name: string, sep: string, scheme: string | undefined, bare: string | undefined) => {
    if (scheme) return `${name}${sep}${scheme} ${MASK}`;
    if (bare !== undefined && (/[0-9]/.test(bare) || bare.length >= 16)) return `${name}${sep}${MASK}`;
    return m;
  });
  out = out.replace(CURL_USER, (_m, flag: string, space: string, q: string) => `${flag}${space}${q}${MASK}${q}`);
  out = out.replace(PASSWORD_FLAG, (_m, flag: string, q: string) => `${flag}${q}${MASK}${q}`);
  return out.replace(URL_USERINFO, (_m, scheme: string, user: string) => `${scheme}${user}:${MASK}@`);
}

/** Masks a structure (a request, a response, a record) by key and by value; never mutates its argument. */
export function redact<T>(value: T): T {
  if (!enabled()) return value;
  return walk(value, undefined) as T;
}

function walk(value: unknown, key: string | undefined): unknown {
  const policy = key === undefined ? undefined : sensitivityOfKey(key);
  if (typeof value === 'string') {
    // A structure's strings keep their characters: whoever prints it serializes it (JSON escapes controls).
    if (policy === undefined) return maskString(value);
    if (policy !== 'card-number') return value === '' ? value : MASK;
    const digits = value.replace(/[ -]/g, '');
    return /^[0-9]{12,19}$/.test(digits) ? maskPan(digits) : maskString(value);
  }
  if (typeof value === 'number' && policy !== undefined) return policy !== 'card-number' || /^[0-9]{12,19}$/.test(String(value)) ? MASK : value;
  if (Array.isArray(value)) return value.map((v) => walk(v, key));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [kk, v] of Object.entries(value as Record<string, unknown>)) out[kk] = walk(v, kk);
    return out;
  }
  return value;
}
