/**
 * Every errorcode the reference gateway answers, with its message, in one table. The document's Errors table
 * gives 0, 30000, 60031, 60022, 70000, 60025, 60107 and 99999 ("Other codes exist; the full list of error codes is
 * not shown"); the others are the public codes of public-facts.md, used where the document is silent.
 * docs/gateway.md lists each with the trigger that produces it.
 */
import { ERROR } from '../../schemas/errors';

export interface ErrorSpec {
  readonly code: string;
  readonly message: string;
}

const e = (code: string, message: string): ErrorSpec => ({ code, message });
/** A code whose `errormessage` the document fixes takes it from the Errors table (schemas/errors.ts). */
const fixed = (code: string): ErrorSpec => e(code, ERROR[code].message ?? '');

export const ERR = {
  /** Errors: "`0` any: Successful; `errormessage` is `Ok`." */
  ok: fixed('0'),
  /** Errors: "`30000` Invalid field"; public facts: any request type, with `errordata` naming the field(s). */
  invalidField: e('30000', 'Invalid field'),
  /** Errors: "`60031` The payment type is not supported for 3-D Secure." */
  no3ds: e('60031', 'Payment type not supported for 3-D Secure'),
  /** Errors: "`60022` Customer not authenticated. `errormessage` is `Unauthenticated`." */
  unauthenticated: fixed('60022'),
  /** Errors: "`70000` Customer authenticated but the bank declined." */
  decline: e('70000', 'Decline'),
  /** Errors: "`60025` Additional fields mandated for merchants with category code 6012 were not sent." */
  mcc6012: e('60025', 'Missing fields mandated for merchant category code 6012'),
  /** Errors: "`60107` The parent RISKDEC gave `CHALLENGE` or `DENY`." */
  fraudParent: e('60107', 'Parent RISKDEC gave CHALLENGE or DENY'),
  /** Errors: "`99999` Unknown error; needs manual inspection." */
  unknown: e('99999', 'Unknown error'),
  /** Public facts: "`60018` invalid request type". */
  invalidRequesttype: e('60018', 'Invalid requesttype'),
  /** Public facts: "`60040` both `requesttypedescription` and `requesttypedescriptions` given". */
  bothRequesttypeFields: e('60040', 'Both requesttypedescription and requesttypedescriptions given'),
  /** Public facts: "`20004` missing parent". */
  missingParent: e('20004', 'Missing parent'),
  /** Public facts: "`60017` transaction not updatable". */
  notUpdatable: e('60017', 'Transaction not updatable'),
} as const;

export type ErrorName = keyof typeof ERR;
