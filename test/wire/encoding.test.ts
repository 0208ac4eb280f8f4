/**
 * The one reading of a body's bytes (src/wire/encoding.ts): JSON is UTF-8 (RFC 8259 8.1, 11), XML in the encoding it
 * states (XML 1.0 4.3.3, RFC 7303 3.2). What it reads all the same is a note; what it cannot read says why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { charsetOf, readJsonBytes, readXmlBytes, type BodyText } from '../../src/wire/encoding';

const text = (r: BodyText): string => (r.ok ? r.text : assert.fail(r.problem));
const BLOCK = '<requestblock version="3.67"><alias>Müller</alias></requestblock>';

describe('readJsonBytes', () => {
  it('UTF-8, with no note; a charset label it does not obey and a byte order mark are notes', () => {
    assert.deepEqual(readJsonBytes(Buffer.from('{"a":"ü"}'), 'application/json'), { ok: true, text: '{"a":"ü"}', encoding: 'utf-8', notes: [] });
    const labelled = readJsonBytes(Buffer.from('{"a":"ü"}'), 'application/json; charset="ISO-8859-1"');
    assert.equal(text(labelled), '{"a":"ü"}');
    assert.match(labelled.ok ? labelled.notes.join() : '', /charset=iso-8859-1; application\/json has no charset parameter/);
    const bom = readJsonBytes(Buffer.from('\uFEFF{}'));
    assert.equal(text(bom), '{}');
    assert.match(bom.ok ? bom.notes.join() : '', /byte order mark/);
  });

  it('bytes that are not UTF-8, and UTF-16/32, are problems naming the byte or the encoding', () => {
    const latin1 = readJsonBytes(Buffer.from('{"a":"ü"}', 'latin1'));
    assert.deepEqual(latin1, { ok: false, problem: 'the body is not UTF-8 (byte 6 is 0xFC): JSON between systems is UTF-8 (RFC 8259 8.1)' });
    assert.match((readJsonBytes(Buffer.from('{}', 'utf16le')) as { problem: string }).problem, /UTF-16LE text/);
    assert.match((readJsonBytes(Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0])) as { problem: string }).problem, /UTF-32LE text/);
    // A truncated multi-byte character at the end.
    assert.match((readJsonBytes(Buffer.from([0x7b, 0xe2, 0x82])) as { problem: string }).problem, /byte 1 is 0xE2/);
  });
});

describe('readXmlBytes', () => {
  it('the byte order mark, then the charset, then the declaration, then UTF-8', () => {
    assert.equal(text(readXmlBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(BLOCK, 'utf16le').swap16()]), 'text/xml; charset=iso-8859-1')), BLOCK);
    assert.equal(text(readXmlBytes(Buffer.from(BLOCK, 'latin1'), 'text/xml; charset=iso-8859-1')), BLOCK);
    const declared = `<?xml version="1.0" encoding="ISO-8859-1"?>${BLOCK}`;
    assert.equal(text(readXmlBytes(Buffer.from(declared, 'latin1'))), declared);
    assert.equal(text(readXmlBytes(Buffer.from(BLOCK))), BLOCK);
  });

  it('reads two slips of real clients with a note: UTF-16 labels on 8-bit bytes, a charset the bytes do not fit', () => {
    const net = readXmlBytes(Buffer.from(`<?xml version="1.0" encoding="utf-16"?>${BLOCK}`));
    assert.ok(net.ok && net.encoding === 'utf-8' && /read as UTF-8/.test(net.notes.join()), JSON.stringify(net));
    const mislabelled = readXmlBytes(Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${BLOCK}`, 'latin1'), 'text/xml; charset=utf-8');
    assert.ok(mislabelled.ok && mislabelled.encoding === 'iso-8859-1' && /RFC 7303 3\.2/.test(mislabelled.notes.join()), JSON.stringify(mislabelled));
  });

  it('bytes that do not fit: a problem; an encoding the platform does not decode: unsupported', () => {
    const bad = readXmlBytes(Buffer.from(BLOCK, 'latin1'));
    assert.ok(!bad.ok && !bad.unsupported && /not utf-8 text \(byte 37 is 0xFC\), UTF-8 being the default/.test(bad.problem), JSON.stringify(bad));
    const utf32 = readXmlBytes(Buffer.from([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0]));
    assert.ok(!utf32.ok && utf32.unsupported === true, JSON.stringify(utf32));
    const unknown = readXmlBytes(Buffer.from(BLOCK), 'text/xml; charset=x-klingon');
    assert.ok(!unknown.ok && unknown.unsupported === true && /"x-klingon" \(from its Content-Type charset\)/.test(unknown.problem), JSON.stringify(unknown));
  });

  it('charsetOf: quoted, any case, absent', () => {
    assert.equal(charsetOf('text/xml; Charset="UTF-16"'), 'utf-16');
    assert.equal(charsetOf('text/xml'), undefined);
    assert.equal(charsetOf(undefined), undefined);
  });
});
