/**
 * A profile is what the suite must know about a target that the document cannot tell it: which test card gives
 * which documented outcome, which values trigger which security check result, which sites exist, where the XML
 * and test-control endpoints are, and which optional capabilities the target has. A scenario tagged
 * `@requires:<capability>` (or `@requires:card:<role>`) that the profile lacks is reported skipped, with the reason.
 *
 * The `builtin` profile is built from src/testdata.ts, the table that also drives the reference gateway, so the
 * kit's expectations of the built-in target and the target's behaviour come from one place.
 *
 * Other targets are described by a JSON file (docs/conformance.md, "The profile file"); `loadProfile` checks it
 * and lists every problem at once, with its path in the file.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { redactText } from '../redact';
import { DEFAULT_CONFIG, MCC_6012_VALUES, SECURITY_TRIGGERS, TEST_CARDS, type TestCard } from '../testdata';
import { DEFAULT_LIMITS } from './http';

/** Optional abilities of a target; each gates the scenarios tagged `@requires:<name>`. */
export const CAPABILITIES = {
  clock: 'the test-control clock (`POST /_cardspec/clock`): time-based scenarios move it instead of waiting',
  ledger: 'the test-control ledger (`GET /_cardspec/transactions...`): reading subscription payments the engine took',
  cachetokens: 'the test-control cache tokens (`POST /_cardspec/cachetokens`): what the JavaScript library would post',
  threedqueryPan: 'THREEDQUERY takes the card as `pan`+`expirydate` instead of a `cachetoken` (public facts: the live service does)',
  acsForm: 'an ACS the kit can drive with two form POSTs (the emulated ACS), for the browser round trip',
  cardstore: 'card store (STORE) enabled on the main site',
  fraudcontrol: 'fraud control (RISKDEC) enabled on the main site',
  riskdecSuspends: 'the default configuration: AUTHs after a CHALLENGE or DENY are suspended automatically',
  mcc6012: 'a site whose merchant category code is 6012 (`sites.mcc6012`) and the fields it mandates (`mcc6012Fields`)',
  featuresOff: 'a site without card store and fraud control (`sites.withoutFeatures`)',
  transactionupdate: 'TRANSACTIONUPDATE in the public shape (`filter` + `updates`)',
  transactionquery: 'TRANSACTIONQUERY in the public shape (`filter`; records in `records`)',
} as const;
export type Capability = keyof typeof CAPABILITIES;

/**
 * The test cards a scenario can ask for, by the outcome the document describes. The phrase is how a feature
 * names the card (`the "not enrolled" card`).
 */
export const CARD_ROLES = {
  authorised: { phrase: 'authorised', meaning: 'enrolled (Y), authenticates at the ACS (Y), authorised by the bank' },
  declined: { phrase: 'declined', meaning: 'enrolled (Y), authenticates at the ACS (Y), declined by the bank (70000)' },
  notEnrolled: { phrase: 'not enrolled', meaning: 'not enrolled in 3-D Secure (N), authorised' },
  enrolmentUnknown: { phrase: 'enrolment unknown', meaning: 'enrolment unable to be determined (U), authorised' },
  notAuthenticated: { phrase: 'not authenticated', meaning: 'enrolled (Y); the ACS answers N (not authenticated)' },
  attempted: { phrase: 'attempt made', meaning: 'enrolled (Y); the ACS answers A (attempt made but not completed)' },
  unableToAuthenticate: { phrase: 'unable to authenticate', meaning: 'enrolled (Y); the ACS answers U (unable to authenticate)' },
  shieldChallenge: { phrase: 'CHALLENGE', meaning: 'RISKDEC gives CHALLENGE' },
  shieldDeny: { phrase: 'DENY', meaning: 'RISKDEC gives DENY' },
  no3ds: { phrase: 'not supported for 3-D Secure', meaning: 'THREEDQUERY gives 60031 (payment type not supported)' },
  unknownError: { phrase: 'unknown error', meaning: 'any operation gives 99999' },
} as const;
export type CardRole = keyof typeof CARD_ROLES;

