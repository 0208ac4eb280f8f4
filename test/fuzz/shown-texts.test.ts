/**
 * The Target masks an exchange's texts when they are first read (src/client/target.ts, `withShownTexts`), which
 * keeps a fuzz run from masking thousands of bodies nobody reads. Whoever reads them, directly, by spreading or by
 * serializing the exchange, must still see only masked text. A real server on loopback echoes what it is sent.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/client/http';
import { Target } from '../../src/client/target';
import { TEST_CARDS } from '../../src/testdata';

const PAN = TEST_CARDS.authorised.pan;
const PASSWORD = 'fuzz-lazy-secret-pw';

describe('exchange texts are masked when read', () => {
  let server: http.Server;
  let target: Target;
  before(async () => {
    // Echoes the request object back inside an envelope: the answer carries the full card number and security code.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: unknown[] };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ version: '1.00', response: [{ errorcode: '0', errormessage: 'Ok', echo: sent.request[0] }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    target = new Target({ baseUrl: `http://127.0.0.1:${port}`, format: 'json', user: 'u', password: PASSWORD, alias: 'u', jsonPath: '/json/', xmlPath: '/xml/', limits: DEFAULT_LIMITS });
  });
  after(async () => {
    target.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('direct reads, spreads and JSON of the texts of an exchange never show the card number, security code or password', async () => {
    const ex = await target.send({ requesttypedescriptions: ['AUTH'], pan: PAN, securitycode: '123' });
    // The unmasked answer is still there for the checks (md and pares must go back verbatim).
    assert.ok(JSON.stringify(ex.envelope).includes(PAN));
    // The envelope is unmasked by design (it is never shown as is); everything else serialized must be masked.
    const { envelope: _e, ...rest } = ex;
    const spread = { ...ex, envelope: undefined };
    for (const text of [ex.requestText, ex.responseText, JSON.stringify(ex.requestHeaders), JSON.stringify(rest), JSON.stringify(spread)]) {
      assert.ok(!text.includes(PAN), text);
      assert.ok(!text.includes('"123"'), text);
      assert.ok(!text.includes(Buffer.from(`u:${PASSWORD}`).toString('base64')), text);
    }
    assert.match(ex.requestText, /411111######1111/);
    assert.match(ex.responseText, /411111######1111/);
    assert.equal(ex.requestHeaders.Authorization, '***');
    // Read twice, the same text (masked once, kept).
    assert.equal(ex.responseText, ex.responseText);
    assert.deepEqual(
      Object.keys(ex)
        .filter((k) => k.endsWith('Text') || k === 'requestHeaders')
        .sort(),
      ['requestHeaders', 'requestText', 'responseText'],
    );
  });

  it('a transport failure still has its masked request text and an empty answer text', async () => {
    const dead = new Target({ ...target.options, baseUrl: 'http://127.0.0.1:1' });
    try {
      const ex = await dead.send({ requesttypedescriptions: ['AUTH'], pan: PAN });
      assert.ok(ex.transportFailure);
      assert.equal(ex.responseText, '');
      assert.ok(!ex.requestText.includes(PAN));
      assert.match(ex.requestText, /411111######1111/);
    } finally {
      dead.close();
    }
  });
});
