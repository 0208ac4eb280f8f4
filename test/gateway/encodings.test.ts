/**
 * A request body in the encoding it states, over the real loopback server: the gateway reads requests the one way
 * src/wire/encoding.ts reads bodies. XML says its own encoding (XML 1.0 4.3.3, RFC 7303: a byte order mark, the
 * charset, the declaration); JSON is UTF-8 whatever a charset says (RFC 8259 8.1 and 11). Bytes that are not text in
 * their encoding are a malformed body (30000, saying where), never text mangled in silence; the answer is UTF-8 with
 * its declaration, which every XML processor reads.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResponseBlock } from '../../src/wire/xml';
import { AUTH_HEADER, card, type Obj, type Part, PAYMENT, SITE, useGateway, USER } from './helpers';

const client = useGateway();
const NAME = 'Müller-Łukasz 山田'; // beyond ISO-8859-1: only the Unicode encodings carry it
const LATIN1_NAME = 'Müller';

const block = (decl: string, name: string): string => {
  const c = card('authorised');
  return `${decl}<requestblock version="3.67"><alias>${USER.alias}</alias><request type="AUTH"><operation><sitereference>${SITE}</sitereference><accounttypedescription>ECOM</accounttypedescription></operation><merchant><orderreference>enc-1</orderreference></merchant><billing><amount currencycode="GBP">1050</amount><name><last>${name}</last></name><payment type="VISA"><pan>${c.pan}</pan><expirydate>${c.expirydate}</expirydate><securitycode>${c.securitycode}</securitycode></payment></billing></request></requestblock>`;
};

async function postXml(body: Buffer, contentType: string): Promise<{ status: number; text: string; parts: Part[]; type: string | null }> {
  const res = await fetch(`${client.url}/xml/`, { method: 'POST', headers: { Authorization: AUTH_HEADER, 'Content-Type': contentType }, body });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, text, parts: [], type: res.headers.get('content-type') };
  const { envelope, problems } = parseResponseBlock(text);
  assert.deepEqual(problems, [], text);
  return { status: res.status, text, parts: envelope.response as Part[], type: res.headers.get('content-type') };
}

/** The billing name the gateway stored for the AUTH it answered. */
function storedName(part: Part): unknown {
  assert.equal(part.errorcode, '0', JSON.stringify(part));
  return client.gw.ledger.get(String(part.transactionreference))?.fields.billinglastname;
}

const utf16 = (text: string, order: 'le' | 'be'): Buffer => {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le).swap16();
  return Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]);
};

