/**
 * The `summary` detail: a size CI keeps. Every scenario not passed stays whole, the first passed ones of each
 * feature keep their exchanges, the other passed ones lose their exchanges and checks in the messages and become
 * one Allure test per feature, format and rules; what the matrix and summary read is untouched.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { keptWhole, PASSES_KEPT_PER_FEATURE, runKeys, slimAllureResults, slimMessages } from '../../src/report/detail';
import type { ScenarioResult } from '../../src/report/messages';
import { scenarioResult } from './results';

const scenario = (name: string, line: number, verdict: ScenarioResult['verdict']): ScenarioResult => scenarioResult(name, 'json', ['R'], verdict, { line, tags: [] });

const SCENARIOS = [...Array.from({ length: 6 }, (_, i) => scenario(`pass ${i}`, 10 + i, 'passed')), scenario('broken', 30, 'failed'), scenario('skipped', 31, 'skipped')];

describe('--reports-detail summary', () => {
  it('keeps every scenario not passed and the first passed ones of each feature', () => {
    const kept = keptWhole(SCENARIOS);
    assert.equal(kept.size, PASSES_KEPT_PER_FEATURE + 2);
    for (const name of ['pass 0', 'pass 1', 'broken', 'skipped']) assert.ok(kept.has(`json\u0000f.feature\u0000${name}`), name);
    assert.ok(!kept.has('json\u0000f.feature\u0000pass 5'));
  });

  it('messages: the exchanges and checks of the others go (summary.json holds what they checked, and where)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-detail-'));
    try {
      const file = path.join(dir, 'messages.ndjson');
      const lines = SCENARIOS.flatMap((s, i) => [
        { pickle: { id: `p${i}`, uri: s.uri, name: s.name } },
        { testCase: { id: `t${i}`, pickleId: `p${i}` } },
        { testCaseStarted: { id: `s${i}`, testCaseId: `t${i}` } },
        { attachment: { testCaseStartedId: `s${i}`, mediaType: 'application/json', body: '{"request":{}}' } },
        { attachment: { testCaseStartedId: `s${i}`, mediaType: 'application/x.cardspec.checks+json', body: '{"checks":[]}' } },
      ]);
      fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      assert.equal(slimMessages(file, 'json', keptWhole(SCENARIOS)), 8);
      const left = fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { attachment?: { mediaType: string }; testCaseStarted?: unknown });
      assert.equal(left.filter((m) => m.attachment?.mediaType === 'application/json').length, 4);
      assert.equal(left.filter((m) => m.attachment?.mediaType === 'application/x.cardspec.checks+json').length, 4);
      assert.equal(left.filter((m) => m.testCaseStarted).length, SCENARIOS.length, 'every scenario stays in the record');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Allure: the other passed results become one test listing them; failures and the sample stay whole', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-detail-'));
    try {
      SCENARIOS.forEach((s, i) => {
        const source = `a${i}-attachment.json`;
        fs.writeFileSync(path.join(dir, source), '{}');
        const result = {
          uuid: `u${i}`,
          name: s.name,
          status: s.verdict,
          fullName: `cardspec:${s.uri}#${s.name}`,
          description: 'the feature, again',
          labels: [{ name: 'story', value: 'R' }],
          parameters: [{ name: 'format', value: 'json' }],
          steps: [{ name: 'When it is sent', status: s.verdict, steps: [{ name: 'Attachment', attachments: [{ name: 'Attachment', source, type: 'application/json' }] }] }],
          attachments: [],
        };
        fs.writeFileSync(path.join(dir, `u${i}-result.json`), JSON.stringify(result));
        fs.writeFileSync(path.join(dir, `c${i}-container.json`), JSON.stringify({ uuid: `c${i}`, children: [`u${i}`], befores: [{ status: 'passed', steps: [] }], afters: [] }));
      });
      // Another tool's result in the same folder: never touched.
      const foreign = JSON.stringify({ uuid: 'x', name: 'an SDK test', status: 'passed', fullName: 'sdk:test.js#an SDK test', labels: [] });
      fs.writeFileSync(path.join(dir, 'x-result.json'), foreign);
      slimAllureResults(dir, keptWhole(SCENARIOS), runKeys(SCENARIOS));
      assert.equal(fs.readFileSync(path.join(dir, 'x-result.json'), 'utf8'), foreign);
      const results = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('-result.json'))
        .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { name: string; steps: { name: string }[]; description?: string });
      assert.deepEqual(results.map((r) => r.name).sort(), ['4 passed scenarios of R (summarised)', 'an SDK test', 'broken', 'pass 0', 'pass 1', 'skipped']);
      const summarised = results.find((r) => r.name.includes('summarised'))!;
      assert.deepEqual(
        summarised.steps.map((s) => s.name),
        ['pass 2', 'pass 3', 'pass 4', 'pass 5'],
      );
      assert.equal(summarised.description, undefined);
      const attachments = fs.readdirSync(dir).filter((f) => f.endsWith('-attachment.json'));
      assert.deepEqual(attachments.sort(), ['a0-attachment.json', 'a1-attachment.json', 'a6-attachment.json', 'a7-attachment.json']);
      assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('-container.json')).length, 0, 'containers of passed hooks that show nothing go');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
