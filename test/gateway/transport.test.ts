/**
 * Endpoints > Transport and Authentication: every bad input of the issue gets a clear answer (an ERROR envelope
 * where one can be read, else a 4xx), never a 5xx; and the official SDKs' request shapes are answered without error.
 */
import assert from 'node:assert/strict';
import { brotliCompressSync, gzipSync, deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { AUTH_HEADER, card, type Obj, PAYMENT, useGateway, USER } from './helpers';

const client = useGateway({ bodyLimit: 64 * 1024 });

const envelope = (request: Obj, extra: Obj = {}): Obj => ({ alias: USER.alias, version: '1.00', request: [request], ...extra });
const authRequest = (): Obj => ({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });

async function errorPart(res: Response): Promise<Obj> {
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  const body = (await res.json()) as { response: Obj[]; version: string; requestreference: string; secrand: string };
  assert.equal(body.version, '1.00');
  assert.equal(body.response.length, 1);
  return body.response[0];
}

describe('authentication', () => {
  for (const [what, header] of [
    ['missing credentials', undefined],
    ['a wrong password', 'Basic ' + Buffer.from(`${USER.username}:wrong`).toString('base64')],
    ['an unknown user', 'Basic ' + Buffer.from(`nobody:${USER.password}`).toString('base64')],
    ['a header that is not basic', 'Bearer abc'],
    ['garbage', 'Basic !!!'],
  ] as const) {
    it(`${what}: 401 with WWW-Authenticate: Basic`, async () => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (header) headers.Authorization = header;
      const res = await fetch(`${client.url}/json/`, { method: 'POST', headers, body: JSON.stringify(envelope(authRequest())) });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
      assert.doesNotMatch(await res.text(), /cardspec-password-1/);
    });
  }

  it('an alias other than the user’s: ERROR part, 30000 naming alias', async () => {
    const p = await errorPart(await client.raw('/json/', JSON.stringify(envelope(authRequest(), { alias: 'someone-else' }))));
    assert.deepEqual([p.requesttypedescription, p.errorcode, p.errordata], ['ERROR', '30000', ['alias']]);
  });
});

describe('bad input', () => {
  it('malformed JSON: HTTP 200, one ERROR part (30000, errordata request), nothing stored', async () => {
    const size = client.gw.ledger.size;
    for (const body of ['{', '{"alias": }', 'not json', '', '\u0000\u0001', `{"request":[{"pan":"4111111111111111"`]) {
      const res = await client.raw('/json/', body);
      const text = await res.clone().text();
      const p = await errorPart(res);
      assert.deepEqual([p.requesttypedescription, p.errorcode, p.errordata], ['ERROR', '30000', ['request']]);
      assert.match(String(p.errormessage), /Malformed JSON/);
      assert.doesNotMatch(text, /4111111111111111/);
    }
    assert.equal(client.gw.ledger.size, size);
  });

  it('JSON that is not an envelope: ERROR part naming what is wrong', async () => {
    const cases: [string, string[]][] = [
      ['[]', ['request']],
      ['42', ['request']],
      ['null', ['request']],
      [JSON.stringify({ alias: USER.alias, version: '1.00' }), ['request']],
      [JSON.stringify({ alias: USER.alias, version: '1.00', request: [] }), ['request']],
      [JSON.stringify({ alias: USER.alias, version: '1.00', request: {} }), ['request']],
      [JSON.stringify({ alias: USER.alias, version: '2.00', request: [authRequest()] }), ['version']],
      [JSON.stringify({ alias: USER.alias, request: [authRequest()] }), ['version']],
      [JSON.stringify({ version: '1.00', request: [authRequest()] }), ['alias']],
      [JSON.stringify({ alias: USER.alias, version: '1.00', request: Array.from({ length: 11 }, authRequest) }), ['request']],
    ];
    for (const [body, errordata] of cases) {
      const p = await errorPart(await client.raw('/json/', body));
      assert.deepEqual([p.requesttypedescription, p.errorcode, p.errordata], ['ERROR', '30000', errordata], body);
    }
  });

  it('a request object that is not an object, or without request types: one ERROR part', async () => {
    for (const request of ['AUTH', 42, null, [], { sitereference: 'x' }, { requesttypedescriptions: [] }, { requesttypedescriptions: 'AUTH' }, { requesttypedescriptions: [1] }]) {
      const r = await client.send([], { envelope: { alias: USER.alias, version: '1.00', request: [request] } });
      assert.equal(r.json.response.length, 1, JSON.stringify(request));
      assert.deepEqual([r.json.response[0].requesttypedescription, r.json.response[0].errorcode], ['ERROR', '30000']);
    }
  });

  it('a value of the wrong JSON type: 30000 naming the field (all values are strings)', async () => {
    for (const [field, value] of [
      ['baseamount', 1050],
      ['pan', 4111111111111111],
      ['securitycode', true],
      ['billingtown', { a: 1 }],
      ['orderreference', ['x']],
    ] as const) {
      const p = await client.part({ ...authRequest(), [field]: value });
      assert.deepEqual([p.errorcode, p.errordata], ['30000', [field]]);
    }
  });

  it('an unknown request type: 60018 Invalid requesttype for that part', async () => {
    const p = await client.part({ ...authRequest(), requesttypedescriptions: ['PAYOUT'] });
    assert.deepEqual([p.requesttypedescription, p.errorcode, p.errormessage], ['PAYOUT', '60018', 'Invalid requesttype']);
  });

  it('a wrong content type: 415 (a charset is not the media type: test/gateway/encodings.test.ts)', async () => {
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'text/json', '']) {
      const res = await client.raw('/json/', JSON.stringify(envelope(authRequest())), { 'Content-Type': ct });
      assert.equal(res.status, 415, ct);
      assert.match(await res.text(), /application\/json/);
    }
    const xml = await client.raw('/xml/', '<requestblock/>', { 'Content-Type': 'application/json' });
    assert.equal(xml.status, 415);
  });

  it('a body over the limit: 413, declared or streamed, and after inflating gzip', async () => {
    const big = JSON.stringify(envelope({ ...authRequest(), orderreference: 'x'.repeat(70 * 1024) }));
    assert.equal((await client.raw('/json/', big)).status, 413);
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await fetch(`${client.url}/json/`, { method: 'POST', headers: { Authorization: AUTH_HEADER, 'Content-Type': 'application/json' }, body: streamed, duplex: 'half' } as RequestInit);
    assert.equal(res.status, 413);
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 32));
    assert.ok(bomb.length < 64 * 1024);
    assert.equal((await client.raw('/json/', bomb, { 'Content-Encoding': 'gzip' })).status, 413);
    assert.equal((await client.raw('/json/', brotliCompressSync(Buffer.alloc(10 * 1024 * 1024, 32)), { 'Content-Encoding': 'br' })).status, 413);
  });

  it('a gzip body that does not inflate: 400; an unknown encoding: 415', async () => {
    assert.equal((await client.raw('/json/', Buffer.from('not gzip'), { 'Content-Encoding': 'gzip' })).status, 400);
    assert.equal((await client.raw('/json/', '{}', { 'Content-Encoding': 'zstd' })).status, 415);
  });

  it('other methods: 405 with Allow: POST; other paths: 404', async () => {
    const get = await client.raw('/json/', undefined, {}, 'GET');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await client.raw('/json/', '{}', {}, 'PUT')).status, 405);
    assert.equal((await client.raw('/other/', '{}')).status, 404);
    assert.equal((await client.raw('/_cardspec/nothing', '{}')).status, 404);
  });

  it('random garbage never gives a 5xx', async () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ['{', '}', '[', ']', '"alias"', '"request"', ':', ',', '"AUTH"', 'null', '1', '"requesttypedescriptions"', '"pan"', '"\\u0000"', '{"a":', '"version":"1.00"'];
    for (let i = 0; i < 150; i++) {
      const body = Array.from({ length: 1 + Math.floor(rnd() * 20) }, () => pieces[Math.floor(rnd() * pieces.length)]).join('');
      const res = await client.raw('/json/', body);
      assert.ok(res.status < 500, body);
      await res.arrayBuffer();
    }
  });

  it('empty strings and nulls count as not sent', async () => {
    const p = await client.part({ ...authRequest(), parenttransactionreference: '', billingcounty: null, orderreference: '' });
    assert.equal(p.errorcode, '0');
    assert.equal(p.orderreference, undefined);
    const q = await client.part({ ...authRequest(), baseamount: '' });
    assert.deepEqual(q.errordata, ['baseamount']);
  });
});

