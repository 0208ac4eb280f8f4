/** The stateful models of `cardspec fuzz`, by name. */
import { CARD_STORE } from './cardstore';
import type { ModelSpec } from './common';
import { FOLLOW_UPS } from './followups';
import { INHERITANCE } from './inheritance';
import { RISKDEC } from './riskdec';
import { SUBSCRIPTIONS } from './subscriptions';

/**
 * Each model has its own model type; the runner needs none of it (it only hands the model from `initial` to the
 * commands), so the list holds them at the common base.
 */
export const MODELS: readonly ModelSpec<object>[] = [
  CARD_STORE as unknown as ModelSpec<object>,
  INHERITANCE as unknown as ModelSpec<object>,
  SUBSCRIPTIONS as unknown as ModelSpec<object>,
  RISKDEC as unknown as ModelSpec<object>,
  FOLLOW_UPS as unknown as ModelSpec<object>,
];

export { fuzzModel, splitModelPath, type ModelCounterexample, type ModelOutcome, type ModelRunOptions } from './run';
export { missingFor, ModelFailure, type ModelEnv, type ModelSpec } from './common';
