/**
 * `serve --contract` and a client that writes its body in another encoding, or its XML with namespace markup: a
 * conforming client is not failed (an ISO-8859-1 or UTF-16 block, `xmlns`, `xml:lang`, `xsi:nil` are markup, not
 * fields), and a faulty one is not passed (a JSON body that is not UTF-8 is not JSON text between systems, RFC 8259
 * 8.1; it was read with replacement characters and passed before). What the document does not rule on (a byte order
 * mark, a charset label JSON does not obey) is a warning, never an error.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import type { RunningContractGateway } from '../../src/contract';
import { card, envelope, JSON_HEADERS, PAYMENT, rules, SITE, standIn, USER, type Sender } from './helpers';

const open: RunningContractGateway[] = [];
after(async () => {
  for (const gw of open) await gw.close();
});
async function fresh(): Promise<{ gw: RunningContractGateway; client: Sender }> {
  const s = await standIn();
  open.push(s.gw);
  return s;
}

const XML_HEADERS = { Authorization: JSON_HEADERS.Authorization, 'Content-Type': 'text/xml', Accept: 'text/xml' };

function block(name: string, { root = '', request = '', amount = '', decl = '' } = {}): string {
  const c = card('authorised') as Record<string, string>;
  return `${decl}<requestblock version="3.67"${root}><alias>${USER.alias}</alias><request type="AUTH"${request}><operation><sitereference>${SITE}</sitereference><accounttypedescription>ECOM</accounttypedescription></operation><merchant><orderreference>ns-1</orderreference></merchant><billing><amount currencycode="EUR"${amount}>1050</amount><name><last>${name}</last><middle xsi:nil="true"/></name><payment type="VISA"><pan>${c.pan}</pan><expirydate>${c.expirydate}</expirydate><securitycode>${c.securitycode}</securitycode></payment></billing></request></requestblock>`;
}

const XSI = ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

describe('XML markup that is not a field', () => {
  it('xmlns, xmlns:p, xml:lang, xml:space and xsi: attributes anywhere: no unknown-field warning, answered 0', async () => {
    const { gw, client } = await fresh();
    const bodies = [
      block('Muller', { root: ` xmlns="urn:example:stpp" xml:lang="de"${XSI}` }),
      block('Muller', { root: XSI, request: ' xml:space="preserve" xmlns:ext="urn:ext"', amount: ' xsi:type="xs:string"' }),
      // A schema-bound serializer: every element prefixed, the prefix declared on the root.
      block('Muller', { root: ` xmlns:sp="urn:example:stpp"${XSI}` }).replace(/<(\/?)([a-z]+)/g, '<$1sp:$2'),
    ];
    for (const xml of bodies) {
      const r = await client.raw('/xml/', xml, XML_HEADERS);
      assert.equal(r.status, 200, r.text);
      assert.match(r.text, /<code>0<\/code>/, r.text);
    }
    assert.deepEqual(gw.session.violations(), []);
  });

  it('an xsi:type beside the scheme attribute of payment does not take its place', async () => {
    const { gw, client } = await fresh();
    const xml = block('Muller', { root: XSI }).replace('<payment type="VISA">', '<payment xsi:type="PaymentType" type="VISA">');
    const r = await client.raw('/xml/', xml, XML_HEADERS);
    assert.match(r.text, /<payment type="VISA">/);
    assert.deepEqual(gw.session.violations(), []);
  });

  it('an attribute in another namespace is still data: an unknown field, a warning', async () => {
    const { gw, client } = await fresh();
    await client.raw('/xml/', block('Muller', { root: ` xmlns:ext="urn:ext"${XSI}`, request: ' ext:channel="web"' }), XML_HEADERS);
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(rules(gw, 'warning'), ['FIELD-AUTH-FIELD-LIST']);
  });
});

describe('a document type declaration', () => {
  it('one that declares nothing is no violation; one with declarations is refused by the kit DTD guard: a warning', async () => {
    const { gw, client } = await fresh();
    const r = await client.raw('/xml/', `<?xml version="1.0"?>\n<!DOCTYPE requestblock SYSTEM "requestblock.dtd">\n${block('Muller', { root: XSI })}`, XML_HEADERS);
    assert.match(r.text, /<code>0<\/code>/, r.text);
    assert.deepEqual(gw.session.violations(), []);
    await client.raw('/xml/', `<!DOCTYPE requestblock [<!ENTITY x "y">]>${block('&x;', { root: XSI })}`, XML_HEADERS);
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(rules(gw, 'warning'), ['XML-REQUEST-BLOCK']);
  });
});

describe('body encodings', () => {
  it('an ISO-8859-1 or UTF-16 XML block is not a violation', async () => {
    const { gw, client } = await fresh();
    await client.raw('/xml/', Buffer.from(block('Müller', { decl: '<?xml version="1.0" encoding="ISO-8859-1"?>', root: XSI }), 'latin1'), XML_HEADERS);
    await client.raw('/xml/', Buffer.from(block('Müller', { root: XSI }), 'latin1'), { ...XML_HEADERS, 'Content-Type': 'application/xml; charset=iso-8859-1' });
    const le = Buffer.from(block('Müller 山田', { decl: '<?xml version="1.0" encoding="UTF-16"?>', root: XSI }), 'utf16le');
    await client.raw('/xml/', Buffer.concat([Buffer.from([0xff, 0xfe]), le]), XML_HEADERS);
    assert.deepEqual(gw.session.violations(), []);
    assert.equal(gw.session.report().requests.xml, 3);
  });

  it('an XML block whose bytes do not fit its encoding is an error of the block', async () => {
    const { gw, client } = await fresh();
    await client.raw('/xml/', Buffer.from(block('Müller', { root: XSI }), 'latin1'), XML_HEADERS);
    assert.deepEqual(rules(gw), ['XML-REQUEST-BLOCK']);
    assert.match(gw.session.violations()[0].message, /not utf-8 text \(byte \d+ is 0xFC\)/);
  });

  it('a JSON body that is not UTF-8 is an error (RFC 8259 8.1), with or without a charset label', async () => {
    const { gw, client } = await fresh();
    const body = Buffer.from(JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), billinglastname: 'Müller' })), 'latin1');
    await client.raw('/json/', body, JSON_HEADERS);
    await client.raw('/json/', body, { ...JSON_HEADERS, 'Content-Type': 'application/json; charset=ISO-8859-1' });
    assert.deepEqual(rules(gw, 'error'), ['TRANSPORT-REQUEST-BODY', 'TRANSPORT-REQUEST-BODY']);
    assert.match(gw.session.violations('error')[0].message, /not UTF-8 \(byte \d+ is 0xFC\)/);
  });

  it('a charset label other than UTF-8 on UTF-8 JSON, or a byte order mark: warnings, never errors', async () => {
    const { gw, client } = await fresh();
    const body = JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), billinglastname: 'Zo\\u00eb' }));
    const r = await client.raw('/json/', body, { ...JSON_HEADERS, 'Content-Type': 'application/json; charset=ISO-8859-1' });
    assert.match(r.text, /"errorcode":"0"/);
    await client.raw('/json/', `\uFEFF${body}`, JSON_HEADERS);
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(rules(gw, 'warning'), ['TRANSPORT-REQUEST-BODY', 'TRANSPORT-REQUEST-BODY']);
  });

  it('a non-GBP currency is echoed and is no violation, in JSON and XML (currencyiso3a: Alpha, 3)', async () => {
    const { gw, client } = await fresh();
    for (const currencyiso3a of ['EUR', 'USD', 'JPY']) {
      const p = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, currencyiso3a, ...card('authorised') });
      assert.equal(p.currencyiso3a, currencyiso3a);
    }
    const r = await client.raw('/xml/', block('Muller', { root: XSI }), XML_HEADERS);
    assert.match(r.text, /<amount currencycode="EUR">1050<\/amount>/);
    assert.deepEqual(gw.session.violations(), []);
  });
});

describe('what HTTP lets a client do beside the document', () => {
  it('a brotli-compressed body is read (HTTP clients offer gzip, deflate and br): answered, no violation', async () => {
    const { gw, client } = await fresh();
    const body = brotliCompressSync(Buffer.from(JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }))));
    const r = await client.raw('/json/', body, { ...JSON_HEADERS, 'Content-Encoding': 'br' });
    assert.match(r.text, /"errorcode":"0"/);
    assert.deepEqual(gw.session.violations(), []);
  });

  it('a Content-Encoding the gateway cannot read: 415, a warning (the document names no Content-Encoding), not a Content-type error', async () => {
    const { gw, client } = await fresh();
    const r = await client.raw('/json/', Buffer.from('x'), { ...JSON_HEADERS, 'Content-Encoding': 'zstd' });
    assert.equal(r.status, 415);
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(
      gw.session.violations('warning').map((v) => [v.rule, v.field]),
      [['TRANSPORT-HEADERS', 'header Content-Encoding']],
    );
    // A wrong Content-type on the JSON form is still an error.
    await client.raw('/json/', '{}', { ...JSON_HEADERS, 'Content-Type': 'text/plain' });
    assert.deepEqual(rules(gw, 'error'), ['TRANSPORT-HEADERS']);
  });

  it('bytes that are not an HTTP request (both Content-Length and Transfer-Encoding, a bad header name): a 400 the gate sees, an error', async () => {
    const { gw } = await fresh();
    const send = (data: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = connect(gw.port, '127.0.0.1');
        let out = '';
        socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
        socket.on('close', () => resolve(out));
        socket.write(data);
      });
    const head = `POST /json/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${JSON_HEADERS.Authorization}\r\nContent-Type: application/json\r\n`;
    assert.match(await send(`${head}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`), /^HTTP\/1\.1 400 Bad Request[\s\S]*not a valid HTTP\/1\.1 request/);
    assert.match(await send(`${head}Bad Header: y\r\n\r\n`), /^HTTP\/1\.1 400/);
    assert.equal(gw.session.report().requests.refused, 2);
    assert.deepEqual(rules(gw, 'error'), ['TRANSPORT-REQUEST-BODY', 'TRANSPORT-REQUEST-BODY']);
  });

  it('HEAD and OPTIONS (a health check, a CORS preflight) carry no operation: warnings; GET or a wrong path for an operation: errors', async () => {
    const { gw, client } = await fresh();
    for (const method of ['HEAD', 'OPTIONS']) assert.equal((await client.raw('/json/', undefined, JSON_HEADERS, method)).status, 405, method);
    assert.equal((await client.raw('/', undefined, JSON_HEADERS, 'HEAD')).status, 404);
    assert.deepEqual(rules(gw, 'error'), []);
    assert.deepEqual(rules(gw, 'warning'), ['TRANSPORT-JSON-PATH', 'TRANSPORT-JSON-PATH', 'TRANSPORT-JSON-PATH']);
    await client.raw('/json/', undefined, JSON_HEADERS, 'GET');
    await client.raw('/jsn/', JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })));
    assert.deepEqual(rules(gw, 'error'), ['TRANSPORT-JSON-PATH', 'TRANSPORT-JSON-PATH']);
  });
});
