/**
 * Shared helpers of the gateway tests: a real gateway on 127.0.0.1 (port 0), a client that speaks to it with
 * fetch the way the document shows (basic auth, `{alias, version, request:[...]}`), the control API and the ACS
 * round trip as a program does it (two form POSTs).
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/gateway';
import { DEFAULT_CONFIG, TEST_CARDS, type CardName } from '../../src/testdata';

export const USER = DEFAULT_CONFIG.users[0];
export const SITE = 'test_site12345';
export const SITE_6012 = 'test_site6012';
export const SITE_BASIC = 'test_basic12345';
export const AUTH_HEADER = 'Basic ' + Buffer.from(`${USER.username}:${USER.password}`).toString('base64');

export type Obj = Record<string, unknown>;
export type Part = Record<string, unknown>;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: { requestreference?: unknown; version?: unknown; response: Part[]; secrand?: unknown; [k: string]: unknown };
}

/** A card of the test data table as request fields. */
export function card(name: CardName, withCode = true): Obj {
  const c = TEST_CARDS[name];
  return withCode ? { pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode } : { pan: c.pan, expirydate: c.expirydate };
}

/** The payment fields every payment row sends. */
export const PAYMENT = { sitereference: SITE, accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: '1050' } as const;

export const SUBSCRIPTION_FIELDS = {
  subscriptiontype: 'RECURRING',
  subscriptionunit: 'MONTH',
  subscriptionfrequency: '1',
  subscriptionnumber: '1',
  subscriptionfinalnumber: '12',
  subscriptionbegindate: '2026-02-05',
  credentialsonfile: '1',
} as const;

export class Client {
  #gw: RunningGateway | undefined;

  constructor(gw?: RunningGateway) {
    this.#gw = gw;
  }

