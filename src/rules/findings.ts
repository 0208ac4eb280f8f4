/**
 * One vocabulary for checks (the Schemathesis habit: a registry of small named functions, each of one rule): the
 * contract checks (src/contract/checks.ts) and the fuzz oracles (src/fuzz/oracles.ts) report in these words, and
 * both registries are tested against the rule catalogue (features/rules.yaml).
 */

/** `error` fails a run or a gate; `warning` is reported and counted but never fails (unless a gate is strict). */
export type Severity = 'error' | 'warning';

/** What one check found wrong, in the document's terms. */
export interface Finding {
  /** The rule of features/rules.yaml it breaks. */
  readonly rule: string;
  /** Where: `baseamount`, `request[0].md`, `header Accept`, `response`. Never a value. */
  readonly field: string;
  readonly severity: Severity;
  /** In the document's terms; masked before it is stored or shown. */
  readonly message: string;
}

/** The rule IDs' form in the catalogue (`ENV-ORDER`, `ERR-99999`). */
export const RULE_ID = /^[A-Z0-9]+(-[A-Z0-9]+)+$/;
