/**
 * The one masking function. Every path that writes something a person or a file will see (reports, logs, error
 * messages, violations, fuzz counterexamples, snapshots) goes through `redact` (for structures) or `redactText`
 * (for text). Full card numbers become `maskedpan` form as the document shows it (`411111######1111`: the middle
 * digits replaced by `#`); security codes, passwords, basic-auth headers and an ACS `realPan` are replaced whole.
 *
 * Masking can be switched off (`CARDSPEC_UNSAFE_NO_REDACTION=1`) only so that the redaction test can prove it
 * would catch a leak; nothing else may switch it off.
 */

const MASK = '***';

/** Field names whose whole value is a secret (compared lower-case). */
const SECRET_KEYS = new Set(['securitycode', 'password', 'authorization', 'realpan', 'proxy-authorization', 'cardspec_password']);
/** Field names that hold a card number. */
const PAN_KEYS = new Set(['pan']);

const extraSecrets = new Set<string>();

function enabled(): boolean {
  return process.env.CARDSPEC_UNSAFE_NO_REDACTION !== '1';
}

/** Registers a value (a password in use) that must never appear in output, wherever it stands. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) extraSecrets.add(value);
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

const PAN_RUN = /(?<![0-9])[0-9]{12,19}(?![0-9])/g;
// "securitycode":"123", securitycode=123, <securitycode>123</securitycode>, securityCode: 123 ...
const KEYED_SECRET =
  /((?:"|')?(?:securitycode|password|realpan|cardspec_password)(?:"|')?\s*[:=]\s*(?:"|')?)([^"'&\s,}<]*)|(<(securitycode|password|realpan)>)([^<]*)(<\/\4>)/gi;
const AUTH_HEADER = /(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(basic|bearer)?\s*[^"'\r\n,}]*/gi;
const CURL_USER = /(-u|--user)(\s+)(['"]?)[^'"\s]+\3/g;

/** Masks card numbers and secrets in free text (log lines, messages, serialized bodies, HTML). */
export function redactText(text: string): string {
  if (!enabled() || text.length === 0) return text;
  let out = text.replace(PAN_RUN, (run) => (luhnValid(run) ? maskPan(run) : run));
  out = out.replace(KEYED_SECRET, (m, pre: string | undefined, _v: string, open: string | undefined, _tag: string, _inner: string, close: string | undefined) =>
    pre !== undefined ? `${pre}${MASK}` : `${open}${MASK}${close}`,
  );
  out = out.replace(AUTH_HEADER, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ? scheme + ' ' : ''}${MASK}`);
  out = out.replace(CURL_USER, (_m, flag: string, space: string, q: string) => `${flag}${space}${q}${MASK}${q}`);
  for (const secret of extraSecrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** Masks a structure (a request, a response, a record) by key and by value; never mutates its argument. */
export function redact<T>(value: T): T {
  if (!enabled()) return value;
  return walk(value, undefined) as T;
}

function walk(value: unknown, key: string | undefined): unknown {
  const k = key?.toLowerCase();
  if (typeof value === 'string') {
    if (k && SECRET_KEYS.has(k)) return value === '' ? value : MASK;
    if (k && PAN_KEYS.has(k)) return /^[0-9]{12,19}$/.test(value) ? maskPan(value) : redactText(value);
    return redactText(value);
  }
  if (typeof value === 'number' && k && (SECRET_KEYS.has(k) || PAN_KEYS.has(k))) return MASK;
  if (Array.isArray(value)) return value.map((v) => walk(v, key));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [kk, v] of Object.entries(value as Record<string, unknown>)) out[kk] = walk(v, kk);
    return out;
  }
  return value;
}