describe('the official SDKs’ request shapes', () => {
  it('Python-style: REQUESTREFERENCE and VERSIONINFO headers, charset, libraryversion, per-request requestreference and versioninfo, gzip accepted', async () => {
    const req = { ...authRequest(), requestreference: 'A1b2c3d4', versioninfo: 'Python::3.11.4::1.0.25::Linux' };
    const res = await client.raw('/json/', JSON.stringify(envelope(req, { libraryversion: 'python_1.0.25' })), {
      'Content-Type': 'application/json;charset=utf-8',
      Accept: 'application/json',
      'Accept-Encoding': 'gzip',
      Connection: 'close',
      REQUESTREFERENCE: 'Ax9y8z7w6',
      VERSIONINFO: 'Python::3.11.4::1.0.25::Linux',
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { requestreference: string; response: Obj[] };
    assert.equal(body.requestreference, 'Ax9y8z7w6', 'the reply echoes the REQUESTREFERENCE header');
    assert.equal(body.response[0].errorcode, '0');
  });

  it('PHP-style: Content-type spelling, escaped slashes and non-ASCII escapes', async () => {
    const text = JSON.stringify(envelope({ ...authRequest(), billingfirstname: 'Zoë' }))
      .replace(/\//g, '\\/')
      .replace('ë', '\\u00eb');
    assert.match(text, /12\\\/2031/);
    const res = await fetch(`${client.url}/json/`, { method: 'POST', headers: { Authorization: AUTH_HEADER, 'Content-type': 'application/json' }, body: text });
    const body = (await res.json()) as { response: Obj[] };
    assert.equal(body.response[0].errorcode, '0');
  });

  it('a gzip, deflate or brotli request body is accepted', async () => {
    for (const [enc, fn] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const res = await client.raw('/json/', fn(Buffer.from(JSON.stringify(envelope(authRequest())))), { 'Content-Encoding': enc });
      const body = (await res.json()) as { response: Obj[] };
      assert.equal(body.response[0].errorcode, '0', enc);
    }
  });

  it('a byte-order mark before the JSON is accepted', async () => {
    const res = await client.raw('/json/', '\uFEFF' + JSON.stringify(envelope(authRequest())));
    assert.equal(((await res.json()) as { response: Obj[] }).response[0].errorcode, '0');
  });

  it('requestreference is generated when no header is sent; secrand is random with varying length', async () => {
    const lengths = new Set<number>();
    const refs = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const r = await client.send(authRequest());
      assert.match(String(r.json.requestreference), /^A[A-Za-z0-9]{5,}$/);
      refs.add(String(r.json.requestreference));
      const s = String(r.json.secrand);
      assert.ok(s.length >= 8 && s.length <= 32);
      lengths.add(s.length);
    }
    assert.equal(refs.size, 40);
    assert.ok(lengths.size > 3, `secrand lengths vary: ${[...lengths]}`);
  });
});
