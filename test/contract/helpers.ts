/**
 * Shared helpers of the contract tests: a stand-in gateway on 127.0.0.1 (port 0), and a client that sends what a
 * test tells it to, the way a real client would (fetch, basic auth, the JSON envelope), including the ACS round trip
 * a browser makes.
 */
import assert from 'node:assert/strict';
import { startContractGateway, type ContractOptions, type RunningContractGateway } from '../../src/contract';
import type { CardName } from '../../src/testdata';

// The built-in account, card fields and payment fields are the gateway tests' own: one place for both suites.
import { AUTH_HEADER, card, type Obj, PAYMENT, SITE, SUBSCRIPTION_FIELDS, USER } from '../gateway/helpers';

export { AUTH_HEADER, card, type Obj, PAYMENT, SITE, USER };
export const JSON_HEADERS = { Authorization: AUTH_HEADER, 'Content-Type': 'application/json', Accept: 'application/json' };

/** The subscription fields without `credentialsonfile`, which the contract checks look at on their own. */
const { credentialsonfile: _onFile, ...subscription } = SUBSCRIPTION_FIELDS;
export const SUBSCRIPTION = subscription;

export const envelope = (request: Obj | Obj[]): Obj => ({ alias: USER.alias, version: '1.00', request: Array.isArray(request) ? request : [request] });

export class Sender {
  constructor(readonly gw: RunningContractGateway) {}

  /** POSTs a body as is; answers the status and the text. */
  async raw(path: string, body: string | Buffer | undefined, headers: Record<string, string> = JSON_HEADERS, method = 'POST'): Promise<{ status: number; text: string; headers: Headers }> {
    const res = await fetch(this.gw.url + path, { method, headers, body: method === 'GET' ? undefined : body });
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  /** One request object in the envelope; the parts answered. */
  async send(request: Obj | Obj[], headers: Record<string, string> = JSON_HEADERS): Promise<Obj[]> {
    const r = await this.raw('/json/', JSON.stringify(envelope(request)), headers);
    assert.equal(r.status, 200, r.text);
    return (JSON.parse(r.text) as { response: Obj[] }).response;
  }

  async part(request: Obj): Promise<Obj> {
    const parts = await this.send(request);
    assert.equal(parts.length, 1, JSON.stringify(parts));
    return parts[0];
  }

  async ok(request: Obj): Promise<Obj> {
    const p = await this.part(request);
    assert.equal(p.errorcode, '0', JSON.stringify(p));
    return p;
  }

  /** A cache token from the control API (what the JavaScript library posts to the merchant). */
  async token(name: CardName): Promise<string> {
    const res = await fetch(`${this.gw.url}/_cardspec/cachetokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(card(name)) });
    const body = (await res.json()) as { cachetoken: string };
    assert.ok(body.cachetoken);
    return body.cachetoken;
  }

  /** The customer's browser at the ACS: the `md` and `pares` it brings back. */
  async acs(query: Obj, outcome?: string): Promise<{ md: string; pares: string }> {
    const post = async (url: string, fields: Record<string, string>): Promise<string> => {
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
      const html = await res.text();
      assert.equal(res.status, 200, html);
      return html;
    };
    const hidden = (html: string): Record<string, string> =>
      Object.fromEntries(
        [...html.matchAll(/<input type="hidden" id="[^"]*" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
          m[1],
          m[2]
            .replace(/&amp;/g, '&')
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>'),
        ]),
      );
    const first = await post(String(query.acsurl), { PaReq: String(query.pareq), TermUrl: 'https://merchant.example/return', MD: String(query.md) });
    const preset = /<option value="([YNAU])" selected>/.exec(first)?.[1] ?? 'Y';
    const second = await post(new URL('complete', String(query.acsurl)).toString(), { ...hidden(first), outcome: outcome ?? preset });
    const back = hidden(second);
    return { md: back.MD, pares: back.PaRes };
  }

  threedquery(cachetoken: string, extra: Obj = {}): Obj {
    return {
      requesttypedescriptions: ['THREEDQUERY'],
      termurl: 'https://merchant.example/return',
      accept: 'text/html,application/xhtml+xml',
      useragent: 'Mozilla/5.0 (test)',
      cachetoken,
      currencyiso3a: 'GBP',
      accounttypedescription: 'ECOM',
      sitereference: SITE,
      baseamount: '1050',
      ...extra,
    };
  }
}

/** A stand-in gateway (control API on, clock frozen) for one test; closed by the caller. */
export async function standIn(opts: ContractOptions = {}): Promise<{ gw: RunningContractGateway; client: Sender }> {
  const gw = await startContractGateway({ control: true, ...opts });
  return { gw, client: new Sender(gw) };
}

/** The rules of the violations so far, in order (one severity, or both). */
export function rules(gw: RunningContractGateway, severity?: 'error' | 'warning'): string[] {
  return gw.session.violations(severity).map((v) => v.rule);
}
