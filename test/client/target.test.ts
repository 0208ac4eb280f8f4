/**
 * The Target against deliberately broken loopback servers (each misbehaviour gives a clear error, never an
 * exception) and against the reference gateway (JSON and XML answers in JSON form, everything shown masked).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../src/gateway';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserSession, parseForms, postForm } from '../../src/client/browser';
import { BUILTIN_PROFILE } from '../../src/client/profile';
import { buildRequest, operationByTitle } from '../../src/client/requests';
import { Target, type TargetOptions } from '../../src/client/target';
import type { Format } from '../../src/wire/types';
import { MISBEHAVIOURS, startBroken, type Misbehaviour } from './broken-servers';

// A generous guard for every exchange that must end on its own words; only the hung target is given a short time,
// since its timeout is the outcome checked (a 400 ms limit on every exchange could expire on a busy CI machine).
const LIMITS = { connectTimeoutMs: 5000, totalTimeoutMs: 30_000, maxResponseBytes: 1024 * 1024 };
const HUNG_LIMITS = { ...LIMITS, totalTimeoutMs: 400 };
const CARD = BUILTIN_PROFILE.cards.authorised!;

function targetFor(baseUrl: string, format: Format = 'json', limits = LIMITS): Target {
  const creds = BUILTIN_PROFILE.credentials!;
  const opts: TargetOptions = { baseUrl, format, user: creds.user, password: creds.password, alias: creds.alias ?? creds.user, jsonPath: '/json/', xmlPath: '/xml/', limits };
  return new Target(opts);
}

function authRequest(): Record<string, unknown> {
  return buildRequest(
    operationByTitle('Ordinary AUTH without 3-D Secure'),
    { profile: BUILTIN_PROFILE, site: BUILTIN_PROFILE.sites.main, today: '2026-01-05', orderreference: 'target-test' },
    { card: CARD },
  );
}

const EXPECTED: Record<Misbehaviour, RegExp> = {
  refuses: /refused the connection/,
  hangs: /no answer arrived from http:\/\/127\.0\.0\.1:\d+\/json\/ within 400 ms: the target hung/,
  'resets mid-body': /(closed|reset) in the middle of the answer \(HTTP 200, \d+ bytes received\)/,
  'answers HTML': /the answer is HTML or XML, not a JSON envelope \(HTTP 200, text\/html\): "<html><body><h1>Welcome/,
  'answers garbage': /the answer is not JSON, not a JSON envelope \(HTTP 200, application\/json\)/,
  'answers 500': /not a JSON envelope \(HTTP 500, text\/plain\): "Internal Server Error"/,
  'answers a huge body': /larger than 1048576 bytes \(HTTP 200\)/,
  'redirects elsewhere': /the answer is a redirect \(HTTP 302 to "http:\/\/127\.0\.0\.1:9\/elsewhere\/json\/"\), not an envelope; the kit does not follow redirects/,
};

describe('a Target facing a misbehaving target', () => {
  for (const kind of MISBEHAVIOURS) {
    it(`reports a target that ${kind}, clearly, without throwing`, async () => {
      const server = await startBroken(kind);
      const target = targetFor(server.url, 'json', kind === 'hangs' ? HUNG_LIMITS : LIMITS);
      try {
        const ex = await target.send(authRequest());
        assert.ok(ex.error, `no error for a target that ${kind}`);
        assert.match(ex.error, EXPECTED[kind]);
        assert.equal(ex.envelope, undefined);
        // Only a missing or cut answer is the transport's; an HTML page or a 500 is an answer, just not an envelope.
        assert.equal(!!ex.transportFailure, ['refuses', 'hangs', 'resets mid-body', 'answers a huge body'].includes(kind));
        assert.ok(!ex.requestText.includes(CARD.pan), 'the request text is masked');
      } finally {
        target.close();
        await server.close();
      }
    });
  }
});

describe('a Target facing the reference gateway', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ control: true });
  });
  after(() => gw.close());

  for (const format of ['json', 'xml'] as const) {
    it(`sends a ${format.toUpperCase()} request and reads the answer in JSON form, showing it masked`, async () => {
      const target = targetFor(gw.url, format);
      try {
        const ex = await target.send(authRequest());
        assert.equal(ex.error, undefined);
        assert.equal(ex.status, 200);
        assert.ok(ex.url.endsWith(format === 'json' ? '/json/' : '/xml/'));
        const parts = ex.envelope?.response as Record<string, unknown>[];
        assert.equal(parts[0].requesttypedescription, 'AUTH');
        assert.equal(parts[0].errorcode, '0');
        assert.deepEqual(ex.xmlProblems ?? [], []);
        for (const text of [ex.requestText, ex.responseText, Target.attachment(ex, authRequest())]) {
          assert.ok(!text.includes(CARD.pan), 'a full card number was shown');
          assert.ok(!new RegExp(`securitycode"?\\s*[:>]\\s*"?${CARD.securitycode}`).test(text), 'a security code was shown');
        }
        assert.equal(ex.requestHeaders.Authorization, '***');
      } finally {
        target.close();
      }
    });
  }

  it('sends no Authorization header when asked, and the call is not a success', async () => {
    const target = targetFor(gw.url);
    try {
      const ex = await target.send(authRequest(), { auth: null });
      assert.equal(ex.requestHeaders.Authorization, undefined);
      const parts = (ex.envelope?.response ?? []) as Record<string, unknown>[];
      assert.ok(!parts.some((p) => p.errorcode === '0'));
    } finally {
      target.close();
    }
  });
});

describe('the browser of the ACS round trip', () => {
  it('reads forms with their field names as written, the selected option, and the action resolved', () => {
    const html = `<html><form method="post" action="/acs/complete"><input type="hidden" name="PaRes" value="a&amp;b">
      <INPUT TYPE="hidden" NAME="MD" VALUE='x"y'><select name="outcome"><option value="Y">Yes<option value="N" selected>No</select>
      <input type="submit" name="go" value="Submit"><input type="radio" name="r" value="1"></form></html>`;
    const [form] = parseForms(html, 'https://acs.example.test/acs/');
    assert.equal(form.action, 'https://acs.example.test/acs/complete');
    assert.equal(form.method, 'POST');
    assert.deepEqual(form.fields, { PaRes: 'a&b', MD: 'x"y', outcome: 'N' });
  });

  it('follows redirects as a browser does (303 becomes a GET, 307 repeats the POST), with the cookies set on the way', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers.cookie ?? '-'} ${body || '-'}`);
        if (req.url === '/acs/') return void res.writeHead(307, { location: '/acs/again' }).end();
        if (req.url === '/acs/again') return void res.writeHead(303, { location: 'page?n=1', 'set-cookie': 'sid=abc; Path=/; HttpOnly, lang=en; Expires=Wed, 21 Oct 2037 07:28:00 GMT' }).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<form method="post" action="complete"><input type="hidden" name="PaReq" value="p"></form>');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await postForm(`${base}/acs/`, { MD: 'm' }, LIMITS, undefined, new BrowserSession());
      assert.equal(page.status, 200);
      assert.equal(page.url, `${base}/acs/page?n=1`);
      assert.equal(page.forms[0].action, `${base}/acs/complete`);
      assert.deepEqual(seen, ['POST /acs/ - MD=m', 'POST /acs/again - MD=m', 'GET /acs/page?n=1 sid=abc; lang=en -']);
    } finally {
      server.close();
    }
  });
});
