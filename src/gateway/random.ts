/**
 * Random values for `secrand`, generated `requestreference`s, `md`, `pareq`, `pares`, `xid` and cache tokens.
 * Drawn from a pooled buffer of crypto-random bytes, refilled in blocks, because the gateway draws several values
 * per request and one system call per value would cost more than the rest of a request.
 */
import { randomFillSync } from 'node:crypto';

/**
 * Refilled in large blocks: a call of `randomFillSync` costs several microseconds however few bytes it fills (in the
 * server, with its caches cold, the calls for 2 KB blocks were about half a microsecond per AUTH: docs/bench.md).
 */
const POOL = Buffer.allocUnsafe(65536);
let pos = POOL.length;

/**
 * `n` fresh random bytes of the pool written as text (`base64`, `hex`), read in place: a view of the pool would be
 * an object per value.
 */
function takeAs(n: number, encoding: 'base64' | 'hex'): string {
  if (n > POOL.length) return randomFillSync(Buffer.allocUnsafe(n)).toString(encoding);
  if (pos + n > POOL.length) {
    randomFillSync(POOL);
    pos = 0;
  }
  const out = POOL.toString(encoding, pos, pos + n);
  pos += n;
  return out;
}

// 64 symbols, so that a byte maps to a symbol without bias (byte & 63).
const ALNUM64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const ALNUM64_CODES = Buffer.from(ALNUM64, 'latin1');

/**
 * Letters and digits drawn in blocks: each symbol uniform over the 62 (a byte whose low six bits fall outside them
 * is dropped), kept as one flat string that values are sliced from, so a value costs a slice, not a loop of
 * concatenations. Every symbol is used once.
 */
let alnumBlock = '';
let alnumPos = 0;

/** Bytes drawn per block of letters and digits (about 540 requests' `secrand` and `requestreference`). */
const ALNUM_BLOCK = 16384;

function refillAlnum(): void {
  const bytes = randomFillSync(Buffer.allocUnsafe(ALNUM_BLOCK));
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] & 63;
    if (b < 62) bytes[n++] = ALNUM64_CODES[b];
  }
  alnumBlock = bytes.toString('latin1', 0, n);
  alnumPos = 0;
}

/** Letters and digits only (62 symbols). */
export function randomAlnum(length: number): string {
  let out = '';
  while (out.length < length) {
    if (alnumPos >= alnumBlock.length) refillAlnum();
    const want = Math.min(length - out.length, alnumBlock.length - alnumPos);
    out += alnumBlock.slice(alnumPos, alnumPos + want);
    alnumPos += want;
  }
  return out;
}

/** An integer in [min, max], inclusive. Read from the pool in place: a view of it would be an object per call. */
export function randomInt(min: number, max: number): number {
  const span = max - min + 1;
  if (pos + 4 > POOL.length) {
    randomFillSync(POOL);
    pos = 0;
  }
  const n = POOL.readUInt32BE(pos);
  pos += 4;
  return min + (n % span);
}

/** Base64 of `n` random bytes (3-D Secure v1 values are Base64). */
export function randomBase64(n: number): string {
  return takeAs(n, 'base64');
}

/** Lower-case hex of `n` random bytes. */
export function randomHex(n: number): string {
  return takeAs(n, 'hex');
}
