/**
 * Random values for `secrand`, generated `requestreference`s, `md`, `pareq`, `pares`, `xid` and cache tokens.
 * Drawn from a pooled buffer of crypto-random bytes, refilled in blocks, because the gateway draws several values
 * per request and one system call per value would cost more than the rest of a request.
 */
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.allocUnsafe(8192);
let pos = POOL.length;

function take(n: number): Buffer {
  if (n > POOL.length) return randomFillSync(Buffer.allocUnsafe(n));
  if (pos + n > POOL.length) {
    randomFillSync(POOL);
    pos = 0;
  }
  const out = POOL.subarray(pos, pos + n);
  pos += n;
  return out;
}

// 64 symbols, so that a byte maps to a symbol without bias (byte & 63).
const ALNUM64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Letters and digits only (62 symbols; a byte is drawn again when it falls outside them). */
export function randomAlnum(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = take(length - out.length + 4);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const b = bytes[i] & 63;
      if (b < 62) out += ALNUM64[b];
    }
  }
  return out;
}

/** An integer in [min, max], inclusive. */
export function randomInt(min: number, max: number): number {
  const span = max - min + 1;
  return min + (take(4).readUInt32BE(0) % span);
}

/** Base64 of `n` random bytes (3-D Secure v1 values are Base64). */
export function randomBase64(n: number): string {
  return Buffer.from(take(n)).toString('base64');
}

/** Lower-case hex of `n` random bytes. */
export function randomHex(n: number): string {
  return take(n).toString('hex');
}
