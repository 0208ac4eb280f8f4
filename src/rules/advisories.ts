/**
 * The SHOULD-level points the kit counts apart from findings: HTTP semantics the document relies on without
 * stating them, such as an answer declaring a media type other than the one the request accepted ("Request
 * headers: `Content-type: application/json`, `Accept: application/json`"; RFC 9110 12.5.1: a server that ignores
 * Accept answers in a form the client may not read). Each is a warning in every report; `cardspec run --strict`
 * fails the run on them, as `serve --contract --strict` fails the gate on its warnings.
 */
import type { Format } from '../wire/types';

/** One point, by the rule whose sentence it rests on. */
export interface Advisory {
  readonly rule: string;
  readonly message: string;
}

/** The attachment a scenario's advisories travel in, for the reports (src/report/messages.ts). */
export const ADVISORIES_MEDIA_TYPE = 'application/x.cardspec.advisories+json';

const mediaType = (v: string | undefined): string | undefined => v?.split(';')[0].trim().toLowerCase() || undefined;

/** Whether `type` is one the Accept header `accept` names (a `*` range included); no Accept accepts anything. */
function accepted(type: string, accept: string | undefined): boolean {
  if (!accept) return true;
  const [main] = type.split('/');
  return accept.split(',').some((range) => {
    const r = mediaType(range);
    return r === '*/*' || r === type || r === `${main}/*`;
  });
}

/** An answer whose Content-Type is not one its request accepted; undefined when it is (or declares none to read). */
export function acceptedMismatch(format: Format, headers: Readonly<Record<string, string>>, requestHeaders: Readonly<Record<string, string>>): Advisory | undefined {
  const find = (h: Readonly<Record<string, string>>, name: string): string | undefined => Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  const accept = find(requestHeaders, 'accept');
  const declared = mediaType(find(headers, 'content-type'));
  if (declared !== undefined && accepted(declared, accept)) return undefined;
  return {
    rule: 'TRANSPORT-HEADERS',
    message: `the ${format.toUpperCase()} answer declares ${declared === undefined ? 'no Content-Type' : `Content-Type "${declared}"`}; the request accepted "${accept ?? ''}" (the document's requests send Accept: application/json)`,
  };
}
