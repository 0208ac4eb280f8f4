/**
 * The gallery as the issue asks for it, without running it: at least 40 faulty variants spread over the envelope,
 * the fields, every request type, every state machine, every error code of the Errors table, inheritance, the ACS
 * round trip and the XML envelope; at least 8 benign ones; each faulty variant naming a testable rule of the
 * catalogue; each variant changing something; and docs/selfcheck.md listing them all.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GALLERY, selectVariants, variantNamed } from '../../src/selfcheck/gallery';
import { AREAS, type FaultyVariant } from '../../src/selfcheck/types';
import { loadRules } from '../conformance/catalogue';

const faulty = GALLERY.filter((v): v is FaultyVariant => v.kind === 'faulty');
const benign = GALLERY.filter((v) => v.kind === 'benign');
const rules = new Map(loadRules().map((r) => [r.id, r]));
const brokenRules = new Set(faulty.map((v) => v.rule));

describe('the gallery of variants', () => {
  it('holds at least 40 faulty and 8 benign variants, each named once, in kebab-case', () => {
    assert.ok(faulty.length >= 40, `${faulty.length} faulty variants`);
    assert.ok(benign.length >= 8, `${benign.length} benign variants`);
    const names = GALLERY.map((v) => v.name);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
      'names used twice',
    );
    for (const n of names) assert.match(n, /^[a-z0-9]+(?:[-.][a-z0-9]+)*$/, n);
  });

  it('names, for each faulty variant, a testable rule of features/rules.yaml', () => {
    for (const v of faulty) {
      const rule = rules.get(v.rule);
      assert.ok(rule, `${v.name}: no rule ${v.rule} in the catalogue`);
      assert.equal(rule.status, 'testable', `${v.name}: ${v.rule} is ${rule.status}; only a testable rule has scenarios to catch it`);
    }
  });

  it('spreads the faulty variants over every area and every group of rules the issue names', () => {
    for (const area of Object.keys(AREAS))
      assert.ok(
        faulty.some((v) => v.area === area),
        `no faulty variant in area ${area}`,
      );
    // The envelope, fields, request types, inheritance, the ACS, XML, versions, limits, authentication.
    for (const group of ['ENV', 'TRANSPORT', 'FIELD', 'AUTH', '3DS', 'AC', 'STORE', 'RISKDEC', 'SUB', 'INHERIT', 'ACS', 'XML', 'VER', 'LIMIT', 'SEC', 'ERR']) {
      assert.ok(
        [...brokenRules].some((r) => r.startsWith(`${group}-`)),
        `no faulty variant breaks a ${group}- rule`,
      );
    }
  });

  it('breaks every error code of the Errors table once at least', () => {
    for (const code of ['0', '30000', '60031', '60022', '70000', '60025', '60107', '99999']) assert.ok(brokenRules.has(`ERR-${code}`), `no variant breaks ERR-${code}`);
  });

  it('breaks every state machine: subscription, card store, 3-D Secure enrolment, settlement and fraud-control effects', () => {
    for (const id of [
      'SUB-STATE-PENDING',
      'SUB-STATE-ACTIVE',
      'SUB-STATE-INACTIVE',
      'SUB-STATE-PENDING-TO-ACTIVE',
      'SUB-STATE-DEACTIVATE',
      'SUB-STATE-FINAL',
      'SUB-STATE-RESUME',
      'STORE-STATE-ENABLED',
      'STORE-STATE-DISABLE',
      'STORE-STATE-REENABLE',
      '3DS-NEXT-U',
      '3DS-AUTH-ENROLLED',
      '3DS-AUTH-NOT-ENROLLED',
      '3DS-60022-SETTLE',
      'RISKDEC-SUSPEND-BEFORE-AUTH',
      'RISKDEC-SUSPEND-AFTER-AUTH',
    ]) {
      assert.ok(brokenRules.has(id), `no variant breaks ${id}`);
    }
  });

  it('touches every request type of the document', () => {
    const text = faulty.map((v) => `${v.rule} ${v.what}`).join('\n');
    for (const type of ['AUTH', 'THREEDQUERY', 'ACCOUNTCHECK', 'STORE', 'RISKDEC', 'SUBSCRIPTION', 'TRANSACTIONUPDATE', 'TRANSACTIONQUERY']) {
      assert.ok(text.includes(type), `no faulty variant mentions ${type}`);
    }
  });

  it('builds every variant into a change (a hook, a configuration or a front), afresh on each start', () => {
    for (const v of GALLERY) {
      const a = v.build();
      const b = v.build();
      assert.ok(a.mutate || a.config || a.front, `${v.name} changes nothing`);
      if (a.mutate) assert.ok(Object.keys(a.mutate).length > 0, `${v.name}: an empty mutation`);
      assert.notEqual(a, b, `${v.name}: build() must make a new instance`);
    }
  });

  it('limits a variant to one format only with a reason, and every benign variant says what allows it', () => {
    for (const v of GALLERY) {
      // An XML variant is about the XML envelope; any other one-format variant says why in its description.
      if (v.formats && v.formats.length === 1) assert.ok(v.area === 'xml' || /\b(JSON|XML)\b/.test(v.what), `${v.name} runs ${v.formats[0]} only without saying why`);
      if (v.kind === 'benign') assert.ok(v.allowedBy.length > 20, `${v.name}: allowedBy`);
    }
  });

  it('selects variants by name, pattern and kind, and names what it cannot find', () => {
    assert.deepEqual(
      selectVariants(['xml-*']).variants.map((v) => v.kind),
      // gallery/xml.ts, gallery/audit-xml-followups.ts (its benign ones first), then benign.ts's xml-without-declaration
      ['faulty', 'faulty', 'faulty', 'faulty', 'faulty', 'faulty', 'faulty', 'faulty', 'benign', 'benign', 'benign', 'benign', 'faulty', 'faulty', 'faulty', 'faulty', 'faulty', 'benign'],
    );
    assert.equal(selectVariants(['benign']).variants.length, benign.length);
    assert.deepEqual(selectVariants(['parts-reversed', 'no-such-variant']).unknown, ['no-such-variant']);
    assert.equal(variantNamed('parts-reversed')?.kind, 'faulty');
  });

  it('is listed whole, with each rule, in docs/selfcheck.md', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'selfcheck.md'), 'utf8');
    for (const v of GALLERY) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${v.name}\``));
      assert.ok(row, `docs/selfcheck.md has no row for ${v.name} (run npm run selfcheck -- --markdown docs/selfcheck.md)`);
      if (v.kind === 'faulty') assert.ok(row.includes(`\`${v.rule}\``), `docs/selfcheck.md: ${v.name} is listed without its rule ${v.rule}`);
    }
  });
});
