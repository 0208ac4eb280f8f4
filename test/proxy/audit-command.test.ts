/**
 * `runAuditCommand(plan, io)` as a script calls it: a capture recorded by the proxy in front of a faulty variant
 * on loopback, audited with what the command prints captured from `io` and relative names read in `io.cwd`.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CaptureWriter } from '../../src/proxy';
import { runAuditCommand, type AuditIo, type AuditPlan } from '../../src/proxy/audit-command';
import { card, PAYMENT } from '../contract/helpers';
import { throughProxy } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-audit-command-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function testIo(): { io: AuditIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { out: { write: (t: string) => void (out += t) }, err: { write: (t: string) => void (err += t) }, cwd: dir }, out: () => out, err: () => err };
}

const plan = (files: string[], more: Partial<AuditPlan> = {}): AuditPlan => ({ files, basePath: '', strict: false, quiet: false, ...more });

describe('runAuditCommand', () => {
  before(async () => {
    const record = new CaptureWriter(path.join(dir, 'capture.jsonl'));
    const p = await throughProxy('maskedpan-stars', { record });
    try {
      await p.client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });
    } finally {
      await p.close();
      record.close();
    }
  });

  it('a line per violation, the report printed and written (relative to io.cwd), exit 1', async () => {
    const t = testIo();
    assert.equal(await runAuditCommand(plan(['capture.jsonl'], { report: 'audit.json' }), t.io), 1, t.out() + t.err());
    assert.match(t.out(), /#1 \[gateway\] ERROR FIELD-MASKEDPAN/);
    assert.match(t.out(), /cardspec proxy report: FAIL/);
    assert.match(t.out(), /Report written to audit\.json\n$/);
    const written = JSON.parse(fs.readFileSync(path.join(dir, 'audit.json'), 'utf8')) as { violations: { errors: number } };
    assert.equal(written.violations.errors, 1);
    assert.equal(t.err(), '');
    assert.doesNotMatch(t.out(), /4111111111111111/);
  });

  it('--junit FILE writes the very JUnit document --reports DIR holds', async () => {
    const t = testIo();
    assert.equal(await runAuditCommand(plan(['capture.jsonl'], { junit: 'audit-junit.xml', reports: 'audit-reports', quiet: true }), t.io), 1);
    const junit = fs.readFileSync(path.join(dir, 'audit-junit.xml'), 'utf8');
    assert.equal(junit, fs.readFileSync(path.join(dir, 'audit-reports', 'junit.xml'), 'utf8'));
    assert.match(junit, /name="FIELD-MASKEDPAN in the observed traffic \[json\]"[^>]*>(?:(?!<\/testcase>)[\s\S])*<failure message="Broke FIELD-MASKEDPAN:/);
  });

  it('a report that cannot be written is told on the error stream, and the other files are still written', async () => {
    const t = testIo();
    assert.equal(await runAuditCommand(plan(['capture.jsonl'], { report: 'capture.jsonl/audit.json', junit: 'after-junit.xml', quiet: true }), t.io), 1);
    assert.match(t.err(), /^cardspec audit: cannot write the report to capture\.jsonl\/audit\.json: E[A-Z]+\n$/);
    assert.match(t.out(), /JUnit written to after-junit\.xml\n$/);
    assert.ok(fs.existsSync(path.join(dir, 'after-junit.xml')));
  });

  it('quiet: no line per violation, the same verdict', async () => {
    const t = testIo();
    assert.equal(await runAuditCommand(plan(['capture.jsonl'], { quiet: true }), t.io), 1);
    assert.doesNotMatch(t.out(), /#1 \[gateway\] ERROR/);
    assert.match(t.out(), /\[gateway\] FIELD-MASKEDPAN: 1 error/);
  });

  it('a file that is no capture is exit 2, told on err by the name given; an empty HAR is nothing observed (3)', async () => {
    fs.writeFileSync(path.join(dir, 'other.txt'), 'hello');
    const bad = testIo();
    assert.equal(await runAuditCommand(plan(['other.txt']), bad.io), 2);
    assert.equal(bad.err(), 'cardspec audit: other.txt: neither a cardspec proxy capture (JSON lines) nor a HAR file (JSON)\n');
    assert.equal(bad.out(), '');
    fs.writeFileSync(path.join(dir, 'empty.har'), JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const empty = testIo();
    assert.equal(await runAuditCommand(plan(['empty.har']), empty.io), 3);
    assert.match(empty.out(), /nothing was checked: exit 3\.\n$/);
  });
});
