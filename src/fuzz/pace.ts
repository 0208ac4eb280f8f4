/**
 * Pacing of the requests a fuzz run sends: a bound on how many are in flight at once (a slot pool) and on how many
 * start per second (`--rate`). Fuzzing sends many requests; a target under test is someone's service, so both
 * bounds hold even when the target is fast. The clock and the wait are injected, so tests need no real time.
 */

/** At most `size` holders at once; `acquire` waits for a free slot in arrival order. */
export class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`slots: the size must be a whole number of at least 1, not ${size}`);
  }

  get inUse(): number {
    return this.used;
  }

  /** Takes a free slot at once if there is one (no promise, no turn of the microtasks); false when all are held. */
  tryAcquire(): boolean {
    if (this.used >= this.size || this.waiting.length > 0) return false;
    this.used++;
    return true;
  }

  acquire(): Promise<void> {
    if (this.used < this.size) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `used` stays the same.
    if (next) next();
    else this.used--;
  }
}

export interface PaceClock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: PaceClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * At most `perSecond` starts per second, spread evenly (start n is not before n / perSecond seconds after the first).
 * Spreading rather than bursting keeps a rate-limited target from seeing a burst at each second's start.
 */
export class RateLimiter {
  private next: number | undefined;
  private readonly interval: number;

  constructor(
    readonly perSecond: number,
    private readonly clock: PaceClock = REAL_CLOCK,
  ) {
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) throw new Error(`rate: must be a number above 0, not ${perSecond}`);
    this.interval = 1000 / perSecond;
  }

  /** Resolves when the next request may start. */
  async take(): Promise<void> {
    const now = this.clock.now();
    const at = this.next === undefined || this.next < now ? now : this.next;
    this.next = at + this.interval;
    if (at > now) await this.clock.sleep(at - now);
  }
}

/** A point in time after which a loop stops starting work (monotonic milliseconds). */
export class Deadline {
  constructor(
    private readonly at: number,
    private readonly clock: PaceClock = REAL_CLOCK,
  ) {}

  static after(ms: number, clock: PaceClock = REAL_CLOCK): Deadline {
    return new Deadline(clock.now() + ms, clock);
  }

  get passed(): boolean {
    return this.clock.now() >= this.at;
  }

  get remainingMs(): number {
    return Math.max(0, this.at - this.clock.now());
  }
}