describe('XML requests in the encoding they state', () => {
  const cases: [string, Buffer, string, string][] = [
    ['ISO-8859-1 named by the XML declaration', Buffer.from(block('<?xml version="1.0" encoding="ISO-8859-1"?>', LATIN1_NAME), 'latin1'), 'text/xml', LATIN1_NAME],
    ['ISO-8859-1 named by the charset', Buffer.from(block('', LATIN1_NAME), 'latin1'), 'text/xml; charset=ISO-8859-1', LATIN1_NAME],
    ['windows-1252 named by the declaration', Buffer.from(block('<?xml version="1.0" encoding="windows-1252"?>', LATIN1_NAME), 'latin1'), 'application/xml', LATIN1_NAME],
    ['UTF-16LE with a byte order mark', utf16(block('<?xml version="1.0" encoding="UTF-16"?>', NAME), 'le'), 'text/xml', NAME],
    ['UTF-16BE with a byte order mark and the charset', utf16(block('<?xml version="1.0" encoding="UTF-16"?>', NAME), 'be'), 'text/xml; charset=utf-16', NAME],
    ['UTF-8 with a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(block('<?xml version="1.0" encoding="UTF-8"?>', NAME))]), 'text/xml;charset=utf-8', NAME],
    ['labelled UTF-16 but sent as UTF-8 (a .NET StringWriter)', Buffer.from(block('<?xml version="1.0" encoding="utf-16"?>', NAME)), 'text/xml', NAME],
  ];
  for (const [title, body, type, expected] of cases) {
    it(`${title}: read, the name stored exactly, answered in UTF-8`, async () => {
      const r = await postXml(body, type);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.type, 'text/xml; charset=utf-8');
      assert.match(r.text, /^<\?xml version="1.0" encoding="utf-8"\?>/);
      assert.equal(storedName(r.parts[0]), expected);
    });
  }

  it('bytes that are not text in the stated encoding: 30000 naming the byte, nothing stored', async () => {
    const before = client.gw.ledger.stats().kept;
    // Declared (by default) UTF-8, sent as ISO-8859-1: ü is the byte 0xFC.
    const r = await postXml(Buffer.from(block('', LATIN1_NAME), 'latin1'), 'text/xml');
    assert.equal(r.parts[0].requesttypedescription, 'ERROR');
    assert.equal(r.parts[0].errorcode, '30000');
    assert.match(String(r.parts[0].errormessage), /not utf-8 text \(byte \d+ is 0xFC\)/);
    assert.equal(client.gw.ledger.stats().kept, before);
  });

  it('a charset the bytes do not fit, with a declaration they do fit: read by the declaration', async () => {
    const r = await postXml(Buffer.from(block('<?xml version="1.0" encoding="ISO-8859-1"?>', LATIN1_NAME), 'latin1'), 'text/xml; charset=utf-8');
    assert.equal(storedName(r.parts[0]), LATIN1_NAME);
  });

  it('an encoding the gateway does not read: 415 saying which, not a mangled body', async () => {
    for (const [body, type] of [
      [Buffer.from(block('<?xml version="1.0" encoding="x-no-such"?>', 'M')), 'text/xml'],
      [Buffer.from(block('', 'M')), 'text/xml; charset=ebcdic-no'],
    ] as const) {
      const r = await postXml(body, type);
      assert.equal(r.status, 415, r.text);
      assert.match(r.text, /encoding "(x-no-such|ebcdic-no)" .* is not one the gateway reads/);
    }
  });
});

describe('JSON requests are UTF-8 (RFC 8259 8.1), whatever a charset says (RFC 8259 11)', () => {
  const envelope = (name: string): string =>
    JSON.stringify({ alias: USER.alias, version: '1.00', request: [{ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'enc-j', billinglastname: name, ...card('authorised') }] });
  const post = async (body: Buffer, contentType: string): Promise<{ status: number; parts: Part[]; text: string }> => {
    const res = await client.raw('/json/', body, { 'Content-Type': contentType });
    const text = await res.text();
    return { status: res.status, text, parts: res.status === 200 ? ((JSON.parse(text) as Obj).response as Part[]) : [] };
  };

  it('a charset label other than UTF-8 on a UTF-8 body: read as UTF-8, not refused', async () => {
    for (const type of ['application/json; charset=ISO-8859-1', 'application/json;charset=windows-1252', 'application/json; charset=UTF-8']) {
      const r = await post(Buffer.from(envelope(NAME)), type);
      assert.equal(r.status, 200, `${type}: ${r.text}`);
      assert.equal(storedName(r.parts[0]), NAME, type);
    }
  });

  it('bytes that are not UTF-8: 30000 Malformed JSON naming the byte and RFC 8259, nothing stored (not a mangled name)', async () => {
    const before = client.gw.ledger.stats().kept;
    for (const type of ['application/json', 'application/json; charset=ISO-8859-1']) {
      const r = await post(Buffer.from(envelope(LATIN1_NAME), 'latin1'), type);
      assert.deepEqual([r.parts[0].requesttypedescription, r.parts[0].errorcode], ['ERROR', '30000'], r.text);
      assert.match(String(r.parts[0].errormessage), /^Malformed JSON: the body is not UTF-8 \(byte \d+ is 0xFC\).*RFC 8259 8\.1/);
    }
    const wide = await post(utf16(envelope(NAME), 'le'), 'application/json');
    assert.match(String(wide.parts[0].errormessage), /^Malformed JSON: the body is UTF-16LE text/);
    assert.equal(client.gw.ledger.stats().kept, before);
  });

  it('a UTF-8 byte order mark is ignored (RFC 8259 8.1: "MAY ignore")', async () => {
    const r = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(envelope(NAME))]), 'application/json');
    assert.equal(storedName(r.parts[0]), NAME);
  });
});
