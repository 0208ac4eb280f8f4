/**
 * "A later request inherits details (card, billing, delivery, other submitted fields) from an earlier one": a
 * payment on a parent of each type that takes the card itself, for every group of inherited fields the parent's
 * row carries (the card; billing, through the bank's address and postcode checks; the customer fields a category
 * 6012 site mandates), and a child whose own values differ from its parent's (the child's own are the ones
 * used). A target that inherits the card from a STORE only, or billing from an AUTH only, passes a suite that
 * checks one parent.
 */
import { ERROR } from '../../../schemas/errors';
import { OPERATIONS, type OperationRow } from '../../../schemas/operations';
import { tagLine } from './rows';

const CHILD = 'Ordinary AUTH without 3-D Secure';

/** Parents: rows of one request type that take the card data themselves. */
export const PARENT_ROWS: readonly OperationRow[] = OPERATIONS.filter((r) => r.requesttypes.length === 1 && (r.required.includes('pan') || r.cardSource?.some((s) => s.includes('pan')) === true));

const takesBilling = (row: OperationRow): boolean => [...(row.recommended ?? []), ...(row.optional ?? [])].includes('billingpremise');

/** The types whose requests the 6012 site's mandated fields belong to ("`60025` | AUTH, ACCOUNTCHECK"). */
const MANDATED_TYPES = ERROR['60025'].where as readonly string[];

const capabilities = (row: OperationRow): string[] => [...(row.requesttypes.includes('STORE') ? ['cardstore'] : []), ...(row.requesttypes.includes('RISKDEC') ? ['fraudcontrol'] : [])];

/**
 * The middles of a chain of three: a payment, and a card stored from the parent ("Card store: Details may be
 * inherited through `parenttransactionreference`"), each of which the next request names as its parent.
 */
const MIDDLES: readonly { readonly title: string; readonly type: string; readonly caps: readonly string[] }[] = [
  { title: CHILD, type: 'AUTH', caps: [] },
  { title: 'Card store', type: 'STORE', caps: ['cardstore'] },
];

/**
 * A payment two generations down: what the middle request inherited it passes on ("A later request inherits details
 * ... from an earlier one": the earlier one's details are the ones it inherited too). A target that copies only
 * what a request sent itself into what its children inherit passes every scenario of one generation.
 */
function chainScenarios(row: OperationRow, own: readonly string[], caps: readonly string[]): string[] {
  const type = row.requesttypes[0];
  const out: string[] = [];
  for (const mid of MIDDLES) {
    const types = [...new Set([type, mid.type, 'AUTH'])];
    out.push(
      '',
      `  ${tagLine(['INHERIT-PARENT', 'INHERIT-CHILD', ...own, ...(mid.type === 'STORE' ? ['STORE-STATE-ENABLED'] : [])], [...new Set([...caps, ...mid.caps, 'security'])], types)}`,
      `  Scenario: A payment on a "${mid.title}" made on a "${row.title}" inherits the billing details of the "${row.title}"`,
      `    When the merchant sends "${row.title}" with the "authorised" card and:`,
      '      | billingpremise  | <matched> |',
      '      | billingpostcode | <matched> |',
      `    And the merchant sends "${mid.title}" with the parent the ${type} as the middle ${mid.type}`,
      `    And the merchant sends "${CHILD}" with the parent the middle ${mid.type} as the child AUTH`,
      `    Then the middle ${mid.type} succeeded`,
      '    And the child AUTH succeeded',
      `    And the child AUTH's securityresponseaddress is "2"`,
      `    And the child AUTH's securityresponsepostcode is "2"`,
    );
  }
  return out;
}

