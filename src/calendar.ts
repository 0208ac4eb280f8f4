/**
 * Calendar arithmetic on the document's date forms (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`, UTC): parsing, formatting,
 * days and months added as the document's subscription schedule counts them. Shared by the gateway (its clock, the
 * settlement and subscription engine, the request check) and by client code (request building, the self-check
 * gallery), which must not import the gateway to count a month.
 */

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
