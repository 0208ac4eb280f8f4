/**
 * The leak scan: looks, in a folder's files or in captured console output, for what the masking must have hidden:
 * a full card number (Luhn-valid, 12 to 19 digits, plain or in groups; any 12 to 19 digits under a card number's
 * key), a security code value under a security code's key as the dictionary or a client spells it (`securitycode`,
 * `cvv`, `card_cvc`; JSON, XML, form encoding, `key: value`), a given password (and its basic-auth token), and an
 * `Authorization` header value.
 * It proves the redaction (test/report/redaction.e2e.test.ts) and can be run on any reports folder an auditor receives.
 *
 * A finding never shows the secret itself: a card number is shown masked, anything else by its kind and length.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findCardNumbers, findKeyedSecrets, luhnValid, maskPan, SECRET_SYNTAX } from '../redact';

export type LeakKind = 'card-number' | 'security-code' | 'password' | 'authorization';

export interface Leak {
  readonly kind: LeakKind;
  /** A file path, or the name given to a captured text. */
  readonly source: string;
  readonly line: number;
  readonly column: number;
  /** What was found, masked. */
  readonly found: string;
}

export interface Credential {
  readonly user?: string;
  readonly password: string;
}

export interface ScanOptions {
  /** Passwords (and their users, for the basic-auth token) that must not appear anywhere. */
  readonly credentials?: readonly Credential[];
}

export interface FolderScan {
  readonly files: number;
  /** Binary files (images), which no text rule can read. */
  readonly binary: string[];
  readonly leaks: Leak[];
}

// The same quoting and escaping forms the masking reads (an escaped quote, `\x3C` for `<`, HTML entities).
const { quote: Q, keyStart: K } = SECRET_SYNTAX;
const AUTHORIZATION = new RegExp(`${K}(?:proxy-)?authorization${Q}?\\s*[:=]\\s*${Q}?\\s*(?:(?:basic|bearer|digest)\\s+)?([^"'&\\\\\\r\\n,}<]*)`, 'gi');

/** A value the masking left: the mask itself, `#` runs (maskedpan) or nothing. */
function isMasked(value: string): boolean {
  return /^[*#]*$/.test(value.trim()) || value.trim().startsWith('***');
}

/**
 * Digit runs that are not card numbers though they may pass the Luhn check: milliseconds since 1970 (13 digits,
 * 2001 to 2096: Allure's `start` and `stop`) and digits inside a hash or identifier in hex (Allure's history ids
 * are MD5 hex; 16, 32, 40 and 64 hex characters with at least one letter).
 */
function notACardNumber(text: string, index: number, digits: string): boolean {
  if (digits.length === 13 && /^[123]/.test(digits)) return true;
  let start = index;
  let end = index + digits.length;
  while (start > 0 && /[0-9a-fA-F]/.test(text[start - 1])) start--;
  while (end < text.length && /[0-9a-fA-F]/.test(text[end])) end++;
  const token = text.slice(start, end);
  return [16, 32, 40, 64].includes(token.length) && /[a-fA-F]/.test(token);
}

export function scanText(text: string, source: string, options: ScanOptions = {}): Leak[] {
  const leaks: Leak[] = [];
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const at = (index: number): { line: number; column: number } => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: index - lineStarts[lo] + 1 };
  };
  const push = (kind: LeakKind, index: number, found: string): void => {
    leaks.push({ kind, source, ...at(index), found });
  };

  for (const c of findCardNumbers(text)) {
    if (!notACardNumber(text, c.index, c.digits)) push('card-number', c.index, maskPan(c.digits));
  }
  // A value under a secret's key, as the dictionary spells it or as a client does (`cvv`, `card_number`): the
  // masking reads keys with the same function, so what it would hide and what the scan looks for are one set.
  for (const k of findKeyedSecrets(text)) {
    const v = k.value;
    if (isMasked(v)) continue;
    if (k.policy === 'security-code' && /[0-9]/.test(v)) push('security-code', k.index, `security code of ${v.length} character(s) under ${k.key}`);
    const digits = v.replace(/[ -]/g, '');
    // A Luhn-valid one is found above, wherever it stands; under a card number's key, any 12 to 19 digits are one.
    if (k.policy === 'card-number' && /^[0-9]{12,19}$/.test(digits) && !luhnValid(digits)) push('card-number', k.index, `${maskPan(digits)} under ${k.key}`);
  }
  for (const m of text.matchAll(AUTHORIZATION)) {
    const v = (m[1] ?? '').trim();
    if (v !== '' && !isMasked(v)) push('authorization', m.index ?? 0, `Authorization value of ${v.length} character(s)`);
  }
  for (const cred of options.credentials ?? []) {
    const needles = [cred.password];
    if (cred.user !== undefined) needles.push(Buffer.from(`${cred.user}:${cred.password}`).toString('base64'));
    for (const needle of needles) {
      if (needle.length < 4) continue;
      for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
        push('password', i, needle === cred.password ? `the password (${needle.length} characters)` : 'the basic-auth token of the password');
      }
    }
  }
  return leaks.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Scans every file under a folder (recursively). */
export function scanFolder(dir: string, options: ScanOptions = {}): FolderScan {
  const binary: string[] = [];
  const leaks: Leak[] = [];
  let files = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        files++;
        const content = fs.readFileSync(p);
        if (content.includes(0)) {
          binary.push(p);
          continue;
        }
        leaks.push(...scanText(content.toString('utf8'), p, options));
      }
    }
  };
  walk(dir);
  return { files, binary, leaks };
}

export function describeLeak(l: Leak): string {
  return `${l.source}:${l.line}:${l.column}: ${l.kind}: ${l.found}`;
}
