/**
 * The cases of a seed, drawn one at a time, each exactly the value fast-check gives at path "n" of that seed (so
 * that `--seed S --path n` replays case n, and fast-check shrinks it): case n is the case arbitrary's value for
 * fast-check's default generator (xorshift128plus) of the seed jumped n + 1 times, with the bias fast-check gives
 * run n. test/fuzz/stream.test.ts holds this to fast-check's own `fc.sample` with a path, for several seeds and
 * starts, so a fast-check upgrade that drew otherwise would fail there, not in a user's replay.
 *
 * Why not fast-check's async runner (`fc.check(fc.asyncProperty(...))`), which detection used before: per case it
 * awaits hooks, a predicate and a result, and made the same cases cost a fifth more CPU than drawing them here
 * (bench's fuzz row). Shrinking and replay still go through fast-check (./requests.ts).
 */
import fc from 'fast-check';
import { xorshift128plus } from 'pure-rand/generator/xorshift128plus';

/** fast-check's seed as its runner reads it (`readSeed`): a whole 32-bit seed as is, else folded into 32 bits. */
function qualifiedSeed(seed: number): number {
  const seed32 = seed | 0;
  return seed === seed32 ? seed32 : seed32 ^ ((seed - seed32) * 4294967296);
}

/** The bias fast-check's runner gives run `n` (`runIdToFrequency`): more edge values in the later runs. */
function biasOf(n: number): number {
  return 2 + ~~(Math.log(n + 1) * 0.4342944819032518);
}

export class CaseStream<T, U = T> {
  private readonly rng: ReturnType<typeof xorshift128plus>;
  /** The index of the next case drawn from the generator. */
  private drawn: number;
  private readonly ahead: U[] = [];
  private taken = 0;

  /**
   * The cases from index `start` on, up to (not including) `end`. `drawAhead` cases are drawn at a time: drawing a
   * few dozen in a row, rather than one between every two answers, cost the fuzzer about a tenth less CPU per case
   * (the same code stays hot), and a case drawn ahead costs nothing if the run stops before sending it.
   */
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    seed: number,
    start = 0,
    private readonly end = Number.POSITIVE_INFINITY,
    private readonly drawAhead = 1,
    /** Work done on each case as it is drawn (detection prepares its request); must not throw. */
    private readonly prepare?: (value: T) => U,
  ) {
    this.rng = xorshift128plus(qualifiedSeed(seed));
    // A jump is a few dozen operations: starting a thread's range far into a run costs little.
    for (let i = 0; i < start; i++) this.rng.jump();
    this.drawn = start;
  }

  /** The index of the case `next` gives. */
  get nextIndex(): number {
    return this.drawn - (this.ahead.length - this.taken);
  }

  next(): U {
    if (this.taken === this.ahead.length) {
      if (this.drawn >= this.end) throw new Error(`case stream: no case past index ${this.end - 1}`);
      this.ahead.length = 0;
      this.taken = 0;
      const n = Math.min(this.drawAhead, this.end - this.drawn);
      for (let i = 0; i < n; i++) this.ahead.push(this.draw());
    }
    return this.ahead[this.taken++];
  }

  /**
   * Draws the next cases now, if fewer than `min` drawn ones are left: a caller draws while it waits for answers
   * anyway, rather than between an answer and the next request. The same cases in the same order either way.
   */
  refill(min: number): void {
    if (this.ahead.length - this.taken >= min || this.drawn >= this.end) return;
    this.ahead.splice(0, this.taken);
    this.taken = 0;
    const n = Math.min(this.drawAhead, this.end - this.drawn);
    for (let i = 0; i < n; i++) this.ahead.push(this.draw());
  }

  private draw(): U {
    this.rng.jump();
    // fc.Random draws from a copy: the stream's own generator moves only by jumps.
    const value = this.arb.generate(new fc.Random(this.rng), biasOf(this.drawn++)).value;
    return this.prepare ? this.prepare(value) : (value as unknown as U);
  }
}
