/**
 * The attribution's lookups are keyed by names that come off the wire: a part's field, a finding's leaf. A gateway
 * that answers a field named like one of Object's own properties (`constructor`, `toString`, `__proto__`) must get
 * no rule from them, and the checking proxy that observes such an answer must count only the catalogue's rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProxySession } from '../../src/proxy/session';
import { formRuleOf, rulesForPartValue } from '../../src/rules/attribution';

const OWN_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

describe("rules by a field's name", () => {
  it("a field named as one of Object's own properties has no rule of form", () => {
    for (const name of OWN_NAMES) {
      assert.equal(formRuleOf(name, true), undefined, name);
      assert.equal(formRuleOf(name, false), undefined, name);
    }
    assert.equal(formRuleOf('maskedpan', false), 'FIELD-MASKEDPAN', 'a field of the table keeps its rule');
  });

  it("a part's value of such a name is blamed on a rule of the catalogue, by name", () => {
    for (const name of OWN_NAMES) for (const rule of rulesForPartValue([], name, 'AUTH')) assert.equal(typeof rule, 'string', name);
  });

  it('the proxy observing an answer with such fields counts only rule ids', () => {
    const session = new ProxySession();
    const request = { alias: 'site@example.com', version: '1.00', request: [{ requesttypedescriptions: ['AUTH'], sitereference: 'test_site' }] };
    const part: Record<string, string> = { requesttypedescription: 'AUTH', errorcode: '0', errormessage: 'Ok' };
    for (const name of OWN_NAMES) Object.defineProperty(part, name, { value: 'x', enumerable: true });
    const answer = { version: '1.00', requestreference: 'W1-abc', secrand: 'abcdef0123', response: [part] };
    session.observe({
      method: 'POST',
      path: '/json/',
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: Buffer.from(JSON.stringify(request)),
      status: 200,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: Buffer.from(JSON.stringify(answer)),
    });
    for (const c of session.report().coverage) assert.match(c.rule, /^[A-Z0-9]+(-[A-Z0-9]+)*(:[a-z0-9]+)?$/i, String(c.rule));
  });
});
