/**
 * A stream for cucumber's console formatter (`runCucumber(..., { stdout: redactingStream(process.stdout) })`):
 * cucumber prints a failing step's error as it is, and an assertion message may quote a request. Text is masked
 * a whole line at a time, so that a card number split across two writes is still seen whole.
 */
import { Writable } from 'node:stream';
import { redactText } from '../redact';

export function redactingStream(target: { write(chunk: string): unknown }): Writable {
  let pending = '';
  return new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, callback) {
      pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const cut = pending.lastIndexOf('\n');
      if (cut >= 0) {
        target.write(redactText(pending.slice(0, cut + 1)));
        pending = pending.slice(cut + 1);
      }
      // The progress formatter's dots and letters can go at once: they cannot be part of a secret.
      if (/^[.FUPAS?-]+$/.test(pending)) {
        target.write(pending);
        pending = '';
      }
      callback();
    },
    final(callback) {
      if (pending) target.write(redactText(pending));
      pending = '';
      callback();
    },
  });
}
