/**
 * Secrets under a client's own keys: an SDK sends the security code as `cvv` or `card[cvc]` and the card number as
 * `cardNumber` or `card_number` (and in groups, `4111 1111 1111 1111`). The field dictionary's `spellings`
 * (schemas/fields.ts) are what the one masking function reads; the leak scan reads the same keys.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIELDS } from '../schemas/fields';
import { findCardNumbers, keyPolicies, redact, redactText, registerCredential, registerSecret, sensitivityOfKey } from '../src/redact';
import { scanText } from '../src/report/scan';
import { readTarget } from '../src/client/connection';

const CODE = '739';
const CARD = '4000000000000002';
const NOT_LUHN = '5100000000000512';

describe('a secret under a key the client chose', () => {
  const codeKeys = ['cvv', 'CVV2', 'cvc', 'cv2', 'csc', 'card_cvv', 'cardCvc', 'card-cvv', 'securityCode', 'security_code', 'SECURITY_CODE', 'cardSecurityCode', 'cardcvv'];
  const cardKeys = ['cardNumber', 'card_number', 'CARD_NUMBER', 'PAN', 'Pan', 'cardNo', 'ccNumber', 'primaryAccountNumber', 'creditCardNumber'];

  for (const key of codeKeys) {
    it(`${key}: a security code, in a structure (string and number, nested) and in every text form`, () => {
      assert.equal(sensitivityOfKey(key), 'security-code');
      const masked = JSON.stringify(redact({ [key]: CODE, card: { [key]: Number(CODE) }, list: [{ [key]: CODE }] }));
      assert.ok(!masked.includes(CODE), masked);
      for (const text of [
        JSON.stringify({ [key]: CODE }),
        JSON.stringify({ body: JSON.stringify({ [key]: CODE }) }),
        `${key}=${CODE}&x=1`,
        `${key}: ${CODE}`,
        `<${key}>${CODE}</${key}>`,
        `&quot;${key}&quot;:&quot;${CODE}&quot;`,
      ]) {
        assert.ok(!redactText(text).includes(CODE), `${text} -> ${redactText(text)}`);
        assert.ok(
          scanText(text, 't').some((l) => l.kind === 'security-code'),
          `the scan sees ${text}`,
        );
        assert.deepEqual(scanText(redactText(text), 't'), [], redactText(text));
      }
    });
  }

  for (const key of cardKeys) {
    it(`${key}: a card number, Luhn-valid or not, plain or in groups`, () => {
      assert.equal(sensitivityOfKey(key), 'card-number');
      for (const value of [CARD, NOT_LUHN, '5100 0000 0000 0512', '5100-0000-0000-0512']) {
        const s = JSON.stringify(redact({ [key]: value }));
        assert.match(s, /510000######0512|400000######0002/, s);
        for (const text of [JSON.stringify({ [key]: value }), `${key}=${value}`, `<${key}>${value}</${key}>`]) {
          const out = redactText(text);
          assert.ok(!out.includes(value) && !out.includes(value.replace(/[ -]/g, '')), `${text} -> ${out}`);
          assert.ok(
            scanText(text, 't').some((l) => l.kind === 'card-number'),
            `the scan sees ${text}`,
          );
          assert.deepEqual(scanText(out, 't'), [], out);
        }
      }
    });
  }

  it('a masked card number keeps its maskedpan form; a key of the dictionary that is not a secret is kept', () => {
    assert.equal(redactText('{"cardNumber":"4000000000000002"}'), '{"cardNumber":"400000######0002"}');
    for (const [key, value] of [
      ['securityresponsesecuritycode', '2'],
      ['maskedpan', '411111######1111'],
      ['subscriptionnumber', '2'],
      ['phone_number', '447700900123'],
      ['orderreference', '123456789012'],
      ['timespan', 'x'],
    ]) {
      assert.equal(JSON.stringify(redact({ [key]: value })), JSON.stringify({ [key]: value }), key);
      assert.equal(redactText(`"${key}":"${value}"`), `"${key}":"${value}"`, key);
    }
    // A check result's XML element is `securitycode`: the document's own element, masked as before.
    assert.equal(sensitivityOfKey('securitycode'), 'security-code');
  });

  it('no spelling is the name of a field the dictionary does not mark secret (one reading of each key)', () => {
    const { spellings } = keyPolicies();
    const plainNames = new Set(FIELDS.filter((f) => f.sensitive === undefined).map((f) => f.name));
    for (const s of spellings.keys()) assert.ok(!plainNames.has(s), s);
    for (const f of FIELDS) for (const s of f.spellings ?? []) assert.equal(s, s.toLowerCase().replace(/[^a-z0-9]/g, ''), `${f.name}: ${s} is written compact`);
  });

  it('a nested field in form encoding (card[cvc]=, percent-encoded card%5Bcvc%5D=) is under its key too', () => {
    for (const [text, masked] of [
      ['card[cvc]=739&card[cardNumber]=5100000000000512', 'card[cvc]=***&card[cardNumber]=510000######0512'],
      ['card%5Bcvc%5D=739&card%5Bpan%5D=5100000000000512', 'card%5Bcvc%5D=***&card%5Bpan%5D=510000######0512'],
    ]) {
      assert.equal(redactText(text), masked);
      assert.deepEqual(scanText(masked, 't'), []);
      assert.ok(scanText(text, 't').length >= 2, text);
    }
  });

  it('words that are not secrets stay as written', () => {
    for (const text of ['the cvv: not matched', 'cardNumber: missing', 'password not printed', 'CARD_NUMBER is not a field of the document']) {
      assert.equal(redactText(text), text);
    }
  });
});

describe('a card number written in groups', () => {
  it('is found and masked wherever it stands (spaces or dashes, one separator throughout)', () => {
    for (const text of ['card 4111 1111 1111 1111 declined', 'card 4111-1111-1111-1111', 'amex 3782 822463 10005']) {
      assert.equal(findCardNumbers(text).length, 1, text);
      assert.doesNotMatch(redactText(text), /1111 1111|1111-1111|822463/, redactText(text));
    }
  });

  it('dates, UUIDs, phone numbers and numbers that fail the Luhn check are left alone', () => {
    for (const text of ['2026-01-05 09:00:00', '12345678-1234-1234-1234-123456789012', '+44 7700 900123', '4111 1111 1111 1112', '2026 0105 0900 00']) {
      assert.deepEqual(findCardNumbers(text), [], text);
      assert.equal(redactText(text), text);
    }
  });
});

describe('a password in a target URL', () => {
  it('is masked up to the last @ of the authority (a password may hold @ and :)', () => {
    assert.equal(redactText('POST https://bob:s3cr@t:pw@host.test/json/ refused'), 'POST https://bob:***@host.test/json/ refused');
    assert.equal(redactText('https://merchant@example.test:s3cret@host.test/'), 'https://merchant@example.test:***@host.test/');
    assert.equal(redactText('http://host.test:8080/path?x=a@b'), 'http://host.test:8080/path?x=a@b');
  });

  it('is masked in every message once --target was read, even where it is no longer a URL', () => {
    const target = 'https://bob:Sp%20ace-pw9@host.test/';
    assert.equal(readTarget(target), target);
    assert.equal(redactText('the password was "Sp ace-pw9"'), 'the password was "***"');
    assert.equal(redactText('Sp%20ace-pw9'), '***');
    registerSecret(undefined);
  });
});

describe('a quoted value runs to its closing quote', () => {
  it('a password or a card number with spaces is masked whole, in JSON, in JSON inside a JSON string, in entities', () => {
    assert.equal(redactText('{"password":"my pass phrase","x":1}'), '{"password":"***","x":1}');
    assert.equal(redactText("password: 'my pass phrase'"), "password: '***'");
    assert.equal(redactText('&quot;password&quot;:&quot;my pass&quot;'), '&quot;password&quot;:&quot;***&quot;');
    assert.equal(redactText('"password": "a\\"b c"'), '"password": "***"');
    assert.equal(redactText('{"cardNumber":"5100 0000 0000 0512"}'), '{"cardNumber":"510000######0512"}');
  });

  it('the value under any other key is read again: a serialized request or a message quoting a secret', () => {
    assert.equal(redactText('{"body":"{\\"password\\":\\"a b\\",\\"cvv\\":\\"123\\"}"}'), '{"body":"{\\"password\\":\\"***\\",\\"cvv\\":\\"***\\"}"}');
    assert.equal(redactText('{"message":"the cvv: 123 and password=abc def"}'), '{"message":"the cvv: *** and password=*** def"}');
  });
});

describe('masking is done once and for all', () => {
  it("a UUID's last group stays whole in a text that also holds character references (an attachment's XML, an HTML page)", () => {
    const uuid = '03e00d1d-c24e-4989-890a-649716207877';
    assert.ok(findCardNumbers('649716207877').length === 1, 'the group alone passes the Luhn check');
    const text = `<p>&#52;</p> {"id":"${uuid}"} 4&#49;11111111111111`;
    const once = redactText(text);
    assert.ok(once.includes(uuid), once);
    assert.ok(!once.includes('4&#49;11111111111111'), once);
    assert.equal(redactText(once), once);
  });
});

describe("an account's basic-auth token", () => {
  it('is masked alone, without the header name, padded or not, once the account is registered', () => {
    registerCredential('merchant@example.test', 'Tok3n-pass');
    const token = Buffer.from('merchant@example.test:Tok3n-pass').toString('base64');
    assert.equal(redactText(`GET /json/?auth=${token}`), 'GET /json/?auth=***');
    assert.equal(redactText(`token ${token.replace(/=+$/, '')}.`), 'token ***.');
    assert.equal(redactText('the password is Tok3n-pass'), 'the password is ***');
  });
});
