/**
 * The gateway's controllable clock. Every time the gateway writes (`transactionstartedtimestamp`, `settleduedate`,
 * subscription due dates) comes from here, never from `Date.now()` directly, so that tests and the conformance
 * suite move time through the control API instead of sleeping (docs/architecture.md). Times are UTC.
 *
 * A frozen clock (the default) stands still between moves: runs are reproducible. A ticking clock follows the
 * wall clock from its start point; `cardspec serve` uses it when the control API is off, so that settlement and
 * subscription payments still happen as time passes.
 */

/** The built-in start: a Monday morning, so that runs are reproducible (docs/architecture.md). */
export const DEFAULT_CLOCK_START = '2026-01-05 09:00:00';

const DAY_MS = 86_400_000;
const TIMESTAMP = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?: ([0-9]{2}):([0-9]{2}):([0-9]{2}))?$/;

/** `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD` to epoch milliseconds (UTC); `undefined` when it is not a real time. */
export function parseTimestamp(text: string): number | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-31 over into March; a real calendar date survives the round trip.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return ms;
}

const pad2 = (n: number): string => (n < 10 ? '0' + n : String(n));

/** Epoch milliseconds to `YYYY-MM-DD` (UTC). */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** Epoch milliseconds to `YYYY-MM-DD HH:MM:SS` (UTC), the document's `transactionstartedtimestamp` format. */
export function formatTimestamp(ms: number): string {
  const d = new Date(ms);
  return `${formatDate(ms)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/** Midnight (UTC) at the start of the day holding `ms`. */
export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export function nextMidnight(ms: number): number {
  return startOfDay(ms) + DAY_MS;
}

export type Unit = 'DAY' | 'MONTH';

/**
 * A date plus `count` units. Months keep the day of the month and fall back to the month's last day (31 January
 * plus one month is 28 February), always counted from the same start so that a schedule never drifts.
 */
export function addUnits(date: string, count: number, unit: Unit): string {
  const ms = parseTimestamp(date);
  if (ms === undefined) throw new RangeError(`not a date: ${date}`);
  if (unit === 'DAY') return formatDate(ms + count * DAY_MS);
  const d = new Date(ms);
  const months = d.getUTCFullYear() * 12 + d.getUTCMonth() + count;
  const y = Math.floor(months / 12);
  const m = months % 12;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return formatDate(Date.UTC(y, m, Math.min(d.getUTCDate(), last)));
}

/** Adds calendar months to an instant (the control API's `advanceMonths`), keeping the time of day. */
export function addMonths(ms: number, months: number): number {
  const day = startOfDay(ms);
  return parseTimestamp(addUnits(formatDate(day), months, 'MONTH'))! + (ms - day);
}

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
