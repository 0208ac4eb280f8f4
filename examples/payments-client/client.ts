/**
 * A small client of the Card Payment Web Service, of the kind an SDK or a merchant integration holds: one request
 * object per call, POSTed to `{base_url}/json/` with basic authentication, over the global `fetch` or over node's
 * `http.request`/`https.request` (both are what real Node SDKs use; cardspec/nock intercepts both).
 *
 * It is the client the example test (client.test.ts) certifies with `interceptGateway`, and the client the example
 * adapter (adapter.ts) drives through the client conformance cases of `cardspec serve --client-cmd`.
 */
import * as http from 'node:http';
import * as https from 'node:https';

export type Transport = 'fetch' | 'http';

export interface ClientOptions {
  /** The service's base address: requests go to `<baseUrl>/json/`. */
  readonly baseUrl: string;
  readonly username: string;
  readonly password: string;
  /** The operator account identifier sent in the body (defaults to the user name, as in the document's examples). */
  readonly alias?: string;
  readonly transport?: Transport;
}

/** One response part: every value a string, as the document says. */
export type Part = Record<string, unknown> & { requesttypedescription?: string; errorcode?: string; transactionreference?: string };

/** A request object: all values strings ("All values in JSON requests and responses are strings, including numbers"). */
export type RequestFields = Record<string, string | string[]>;

export interface Card {
  readonly pan: string;
  readonly expirydate: string;
  readonly securitycode?: string;
}

export class PaymentsClient {
  private readonly authorization: string;

  constructor(private readonly options: ClientOptions) {
    this.authorization = 'Basic ' + Buffer.from(`${options.username}:${options.password}`).toString('base64');
  }

  /** Sends one request object and gives back the response parts, in the order of the request types. */
  async send(request: RequestFields): Promise<Part[]> {
    const body = JSON.stringify({ alias: this.options.alias ?? this.options.username, version: '1.00', request: [request] });
    const headers = { Authorization: this.authorization, 'Content-Type': 'application/json', Accept: 'application/json' };
    const url = new URL('json/', this.options.baseUrl.endsWith('/') ? this.options.baseUrl : this.options.baseUrl + '/');
    const text = this.options.transport === 'http' ? await postWithHttp(url, headers, body) : await postWithFetch(url, headers, body);
    const envelope = JSON.parse(text) as { response?: Part[] };
    if (!Array.isArray(envelope.response)) throw new Error('the answer holds no response parts');
    return envelope.response;
  }

  /** STORE: the card and billing details for later use; the security code is never sent ("Must not be sent in STORE"). */
  async storeCard(sitereference: string, card: Card, orderreference: string): Promise<Part> {
    const [part] = await this.send({ requesttypedescriptions: ['STORE'], sitereference, orderreference, accounttypedescription: 'CARDSTORE', pan: card.pan, expirydate: card.expirydate });
    return part;
  }

  /** An ordinary AUTH on a stored card: the card is inherited through `parenttransactionreference`. */
  async payWithStoredCard(sitereference: string, storeReference: string, amountMinorUnits: number, currency: string): Promise<Part> {
    const [part] = await this.send({
      requesttypedescriptions: ['AUTH'],
      sitereference,
      accounttypedescription: 'ECOM',
      currencyiso3a: currency,
      // Minor units as a string of digits: the amount is never sent as a JSON number.
      baseamount: String(Math.round(amountMinorUnits)),
      parenttransactionreference: storeReference,
    });
    return part;
  }

  /** THREEDQUERY on what the JavaScript library posted to the merchant (`cachetoken`), with the customer's headers. */
  async threeDQuery(sitereference: string, cachetoken: string, amountMinorUnits: number, currency: string, browser: { accept: string; userAgent: string }, termurl: string): Promise<Part> {
    const [part] = await this.send({
      requesttypedescriptions: ['THREEDQUERY'],
      sitereference,
      accounttypedescription: 'ECOM',
      currencyiso3a: currency,
      baseamount: String(Math.round(amountMinorUnits)),
      cachetoken,
      termurl,
      accept: browser.accept,
      useragent: browser.userAgent,
    });
    return part;
  }

  /** The AUTH after the ACS: `md` and `pares` exactly as they came back, nothing else. */
  async authoriseAfterThreeDSecure(md: string, pares: string): Promise<Part> {
    const [part] = await this.send({ requesttypedescriptions: ['AUTH'], md, pares });
    return part;
  }
}

function postWithFetch(url: URL, headers: Record<string, string>, body: string): Promise<string> {
  return fetch(url, { method: 'POST', headers, body }).then((res) => {
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return res.text();
  });
}

function postWithHttp(url: URL, headers: Record<string, string>, body: string): Promise<string> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
