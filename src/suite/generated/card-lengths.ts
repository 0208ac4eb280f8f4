/**
 * "`pan` | Numeric | 12-19 | ... Responses return a masked form in `maskedpan`, with the middle digits replaced by
 * `#`": the mask checked for every length the field table allows, in every part about the card of every row that
 * takes the card itself. A target that masks 16 digits right and cuts a 19-digit number, or masks a STORE part
 * another way than an AUTH part, passes a check of one card.
 */
import { SENT_ROWS, tagLine } from './rows';
import { panLengths } from './cards';

/** The part types that return the card masked ("Responses return a masked form"): the parts about a card. */
const CARD_PARTS = ['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'STORE', 'RISKDEC'];

const takesPan = (cardSource: readonly (readonly string[])[] | undefined): boolean => cardSource?.some((s) => s.includes('pan')) === true;

export function cardLengthScenarios(): string {
  const out: string[] = [
    '  # Every length the field table allows a card number (pan: Numeric, 12-19), in every part about the card of each',
    '  # row that takes the card itself: the answer returns it masked, the middle digits replaced by #.',
  ];
  for (const row of SENT_ROWS) {
    if (!takesPan(row.cardSource) && !row.required.includes('pan')) continue;
    const parts = [...new Set(row.requesttypes.filter((t) => CARD_PARTS.includes(t)))];
    if (parts.length === 0) continue;
    const requires = [...(row.requesttypes.includes('STORE') ? ['cardstore'] : []), ...(row.requesttypes.includes('RISKDEC') ? ['fraudcontrol'] : [])];
    out.push(
      '',
      `  ${tagLine(['FIELD-MASKEDPAN'], requires, [...new Set(row.requesttypes)])}`,
      `  Scenario Outline: "${row.title}" with a card number of <length> digits: the ${parts.join(' and ')} part${parts.length > 1 ? 's return' : ' returns'} it masked`,
      `    When the merchant sends "${row.title}" with a card number of <length> digits`,
      ...parts.map((t, i) => `    ${i === 0 ? 'Then' : 'And'} the ${t}'s maskedpan masks the card number sent`),
      '',
      '    Examples:',
      '      | length |',
      ...panLengths().map((n) => `      | ${String(n).padEnd(6)} |`),
    );
  }
  return out.join('\n');
}
