/**
 * Running a fast-check property the kit's way: a fixed seed (rule 4, deterministic; `CARDSPEC_SEED` replays another),
 * and a failure report that goes through `redactText`, because a counterexample holds test card numbers and
 * security codes.
 */
import fc from 'fast-check';
import { redactText } from '../src/redact';

/** The seed every property uses unless `CARDSPEC_SEED` says otherwise. */
export const DEFAULT_SEED = 20260105;

export function propertySeed(): number {
  const fromEnv = Number(process.env.CARDSPEC_SEED);
  return Number.isInteger(fromEnv) && process.env.CARDSPEC_SEED !== '' ? fromEnv : DEFAULT_SEED;
}

/** Like `fc.assert`, with the kit's seed and a masked report (it names the seed and path to replay). */
export function assertProperty<Ts>(property: fc.IProperty<Ts>, params: fc.Parameters<Ts> = {}): void {
  const details = fc.check(property, { seed: propertySeed(), ...params });
  if (details.failed) throw new Error(redactText(fc.defaultReportMessage(details) ?? 'property failed'));
}