  /** The gateway under test; set when the suite's `before` hook has started it (see `useGateway`). */
  get gw(): RunningGateway {
    if (!this.#gw) throw new Error('the gateway is not started yet: use the client inside a test');
    return this.#gw;
  }

  set gw(gw: RunningGateway) {
    this.#gw = gw;
  }

  get url(): string {
    return this.gw.url;
  }

  /** POSTs a raw body to a path with the given headers (basic auth and JSON content type unless overridden). */
  async raw(path: string, body: string | Buffer | undefined, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
    return fetch(this.url + path, {
      method,
      headers: { Authorization: AUTH_HEADER, 'Content-Type': 'application/json', ...headers },
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
    });
  }

  /** Sends one request object (or a whole envelope with `envelope`) to /json/ and reads the JSON answer. */
  async send(request: Obj | Obj[], opts: { envelope?: Obj; headers?: Record<string, string> } = {}): Promise<Reply> {
    const envelope = opts.envelope ?? { alias: USER.alias, version: '1.00', request: Array.isArray(request) ? request : [request] };
    const res = await this.raw('/json/', JSON.stringify(envelope), opts.headers);
    const text = await res.text();
    assert.equal(res.status, 200, `HTTP ${res.status}: ${text}`);
    return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
  }

  /** One request object, one part expected: the part. */
  async part(request: Obj): Promise<Part> {
    const r = await this.send(request);
    assert.equal(r.json.response.length, 1, JSON.stringify(r.json));
    return r.json.response[0];
  }

  async ok(request: Obj): Promise<Part> {
    const p = await this.part(request);
    assert.equal(p.errorcode, '0', JSON.stringify(p));
    return p;
  }

  async control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: Obj }> {
    const res = await fetch(`${this.url}/_cardspec/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Obj };
  }

  async advance(body: Obj): Promise<Obj> {
    const r = await this.control('POST', 'clock', body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  }

  async token(name: CardName): Promise<string> {
    const r = await this.control('POST', 'cachetokens', card(name));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.cachetoken as string;
  }

  async record(ref: string): Promise<Obj> {
    const r = await this.control('GET', `transactions/${ref}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  }

  async children(ref: string): Promise<Obj[]> {
    const r = await this.control('GET', `transactions?parenttransactionreference=${encodeURIComponent(ref)}`);
    assert.equal(r.status, 200);
    return r.body.records as Obj[];
  }

  /** A form POST (the customer's browser). */
  async form(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    return { status: res.status, html: await res.text() };
  }

  /**
   * The ACS round trip as a browser would do it: POST PaReq/TermUrl/MD to `acsurl`, submit the page's form (with
   * the outcome preselected, or `outcome`), read `PaRes` and `MD` off the page that posts back to TermUrl.
   */
  async acs(query: Part, termurl = 'https://merchant.example/return?x=1&y=2', outcome?: string): Promise<{ pares: string; md: string; preset: string }> {
    const first = await this.form(String(query.acsurl), { PaReq: String(query.pareq), TermUrl: termurl, MD: String(query.md) });
    assert.equal(first.status, 200, first.html);
    const preset = /<option value="([YNAU])" selected>/.exec(first.html)?.[1] ?? '';
    const fields = Object.fromEntries([...first.html.matchAll(/<input type="hidden" id="[^"]*" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescapeHtml(m[2])]));
    const action = /<form id="acs-form" method="post" action="([^"]+)">/.exec(first.html)?.[1];
    assert.ok(action, 'the ACS page has a form');
    const second = await this.form(new URL(action, String(query.acsurl)).toString(), { ...fields, outcome: outcome ?? preset });
    assert.equal(second.status, 200, second.html);
    const back = /<form id="acs-return" method="post" action="([^"]+)">/.exec(second.html)?.[1];
    assert.equal(unescapeHtml(back ?? ''), termurl, 'the page posts back to TermUrl');
    const ret = Object.fromEntries([...second.html.matchAll(/<input type="hidden" id="[^"]*" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescapeHtml(m[2])]));
    assert.deepEqual(Object.keys(ret).sort(), ['MD', 'PaRes']);
    return { pares: ret.PaRes, md: ret.MD, preset };
  }

  /** THREEDQUERY for a card (by cache token), then the ACS, then the AUTH with `md` and `pares` only. */
  async threeDsAuth(name: CardName, outcome?: string): Promise<{ query: Part; auth: Part }> {
    const query = await this.ok(threedquery(await this.token(name)));
    assert.equal(query.enrolled, 'Y');
    const { pares, md } = await this.acs(query, undefined, outcome);
    const auth = await this.part({ requesttypedescriptions: ['AUTH'], md, pares });
    return { query, auth };
  }
}

export function threedquery(cachetoken: string, extra: Obj = {}): Obj {
  return {
    requesttypedescriptions: ['THREEDQUERY'],
    termurl: 'https://merchant.example/return',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    useragent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    cachetoken,
    currencyiso3a: 'GBP',
    accounttypedescription: 'ECOM',
    sitereference: SITE,
    baseamount: '1050',
    ...extra,
  };
}

export function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

/** Starts a gateway for one test file (control on, frozen clock) and closes it after. */
/**
 * A gateway for the whole test file: started before the first test, closed after the last. The client it returns
 * is usable inside tests (its gateway is attached in the `before` hook).
 */
export function useGateway(opts: GatewayOptions = {}): Client {
  const client = new Client();
  before(async () => {
    client.gw = await startGateway({ control: true, ...opts });
  });
  after(() => client.gw.close());
  return client;
}

export async function gateway(opts: GatewayOptions = {}): Promise<{ client: Client; gw: RunningGateway }> {
  const gw = await startGateway({ control: true, ...opts });
  return { client: new Client(gw), gw };
}

/** The paths of every string in `value` equal to `needle`. */
export function valuesEqualTo(value: unknown, needle: string, at = '$'): string[] {
  if (typeof value === 'string') return value === needle ? [at] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => valuesEqualTo(v, needle, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => valuesEqualTo(v, needle, `${at}.${k}`));
  return [];
}

/**
 * `cardspec serve` run in this process (the same `run` the CLI calls) with what it prints captured, so that usage
 * checks cost no process start. `restore` is kept for the callers' `finally` (nothing of the process is replaced).
 */
export function serveInProcess(): { run(...args: string[]): Promise<{ code: number; text: string }>; restore(): void } {
  const printed: string[] = [];
  const sink = { write: (text: string) => void printed.push(text.replace(/\n$/, '')) };
  return {
    async run(...args) {
      printed.length = 0;
      // Loaded here, not at the top: the other gateway tests need none of the CLI.
      const { run: serveCommand } = await import('../../src/cli/serve');
      const code = await serveCommand(args, { out: sink, err: sink, cwd: process.cwd() });
      return { code, text: printed.join('\n') };
    },
    restore() {},
  };
}
