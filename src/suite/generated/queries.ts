/**
 * "Responses return a masked form in `maskedpan`": the answer of a TRANSACTIONQUERY is a response too, whatever the
 * transaction it finds. The document shows the query of a STORE ("the card number is masked in the response"); a
 * target that masks a queried STORE and returns a queried AUTH's or RISKDEC's card in full passes a suite that
 * queries one type. A query of every single-type row whose part is about a card, reached as its flow sends it.
 */
import { enrolmentOf, phraseOf, reachRow, SENT_ROWS, tagLine } from './rows';

/** The part types about a card: the ones that return it masked. */
const CARD_PARTS = ['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'STORE', 'RISKDEC'];

export function queryScenarios(): string {
  const out: string[] = [
    '  # A TRANSACTIONQUERY of a transaction of every row of one request type whose part is about a card: the record',
    '  # returns the card masked, and neither the card number nor the security code.',
  ];
  for (const row of SENT_ROWS) {
    if (row.requesttypes.length !== 1 || !CARD_PARTS.includes(row.requesttypes[0])) continue;
    const type = row.requesttypes[0];
    const role = enrolmentOf(row) === 'N' ? 'notEnrolled' : 'authorised';
    const reach = reachRow(row, role);
    const steps = reach.steps.map((s, i) => (i === 0 ? s : s.replace(/^When /, 'And ')));
    out.push(
      '',
      `  ${tagLine(['FIELD-MASKEDPAN'], [...reach.requires, 'transactionquery'], [...reach.types, 'TRANSACTIONQUERY'])}`,
      `  Scenario: A TRANSACTIONQUERY of the ${type} of "${row.title}" returns the card masked`,
      ...steps.map((s) => `    ${s}`),
      `    And the merchant sends a TRANSACTIONQUERY of the ${type}`,
      '    Then the TRANSACTIONQUERY succeeded',
      `    And the TRANSACTIONQUERY found the ${type}`,
      `    And the queried ${type}'s maskedpan masks the "${phraseOf(role)}" card`,
      `    And the queried ${type} does not hold \`pan\` or \`securitycode\``,
    );
  }
  return out.join('\n');
}
