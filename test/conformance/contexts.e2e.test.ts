/**
 * Where each check was made: a real run of a few scenarios against the built-in gateway records, for every check,
 * the context of the exchange it looked at (read from the exchange: request type, outcome, card source and length,
 * separate or combined, parent), and the matrix tells per rule the contexts of its scope reached and not reached.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Matrix, MatrixRow } from '../../src/report/model';
import { reachedByRule, readReach, type ScenarioResult } from '../../src/report/messages';
import { contextFromKey, type ExchangeContext } from '../../src/rules/scope';
import { runCli, type CliRun } from './cli';

const TAGS = '@rule:3DS-AUTH-NOT-ENROLLED or @rule:3DS-STORED-CARD or @rule:RISKDEC-FIRST';

describe('the context of every check, and the matrix of contexts (built-in gateway)', () => {
  let r: CliRun;
  let matrix: Matrix;
  let scenarios: ScenarioResult[];
  before(async () => {
    r = await runCli(['--tags', TAGS, '--format', 'json']);
    matrix = JSON.parse(fs.readFileSync(path.join(r.reports, 'matrix.json'), 'utf8')) as Matrix;
    scenarios = r.scenarios('json');
  });
  const row = (id: string): MatrixRow => {
    const x = matrix.rules.find((m) => m.id === id);
    assert.ok(x, id);
    return x;
  };
  const reach = (scenario: RegExp, rule: string) => {
    const s = scenarios.find((x) => scenario.test(x.name));
    assert.ok(s, `scenario ${scenario}`);
    // summary.json groups the rules of one text under one key.
    const reached = reachedByRule(s.reached ?? {});
    const text = reached[rule];
    assert.ok(text, `${s.name}: no check of ${rule} with a context (${Object.keys(reached).join(', ')})`);
    const found = readReach(text);
    const contexts = found.contexts.map(([key, calls]) => ({ ...(contextFromKey(key) as ExchangeContext), calls }));
    return { calls: found.calls, contexts };
  };

  it('passes, as before', () => {
    assert.equal(r.code, 0, r.out);
    assert.ok(scenarios.length >= 3);
  });

  it("records each check's exchange and its context, read from the exchange and its parent", () => {
    // A THREEDQUERY's AUTH: a child of the THREEDQUERY, its card the THREEDQUERY's cache token, enrolment from the answer.
    const notEnrolled = reach(/Not enrolled \(N\)/, '3DS-AUTH-NOT-ENROLLED');
    const auth = notEnrolled.contexts.find((c) => c.type === 'AUTH');
    assert.deepEqual(
      { ...auth, calls: undefined },
      { format: 'json', type: 'AUTH', outcome: '0', card: 'cachetoken', length: '16', request: 'separate', parent: 'THREEDQUERY', enrolled: 'N', calls: undefined },
    );
    // A stored card: the THREEDQUERY's parent is the STORE, so its card is the stored one.
    const stored = reach(/stored card \(STORE\) is referenced/, '3DS-STORED-CARD').contexts.find((c) => c.type === 'THREEDQUERY');
    assert.equal(stored?.parent, 'STORE');
    assert.equal(stored?.card, 'stored');
    // A combined request: one context per part; the AUTH part's parent is its sibling RISKDEC, with its shield status.
    const combined = reach(/risk decision first/, 'RISKDEC-FIRST').contexts;
    assert.deepEqual(combined.map((c) => [c.type, c.request, c.parent]).sort(), [
      ['AUTH', 'combined', 'RISKDEC'],
      ['RISKDEC', 'combined', 'none'],
    ]);
    assert.ok(combined.every((c) => c.shield === 'ACCEPT'));
    // The invariants that held on an answer are checks of their rule in its exchange, with no per-step work.
    const invariant = reach(/Not enrolled \(N\)/, 'FIELD-MASKEDPAN');
    assert.deepEqual(invariant.calls, [0, 1]);
    // ... and of the rules its check covers: the envelope's fields on every answer, a part's format where it has the field.
    assert.deepEqual(
      reach(/Not enrolled \(N\)/, 'ENV-SECRAND')
        .contexts.map((c) => c.type)
        .sort(),
      ['AUTH', 'THREEDQUERY'],
    );
    assert.ok(reach(/Not enrolled \(N\)/, 'FIELD-TIMESTAMP').calls.length > 0);
  });

  it('the matrix tells, per rule, the contexts of its scope reached and those no exchange reached', () => {
    const notEnrolled = row('3DS-AUTH-NOT-ENROLLED');
    assert.equal(notEnrolled.overall.verdict, 'passed');
    // Scope {types: [AUTH], requests: [separate], parents: [THREEDQUERY], enrolled: [N, U]}: two contexts in JSON.
    assert.equal(notEnrolled.contexts?.total, 2);
    assert.deepEqual(notEnrolled.contexts?.reached.map((c) => c.context).sort(), ['JSON AUTH separate parent THREEDQUERY enrolled N', 'JSON AUTH separate parent THREEDQUERY enrolled U']);
    assert.deepEqual(notEnrolled.contexts?.unreached, []);
    // Its THREEDQUERY exchanges were checked too, but lie outside its scope: only the AUTH exchanges count.
    const all = scenarios.flatMap((s) => {
      const text = reachedByRule(s.reached ?? {})['3DS-AUTH-NOT-ENROLLED'];
      return text ? [{ s, x: readReach(text) }] : [];
    });
    const authCalls = new Set(all.flatMap(({ s, x }) => x.contexts.flatMap(([k, calls]) => (k.split('|')[1] === 'AUTH' ? calls.map((c) => `${s.uri}:${s.line}#${c}`) : []))));
    const everyCall = new Set(all.flatMap(({ s, x }) => x.calls.map((c) => `${s.uri}:${s.line}#${c}`)));
    assert.ok(authCalls.size >= 2 && authCalls.size < everyCall.size, `${authCalls.size} AUTH exchanges of ${everyCall.size}`);
    assert.equal(notEnrolled.contexts?.exchanges, authCalls.size);
    // FIELD-MASKEDPAN applies to every type, card source and length: these few scenarios reach some only, and say so.
    const masked = row('FIELD-MASKEDPAN');
    assert.ok(masked.contexts && masked.contexts.reached.length > 0 && masked.contexts.unreached.length > 0);
    assert.ok(masked.contexts.unreached.includes('JSON 12-digit card'), masked.contexts.unreached.join('; '));
    assert.ok(masked.contexts.reached.some((c) => c.context === 'JSON stored card'));
    const md = fs.readFileSync(path.join(r.reports, 'matrix.md'), 'utf8');
    assert.match(
      md,
      new RegExp(`Where it applies: checked in ${masked.contexts.exchanges} exchange\\(s\\), in ${masked.contexts.reached.length} of the ${masked.contexts.total} contexts of its scope\\.`),
    );
    assert.match(md, /Not reached: [^\n]*JSON 12-digit card/);
    assert.match(md, /\| Contexts \|/);
    const html = fs.readFileSync(path.join(r.reports, 'matrix.html'), 'utf8');
    assert.match(html, /<li class="unreached">Not reached: [^<]*JSON 12-digit card/);
    // A rule these scenarios checked with parents of two types of the six its sentence covers (a THREEDQUERY's, a
    // STORE's): passed, and 2 of 6 said.
    const echo = row('INHERIT-PARENT-ECHO');
    assert.equal(echo.overall.verdict, 'passed', 'unreached contexts never change the verdict');
    assert.deepEqual(echo.contexts?.reached.map((c) => c.context).sort(), ['JSON parent STORE', 'JSON parent THREEDQUERY']);
    assert.equal(echo.contexts?.unreached.length, 4);
    assert.match(md, /in 2 of the 6 contexts of its scope\.\n- Reached: JSON parent [A-Z]+ \(\d+\); JSON parent [A-Z]+ \(\d+\)\.\n- Not reached: JSON parent AUTH; /);
    // A rule no scenario of the run checked: none of its contexts reached.
    const subs = row('SUB-RECUR');
    assert.deepEqual(subs.contexts, { exchanges: 0, total: 1, reached: [], unreached: ['JSON SUBSCRIPTION'] });
    assert.match(md, /no exchange in its scope checked it \(1 context\(s\)\)/);
  });
});
