import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findCardNumbers, redact, redactText, registerSecret } from '../src/redact';

test('a request serialized inside a JSON string (cucumber messages) is masked by key, too', () => {
  const inner = JSON.stringify({ pan: '4111111111111111', securitycode: '123', authorization: 'Basic dXNlcjpwYXNz' });
  const outer = JSON.stringify({ attachment: { body: inner } });
  const out = redactText(outer);
  assert.ok(!out.includes('4111111111111111'));
  assert.ok(!out.includes('\\"securitycode\\":\\"123\\"'), out);
  assert.ok(!out.includes('dXNlcjpwYXNz'), out);
  // Still valid JSON, with the body masked.
  const back = JSON.parse(JSON.parse(out).attachment.body);
  assert.equal(back.securitycode, '***');
  assert.equal(back.authorization, 'Basic ***');
});

test('the forms HTML pages use for < and quotes are masked', () => {
  const out = redactText('\\x3Csecuritycode>123\\x3C/securitycode> &lt;securitycode&gt;4567&lt;/securitycode&gt; &quot;securitycode&quot;:&quot;999&quot;');
  assert.ok(!/123|4567|999/.test(out), out);
});

test('a key after an escaped line break is still a key; a longer word ending in the key is not', () => {
  assert.equal(redactText('a\\nsecuritycode=123'), 'a\\nsecuritycode=***');
  // securityresponsesecuritycode is a check result (one digit), not a secret.
  assert.equal(redactText('{"securityresponsesecuritycode":"2"}'), '{"securityresponsesecuritycode":"2"}');
});

test('the password in a URL is masked, the user name is kept', () => {
  assert.equal(redactText('GET https://merchant:s3cret-pw@gateway.example/json/'), 'GET https://merchant:***@gateway.example/json/');
});

test('a UUID whose last group is a Luhn-valid run of digits is left whole', () => {
  // 411111111117 is Luhn-valid on its own; inside a UUID it is an identifier, and masking it would break references.
  const uuid = '2b1c3d4e-1111-2222-3333-411111111117';
  assert.ok(findCardNumbers('411111111117').length === 1);
  assert.equal(redactText(`id ${uuid}`), `id ${uuid}`);
  assert.deepEqual(findCardNumbers(uuid), []);
});

test('findCardNumbers finds Luhn-valid runs of 12 to 19 digits only', () => {
  assert.deepEqual(
    findCardNumbers('a 4111111111111111 b 4111111111111112 c 340000000000611 d 12345678901234567890').map((c) => c.digits),
    ['4111111111111111', '340000000000611'],
  );
});

test('structures are masked by key and by value, numbers under secret keys too', () => {
  const out = redact({ pan: '4111111111111111', securitycode: 123, note: 'card 5100000000000511', nested: [{ password: 'x' }] });
  assert.deepEqual(out, { pan: '411111######1111', securitycode: '***', note: 'card 510000######0511', nested: [{ password: '***' }] });
});

test('a registered secret is masked wherever it stands', () => {
  registerSecret('Zebra-Horse-42');
  assert.equal(redactText('logged in with Zebra-Horse-42.'), 'logged in with ***.');
});

test('words after a security-code key are not masked (a scenario name, a rule ID and its verdict); digits are', () => {
  assert.equal(redactText("The bank's result for the securitycode: not matched gives 4"), "The bank's result for the securitycode: not matched gives 4");
  assert.equal(redactText('ACS-REALPAN: passed'), 'ACS-REALPAN: passed');
  assert.equal(redactText('securitycode: 12a, realPan=4111111111111111'), 'securitycode: ***, realPan=***');
  // A password can be anything.
  assert.equal(redactText('password: hello'), 'password: ***');
});

test('masking inside XML or HTML keeps the element that quotes the secret', () => {
  assert.equal(redactText('<failure>Authorization: Basic dXNlcjpwYXNz</failure>'), '<failure>Authorization: Basic ***</failure>');
  assert.equal(redactText('<pre>curl -u user:pw</pre>'), '<pre>curl -u ***</pre>');
  assert.equal(redactText('<td>securitycode=123</td>'), '<td>securitycode=***</td>');
});

test('a card number written as XML character references is masked in text (the answer a report shows raw)', () => {
  const dec = '4111111111111111'
    .split('')
    .map((c) => `&#${c.charCodeAt(0)};`)
    .join('');
  const hex = '4111111111111111'
    .split('')
    .map((c) => `&#x${c.charCodeAt(0).toString(16)};`)
    .join('');
  for (const written of [dec, hex, `4111&#49;&#49;1111111111`, `&#052;111111111111111`]) {
    assert.equal(redactText(`<cardnumber>${written}</cardnumber>`), '<cardnumber>411111######1111</cardnumber>', written);
  }
  // Not a card number (Luhn), too short, or references of other characters: left as written.
  for (const text of ['&#52;&#50;&#52;&#50;&#52;&#50;&#52;&#50;&#52;&#50;&#52;&#50;&#52;&#50;&#52;&#51;', '&#49;&#50;&#51;', 'caf&#233; &#38; co']) {
    assert.equal(redactText(text), text);
  }
  // The leak scan reads them the same way.
  assert.deepEqual(
    findCardNumbers(`<x>${dec}</x>`).map((f) => f.digits),
    ['4111111111111111'],
  );
});
