/**
 * "A target that differs from the document in any one documented rule makes `cardspec run` exit 1 on a scenario
 * tagged with that rule; a target that differs only where the document allows passes." Shown here with variants of
 * the reference gateway (its `mutate` hook): faulty ones, each run on the scenarios of the rule it breaks, and
 * benign ones, each run on the whole suite.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startGateway, type GatewayMutation } from '../../src/gateway';
import type { Format, ResponsePart } from '../../src/wire/types';
import { runCli } from './cli';

async function runAgainst(mutate: GatewayMutation, args: readonly string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
  const gw = await startGateway({ control: true, mutate });
  try {
    return await runCli(['--target', gw.url, ...args]);
  } finally {
    await gw.close();
  }
}

interface Faulty {
  readonly rule: string;
  readonly what: string;
  readonly format?: Format;
  readonly mutate: GatewayMutation;
}

const FAULTY: readonly Faulty[] = [
  {
    rule: 'ENV-ORDER',
    what: 'answers the parts of a combined request in reverse order',
    mutate: { envelope: (env) => (Array.isArray(env.response) && env.response.length > 1 ? { ...env, response: [...env.response].reverse() } : env) },
  },
  {
    rule: '3DS-60022-SETTLE',
    what: 'gives an unauthenticated AUTH (60022) settlestatus 0 instead of 3',
    mutate: { part: (p) => (p.errorcode === '60022' ? { ...p, settlestatus: '0' } : p) },
  },
  {
    rule: 'FIELD-MASKEDPAN',
    what: 'masks card numbers with * instead of #',
    mutate: { part: (p) => (typeof p.maskedpan === 'string' ? { ...p, maskedpan: p.maskedpan.replace(/#/g, '*') } : p) },
  },
  {
    rule: 'SUB-RECUR',
    what: 'gives the SUBSCRIPTION part accounttypedescription ECOM instead of RECUR',
    mutate: { part: (p) => (p.requesttypedescription === 'SUBSCRIPTION' ? { ...p, accounttypedescription: 'ECOM' } : p) },
  },
  {
    rule: 'VER-JSON',
    what: 'answers version 1.0 instead of 1.00',
    mutate: { envelope: (env) => ({ ...env, version: '1.0' }) },
  },
  {
    rule: '3DS-ACSURL-ONLY-ENROLLED',
    what: 'returns an acsurl for a card that is not enrolled',
    mutate: { part: (p) => (p.requesttypedescription === 'THREEDQUERY' && p.enrolled === 'N' ? { ...p, acsurl: 'https://acs.example.test/acs/' } : p) },
  },
  {
    rule: 'SUB-STATE-DEACTIVATE',
    what: 'accepts a TRANSACTIONUPDATE of transactionactive 0 but keeps the subscription active',
    mutate: {
      operations: {
        TRANSACTIONUPDATE: (input, next) => {
          const updates = input.prepared.updates as Record<string, unknown> | undefined;
          if (updates?.transactionactive !== '0') return next(input);
          return next({ ...input, prepared: { ...input.prepared, updates: { ...updates, transactionactive: '1' } } });
        },
      },
    },
  },
  {
    rule: 'XML-SECURITY-PATHS',
    what: 'puts the security check results under <checks> instead of <security> in XML',
    format: 'xml',
    mutate: { wire: (reply, ctx) => (ctx.format === 'xml' ? { ...reply, body: reply.body.replace(/<(\/?)security>/g, '<$1checks>') } : reply) },
  },
];

describe('a faulty target makes cardspec run exit 1 on a scenario tagged with the rule it breaks', () => {
  for (const v of FAULTY) {
    it(`${v.rule}: a gateway that ${v.what}`, async () => {
      const format = v.format ?? 'json';
      const r = await runAgainst(v.mutate, ['--format', format, '--tags', `@rule:${v.rule}`]);
      assert.equal(r.code, 1, r.out);
      const failed = r.scenarios(format).filter((s) => s.verdict === 'failed');
      assert.ok(failed.length > 0, 'no scenario failed');
      assert.ok(failed.every((s) => s.rules.includes(v.rule)));
      assert.match(r.out, new RegExp(`Rules that failed \\(\\d+\\): .*${v.rule}`));
    });
  }
});

/** Each key order reversed: the document fixes no order of fields. */
const reversed = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;

const BENIGN: readonly { readonly what: string; readonly formats: 'json' | 'both'; readonly mutate: GatewayMutation }[] = [
  {
    what: 'adds fields the document does not name, to every part and to the envelope',
    formats: 'both',
    mutate: { part: (p) => ({ ...p, acquirertransactionid: 'TX123', customfield: 'extra' }), envelope: (env) => ({ ...env, libraryversion: 'gateway_9.9' }) },
  },
  {
    what: 'writes the fields of every part and of the envelope in reverse order',
    formats: 'json',
    mutate: { part: (p) => reversed(p), envelope: (env) => reversed({ ...env, response: Array.isArray(env.response) ? env.response.map((p) => reversed(p as ResponsePart)) : env.response }) },
  },
  {
    what: 'answers a secrand of another, varying length',
    formats: 'json',
    mutate: { envelope: (env) => ({ ...env, secrand: randomBytes(32).toString('base64url').slice(0, 1 + randomBytes(1)[0] % 40) }) },
  },
  {
    what: 'puts a charset on the content type of its answers',
    formats: 'both',
    mutate: { wire: (reply, ctx) => ({ ...reply, headers: { ...reply.headers, 'content-type': ctx.format === 'json' ? 'application/json; charset=utf-8' : 'text/xml; charset=UTF-8' } }) },
  },
  {
    what: 'words the messages of failures differently where the document fixes no wording',
    formats: 'json',
    mutate: { part: (p) => (typeof p.errorcode === 'string' && !['0', '60022'].includes(p.errorcode) ? { ...p, errormessage: `Refused (code ${p.errorcode})` } : p) },
  },
];

describe('a target that differs only where the document allows passes the whole suite', () => {
  for (const v of BENIGN) {
    it(`a gateway that ${v.what}`, async () => {
      const r = await runAgainst(v.mutate, ['--format', v.formats]);
      assert.equal(r.code, 0, r.out);
      const scenarios = r.scenarios();
      assert.ok(scenarios.length > 100, `only ${scenarios.length} scenarios ran`);
      assert.ok(scenarios.every((s) => s.verdict === 'passed'));
    });
  }
});
