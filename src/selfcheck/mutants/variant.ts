/**
 * What a generated mutant is: a faulty variant with the operator that made it, and why it must survive when the
 * document cannot tell it from the reference. Apart from operators.ts so that the operator modules (transitions.ts)
 * can name it without a cycle.
 */
import type { FaultyVariant } from '../types';

export type Operator = 'request-constraint' | 'response-dropped' | 'response-format' | 'transition' | 'error-code';

export interface GeneratedVariant extends FaultyVariant {
  readonly operator: Operator;
  /** Why the document cannot tell this mutant from the reference: it must survive, and is listed with this. */
  readonly equivalent?: string;
  /** The one context it is applied in (./contexts.ts), when it is restricted to one. */
  readonly context?: string;
}