export function inheritanceScenarios(): string {
  const out: string[] = [
    '  # A payment on a parent of each type that takes the card itself, for each group of inherited fields its row carries,',
    "  # and a child whose own values differ from its parent's.",
  ];
  for (const row of PARENT_ROWS) {
    const type = row.requesttypes[0];
    const parent = `the ${type}`;
    const types = [...new Set([type, 'AUTH'])];
    const caps = capabilities(row);
    // "Fields sent in an ACCOUNTCHECK are inherited by its child requests": every scenario on that parent checks it.
    const own = type === 'ACCOUNTCHECK' ? ['AC-INHERITED'] : [];
    out.push(
      '',
      `  ${tagLine(['INHERIT-PARENT', 'INHERIT-CHILD', 'INHERIT-PARENT-ECHO', 'FIELD-PARENT', 'FIELD-TRANSACTIONREFERENCE', 'AUTH-AUTHORISE', ...own], caps, types)}`,
      `  Scenario: A payment inherits the card of its parent, a "${row.title}"`,
      `    When the merchant sends "${row.title}" with the "authorised" card`,
      `    And the merchant sends "${CHILD}" with the parent ${parent} as the child AUTH`,
      '    Then the child AUTH succeeded',
      `    And the child AUTH's parenttransactionreference is ${parent}'s transactionreference`,
      '    And the child AUTH was made with the "authorised" card',
      '',
      `  ${tagLine(['INHERIT-CHILD', ...own], [...caps, 'card:notEnrolled'], types)}`,
      `  Scenario: A payment with a card of its own on a parent, a "${row.title}", is made with its own card`,
      `    When the merchant sends "${row.title}" with the "authorised" card`,
      `    And the merchant sends "${CHILD}" with the parent ${parent} and the "not enrolled" card as the child AUTH`,
      '    Then the child AUTH succeeded',
      '    And the child AUTH was made with the "not enrolled" card',
    );
    if (takesBilling(row)) {
      out.push(
        '',
        `  ${tagLine(['INHERIT-CHILD', ...own], [...caps, 'security'], types)}`,
        `  Scenario: A payment inherits the billing details of its parent, a "${row.title}"`,
        `    When the merchant sends "${row.title}" with the "authorised" card and:`,
        '      | billingpremise  | <matched> |',
        '      | billingpostcode | <matched> |',
        `    And the merchant sends "${CHILD}" with the parent ${parent} as the child AUTH`,
        '    Then the child AUTH succeeded',
        `    And the child AUTH's securityresponseaddress is "2"`,
        `    And the child AUTH's securityresponsepostcode is "2"`,
        '',
        `  ${tagLine(['INHERIT-CHILD', ...own], [...caps, 'security'], types)}`,
        `  Scenario: A payment whose own billing details differ from its parent's, a "${row.title}", is checked with its own`,
        `    When the merchant sends "${row.title}" with the "authorised" card and:`,
        '      | billingpremise  | <matched> |',
        '      | billingpostcode | <matched> |',
        `    And the merchant sends "${CHILD}" with the parent ${parent} as the child AUTH and:`,
        '      | billingpremise  | <not matched> |',
        '      | billingpostcode | <not matched> |',
        '    Then the child AUTH succeeded',
        `    And the child AUTH's securityresponseaddress is "4"`,
        `    And the child AUTH's securityresponsepostcode is "4"`,
      );
      out.push(...chainScenarios(row, own, caps));
    }
    if (row.requesttypes.some((t) => MANDATED_TYPES.includes(t))) {
      out.push(
        '',
        `  ${tagLine(['INHERIT-CHILD', 'ERR-60025', ...own], [...caps, 'mcc6012'], types)}`,
        `  Scenario: A payment inherits the customer fields of its parent, a "${row.title}": the fields category 6012 mandates were sent`,
        "    Given the merchant's site has the merchant category code 6012",
        '    And the merchant adds the fields mandated for category 6012 to each request',
        `    When the merchant sends "${row.title}" with the "authorised" card`,
        '    And the merchant no longer adds the fields mandated for category 6012',
        `    And the merchant sends "${CHILD}" with the parent ${parent} as the child AUTH`,
        '    Then the child AUTH succeeded',
      );
    }
  }
  return out.join('\n');
}
