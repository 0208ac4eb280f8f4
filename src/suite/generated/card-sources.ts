/**
 * "States and transitions > 3-D Secure enrolment", for every way the card reaches the THREEDQUERY: a cache token
 * ("as posted to the merchant after the customer submits the payment form"), the card data (where the target takes
 * it), and a stored card ("A stored card (STORE) can be referenced in a THREEDQUERY"). Each enrolment value, and
 * for an enrolled card each ACS status, is followed to its next step: a target that answers a stored card's
 * enrolment otherwise than a token's passes a suite that checks one source.
 *
 * Which test card gives which value is the profile's (card roles); a value of the field table with no card here
 * fails the test of the generated scenarios.
 */
import { FIELD } from '../../../schemas/fields';
import type { CardRole } from '../../client/profile';
import { phraseOf } from './rows';

/** The card of each `enrolled` value: Y enrolled, N not enrolled, U unable to determine. */
export const ENROLMENT_CARDS: Readonly<Record<string, CardRole>> = { Y: 'authorised', N: 'notEnrolled', U: 'enrolmentUnknown' };

/** The card of each ACS `status` of an enrolled card, and the code its AUTH gives where the Errors table fixes it. */
export const ACS_CARDS: Readonly<Record<string, { readonly role: CardRole; readonly code?: string }>> = {
  Y: { role: 'authorised', code: '0' },
  N: { role: 'notAuthenticated', code: '60022' },
  A: { role: 'attempted' },
  U: { role: 'unableToAuthenticate' },
};

interface Source {
  readonly name: string;
  /** Steps before the THREEDQUERY. */
  readonly before: (card: string) => string[];
  /** How the THREEDQUERY carries the card. */
  readonly how: (card: string) => string;
  readonly requires: readonly string[];
  readonly rules: readonly string[];
  readonly types: readonly string[];
}

export const CARD_SOURCES: readonly Source[] = [
  { name: 'a cache token', before: () => [], how: (card) => `with a cache token for the ${card}`, requires: ['cachetokens'], rules: [], types: [] },
  { name: 'the card data', before: () => [], how: (card) => `with the card data of the ${card}`, requires: [], rules: [], types: [] },
  {
    name: 'a stored card',
    before: (card) => [`When the merchant sends "Card store" with the ${card}`],
    how: () => 'with the parent the STORE',
    requires: ['cardstore'],
    rules: ['3DS-STORED-CARD'],
    types: ['STORE'],
  },
];

function valuesOf(field: string, cards: Readonly<Record<string, unknown>>): string[] {
  const values = FIELD[field].response?.values ?? [];
  for (const v of values) if (!(v in cards)) throw new Error(`${field} "${v}" has no test card in src/suite/generated/card-sources.ts: say which card gives it`);
  return [...values];
}

const requiresLine = (xs: readonly string[]): string => xs.map((r) => `@requires:${r}`).join(' ');

export function cardSourceScenarios(): string {
  const out: string[] = [
    '  # Each enrolment value (Y, N, U) and, for an enrolled card, each ACS status (Y, N, A, U), with the card reaching',
    '  # the THREEDQUERY by each source: a cache token, the card data, a stored card.',
  ];
  const enrolled = valuesOf('enrolled', ENROLMENT_CARDS).filter((v) => v !== 'Y');
  const statuses = valuesOf('status', ACS_CARDS);
  for (const s of CARD_SOURCES) {
    const first = (card: string): string[] => {
      const steps = [...s.before(card), `When the merchant sends "3-D Secure enrolment check" ${s.how(card)}`];
      return steps.map((x, i) => `    ${i > 0 ? x.replace(/^When /, 'And ') : x}`);
    };
    const types = ['@type:' + [...s.types, 'THREEDQUERY', 'AUTH'].join(' @type:')];
    // Enrolled (Y): the ACS, then AUTH with md and pares.
    out.push(
      '',
      `  ${[...s.rules, '3DS-ENROLMENT-CHECK', '3DS-NEXT-Y', '3DS-QUERY-RESPONSE', '3DS-AUTH-ENROLLED', '3DS-STATUS', 'FIELD-MASKEDPAN'].map((r) => `@rule:${r}`).join(' ')} ${requiresLine([...s.requires, 'acsForm'])} ${types}`,
      `  Scenario Outline: The card reaches the THREEDQUERY as ${s.name}, enrolled (Y), the ACS answers <status>: AUTH with md and pares`,
      ...first('"<card>" card'),
      '    Then the THREEDQUERY\'s enrolled is "Y"',
      '    And the THREEDQUERY holds `xid`, `acsurl`, `md` and `pareq`',
      '    And the THREEDQUERY\'s maskedpan masks the "<card>" card',
      '    When the customer completes 3-D Secure at the ACS for the THREEDQUERY',
      '    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY',
      '    Then the AUTH\'s enrolled is "Y"',
      '    And the AUTH\'s status is "<status>"',
    );
    for (const st of statuses) {
      const { role, code } = ACS_CARDS[st];
      out.push(
        '',
        `    ${[...(role === 'authorised' ? [] : [`@requires:card:${role}`]), ...(code !== undefined ? [`@rule:ERR-${code}`] : [])].join(' ')}`.trimEnd(),
        '    Examples:',
        '      | card | status |',
        `      | ${phraseOf(role)} | ${st} |`,
      );
    }
    // Not enrolled (N) or unable to determine (U): AUTH with the THREEDQUERY as parent.
    out.push(
      '',
      `  ${[...s.rules, '3DS-ENROLMENT-CHECK', '3DS-QUERY-RESPONSE', '3DS-ONLY-ENROLLED', '3DS-ACSURL-ONLY-ENROLLED', '3DS-PAREQ-ONLY-ENROLLED', '3DS-AUTH-NOT-ENROLLED', '3DS-STATUS', '3DS-CAVV-ECI', 'FIELD-MASKEDPAN'].map((r) => `@rule:${r}`).join(' ')} ${requiresLine(s.requires)} ${types}`,
      `  Scenario Outline: The card reaches the THREEDQUERY as ${s.name}, enrolled <enrolled>: AUTH with the THREEDQUERY as parent`,
      ...first('"<card>" card'),
      '    Then the THREEDQUERY\'s enrolled is "<enrolled>"',
      '    And the THREEDQUERY holds `xid`',
      '    And the THREEDQUERY does not hold `acsurl`, `md` or `pareq`',
      '    When the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY',
      '    Then the AUTH succeeded',
      '    And the AUTH\'s enrolled is "<enrolled>"',
      '    And the AUTH does not hold `status`, `cavv` or `eci`',
      '    And the AUTH\'s maskedpan masks the "<card>" card',
    );
    for (const v of enrolled) {
      const role = ENROLMENT_CARDS[v];
      out.push('', `    @rule:3DS-NEXT-${v} @requires:card:${role}`, '    Examples:', '      | card | enrolled |', `      | ${phraseOf(role)} | ${v} |`);
    }
  }
  return out.join('\n');
}
