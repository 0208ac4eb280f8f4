/**
 * The stand-in gateway of contract testing: the reference gateway (it answers exactly as `cardspec serve` does, so a
 * real client keeps working) with a contract session on its `observe` hook, and `GET /_cardspec/contract` answering
 * the report so far. In scenario mode (client conformance cases) the answers of the next call can be changed
 * through the gateway's `mutate` hook: extra unknown fields, another `secrand`, an error code the client must pass on.
 */
import { REPORT_PATH } from './paths';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createGateway, DEFAULT_CONFIG, listen, normaliseBasePath, type GatewayMutation, type GatewayOptions, type InProcessGateway, type ObservedCall } from '../gateway';
import { underBasePath } from '../gateway/routes/base-path';
import { contentTypeOk, utf8Text } from '../gateway/routes/http';
import { withAliasedAccount } from './accounts';
import { registerCredential } from '../redact';
import { reportJson } from './report';
import { ContractSession } from './session';

export interface ContractOptions extends GatewayOptions {
  /** Warnings fail the gate too (`--strict`). */
  strict?: boolean;
  /** Let `setMutation` change the answers call by call (client conformance cases). */
  scenarios?: boolean;
}

export interface ContractGateway {
  /** The request handler: the reference gateway's, plus `GET /_cardspec/contract`. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  readonly session: ContractSession;
  readonly gateway: InProcessGateway;
  /** The path of the base address served (`/api`), normalised; `''` for none. */
  readonly basePath: string;
  /** Scenario mode: how the gateway's parts and envelope are changed from now on (undefined: not at all). */
  setMutation(mutation: GatewayMutation | undefined): void;
  /** Shows a call to the session (and the watcher, and the options' observer): what the handler's own calls go through. */
  observe(call: ObservedCall): void;
  /** Scenario mode: sees every call from now on, as the session does (undefined: no one). The client cases' exchange. */
  watch(observer: ((call: ObservedCall) => void) | undefined): void;
}

export interface RunningContractGateway extends ContractGateway {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export { REPORT_PATH } from './paths';

function scenarioMutation(base: GatewayMutation | undefined, current: () => GatewayMutation | undefined): GatewayMutation {
  return {
    ...base,
    part: (part, ctx) => {
      const m = current()?.part ?? base?.part;
      return m ? m(part, ctx) : part;
    },
    envelope: (env, ctx) => {
      const m = current()?.envelope ?? base?.envelope;
      return m ? m(env, ctx) : env;
    },
  };
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A form larger than this goes to the ACS unjudged (its own limit answers it). */
const ACS_FORM_LIMIT = 1 << 20;

export function createContractGateway(opts: ContractOptions = {}, baseUrl?: () => string): ContractGateway {
  let current: GatewayMutation | undefined;
  let watcher: ((call: ObservedCall) => void) | undefined;
  // The session reads the gateway's ledger, and the gateway calls the session: it is set right after the gateway is
  // made, before any call can come.
  let session: ContractSession | undefined;
  const observe = (call: ObservedCall): void => {
    session?.observe(call);
    watcher?.(call);
    opts.observe?.(call);
  };
  const gateway = createGateway(
    {
      ...opts,
      // The base path is served around the report's path too (below), so the gateway inside has none.
      basePath: undefined,
      // The client cases include an account whose alias is not its user name.
      config: opts.scenarios ? withAliasedAccount(opts.config ?? DEFAULT_CONFIG) : opts.config,
      mutate: opts.scenarios ? scenarioMutation(opts.mutate, () => current) : opts.mutate,
      observe,
    },
    baseUrl,
  );
  // The accounts' passwords are secrets wherever a client puts them (a field name, a path, a value quoted in a
  // finding): the CLI registers them, and so must the library entries (cardspec/nock, startContractGateway).
  for (const u of gateway.config.users) registerCredential(u.username, u.password);
  const ready = new ContractSession(gateway.ledger, { strict: opts.strict });
  session = ready;
  const basePath = normaliseBasePath(opts.basePath ?? '');
  // The form posted to `acsurl` is read on its way to the ACS, which gets the bytes as they come (its own limits and
  // answers unchanged): what the ACS accepts but the document does not (a TermUrl that is not the merchant's
  // termurl) is the gate's to say. Only the first ACS_FORM_LIMIT bytes are kept for that.
  const acsForm = (req: IncomingMessage, res: ServerResponse): void => {
    const copy = Object.assign(new Readable({ read: () => undefined }), { method: req.method, url: req.url, headers: req.headers });
    const kept: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= ACS_FORM_LIMIT) kept.push(c);
      copy.push(c);
    });
    req.on('error', (err) => copy.destroy(err));
    req.on('end', () => {
      copy.push(null);
      // Only a form the ACS takes (its own media-type test), read as the ACS reads it.
      if (size > ACS_FORM_LIMIT || !contentTypeOk(req.headers['content-type'], [FORM_TYPE]) || req.headers['content-encoding'] !== undefined) return;
      const form = new URLSearchParams(utf8Text(Buffer.concat(kept)));
      const get = (name: string): string | undefined => form.get(name) ?? undefined;
      ready.observeAcsForm({ md: get('MD'), pareq: get('PaReq'), termUrl: get('TermUrl') });
    });
    // The copy stands in for node:http's request: the gateway reads its method, url, headers and body only.
    gateway.handle(copy as unknown as IncomingMessage, res);
  };
  const handleAtRoot = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    if (req.method === 'POST' && /^\/acs\/?$/.test(path)) return acsForm(req, res);
    if (path !== REPORT_PATH) return gateway.handle(req, res);
    req.resume();
    if (req.method !== 'GET') {
      res.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET' });
      res.end(`405 Method Not Allowed: GET ${REPORT_PATH}\n`);
      return;
    }
    const body = reportJson(ready.report());
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const handle = underBasePath(basePath, handleAtRoot, observe);
  return {
    handle,
    session: ready,
    gateway,
    basePath,
    observe,
    setMutation: (m) => {
      if (!opts.scenarios) throw new Error('setMutation needs a contract gateway created with scenarios: true');
      current = m;
    },
    watch: (observer) => {
      if (!opts.scenarios) throw new Error('watch needs a contract gateway created with scenarios: true');
      watcher = observer;
    },
  };
}

/** The stand-in gateway on a socket (loopback and a free port unless given), as `cardspec serve --contract` runs it. */
export async function startContractGateway(opts: ContractOptions = {}): Promise<RunningContractGateway> {
  let url = '';
  const cg = createContractGateway(opts, () => url);
  const socket = await listen(cg.handle, cg.gateway.runtime, opts, (u) => (url = u), cg.observe);
  return { ...cg, url: socket.url, port: socket.port, close: socket.close };
}
