/**
 * The reference gateway's test data: which card and which value triggers which documented outcome. The built-in
 * profile is this table, so one table drives both the gateway and the kit's expectations of it. Where the public
 * sandbox's test cards are known (public-facts.md), the same numbers mean the same thing here, so that one profile
 * can serve both; every other entry is cardspec's own choice and says so.
 *
 * Every card is Luhn-valid and from a test range. None is a real customer's.
 */

export type Enrolment = 'Y' | 'N' | 'U';
export type AcsStatus = 'Y' | 'N' | 'A' | 'U';
export type Shield = 'ACCEPT' | 'CHALLENGE' | 'DENY';

export interface TestCard {
  readonly pan: string;
  readonly expirydate: string;
  readonly securitycode: string;
  /** Scheme name as `paymenttypedescription`. */
  readonly scheme: string;
  /** THREEDQUERY `enrolled`. */
  readonly enrolled: Enrolment;
  /** The ACS outcome the emulated ACS preselects for this card (a person may pick another on the page). */
  readonly acs: AcsStatus;
  /** The bank's answer to an AUTH: `0` authorised, `70000` declined. */
  readonly bank: '0' | '70000';
  /** RISKDEC shield status for this card. */
  readonly shield: Shield;
  /** `60031`: the payment type is not supported for 3-D Secure. */
  readonly no3ds?: boolean;
  /** `99999`: unknown error, for any operation on this card. */
  readonly unknownError?: boolean;
  /** Where the value comes from. */
  readonly source: 'public sandbox' | 'cardspec';
  readonly note: string;
}

const EXPIRY = '12/2031';

export const TEST_CARDS = {
  authorised: {
    pan: '4111111111111111',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Authorised; enrolled, authenticates.',
  },
  authorised2: {
    pan: '4111110000000211',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Authorised.',
  },
  declined: {
    pan: '4000000000000812',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'Y',
    bank: '70000',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Declined by the bank (70000); authenticates first, so it gives "70000 after authentication".',
  },
  declined2: {
    pan: '4242424242424242',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'N',
    acs: 'Y',
    bank: '70000',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Declined by the bank (70000).',
  },
  notEnrolled: {
    pan: '4000000000000721',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'N',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: '3-D Secure not enrolled (N); authorised.',
  },
  notEnrolled2: {
    pan: '4000000000001059',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'N',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: '3-D Secure not enrolled (N); authorised.',
  },
  enrolmentUnknown: {
    pan: '4111110000000401',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'U',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Enrolment unknown (U); authorised.',
  },
  mastercard: {
    pan: '5100000000000511',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'MASTERCARD',
    enrolled: 'Y',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Mastercard, authorised.',
  },
  amex: {
    pan: '340000000000611',
    expirydate: EXPIRY,
    securitycode: '1234',
    scheme: 'AMEX',
    enrolled: 'N',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    source: 'public sandbox',
    note: 'Amex (four-digit security code), authorised.',
  },
  acsNotAuthenticated: {
    pan: '4000000000001018',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'N',
    bank: '0',
    shield: 'ACCEPT',
    source: 'cardspec',
    note: 'Enrolled; the ACS answers N, so the AUTH gives 60022.',
  },
  acsAttempted: {
    pan: '4000000000001026',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'A',
    bank: '0',
    shield: 'ACCEPT',
    source: 'cardspec',
    note: 'Enrolled; the ACS answers A (attempt made but not completed).',
  },
  acsUnavailable: {
    pan: '4000000000001034',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'U',
    bank: '0',
    shield: 'ACCEPT',
    source: 'cardspec',
    note: 'Enrolled; the ACS answers U (unable to authenticate).',
  },
  shieldChallenge: {
    pan: '4000000000001042',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'Y',
    acs: 'Y',
    bank: '0',
    shield: 'CHALLENGE',
    source: 'cardspec',
    note: 'RISKDEC gives CHALLENGE.',
  },
  shieldDeny: { pan: '4000000000001067', expirydate: EXPIRY, securitycode: '123', scheme: 'VISA', enrolled: 'Y', acs: 'Y', bank: '0', shield: 'DENY', source: 'cardspec', note: 'RISKDEC gives DENY.' },
  no3ds: {
    pan: '36000000000008',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'DINERS',
    enrolled: 'N',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    no3ds: true,
    source: 'cardspec',
    note: 'Diners: the payment type is not supported for 3-D Secure (60031).',
  },
  unknownError: {
    pan: '4000000000009995',
    expirydate: EXPIRY,
    securitycode: '123',
    scheme: 'VISA',
    enrolled: 'N',
    acs: 'Y',
    bank: '0',
    shield: 'ACCEPT',
    unknownError: true,
    source: 'cardspec',
    note: 'Any operation on this card gives 99999 (unknown error).',
  },
} as const satisfies Record<string, TestCard>;

