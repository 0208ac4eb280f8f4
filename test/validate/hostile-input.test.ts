/**
 * `cardspec validate` on files nobody should give it, as a person or a CI job might: UTF-16 (a Windows editor,
 * PowerShell's `>`), larger than any body of the service (a disk image, an endless pipe), deeply nested JSON. Each
 * ends with a clear answer and a trustworthy exit code, never a crash and never a read without end. In this process
 * (src/cli/validate.ts `run`), on real files.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../src/cli/validate';
import { MAX_INPUT_BYTES } from '../../src/validate';
import { captured } from '../console';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-hostile-'));
const ENVELOPE = '{"alias":"a","version":"1.00","request":[{"requesttypedescriptions":["ACCOUNTCHECK"]}]}';

async function validate(name: string, content: Buffer | string): Promise<{ code: number; out: string }> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return captured(() => run([file]));
}

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
}

describe('cardspec validate on hostile input files', () => {
  it('UTF-16 (with or without a byte order mark) and UTF-32 are told for what they are, with how to convert (exit 2)', async () => {
    const cases: [string, Buffer, string][] = [
      ['utf16le-bom.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ENVELOPE, 'utf16le')]), 'UTF-16LE'],
      ['utf16le.json', Buffer.from(ENVELOPE, 'utf16le'), 'UTF-16LE'],
      // XML in UTF-16 without a byte order mark must begin with its declaration (XML 1.0 Appendix F)
      ['utf16be-bare.xml', utf16be('<requestblock version="3.67"/>'), 'UTF-16BE'],
      ['utf32le.json', Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]), 'UTF-32LE'],
    ];
    for (const [name, bytes, encoding] of cases) {
      const r = await validate(name, bytes);
      assert.equal(r.code, 2, `${name}: ${r.out}`);
      assert.match(r.out, new RegExp(`cannot validate .*${name}: the input is ${encoding} text, not UTF-8 .* iconv -f ${encoding} -t UTF-8`), name);
    }
  });

  it('XML is read in the encoding it states, as the gateway reads a request block: the same findings as its UTF-8 form', async () => {
    const block = (decl: string): string => `${decl}<requestblock version="3.67"><alias>a</alias><request type="STORE"><billing><name><last>Müller</last></name></billing></request></requestblock>`;
    const utf8 = await validate('plain.xml', block('<?xml version="1.0" encoding="utf-8"?>'));
    assert.equal(utf8.code, 1, utf8.out);
    const findings = (out: string): string =>
      out
        .split('\n')
        .filter((l) => /^\S+ {2}\S/.test(l))
        .join('\n');
    assert.ok(findings(utf8.out).length > 0, utf8.out);
    for (const [name, bytes] of [
      ['latin1.xml', Buffer.from(block('<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1')],
      ['utf16be.xml', utf16be(block('<?xml version="1.0" encoding="UTF-16BE"?>'))],
      ['utf16le-bom.xml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(block('<?xml version="1.0" encoding="UTF-16"?>'), 'utf16le')])],
    ] as const) {
      const r = await validate(name, bytes);
      assert.equal(r.code, 1, `${name}: ${r.out}`);
      assert.equal(findings(r.out), findings(utf8.out), name);
    }
    // Bytes that are not text in the encoding the block states: told, not read as something else.
    const wrong = await validate('not-utf8.xml', Buffer.from(block('<?xml version="1.0" encoding="utf-8"?>'), 'latin1'));
    assert.equal(wrong.code, 2, wrong.out);
    assert.match(wrong.out, /cannot validate .*not-utf8\.xml: not well-formed XML: the body is not utf-8 text \(byte [0-9]+ is 0xFC\)/);
  });

  it('UTF-8 with a byte order mark is still read as the envelope it holds', async () => {
    const r = await validate('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ENVELOPE)]));
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /request\[0\]\.sitereference {2}required/);
  });

  it('a file larger than any body of the service is refused after reading at most the limit (exit 2)', async () => {
    const file = path.join(dir, 'huge.json');
    // Sparse: the limit and one byte more, without writing them.
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_INPUT_BYTES + 1);
    const { code, out } = await captured(() => run([file]));
    assert.equal(code, 2, out);
    assert.match(out, /cannot validate .*huge\.json: the input is larger than 64 MiB \(a request or a response of the service is a few kilobytes\)/);
  });

  it("a client's own long names (200,000 request types, a key of a megabyte) are cut in the findings, with their size", async () => {
    const key = 'k'.repeat(1_000_000);
    const envelope = { alias: 'a', version: '1.00', request: [{ requesttypedescriptions: Array.from({ length: 200_000 }, () => 'AUTH'), [key]: '1' }] };
    const r = await validate('long-names.json', JSON.stringify(envelope));
    assert.equal(r.code, 1, r.out.slice(0, 2000));
    assert.match(r.out, /no row of the Request types table sends \["AUTH", "AUTH", "AUTH", "AUTH", "AUTH", "AUTH", "AUTH", "AUTH", \.\.\. \(200000 in all\)\]/);
    assert.match(r.out, /request\[0\]\.k+\.\.\. \(1000011 characters in all\) {2}unknown-field {2}request\[0\]\.k+\.\.\. \(1000011 characters in all\) is not a field/);
    for (const line of r.out.split('\n')) assert.ok(line.length < 3000, `a line of ${line.length} characters`);
  });

  it('JSON nested 100,000 levels deep is a finding, not a stack overflow', async () => {
    const r = await validate('deep.json', '['.repeat(100_000) + ']'.repeat(100_000));
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /the body is a list; expected a request envelope/);
  });
});
