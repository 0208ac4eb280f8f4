/**
 * validateText: JSON or XML, request or response, detected from the text; XML goes through src/wire/xml.ts and
 * the same schemas, plus the block's structure problems.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTION } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import { InputError, validateText, type Violation } from '../../src/validate';
import { buildRequestBlock, buildResponseBlock } from '../../src/wire/xml';
import { example } from '../schemas/fixtures';

const summary = (vs: readonly Violation[]): string[] => vs.map((v) => `${v.severity} ${v.field} ${v.rule}`);
const sdk = example('envelopes', 'auth-sdk.request');
const subscription = example('envelopes', 'subscription.response');

test('JSON: request and response envelopes, bare request objects and parts are told apart', () => {
  assert.deepEqual(validateText(JSON.stringify(sdk)), { kind: 'request', format: 'json', violations: [] });
  assert.deepEqual(validateText(`\uFEFF\n  ${JSON.stringify(subscription)}\n`), { kind: 'response', format: 'json', violations: [] });
  assert.deepEqual(validateText(JSON.stringify(example('requests', 'store'))), { kind: 'request', format: 'json', violations: [] });
  assert.deepEqual(validateText(JSON.stringify(example('responses', 'STORE'))), { kind: 'response', format: 'json', violations: [] });
  // The PHP SDK escapes "/" and non-ASCII; that is still the same JSON.
  const php = JSON.stringify(sdk).replace(/\//g, '\\/');
  assert.deepEqual(validateText(php).violations, []);
});

test("JSON: findings are the envelope validators' own", () => {
  const r = validateText(JSON.stringify({ ...sdk, request: [{ ...(sdk.request as object[])[0], baseamount: 1050 }] }));
  assert.deepEqual(summary(r.violations), ['error request[0].baseamount all-values-strings']);
  const order = validateText(JSON.stringify({ ...subscription, response: [...(subscription.response as object[])].reverse() }), { requested: ['AUTH', 'SUBSCRIPTION'] });
  assert.deepEqual(summary(order.violations), ['error response[0].requesttypedescription part-order', 'error response[1].requesttypedescription part-order']);
});

test('a body that is not an envelope is a finding that names what is wrong; only empty input is an InputError', () => {
  for (const text of ['', '   \n'])
    assert.throws(
      () => validateText(text),
      (e: unknown) => e instanceof InputError && /empty/.test(e.message),
      text,
    );
  for (const [text, pattern] of [
    ['[1,2,3]', /body: the body is a list; expected a request envelope/],
    ['"AUTH"', /body: the body is a JSON string/],
    ['{"foo":1}', /body: the body is an object with none of the envelope fields.*alias: alias is missing.*version: version is missing.*request: request is missing/s],
    ['{"alias": "a", ', /body: the body is not valid JSON/],
    ['alias=a&version=1.00', /not valid JSON/],
    ['<html><body/></html>', /html: the root element is <html>; the document's request block is <requestblock>/],
    ['<requestBlock version="3.67"><request type="AUTH"/></requestBlock>', /root element is <requestBlock>.*<requestblock> \(XML names are case-sensitive\)/],
    ['<requestblock version="3.67"><alias>a</alias', /not well-formed XML/],
  ] as const) {
    const r = validateText(text);
    assert.equal(r.kind, 'request', text);
    assert.ok(
      r.violations.some((v) => v.severity === 'error'),
      text,
    );
    assert.match(r.violations.map((v) => `${v.field}: ${v.message}`).join('\n'), pattern, text);
  }
});

test('XML: every request example and every response part, built as XML, is valid', () => {
  for (const row of OPERATIONS) {
    const xml = buildRequestBlock({ alias: 'webservices@example.test', version: '1.00', request: [example('requests', row.id)] });
    assert.deepEqual(validateText(xml), { kind: 'request', format: 'xml', violations: [] }, row.id);
  }
  const xml = buildResponseBlock(subscription);
  assert.deepEqual(validateText(xml, { requested: ['AUTH', 'SUBSCRIPTION'] }), { kind: 'response', format: 'xml', violations: [] });
});

test('XML as the Ruby gem sends it: a blank first line, no declaration, empty elements', () => {
  const xml =
    '\n<requestblock version="3.67"><alias>webservices@example.test</alias><request type="AUTH"><operation><sitereference>test_site12345</sitereference>' +
    '<accounttypedescription>ECOM</accounttypedescription><parenttransactionreference></parenttransactionreference></operation>' +
    '<billing><amount currencycode="GBP">1050</amount><county/><payment type="VISA"><pan>4111111111111111</pan><expirydate>12/2031</expirydate>' +
    '<securitycode>123</securitycode></payment></billing></request></requestblock>';
  assert.deepEqual(validateText(xml), { kind: 'request', format: 'xml', violations: [] });
});

test('XML: structure problems are xml-structure violations (Versioning for the version), field rules still apply', () => {
  const xml = buildRequestBlock(sdk);
  const wrongVersion = validateText(xml.replace('version="3.67"', 'version="3.66"'));
  assert.deepEqual(summary(wrongVersion.violations), ['error requestblock xml-structure']);
  assert.equal(wrongVersion.violations[0].section, SECTION.versioning);
  const noVersion = validateText(xml.replace(' version="3.67"', ''));
  assert.deepEqual(summary(noVersion.violations), ['error requestblock xml-structure']);
  assert.equal(noVersion.violations[0].section, SECTION.versioning);
  const zero = validateText(xml.replace('>1050<', '>0<'));
  assert.deepEqual(summary(zero.violations), ['error request[0].baseamount amount-above-zero']);
  const noRequest = validateText('<requestblock version="3.67"><alias>a</alias></requestblock>');
  assert.deepEqual(summary(noRequest.violations), ['error requestblock xml-structure', 'error request required']);
  assert.equal(noRequest.violations[0].section, SECTION.transport);
});

test('XML: request elements that give a field different values are two request objects, as in JSON', () => {
  const store = { requesttypedescriptions: ['STORE'], sitereference: 'test_site12345', orderreference: 's-1', accounttypedescription: 'CARDSTORE', pan: '4111111111111111', expirydate: '12/2031' };
  const one = buildRequestBlock({ alias: 'a', version: '1.00', request: [store] });
  const element = /<request type="STORE">.*<\/request>/.exec(one)![0];
  const two = one.replace(element, element + element.replace('s-1', 's-2'));
  const xml = summary(validateText(two).violations);
  assert.ok(xml.includes('error requestblock one-request-object'), xml.join('\n'));
  const json = summary(validateText(JSON.stringify({ alias: 'a', version: '1.00', request: [store, { ...store, orderreference: 's-2' }] })).violations);
  assert.ok(json.includes('error request one-request-object'), json.join('\n'));
});

test('XML responses are not asked for secrand (a field of the JSON body)', () => {
  const { secrand: _s, ...noSecrand } = subscription;
  assert.deepEqual(validateText(buildResponseBlock(noSecrand)).violations, []);
  assert.deepEqual(summary(validateText(JSON.stringify(noSecrand)).violations), ['error secrand required']);
});
