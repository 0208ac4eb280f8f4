/**
 * The gateway's controllable clock. Every time the gateway writes (`transactionstartedtimestamp`, `settleduedate`,
 * subscription due dates) comes from here, never from `Date.now()` directly, so that tests and the conformance
 * suite move time through the control API instead of sleeping (docs/architecture.md). Times are UTC.
 *
 * A frozen clock (the default) stands still between moves: runs are reproducible. A ticking clock follows the
 * wall clock from its start point; `cardspec serve` uses it when the control API is off, so that settlement and
 * subscription payments still happen as time passes.
 */
import { formatTimestamp, parseTimestamp } from '../calendar';

/** The built-in start: a Monday morning, so that runs are reproducible (docs/architecture.md). */
export const DEFAULT_CLOCK_START = '2026-01-05 09:00:00';

export class Clock {
  private base: number;
  private wallBase: number;
  readonly ticking: boolean;
  private cachedAt = Number.NaN;
  private cachedText = '';
  private cachedDayOf = '';
  private cachedDay = '';

  constructor(start: string | number = DEFAULT_CLOCK_START, ticking = false) {
    const ms = typeof start === 'number' ? start : parseTimestamp(start);
    if (ms === undefined || !Number.isFinite(ms)) throw new RangeError(`clock start is not a "YYYY-MM-DD HH:MM:SS" time: ${String(start)}`);
    this.base = Math.floor(ms / 1000) * 1000;
    this.wallBase = Date.now();
    this.ticking = ticking;
  }

  /** The gateway's present, in epoch milliseconds, whole seconds (the document's timestamps have no fraction). */
  now(): number {
    if (!this.ticking) return this.base;
    return this.base + Math.floor((Date.now() - this.wallBase) / 1000) * 1000;
  }

  /** `YYYY-MM-DD HH:MM:SS` of now; cached, because every response part carries it. */
  timestamp(): string {
    const now = this.now();
    if (now !== this.cachedAt) {
      this.cachedAt = now;
      this.cachedText = formatTimestamp(now);
    }
    return this.cachedText;
  }

  /** `YYYY-MM-DD` of now; cached with the timestamp (one string shared by every record of the day). */
  today(): string {
    const ts = this.timestamp();
    if (this.cachedDayOf !== ts) {
      this.cachedDayOf = ts;
      const day = ts.slice(0, 10);
      if (day !== this.cachedDay) this.cachedDay = day;
    }
    return this.cachedDay;
  }

  /** Moves the clock (the engine runs the events in between first: see engine.ts). Time never goes back. */
  setTo(ms: number): void {
    if (ms < this.now()) throw new RangeError('the gateway clock does not go back');
    this.base = Math.floor(ms / 1000) * 1000;
    this.wallBase = Date.now();
  }
}
