/**
 * How the suite reaches each row of the Request types table with a given test card: the steps of a scenario, the
 * capabilities they need and the request types they send. The document fixes what each row sends; how the card
 * gets there (a cache token for a payment page, the ACS round trip before an AUTH with `md` and `pares`, a parent
 * of the right kind) is the States and transitions table's order, written once here for every generated scenario.
 */
import { OPERATIONS, type OperationRow } from '../../../schemas/operations';
import { CARD_ROLES, type CardRole } from '../../client/profile';

export interface RowReach {
  readonly row: OperationRow;
  /** The steps, the first a `When`, the others `And`. */
  readonly steps: readonly string[];
  /** `@requires:` tags (capabilities and `card:<role>`). */
  readonly requires: readonly string[];
  /** Every request type the steps send, in order of first use. */
  readonly types: readonly string[];
  /** Whether the card goes in the row's own request (not through an earlier one the same card could fail first). */
  readonly direct: boolean;
}

/** Rows whose requests the document does not show (TRANSACTIONUPDATE, TRANSACTIONQUERY): reached by their own steps. */
export const FOLLOW_UP_ROWS: ReadonlySet<string> = new Set(['transactionupdate', 'transactionquery']);

/** The rows the generated scenarios send, in the table's order. */
export const SENT_ROWS: readonly OperationRow[] = OPERATIONS.filter((r) => !FOLLOW_UP_ROWS.has(r.id));

export const phraseOf = (role: CardRole): string => CARD_ROLES[role].phrase;

/** `@requires:card:<role>` for every card but the one every profile has. */
const cardRequires = (role: CardRole): string[] => (role === 'authorised' ? [] : [`card:${role}`]);

/** What a row's own request types need of the profile. */
function capabilitiesOf(types: readonly string[]): string[] {
  const out: string[] = [];
  if (types.includes('STORE')) out.push('cardstore');
  if (types.includes('RISKDEC')) out.push('fraudcontrol');
  return out;
}

const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** The card goes as a cache token: rows whose card source is a cachetoken alone (the THREEDQUERY's payment page). */
const takesCachetoken = (row: OperationRow): boolean => row.cardSource?.some((s) => s.includes('cachetoken')) === true && !row.cardSource.some((s) => s.includes('pan'));

/** How a row is reached with `role`'s card. */
export function reachRow(row: OperationRow, role: CardRole): RowReach {
  const card = `"${phraseOf(role)}" card`;
  const query = `When the merchant sends "3-D Secure enrolment check" with a cache token for the ${card}`;
  const send = (how: string): string => `"${row.title}" ${how}`;
  const types = [...row.requesttypes];
  let steps: string[];
  let requires: string[] = [...capabilitiesOf(types), ...cardRequires(role)];
  let direct = false;
  if (row.required.includes('md')) {
    // "After the customer returns, send AUTH with `md` and `pares`" (3-D Secure enrolment, Y).
    steps = [query, 'And the customer completes 3-D Secure at the ACS for the THREEDQUERY', `And the merchant sends ${send('with the md and pares of the THREEDQUERY')}`];
    requires = [...requires, 'cachetokens', 'acsForm'];
    types.unshift('THREEDQUERY');
  } else if (row.required.includes('parenttransactionreference') && row.requesttypes.includes('AUTH')) {
    // "Send AUTH with `parenttransactionreference` (the THREEDQUERY's `transactionreference`)" (N, U).
    steps = [query, `And the merchant sends ${send('with the parent the THREEDQUERY')}`];
    requires = [...requires, 'cachetokens'];
    types.unshift('THREEDQUERY');
  } else if (row.required.includes('parenttransactionreference')) {
    // "Risk decision after a payment": the payment first.
    steps = [`When the merchant sends "Ordinary AUTH without 3-D Secure" with the ${card}`, `And the merchant sends ${send('with the parent the AUTH')}`];
    types.unshift('AUTH');
  } else if (takesCachetoken(row)) {
    steps = [`When the merchant sends ${send(`with a cache token for the ${card}`)}`];
    requires = [...requires, 'cachetokens'];
    direct = true;
  } else {
    steps = [`When the merchant sends ${send(`with the ${card}`)}`];
    direct = true;
  }
  return { row, steps, requires: unique(requires), types: unique(types), direct };
}

/** The 3-D Secure enrolment a row's card must have: AUTH with `md` and `pares` is for enrolled cards, with a parent for the others. */
export function enrolmentOf(row: OperationRow): 'Y' | 'N' | undefined {
  if (row.required.includes('md')) return 'Y';
  if (row.required.includes('parenttransactionreference') && row.requesttypes.includes('AUTH')) return 'N';
  return undefined;
}

/** A scenario's tag line. */
export function tagLine(rules: readonly string[], requires: readonly string[], types: readonly string[], extra: readonly string[] = []): string {
  return [...rules.map((r) => `@rule:${r}`), ...extra, ...requires.map((r) => `@requires:${r}`), ...types.map((t) => `@type:${t}`)].join(' ');
}
