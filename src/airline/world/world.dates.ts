/** Calendar-date helpers on `YYYY-MM-DD` strings (UTC, no time zones involved). */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date in `YYYY-MM-DD` form. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

function toUtc(date: string): number {
  const m = DATE.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3]);
}

/** The UTC calendar date of an instant. */
export function dateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** `date` plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  return new Date(toUtc(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (positive when `b` is later). */
export function daysBetween(a: string, b: string): number {
  return Math.round((toUtc(b) - toUtc(a)) / 86_400_000);
}

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** `MON`..`SUN` of a date. */
export function weekdayOf(date: string): string {
  return WEEKDAYS[new Date(toUtc(date)).getUTCDay()];
}

/** Age in whole years on `onDate` of someone born on `birthdate`. */
export function ageOn(birthdate: string, onDate: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number);
  const [y, m, d] = onDate.split('-').map(Number);
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age -= 1;
  return age;
}

/** `YYYYMMDD` form used inside keys. */
export function compactDate(date: string): string {
  return date.replace(/-/g, '');
}

/**
 * NDC response TimeStamp: local-offset form with fractional seconds. The domain
 * has no time zone of its own, so the offset is `+00:00` (UTC).
 */
export function responseTimestamp(instant: Date): string {
  return instant.toISOString().replace('Z', '+00:00');
}

/** Minutes `timeZone` (IANA) is ahead of UTC at instant `at` (ms). */
function zoneOffsetMinutes(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return Math.round((local - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/**
 * The instant of local `date` and `time` (`HH:MM`) in `timeZone` (IANA, e.g. `Europe/Oslo`;
 * absent: UTC). A time that does not exist locally (a spring-forward gap) is read with the offset
 * in force before the gap, an hour repeated (autumn) at its second pass.
 */
export function localInstant(date: string, time: string, timeZone?: string): Date {
  const [hours, minutes] = time.split(':').map(Number);
  const wall = toUtc(date) + (hours * 60 + minutes) * 60_000;
  if (timeZone === undefined) return new Date(wall);
  const first = wall - zoneOffsetMinutes(timeZone, wall) * 60_000;
  return new Date(wall - zoneOffsetMinutes(timeZone, first) * 60_000);
}

/** `time` (`HH:MM`) moved by `minutes` (either way): the new time of day and how many days it moved into. */
export function shiftTime(time: string, minutes: number): { time: string; days: number } {
  const [hours, mins] = time.split(':').map(Number) as [number, number];
  const total = hours * 60 + mins + minutes;
  const days = Math.floor(total / 1440);
  const inDay = total - days * 1440;
  const hh = String(Math.floor(inDay / 60)).padStart(2, '0');
  return { time: `${hh}:${String(inDay % 60).padStart(2, '0')}`, days };
}
