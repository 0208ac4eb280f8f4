/**
 * Profiles: the built-in one is the reference gateway's own test data; a profile file is checked whole, with every
 * problem named by its place in the file, and values checked with the field dictionary.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { redactText } from '../../src/redact';
import { DEFAULT_CONFIG, MCC_6012_VALUES, SECURITY_TRIGGERS, TEST_CARDS } from '../../src/testdata';
import {
  BUILTIN_PROFILE,
  CAPABILITIES,
  CARD_ROLES,
  checkProfile,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  loadProfile,
  missingRequirement,
  paymentCardSources,
  ProfileError,
  withUnavailable,
} from '../../src/client/profile';

function problemsOf(doc: unknown): readonly string[] {
  try {
    checkProfile(doc, 'p.json');
  } catch (e) {
    assert.ok(e instanceof ProfileError);
    return e.problems;
  }
  assert.fail('the profile was accepted');
}

describe('the builtin profile', () => {
  it("is the reference gateway's test data: its user, sites, cards, triggers and 6012 fields", () => {
    const p = loadProfile('builtin');
    const user = DEFAULT_CONFIG.users[0];
    assert.deepEqual(p.credentials, { user: user.username, password: user.password, alias: user.alias });
    const sites = new Map(DEFAULT_CONFIG.sites.map((s) => [s.sitereference, s]));
    assert.ok(sites.get(p.sites.main)?.cardstore && sites.get(p.sites.main)?.fraudcontrol);
    assert.equal(sites.get(p.sites.mcc6012!)?.mcc, '6012');
    assert.equal(sites.get(p.sites.withoutFeatures!)?.cardstore, false);
    assert.equal(p.cards.authorised?.pan, TEST_CARDS.authorised.pan);
    assert.equal(p.cards.notAuthenticated?.pan, TEST_CARDS.acsNotAuthenticated.pan);
    assert.deepEqual(p.security, SECURITY_TRIGGERS);
    assert.deepEqual(p.mcc6012Fields, MCC_6012_VALUES);
    for (const role of Object.keys(CARD_ROLES)) assert.ok(p.cards[role as keyof typeof CARD_ROLES], `builtin has no ${role} card`);
    for (const cap of Object.keys(CAPABILITIES)) assert.equal(missingRequirement(p, cap), undefined);
  });
});

describe('a profile file', () => {
  const minimal = { name: 'sandbox', sites: { main: 'test_site12345' }, cards: { authorised: { pan: '4111111111111111', expirydate: '12/2031' } } };

  it('needs only a name, a main site and cards; capabilities default to off and say why a scenario is skipped', () => {
    const p = checkProfile(minimal, 'p.json');
    assert.equal(p.paths.json, '/json/');
    assert.equal(p.capabilities.clock, false);
    assert.match(missingRequirement(p, 'clock') ?? '', /lacks the capability "clock": the test-control clock/);
    assert.match(missingRequirement(p, 'card:declined') ?? '', /has no "declined" card/);
    assert.equal(missingRequirement(p, 'card:authorised'), undefined);
  });

  it('lists every problem at once, by its place in the file, checking values against the dictionary', () => {
    const problems = problemsOf({
      name: 'bad',
      colour: 'blue',
      sites: { main: 'has space' },
      cards: { authorised: { pan: '41111', expirydate: '2031-12' }, golden: { pan: '4111111111111111', expirydate: '12/2031' } },
      capabilities: { clock: 'yes', teleport: true, mcc6012: true },
      limits: { totalTimeoutMs: -1 },
      paths: { xml: 'xml/' },
    });
    const expected = [
      /^colour: unknown key/,
      /^sites\.main: sitereference must be Alphanumeric incl\. underscore/,
      /^cards\.authorised\.pan: pan is 5 characters; the document's minimum is 12/,
      /^cards\.authorised\.expirydate: expirydate/,
      /^cards\.golden: unknown card role/,
      /^capabilities\.teleport: unknown capability/,
      /^capabilities\.clock: must be true or false/,
      /^capabilities\.mcc6012: needs sites\.mcc6012 and mcc6012Fields/,
      /^limits\.totalTimeoutMs: must be a positive whole number/,
      /^paths\.xml: must start with "\/"/,
    ];
    for (const re of expected)
      assert.ok(
        problems.some((p) => re.test(p)),
        `no problem matching ${re}: ${problems.join(' | ')}`,
      );
  });

  it('is read from a file, and a missing or non-JSON file is a clear error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-profile-'));
    const good = path.join(dir, 'good.json');
    fs.writeFileSync(good, JSON.stringify(minimal));
    assert.equal(loadProfile(good).name, 'sandbox');
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{ nope');
    assert.throws(() => loadProfile(bad), /is not JSON/);
    assert.throws(() => loadProfile(path.join(dir, 'missing.json')), /cannot be read \(ENOENT\)/);
  });

  it('never shows a card number it refuses', () => {
    assert.throws(
      () => checkProfile({ name: 'x', sites: { main: 's' }, cards: { authorised: { pan: '4111111111111111', expirydate: 'bad' } }, colour: 1 }, 'p.json'),
      (e: Error) => !e.message.includes('4111111111111111'),
    );
  });
});

describe('the card of a payment-page flow', () => {
  const minimal = { name: 'p', sites: { main: 'test_site12345' }, cards: { authorised: { pan: '4111111111111111', expirydate: '12/2031' } } };

  it("reads cachetokenProvider: a command line or argv, run in the profile file's folder, with a timeout", () => {
    const p = checkProfile({ ...minimal, cachetokenProvider: { command: ['node', 'token.js'], timeoutMs: 5000 } }, path.join('some', 'dir', 'p.json'));
    assert.deepEqual(p.cachetokenProvider, { command: ['node', 'token.js'], cwd: path.resolve('some', 'dir'), timeoutMs: 5000 });
    const q = checkProfile({ ...minimal, cachetokenProvider: { command: './token.sh' } }, 'p.json');
    assert.equal(q.cachetokenProvider?.timeoutMs, DEFAULT_PROVIDER_TIMEOUT_MS);
    assert.deepEqual(paymentCardSources(q), ['provider']);
  });

  it('a problem of the password reads in full once masked (masking takes the word after "password:")', () => {
    const problems = problemsOf({ ...minimal, credentials: { user: 'u', password: '' } });
    const shown = problems.map((p) => redactText(p)).find((p) => p.includes('credentials.password'));
    assert.equal(shown, 'credentials.password must be a non-empty string');
  });

  it('names every problem of cachetokenProvider', () => {
    const problems = problemsOf({ ...minimal, cachetokenProvider: { command: [], timeoutMs: -1, shell: true } });
    assert.ok(problems.includes('cachetokenProvider.shell: unknown key (known: command, timeoutMs)'), problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('cachetokenProvider.command: must be a command line')));
    assert.ok(problems.includes('cachetokenProvider.timeoutMs: must be a positive whole number'));
  });

  it('@requires:cachetokens is met by any source: the provider, the test-control API, or pan where the target takes it', () => {
    const none = checkProfile(minimal, 'p.json');
    assert.deepEqual(paymentCardSources(none), []);
    assert.match(missingRequirement(none, 'cachetokens') ?? '', /no source of cache tokens for the target/);
    const pan = checkProfile({ ...minimal, capabilities: { threedqueryPan: true } }, 'p.json');
    assert.deepEqual(paymentCardSources(pan), ['pan']);
    assert.equal(missingRequirement(pan, 'cachetokens'), undefined);
    // The built-in profile on a target without the test-control API: the card goes as pan.
    const noControl = withUnavailable(BUILTIN_PROFILE, ['clock', 'ledger', 'cachetokens'], 'no control API');
    assert.deepEqual(paymentCardSources(noControl), ['pan']);
    assert.equal(missingRequirement(noControl, 'cachetokens'), undefined);
    assert.match(missingRequirement(noControl, 'clock') ?? '', /no control API/);
  });
});