export interface ProfileCard {
  readonly pan: string;
  readonly expirydate: string;
  readonly securitycode?: string;
}

/** Values that make the bank answer a given security check result (`2` matched, `4` not matched, `1` not checked). */
export interface SecurityTrigger {
  readonly matched: string;
  readonly notMatched: string;
  readonly notChecked: string;
}
export const SECURITY_CHECKED_FIELDS = ['billingpremise', 'billingpostcode', 'securitycode'] as const;
export type SecurityCheckedField = (typeof SECURITY_CHECKED_FIELDS)[number];

export interface Profile {
  readonly name: string;
  /** Default credentials; the command line and CARDSPEC_USER / CARDSPEC_PASSWORD override them. */
  readonly credentials?: { readonly user: string; readonly password: string; readonly alias?: string };
  readonly paths: { readonly json: string; readonly xml: string; readonly control: string };
  readonly sites: { readonly main: string; readonly mcc6012?: string; readonly withoutFeatures?: string };
  readonly currency: string;
  readonly cards: Readonly<Partial<Record<CardRole, ProfileCard>>>;
  readonly security?: Readonly<Record<SecurityCheckedField, SecurityTrigger>>;
  readonly mcc6012Fields?: Readonly<Record<string, string>>;
  readonly capabilities: Readonly<Record<Capability, boolean>>;
  readonly limits: { readonly connectTimeoutMs: number; readonly totalTimeoutMs: number; readonly maxResponseBytes: number };
  /**
   * A command that turns a card into a cache token, as a merchant's payment page does with the JavaScript library:
   * run with the card as JSON on its standard input, it prints the token (src/client/cachetoken-provider.ts).
   */
  readonly cachetokenProvider?: CachetokenProvider;
  /** Capabilities the profile claims but the target was found not to offer, with why (set by `cardspec run`). */
  readonly unavailable?: Readonly<Partial<Record<Capability, string>>>;
}

