/**
 * The ceiling: a bare Node `http` server that does the least any server of this interface must do. It checks the
 * basic-auth header, reads the body, parses the JSON, picks the answer by `requesttypedescriptions` and writes an
 * envelope of the same shape and size as the reference gateway's (the templates are the gateway's own answers to
 * the same payloads), with a fresh `transactionreference`. No field checks, no ledger, no masking. It writes its
 * answers at the end of each turn of the event loop, as the gateway does (src/gateway/answers.ts), so that the two
 * differ in what they do per request, not in how they write. It tells its CPU time when asked (./cpu.ts).
 */
import { serveJson, startOnConfig, type RequestObject } from './json-child';

export interface BareConfig {
  readonly type: 'config';
  readonly authorization: string;
  /** Response envelopes (JSON text) of the reference gateway: AUTH, THREEDQUERY, and AUTH after a THREEDQUERY. */
  readonly auth: string;
  readonly threedquery: string;
  readonly authAfter: string;
}

type Part = Record<string, unknown>;
type Envelope = { response: Part[] } & Record<string, unknown>;

function start(config: BareConfig): void {
  const templates = {
    auth: JSON.parse(config.auth) as Envelope,
    threedquery: JSON.parse(config.threedquery) as Envelope,
    authAfter: JSON.parse(config.authAfter) as Envelope,
  };
  let n = 0;
  serveJson(config.authorization, (request: RequestObject) => {
    const types = request.requesttypedescriptions;
    const first = Array.isArray(types) ? types[0] : undefined;
    const parent = request.parenttransactionreference;
    const template = first === 'THREEDQUERY' ? templates.threedquery : parent ? templates.authAfter : templates.auth;
    n++;
    const part: Part = { ...template.response[0], transactionreference: `99-9-${n}` };
    if (typeof parent === 'string') part.parenttransactionreference = parent;
    return JSON.stringify({ ...template, requestreference: `A${n.toString(36)}`, response: [part] });
  });
}

startOnConfig(start);
