/**
 * The floor any gateway of this interface pays: a plain Node `http` server that checks the basic-auth header, reads
 * the body, parses the JSON and answers a fixed envelope (the reference gateway's own answer to the same request,
 * as bytes made once: AUTH, THREEDQUERY, or AUTH after a THREEDQUERY, chosen by the request's first type and its
 * parent reference). Unlike the bare server (./bare.ts) it builds no answer: the gap between it and the gateway is
 * everything a gateway does beyond reading the request (issue 31). It writes its answers as the gateway and the bare
 * server do, together at the end of each turn of the event loop (src/gateway/answers.ts): on 2 cores at 10
 * connections that costs less CPU per request than writing each answer at once, so this is the cheaper of the two
 * ways, the floor. It tells its CPU time when asked (./cpu.ts).
 */
import type { BareConfig } from './bare';
import { serveJson, startOnConfig } from './json-child';

function start(config: BareConfig): void {
  serveJson(config.authorization, (request) => {
    const types = request.requesttypedescriptions;
    return Array.isArray(types) && types[0] === 'THREEDQUERY' ? config.threedquery : request.parenttransactionreference ? config.authAfter : config.auth;
  });
}

startOnConfig(start);
