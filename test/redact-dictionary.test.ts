/**
 * "The dictionary keeps its promises": `sensitive` in schemas/fields.ts is what the one masking function reads.
 * Every sensitive field of a masked kind is hidden in every writer (report files, NDJSON and HTML masked in place,
 * report attachments of an exchange, the console stream, validation messages, error texts), in every form a value
 * travels in (a structure, JSON, JSON inside a JSON string, XML, key=value); a field added to a dictionary is
 * masked with no change to src/redact.ts; and masking never eats plain words.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { FIELDS, type FieldDef } from '../schemas/fields';
import { MASKING, maskedKeys, redact, redactText } from '../src/redact';
import { redactingStream } from '../src/report/console';
import { redactFileInPlace, writeRedactedBytes, writeRedactedJson, writeRedactedNdjson, writeRedactedText } from '../src/report/files';
import { Target } from '../src/client/target';
import { validateRequestEnvelope } from '../src/validate';
import { buildRequestBlock } from '../src/wire/xml';

/** A secret value of each masked kind: a Luhn-valid card number, a security code. */
const SAMPLE = { pan: '4000000000000002', securitycode: '739' } as const;
const masked = FIELDS.filter((f) => f.sensitive !== undefined && MASKING[f.sensitive] !== 'kept');
const sampleOf = (f: FieldDef): string => (f.sensitive === 'pan' ? SAMPLE.pan : SAMPLE.securitycode);

/** The forms a field's value is written in, as text. */
function forms(f: FieldDef, value: string): Record<string, string> {
  const xmlName = (f.request?.xml ?? f.response?.xml ?? f.name).split('/').at(-1)!;
  return {
    json: JSON.stringify({ [f.name]: value }),
    'json in a json string': JSON.stringify({ body: JSON.stringify({ [f.name]: value }) }),
    xml: `<${xmlName}>${value}</${xmlName}>`,
    'key=value': `${f.name}=${value}&next=1`,
    'key: value': `${f.name}: ${value}`,
  };
}