export type CardName = keyof typeof TEST_CARDS;

const BY_PAN: ReadonlyMap<string, TestCard> = new Map(Object.values(TEST_CARDS).map((c) => [c.pan, c]));

/** The test card for a card number; an unknown but valid number behaves as an authorised, not enrolled card. */
export function cardFor(pan: string): TestCard {
  return BY_PAN.get(pan) ?? { ...TEST_CARDS.notEnrolled, pan, scheme: schemeOf(pan), source: 'cardspec', note: 'Any other card number.' };
}

export function schemeOf(pan: string): string {
  if (/^4/.test(pan)) return 'VISA';
  if (/^5[1-5]/.test(pan) || /^2[2-7]/.test(pan)) return 'MASTERCARD';
  if (/^3[47]/.test(pan)) return 'AMEX';
  if (/^3(0[0-5]|[68])/.test(pan)) return 'DINERS';
  if (/^(50|5[6-9]|6)/.test(pan)) return 'MAESTRO';
  return 'UNKNOWN';
}

/**
 * Security check results (`0` not given, `1` not checked, `2` matched, `4` not matched), chosen by the value sent.
 * These values are cardspec's choice; a value not listed matches (`2`), and a value not sent gives `0`.
 */
export const SECURITY_TRIGGERS = {
  billingpremise: { matched: '789', notMatched: '123', notChecked: '333' },
  billingpostcode: { matched: 'TE45 6ST', notMatched: 'TE12 3ST', notChecked: 'TE33 3ST' },
  securitycode: { matched: '123', notMatched: '214', notChecked: '333' },
} as const;

/** Fields the gateway mandates on a site whose merchant category code is 6012 (60025 when missing); cardspec's choice. */
export const MCC_6012_FIELDS = ['customerdob', 'customeraccountnumber', 'customerpostcode', 'customerlastname'] as const;

export const MCC_6012_VALUES: Readonly<Record<(typeof MCC_6012_FIELDS)[number], string>> = {
  customerdob: '1980-01-31',
  customeraccountnumber: '12345678',
  customerpostcode: 'TE45 6ST',
  customerlastname: 'Smith',
};

export interface SiteConfig {
  readonly sitereference: string;
  readonly cardstore: boolean;
  readonly fraudcontrol: boolean;
  readonly mcc: string;
}

export interface UserConfig {
  readonly username: string;
  readonly password: string;
  readonly alias: string;
  readonly sites: readonly string[];
}

export interface GatewayConfig {
  readonly users: readonly UserConfig[];
  readonly sites: readonly SiteConfig[];
}

/** The built-in configuration: printed by `cardspec serve` at start, and the built-in profile's credentials. */
export const DEFAULT_CONFIG: GatewayConfig = {
  users: [{ username: 'webservices@example.test', password: 'cardspec-password-1', alias: 'webservices@example.test', sites: ['test_site12345', 'test_site6012', 'test_basic12345'] }],
  sites: [
    { sitereference: 'test_site12345', cardstore: true, fraudcontrol: true, mcc: '5969' },
    { sitereference: 'test_site6012', cardstore: true, fraudcontrol: true, mcc: '6012' },
    { sitereference: 'test_basic12345', cardstore: false, fraudcontrol: false, mcc: '5969' },
  ],
};
