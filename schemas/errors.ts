/**
 * The document's Errors table, row by row. "Other codes exist; the full list of error codes is not shown": a
 * target may answer other codes, so nothing in the kit treats an unlisted code as wrong in itself; what a listed
 * code means, and where, is what the table fixes. `message` is set only where the document fixes the wording.
 */
import { SECTION, type RequestType } from './fields';

export interface ErrorRow {
  readonly code: string;
  /** The document's "Where" cell: request types, or `any`. */
  readonly where: readonly RequestType[] | 'any';
  readonly meaning: string;
  /** The `errormessage` the document fixes, if it does. */
  readonly message?: string;
  readonly section: string;
}

export const ERRORS: readonly ErrorRow[] = [
  { code: '0', where: 'any', meaning: 'Successful; `errormessage` is `Ok`. For an AUTH after 3-D Secure: authenticated and the bank authorised.', message: 'Ok', section: SECTION.errors },
  { code: '30000', where: ['THREEDQUERY'], meaning: 'Invalid field.', section: SECTION.errors },
  { code: '60031', where: ['THREEDQUERY'], meaning: 'The payment type is not supported for 3-D Secure.', section: SECTION.errors },
  {
    code: '60022',
    where: ['AUTH'],
    meaning: 'Customer not authenticated. `errormessage` is `Unauthenticated`. The acquirer was not contacted. No funds are transferred.',
    message: 'Unauthenticated',
    section: SECTION.errors,
  },
  { code: '70000', where: ['AUTH'], meaning: 'Customer authenticated but the bank declined. No funds are transferred.', section: SECTION.errors },
  { code: '60025', where: ['AUTH', 'ACCOUNTCHECK'], meaning: 'Additional fields mandated for merchants with category code 6012 were not sent.', section: SECTION.errors },
  { code: '60107', where: ['THREEDQUERY'], meaning: 'The parent RISKDEC gave `CHALLENGE` or `DENY`.', section: SECTION.errors },
  { code: '99999', where: 'any', meaning: 'Unknown error; needs manual inspection. When reporting it, mask sensitive values such as card data.', section: SECTION.errors },
];

export const ERROR: Readonly<Record<string, ErrorRow>> = Object.fromEntries(ERRORS.map((e) => [e.code, e]));

/**
 * A code of the table written otherwise (`00000`, ` 0`, `0.0` for `0`; `070000` for `70000`): the same number, so
 * the same row, spelt in a way the table does not write it. The schemas refuse it under `code-spelling`, and a
 * finding of it is its row's fault (src/rules/attribution.ts), not the fault of every check that reads the part.
 */
export const MISSPELT_CODE_PATTERN = (() => {
  const codes = ERRORS.map((e) => e.code).join('|');
  return `^(?!(?:${codes})$)\\s*\\+?0*(?:${codes})(?:\\.0*)?\\s*$`;
})();

const MISSPELT = new RegExp(MISSPELT_CODE_PATTERN);

/** The code of the table a value is a misspelling of (`00000` -> `0`); undefined for a code as written, or another. */
export function misspeltCode(value: unknown): string | undefined {
  if (typeof value !== 'string' || !MISSPELT.test(value)) return undefined;
  return String(Number(/[0-9]+/.exec(value)![0]));
}
