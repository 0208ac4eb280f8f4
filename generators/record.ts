/**
 * A request object's fields drawn in one step, and the object built once from them.
 *
 * Why not `fc.record(model, {requiredKeys}).map(...)`: a fuzz case is a request of some thirty fields, and
 * fast-check's record draws each optional field through an option (a weighted one-of around it), builds an object,
 * and the request generators then copied that object twice more (settling conditional values, putting the target's
 * context in place). That was about half of the cost of drawing a case. Here each field is drawn straight from its
 * arbitrary, and `finish` builds the one object from the values.
 *
 * Shrinking stays what fast-check's record does, in the same order: first an optional field left out, then a
 * field's value shrunk by its own arbitrary. A field is left out with fast-check's option odds (1 in 6).
 */
import fc from 'fast-check';

export interface RecordField {
  readonly name: string;
  readonly arb: fc.Arbitrary<unknown>;
  /** Always drawn; else left out one time in six. */
  readonly required: boolean;
}

/** The value of a field the record left out. */
export const LEFT_OUT: unique symbol = Symbol('left out');

/** Each field's value (or LEFT_OUT) and the context its arbitrary shrinks it with, by field index. */
interface Draw {
  readonly values: readonly unknown[];
  readonly contexts: readonly unknown[];
}

const ODDS_LEFT_OUT = 6;

class FieldRecord<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly fields: readonly RecordField[],
    private readonly finish: (values: readonly unknown[]) => T,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const fields = this.fields;
    const n = fields.length;
    const values = new Array<unknown>(n);
    const contexts = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const f = fields[i];
      if (!f.required && mrng.nextInt(1, ODDS_LEFT_OUT) === 1) {
        values[i] = LEFT_OUT;
        continue;
      }
      const v = f.arb.generate(mrng, biasFactor);
      values[i] = v.value;
      contexts[i] = v.context;
    }
    return this.made({ values, contexts });
  }

  canShrinkWithoutContext(value: unknown): value is T {
    // A finished object no longer says which of its values came from which draw.
    void value;
    return false;
  }

  shrink(_value: T, context: unknown): fc.Stream<fc.Value<T>> {
    if (!isDraw(context) || context.values.length !== this.fields.length) return fc.Stream.nil();
    return new fc.Stream(this.shrinks(context));
  }

  private made(draw: Draw): fc.Value<T> {
    return new fc.Value(this.finish(draw.values), draw);
  }

  private *shrinks(draw: Draw): IterableIterator<fc.Value<T>> {
    const { fields } = this;
    const { values, contexts } = draw;
    const replaced = (i: number, value: unknown, context: unknown): Draw => {
      const v = values.slice();
      const c = contexts.slice();
      v[i] = value;
      c[i] = context;
      return { values: v, contexts: c };
    };
    for (let i = 0; i < fields.length; i++) {
      if (!fields[i].required && values[i] !== LEFT_OUT) yield this.made(replaced(i, LEFT_OUT, undefined));
    }
    for (let i = 0; i < fields.length; i++) {
      if (values[i] === LEFT_OUT) continue;
      for (const s of fields[i].arb.shrink(values[i], contexts[i])) yield this.made(replaced(i, s.value, s.context));
    }
  }
}

function isDraw(context: unknown): context is Draw {
  return typeof context === 'object' && context !== null && Array.isArray((context as Draw).values) && Array.isArray((context as Draw).contexts);
}

/** An arbitrary of objects built by `finish` from the fields' values (LEFT_OUT where a field was left out). */
export function fieldRecord<T>(fields: readonly RecordField[], finish: (values: readonly unknown[]) => T): fc.Arbitrary<T> {
  return new FieldRecord(fields, finish);
}
