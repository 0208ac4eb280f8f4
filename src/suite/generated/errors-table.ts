/**
 * The Errors table, row by row, in every part type its "Where" cell names: for each code, each row of the Request
 * types table whose answer holds a part of such a type is sent with what gives that code, and each such part is
 * checked to be the code's own (errorcode, an errormessage, the wording the row fixes). "Every response part has
 * `errorcode` (string) and `errormessage`" holds for a failed STORE part as for a failed AUTH; a code checked on one
 * request type only lets a target that answers it otherwise elsewhere pass.
 *
 * What gives each code is the kit's knowledge of the test cards and sites (docs/conformance.md, card roles): a
 * code of the table with no trigger here fails the test of the generated scenarios, so a new row cannot go unseen.
 */
import { ERRORS, type ErrorRow } from '../../../schemas/errors';
import type { OperationRow } from '../../../schemas/operations';
import type { CardRole } from '../../client/profile';
import { enrolmentOf, phraseOf, reachRow, SENT_ROWS, tagLine } from './rows';

/** What makes a target answer a code, and on which rows it can. */
export interface CodeTrigger {
  readonly role: (row: OperationRow) => CardRole;
  /** A row this trigger reaches (beyond holding a part of a type the code's row names). */
  readonly reaches: (row: OperationRow, direct: boolean) => boolean;
  /** Steps before the request (a site), with their `@requires:`. */
  readonly given?: { readonly steps: readonly string[]; readonly requires: readonly string[] };
  /** Fields the request carries besides the row's (a value the document refuses). */
  readonly table?: Readonly<Record<string, string>>;
  /** Several cards give the code (CHALLENGE and DENY): one scenario each. */
  readonly roles?: readonly CardRole[];
  /** Steps that send the row instead of the usual ones (a parent of another kind). */
  readonly reach?: (role: CardRole) => { readonly steps: readonly string[]; readonly requires: readonly string[]; readonly types: readonly string[] };
}

const isThreedquery = (row: OperationRow): boolean => row.requesttypes.length === 1 && row.requesttypes[0] === 'THREEDQUERY';

export const CODE_TRIGGERS: Readonly<Record<string, CodeTrigger>> = {
  // "Successful": the authorised card, or the card not enrolled where the row is the not-enrolled flow.
  '0': { role: (row) => (enrolmentOf(row) === 'N' ? 'notEnrolled' : 'authorised'), reaches: () => true },
  // "`30000` THREEDQUERY: Invalid field": ECOM only for THREEDQUERY, so MOTO is an invalid field.
  '30000': { role: () => 'authorised', reaches: (row, direct) => direct && isThreedquery(row), table: { accounttypedescription: 'MOTO' } },
  '60031': { role: () => 'no3ds', reaches: (row, direct) => direct && isThreedquery(row) },
  // "AUTH after 3-D Secure": the AUTH with md and pares, separate or combined with SUBSCRIPTION.
  '60022': { role: () => 'notAuthenticated', reaches: (row) => enrolmentOf(row) === 'Y' },
  '70000': { role: () => 'declined', reaches: (row) => enrolmentOf(row) === 'Y' },
  '60025': {
    role: () => 'authorised',
    reaches: (_row, direct) => direct,
    given: { steps: ["Given the merchant's site has the merchant category code 6012"], requires: ['mcc6012'] },
  },
  // "The parent RISKDEC gave CHALLENGE or DENY": the THREEDQUERY with the RISKDEC as its parent.
  '60107': {
    role: () => 'shieldChallenge',
    roles: ['shieldChallenge', 'shieldDeny'],
    reaches: (row, direct) => direct && isThreedquery(row),
    reach: (role) => ({
      steps: [`When the merchant sends "Risk decision on card data" with the "${phraseOf(role)}" card`, 'And the merchant sends "3-D Secure enrolment check" with the parent the RISKDEC'],
      requires: ['fraudcontrol', `card:${role}`],
      types: ['RISKDEC', 'THREEDQUERY'],
    }),
  },
  // "Unknown error" for any operation on the card: rows whose own request carries it.
  '99999': { role: () => 'unknownError', reaches: (_row, direct) => direct },
};

/** The part types of a row's answer that the code's row names. */
export function typesInScope(code: ErrorRow, row: OperationRow): string[] {
  return [...new Set(row.requesttypes.filter((t) => code.where === 'any' || (code.where as readonly string[]).includes(t)))];
}

/** The first sentence of a row's meaning, for a scenario's name. */
const shortMeaning = (e: ErrorRow): string => e.meaning.split(/[.;]\s/)[0].replace(/[`.]/g, '');

const listOf = (xs: readonly string[]): string => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** One scenario of the table: a code, a row, the card that gives it. */
export interface ErrorScenario {
  readonly code: string;
  readonly row: string;
  readonly parts: readonly string[];
  readonly text: string;
}

export function errorScenarios(errors: readonly ErrorRow[] = ERRORS): ErrorScenario[] {
  const out: ErrorScenario[] = [];
  for (const e of errors) {
    const trigger = CODE_TRIGGERS[e.code];
    if (!trigger) throw new Error(`the Errors table's code ${e.code} has no trigger in src/suite/generated/errors-table.ts: say what gives it, so that its scenarios are written`);
    for (const row of SENT_ROWS) {
      const parts = typesInScope(e, row);
      if (parts.length === 0) continue;
      for (const role of trigger.roles ?? [trigger.role(row)]) {
        const reached = reachRow(row, role);
        if (!trigger.reaches(row, reached.direct)) continue;
        const via = trigger.reach?.(role);
        const steps = [...(trigger.given?.steps ?? []), ...(via?.steps ?? reached.steps)];
        const requires = [...new Set([...(trigger.given?.requires ?? []), ...(via?.requires ?? reached.requires)])];
        const types = via?.types ?? reached.types;
        const rules = [`ERR-${e.code}`, 'ERR-PART-FIELDS'];
        const name = `Errors table, ${e.code} (${shortMeaning(e)}), ${e.where === 'any' ? 'any part' : `where: ${listOf(e.where as readonly string[])}`}: the ${listOf(parts)} part${parts.length > 1 ? 's' : ''} of "${row.title}"${
          trigger.roles ? ` after ${phraseOf(role)}` : ''
        }`;
        const lines = [`  ${tagLine(rules, requires, types, [`@errorcode:${e.code}`])}`, `  Scenario: ${name}`];
        const table = Object.entries(trigger.table ?? {});
        steps.forEach((s, i) => {
          lines.push(`    ${s}${i === steps.length - 1 && table.length > 0 ? ' and:' : ''}`);
        });
        for (const [k, v] of table) lines.push(`      | ${k} | ${v} |`);
        parts.forEach((t, i) => lines.push(`    ${i === 0 ? 'Then' : 'And'} the ${t} has errorcode "${e.code}", with an errormessage as the Errors table says`));
        out.push({ code: e.code, row: row.id, parts, text: lines.join('\n') });
      }
    }
  }
  return out;
}

export function errorsTableScenarios(): string {
  const intro = [
    '  # Each code of the Errors table in every part type its "Where" cell names, on every row of the Request types',
    '  # table whose answer holds such a part: "Every response part has errorcode (string) and errormessage".',
  ];
  return [...intro, ...errorScenarios().flatMap((s) => ['', s.text])].join('\n');
}
