/**
 * An XML answer is read in the encoding it states (XML 1.0 4.3.3 and Appendix F; RFC 7303 3.2): the document fixes
 * none, and every XML processor reads UTF-16 as well as UTF-8, so a target answering in UTF-16 or ISO-8859-1 is
 * read, its values exact, never refused as "not an XML responseblock" nor mangled into other characters.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Target } from '../../src/client/target';
import { decodeXmlBody } from '../../src/wire/xml';

const BLOCK = (decl: string): string =>
  `${decl}<responseblock version="3.67"><requestreference>A1</requestreference><response type="AUTH">` +
  `<merchant><merchantname>Café Zoë</merchantname></merchant><error><code>0</code><message>Ok</message></error></response></responseblock>`;

const utf16be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();

/** What a target writes: the body's bytes and its content type. */
const ANSWERS: readonly { what: string; contentType: string; body: Buffer }[] = [
  { what: 'UTF-8, no charset, no declaration', contentType: 'text/xml', body: Buffer.from(BLOCK(''), 'utf8') },
  { what: 'UTF-8 with a byte-order mark', contentType: 'application/xml', body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BLOCK('<?xml version="1.0"?>'), 'utf8')]) },
  {
    what: 'UTF-16LE with a byte-order mark and charset',
    contentType: 'text/xml; charset=UTF-16',
    body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(BLOCK('<?xml version="1.0" encoding="UTF-16"?>'), 'utf16le')]),
  },
  { what: 'UTF-16BE with a byte-order mark', contentType: 'text/xml', body: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(BLOCK('<?xml version="1.0" encoding="UTF-16"?>'))]) },
  { what: 'UTF-16LE without a mark, by its declaration', contentType: 'text/xml', body: Buffer.from(BLOCK('<?xml version="1.0" encoding="UTF-16"?>'), 'utf16le') },
  { what: 'ISO-8859-1 named by the charset', contentType: 'text/xml; charset="ISO-8859-1"', body: Buffer.from(BLOCK('<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1') },
  { what: 'ISO-8859-1 named by the XML declaration only', contentType: 'text/xml', body: Buffer.from(BLOCK(`<?xml version='1.0' encoding='iso-8859-1'?>`), 'latin1') },
];

async function answering(contentType: string, body: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': contentType, 'content-length': String(body.length) }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('an XML answer in the encoding it states', () => {
  for (const a of ANSWERS) {
    it(`${a.what}: read, values exact`, async () => {
      const server = await answering(a.contentType, a.body);
      const target = new Target({
        baseUrl: server.url,
        format: 'xml',
        alias: 'a',
        jsonPath: '/json/',
        xmlPath: '/xml/',
        limits: { connectTimeoutMs: 5000, totalTimeoutMs: 30_000, maxResponseBytes: 1 << 20 },
      });
      try {
        const ex = await target.send({ requesttypedescriptions: ['AUTH'] });
        assert.equal(ex.error, undefined);
        assert.deepEqual(ex.xmlProblems, []);
        const part = (ex.envelope?.response as Record<string, unknown>[])[0];
        assert.equal(part.merchantname, 'Café Zoë');
        assert.equal(part.errormessage, 'Ok');
      } finally {
        target.close();
        await server.close();
      }
    });
  }

  it('an encoding the platform does not know is read as UTF-8', () => {
    assert.equal(decodeXmlBody(Buffer.from(BLOCK('<?xml version="1.0" encoding="x-no-such"?>'), 'utf8')), BLOCK('<?xml version="1.0" encoding="x-no-such"?>'));
  });
});