describe('every sensitive field of the dictionary is masked', () => {
  it('the dictionary has masked fields (the test below runs over something)', () => {
    assert.ok(masked.some((f) => f.sensitive === 'pan'));
    assert.ok(masked.some((f) => f.sensitive === 'securitycode'));
  });

  for (const f of masked) {
    const value = sampleOf(f);
    it(`${f.name} (${f.sensitive}): structures and every text form`, () => {
      assert.ok(!JSON.stringify(redact({ [f.name]: value, nested: [{ [f.name]: value }] })).includes(value));
      // A number under the key, too (a client sending the code as a JSON number).
      assert.ok(!JSON.stringify(redact({ [f.name]: Number(value) })).includes(value));
      for (const [form, text] of Object.entries(forms(f, value))) assert.ok(!redactText(text).includes(value), `${form}: ${redactText(text)}`);
    });

    it(`${f.name} (${f.sensitive}): every writer`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-redact-'));
      try {
        const request = { requesttypedescriptions: ['AUTH'], sitereference: 'test_site12345', [f.name]: value };
        const text = Object.values(forms(f, value)).join('\n');
        const written: Record<string, string> = {};
        // Report files: JSON structures, text, bytes of an attachment, files written by cucumber and masked after.
        written.json = fs.readFileSync(writeRedactedJson(path.join(dir, 'a.json'), { request }), 'utf8');
        written.text = fs.readFileSync(writeRedactedText(path.join(dir, 'a.txt'), text), 'utf8');
        written.bytes = fs.readFileSync(writeRedactedBytes(path.join(dir, 'a.bin'), Buffer.from(text)), 'utf8');
        fs.writeFileSync(path.join(dir, 'm.ndjson'), JSON.stringify({ attachment: { body: JSON.stringify(request) } }) + '\n');
        redactFileInPlace(path.join(dir, 'm.ndjson'));
        written.ndjson = fs.readFileSync(path.join(dir, 'm.ndjson'), 'utf8');
        // Cucumber's messages as `cardspec run` writes them: masked as they come, the same bytes as masked in place.
        const messages = writeRedactedNdjson(path.join(dir, 'w.ndjson'));
        messages.write({ attachment: { body: JSON.stringify(request) } });
        messages.close();
        written.ndjsonAsWritten = fs.readFileSync(path.join(dir, 'w.ndjson'), 'utf8');
        assert.equal(written.ndjsonAsWritten, written.ndjson);
        fs.writeFileSync(path.join(dir, 'r.html'), `<pre>${text}</pre><script>window.d="${JSON.stringify(request).replace(/"/g, '\\"')}"</script>`);
        redactFileInPlace(path.join(dir, 'r.html'));
        written.html = fs.readFileSync(path.join(dir, 'r.html'), 'utf8');
        // An exchange attached to a report, JSON and XML.
        const envelope = { alias: 'merchant', version: '1.00', request: [request] };
        written.attachment = Target.attachment(
          { format: 'json', url: 'http://127.0.0.1/json/', status: 200, durationMs: 1, requestText: JSON.stringify(envelope), responseText: '' } as never,
          envelope,
        );
        written.xmlAttachment = Target.attachment({ format: 'xml', url: 'http://127.0.0.1/xml/', status: 200, durationMs: 1, requestText: buildRequestBlock(envelope), responseText: '' } as never);
        // The console (cucumber's formatter output), in two writes cut inside the value.
        let out = '';
        const stream = redactingStream({ write: (s: string) => (out += s) });
        await new Promise<void>((resolve) => stream.write(text.slice(0, 20), () => resolve()));
        await new Promise<void>((resolve) => stream.end(text.slice(20) + '\n', () => resolve()));
        written.console = out;
        // Validation messages (what `cardspec validate` prints and reports attach) and an error's text.
        written.violations = JSON.stringify(validateRequestEnvelope({ ...envelope, request: [{ ...request, [f.name]: value + 'x' }, request] }));
        written.error = redactText(String(new Error(`the target refused ${JSON.stringify(request)}`)));
        for (const [writer, content] of Object.entries(written)) assert.ok(!content.includes(value), `${writer} leaks ${f.name}: ${content}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('a new sensitive field needs no change to the masking', () => {
  const base = FIELDS.find((f) => f.sensitive === 'securitycode')!;
  const added: FieldDef[] = [
    ...FIELDS,
    { ...base, name: 'issuerpin', request: { minLength: 4, maxLength: 4, xml: 'billing/payment/issuerpin' }, response: undefined },
    { ...FIELDS.find((f) => f.sensitive === 'pan')!, name: 'fundingpan', request: { minLength: 12, maxLength: 19, xml: 'billing/funding/fundingpan' } },
  ];

  it('its key and its XML element are read from the dictionary, by kind', () => {
    const keys = maskedKeys(added);
    assert.ok(keys.whole.includes('issuerpin'), keys.whole.join(','));
    assert.ok(keys.cardNumber.includes('fundingpan'), keys.cardNumber.join(','));
    // The kit's own dictionary, read the same way: no key of a masked kind is missing.
    const own = maskedKeys();
    for (const f of masked) assert.ok([...own.whole, ...own.cardNumber].includes(f.name), f.name);
  });

  it('a kind the masking has not decided on does not compile (MASKING is a Record of every kind)', () => {
    assert.deepEqual(Object.keys(MASKING).sort(), ['acs-secret', 'pan', 'securitycode']);
  });
});

describe('masking never eats plain words', () => {
  for (const text of [
    'give --user and --password',
    'run with -u and a user name',
    'the request had no authorization: add --user',
    'Authorization: missing',
    "The bank's result for the securitycode: not matched",
    'ACS-REALPAN: passed',
    'a masked pan is shown as maskedpan',
  ]) {
    it(JSON.stringify(text), () => assert.equal(redactText(text), text));
  }

  it('credentials on a command line and in headers are still masked', () => {
    assert.equal(redactText('curl -u merchant:s3cret https://x'), 'curl -u *** https://x');
    assert.equal(redactText('cardspec run --password=s3cret'), 'cardspec run --password=***');
    assert.equal(redactText('Authorization: Basic bWVyY2hhbnQ6czNjcmV0'), 'Authorization: Basic ***');
    assert.equal(redactText('authorization: dG9rZW4tMTIzNDU2Nzg5'), 'authorization: ***');
    assert.equal(redactText('password: hello'), 'password: ***');
  });
});
