import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildRequestEnvelope, formatOfContentType, JSON_CONTENT_TYPE, parseJson, XML_CONTENT_TYPE } from '../../src/wire/json';

describe('buildRequestEnvelope', () => {
  it('is {alias, version "1.00", request: [one object]} plus what SDKs add', () => {
    const req = { requesttypedescriptions: ['AUTH'], sitereference: 'test_site12345' };
    assert.deepEqual(buildRequestEnvelope('webservices@example.test', req, { libraryversion: 'python_1.0.25' }), {
      alias: 'webservices@example.test',
      version: '1.00',
      request: [req],
      libraryversion: 'python_1.0.25',
    });
    assert.deepEqual(buildRequestEnvelope('a', {}), { alias: 'a', version: '1.00', request: [{}] });
  });

  it('does not let extra replace the documented keys', () => {
    const env = buildRequestEnvelope('a', { x: '1' }, { alias: 'b', version: '9.99', request: [], other: '2' });
    assert.deepEqual(env, { alias: 'a', version: '1.00', request: [{ x: '1' }], other: '2' });
  });
});

describe('parseJson', () => {
  it('parses a body, keeping numbers as the client sent them', () => {
    assert.deepEqual(parseJson('{"alias":"a","request":[{"baseamount":1050}]}'), { value: { alias: 'a', request: [{ baseamount: 1050 }] } });
    assert.deepEqual(parseJson('\uFEFF{"a":"12\\/2031"}'), { value: { a: '12/2031' } });
  });

  it('never throws: empty, malformed and non-text bodies give a problem', () => {
    assert.match(parseJson('').problem ?? '', /empty/);
    assert.match(parseJson('  \n').problem ?? '', /empty/);
    assert.match(parseJson('{"alias":').problem ?? '', /not valid JSON/);
    assert.match(parseJson(undefined as unknown as string).problem ?? '', /not text/);
    assert.equal(parseJson('{').value, undefined);
  });

  it('masks a card number the engine quotes in its message', () => {
    const { problem } = parseJson('{"pan":"4111111111111111" "securitycode":"123"}');
    assert.ok(problem);
    assert.ok(!problem.includes('4111111111111111'), problem);
  });
});

describe('content types', () => {
  it('names both forms, ignoring parameters and case', () => {
    assert.equal(JSON_CONTENT_TYPE, 'application/json');
    assert.equal(XML_CONTENT_TYPE, 'text/xml');
    assert.equal(formatOfContentType('application/json;charset=utf-8'), 'json');
    assert.equal(formatOfContentType('Text/XML; charset=utf-8'), 'xml');
    assert.equal(formatOfContentType('text/plain'), undefined);
    assert.equal(formatOfContentType(undefined), undefined);
  });
});
