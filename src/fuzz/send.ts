/**
 * Sending a request with the one retry HTTP/1.1 allows for: a connection kept alive that the server closes just as
 * the next request goes out on it gives "closed before any answer" without the request having been read (the
 * keep-alive race, RFC 9112 section 9.3.1: a client may retry "if the connection closed before any response").
 * The request is sent once more; a target that drops it again fails the `answered` oracle. So one dropped
 * connection in a row is never a finding, two are.
 */
import type { Exchange, RawRequest, Target } from '../client/target';

/** The Target's words for a connection that closed before any byte of an answer (src/client/http.ts). */
const CLOSED_BEFORE_ANSWER = /closed before any answer/;

export function closedBeforeAnswer(ex: Exchange): boolean {
  return ex.error !== undefined && Object.keys(ex.headers).length === 0 && CLOSED_BEFORE_ANSWER.test(ex.error);
}

export async function sendWithRetry(send: () => Promise<Exchange>): Promise<Exchange> {
  const first = await send();
  return closedBeforeAnswer(first) ? send() : first;
}

/** `sendWithRetry` of one raw request, as a fuzz case sends it: no closure nor async frame per case. */
export function sendRawWithRetry(target: Target, raw: RawRequest): Promise<Exchange> {
  return target.sendRaw(raw).then((first) => (closedBeforeAnswer(first) ? target.sendRaw(raw) : first));
}