export interface CachetokenProvider {
  /** A shell command line, or a program and its arguments. */
  readonly command: string | readonly string[];
  /** Where it runs: the profile file's folder. */
  readonly cwd: string;
  readonly timeoutMs: number;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000;

/**
 * Where the card of a payment-page flow (THREEDQUERY, the combined RISKDEC/AUTH) comes from, best first: the
 * profile's provider command, the test-control API, or the card itself where the target takes it. Undefined when
 * the profile offers none: the scenarios tagged `@requires:cachetokens` are then skipped.
 */
export type PaymentCardSource = 'provider' | 'control' | 'pan';
export function paymentCardSources(profile: Profile): PaymentCardSource[] {
  const out: PaymentCardSource[] = [];
  if (profile.cachetokenProvider) out.push('provider');
  if (profile.capabilities.cachetokens && !profile.unavailable?.cachetokens) out.push('control');
  if (profile.capabilities.threedqueryPan && !profile.unavailable?.threedqueryPan) out.push('pan');
  return out;
}

/** The capabilities that are calls of the test-control API: a target without the API offers none of them. */
export const CONTROL_CAPABILITIES: readonly Capability[] = ['clock', 'ledger', 'cachetokens'];

/** The profile with some capabilities found missing on the target, each with the reason. */
export function withUnavailable(profile: Profile, caps: readonly Capability[], reason: string): Profile {
  const capabilities = { ...profile.capabilities };
  const unavailable: Partial<Record<Capability, string>> = { ...profile.unavailable };
  for (const c of caps) {
    capabilities[c] = false;
    unavailable[c] = reason;
  }
  return { ...profile, capabilities, unavailable };
}

const BUILTIN_ROLE_CARDS: Readonly<Record<CardRole, TestCard>> = {
  authorised: TEST_CARDS.authorised,
  declined: TEST_CARDS.declined,
  notEnrolled: TEST_CARDS.notEnrolled,
  enrolmentUnknown: TEST_CARDS.enrolmentUnknown,
  notAuthenticated: TEST_CARDS.acsNotAuthenticated,
  attempted: TEST_CARDS.acsAttempted,
  unableToAuthenticate: TEST_CARDS.acsUnavailable,
  shieldChallenge: TEST_CARDS.shieldChallenge,
  shieldDeny: TEST_CARDS.shieldDeny,
  no3ds: TEST_CARDS.no3ds,
  unknownError: TEST_CARDS.unknownError,
};

function builtinProfile(): Profile {
  const user = DEFAULT_CONFIG.users[0];
  const site = (pred: (s: (typeof DEFAULT_CONFIG.sites)[number]) => boolean): string | undefined => DEFAULT_CONFIG.sites.find(pred)?.sitereference;
  const cards: Partial<Record<CardRole, ProfileCard>> = {};
  for (const [role, c] of Object.entries(BUILTIN_ROLE_CARDS) as [CardRole, TestCard][]) {
    cards[role] = { pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode };
  }
  const capabilities = Object.fromEntries(Object.keys(CAPABILITIES).map((k) => [k, true])) as Record<Capability, boolean>;
  return {
    name: 'builtin',
    credentials: { user: user.username, password: user.password, alias: user.alias },
    // `/xml/` is the public XML clients' path (public-facts.md); the document leaves it "not shown".
    paths: { json: '/json/', xml: '/xml/', control: '/_cardspec/' },
    sites: {
      main: site((s) => s.cardstore && s.fraudcontrol && s.mcc !== '6012') ?? user.sites[0],
      mcc6012: site((s) => s.mcc === '6012'),
      withoutFeatures: site((s) => !s.cardstore && !s.fraudcontrol),
    },
    currency: 'GBP',
    cards,
    security: SECURITY_TRIGGERS,
    mcc6012Fields: MCC_6012_VALUES,
    capabilities,
    limits: { ...DEFAULT_LIMITS },
  };
}

export const BUILTIN_PROFILE: Profile = builtinProfile();

/** A profile file that cannot be used; `problems` lists every problem found, each with its place in the file. */
export class ProfileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(redactText(`profile ${file} cannot be used:\n${problems.map((p) => `  - ${p}`).join('\n')}`));
    this.name = 'ProfileError';
  }
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `builtin`, or the path of a profile JSON file. */
export function loadProfile(spec: string): Profile {
  if (spec === 'builtin') return BUILTIN_PROFILE;
  let text: string;
  try {
    text = fs.readFileSync(spec, 'utf8');
  } catch (e) {
    throw new ProfileError(spec, [`the file cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(spec, [`the file is not JSON: ${(e as Error).message}`]);
  }
  return checkProfile(doc, spec);
}

/**
 * Checks a parsed profile document. Card numbers, expiry dates, security codes and site references are checked
 * with the field dictionary (schemas/check.ts), so a profile can never hold a value the document would refuse.
 */
export function checkProfile(doc: unknown, file: string): Profile {
  const problems: string[] = [];
  if (!isRecord(doc)) throw new ProfileError(file, ['the top level must be an object']);
  const known = new Set(['$schema', 'name', 'credentials', 'paths', 'sites', 'currency', 'cards', 'security', 'mcc6012Fields', 'capabilities', 'limits', 'cachetokenProvider']);
  for (const k of Object.keys(doc)) if (!known.has(k)) problems.push(`${k}: unknown key (known: ${[...known].join(', ')})`);

  const str = (v: unknown, where: string, required = true): string | undefined => {
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v === '') {
      problems.push(`${where} must be a non-empty string`);
      return undefined;
    }
    return v;
  };
  const field = (name: string, v: unknown, where: string, required = true): string | undefined => {
    const s = str(v, where, required);
    if (s === undefined) return undefined;
    const p = checkValue(FIELD[name], 'request', s);
    if (p) problems.push(`${where}: ${p.message}`);
    return s;
  };
  const obj = (v: unknown, where: string, required: boolean): Json | undefined => {
    if (v === undefined && !required) return undefined;
    if (!isRecord(v)) {
      problems.push(`${where} must be an object`);
      return undefined;
    }
    return v;
  };

  const name = str(doc.name, 'name') ?? '(unnamed)';

  let credentials: Profile['credentials'];
  const cred = obj(doc.credentials, 'credentials', false);
  if (cred) {
    const user = str(cred.user, 'credentials.user');
    const password = str(cred.password, 'credentials.password');
    const alias = str(cred.alias, 'credentials.alias', false);
    if (user && password) credentials = { user, password, alias };
  }

  const pathsIn = obj(doc.paths, 'paths', false) ?? {};
  const path = (k: 'json' | 'xml' | 'control', dflt: string): string => {
    const v = pathsIn[k] === undefined ? dflt : (str(pathsIn[k], `paths.${k}`) ?? dflt);
    if (!v.startsWith('/')) problems.push(`paths.${k}: must start with "/"`);
    return v;
  };
  const paths = { json: path('json', '/json/'), xml: path('xml', '/xml/'), control: path('control', '/_cardspec/') };

  const sitesIn = obj(doc.sites, 'sites', true) ?? {};
  const sites = {
    main: field('sitereference', sitesIn.main, 'sites.main') ?? '',
    mcc6012: field('sitereference', sitesIn.mcc6012, 'sites.mcc6012', false),
    withoutFeatures: field('sitereference', sitesIn.withoutFeatures, 'sites.withoutFeatures', false),
  };

  const currency = doc.currency === undefined ? 'GBP' : (field('currencyiso3a', doc.currency, 'currency') ?? 'GBP');

  const cards: Partial<Record<CardRole, ProfileCard>> = {};
  const cardsIn = obj(doc.cards, 'cards', true) ?? {};
  for (const [role, c] of Object.entries(cardsIn)) {
    if (!(role in CARD_ROLES)) {
      problems.push(`cards.${role}: unknown card role (known: ${Object.keys(CARD_ROLES).join(', ')})`);
      continue;
    }
    const co = obj(c, `cards.${role}`, true);
    if (!co) continue;
    const pan = field('pan', co.pan, `cards.${role}.pan`);
    const expirydate = field('expirydate', co.expirydate, `cards.${role}.expirydate`);
    const securitycode = field('securitycode', co.securitycode, `cards.${role}.securitycode`, false);
    if (pan && expirydate) cards[role as CardRole] = { pan, expirydate, securitycode };
  }

  let security: Profile['security'];
  const secIn = obj(doc.security, 'security', false);
  if (secIn) {
    const out: Partial<Record<SecurityCheckedField, SecurityTrigger>> = {};
    for (const f of SECURITY_CHECKED_FIELDS) {
      const t = obj(secIn[f], `security.${f}`, true);
      if (!t) continue;
      const matched = field(f, t.matched, `security.${f}.matched`);
      const notMatched = field(f, t.notMatched, `security.${f}.notMatched`);
      const notChecked = field(f, t.notChecked, `security.${f}.notChecked`);
      if (matched && notMatched && notChecked) out[f] = { matched, notMatched, notChecked };
    }
    if (SECURITY_CHECKED_FIELDS.every((f) => out[f])) security = out as Record<SecurityCheckedField, SecurityTrigger>;
  }

  let mcc6012Fields: Record<string, string> | undefined;
  const mccIn = obj(doc.mcc6012Fields, 'mcc6012Fields', false);
  if (mccIn) {
    mcc6012Fields = {};
    for (const [k, v] of Object.entries(mccIn)) {
      const s = str(v, `mcc6012Fields.${k}`);
      if (s) mcc6012Fields[k] = s;
    }
  }

  const capsIn = obj(doc.capabilities, 'capabilities', false) ?? {};
  const capabilities = {} as Record<Capability, boolean>;
  for (const k of Object.keys(capsIn)) if (!(k in CAPABILITIES)) problems.push(`capabilities.${k}: unknown capability (known: ${Object.keys(CAPABILITIES).join(', ')})`);
  for (const k of Object.keys(CAPABILITIES) as Capability[]) {
    const v = capsIn[k];
    if (v !== undefined && typeof v !== 'boolean') problems.push(`capabilities.${k}: must be true or false`);
    capabilities[k] = v === true;
  }
  if (capabilities.mcc6012 && (!sites.mcc6012 || !mcc6012Fields)) problems.push('capabilities.mcc6012: needs sites.mcc6012 and mcc6012Fields');
  if (capabilities.featuresOff && !sites.withoutFeatures) problems.push('capabilities.featuresOff: needs sites.withoutFeatures');

  const limitsIn = obj(doc.limits, 'limits', false) ?? {};
  const num = (k: keyof Profile['limits']): number => {
    const v = limitsIn[k];
    if (v === undefined) return DEFAULT_LIMITS[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
      problems.push(`limits.${k}: must be a positive whole number`);
      return DEFAULT_LIMITS[k];
    }
    return v;
  };
  const limits = { connectTimeoutMs: num('connectTimeoutMs'), totalTimeoutMs: num('totalTimeoutMs'), maxResponseBytes: num('maxResponseBytes') };

  let cachetokenProvider: CachetokenProvider | undefined;
  const providerIn = obj(doc.cachetokenProvider, 'cachetokenProvider', false);
  if (providerIn) {
    for (const k of Object.keys(providerIn)) if (k !== 'command' && k !== 'timeoutMs') problems.push(`cachetokenProvider.${k}: unknown key (known: command, timeoutMs)`);
    const c = providerIn.command;
    const command = typeof c === 'string' && c.trim() !== '' ? c : Array.isArray(c) && c.length > 0 && c.every((a) => typeof a === 'string' && a !== '') ? (c as string[]) : undefined;
    if (!command) problems.push('cachetokenProvider.command: must be a command line, or a non-empty list of a program and its arguments');
    const t = providerIn.timeoutMs;
    if (t !== undefined && (typeof t !== 'number' || !Number.isInteger(t) || t <= 0)) problems.push('cachetokenProvider.timeoutMs: must be a positive whole number');
    if (command) cachetokenProvider = { command, cwd: nodePath.dirname(nodePath.resolve(file)), timeoutMs: typeof t === 'number' && t > 0 ? t : DEFAULT_PROVIDER_TIMEOUT_MS };
  }

  if (problems.length) throw new ProfileError(file, problems);
  return { name, credentials, paths, sites, currency, cards, security, mcc6012Fields, capabilities, limits, ...(cachetokenProvider ? { cachetokenProvider } : {}) };
}

/** Why a scenario cannot run on this profile, or `undefined` when it can. `requirement` is a `@requires:` value. */
export function missingRequirement(profile: Profile, requirement: string): string | undefined {
  if (requirement.startsWith('card:')) {
    const role = requirement.slice(5);
    if (!(role in CARD_ROLES)) return `unknown card role "${role}" in @requires:${requirement}`;
    return profile.cards[role as CardRole] ? undefined : `the profile "${profile.name}" has no "${CARD_ROLES[role as CardRole].phrase}" card (${CARD_ROLES[role as CardRole].meaning})`;
  }
  if (requirement === 'security') return profile.security ? undefined : `the profile "${profile.name}" lists no security check triggers (security)`;
  // A payment-page flow needs the card the way the payment page hands it over: any source will do.
  if (requirement === 'cachetokens' && paymentCardSources(profile).length > 0) return undefined;
  if (requirement === 'cachetokens') {
    const why = profile.unavailable?.cachetokens ? ` (${profile.unavailable.cachetokens})` : '';
    return `no source of cache tokens for the target: the profile "${profile.name}" gives no cachetokenProvider command, the test-control cache tokens are not offered${why}, and the profile does not say the target takes pan and expirydate in a THREEDQUERY (capabilities.threedqueryPan)`;
  }
  if (!(requirement in CAPABILITIES)) return `unknown capability "${requirement}" in @requires:${requirement}`;
  const unavailable = profile.unavailable?.[requirement as Capability];
  if (unavailable) return `the target does not offer the capability "${requirement}" (${CAPABILITIES[requirement as Capability]}): ${unavailable}`;
  return profile.capabilities[requirement as Capability] ? undefined : `the profile "${profile.name}" lacks the capability "${requirement}": ${CAPABILITIES[requirement as Capability]}`;
}
