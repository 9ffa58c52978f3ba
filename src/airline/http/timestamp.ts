/**
 * Response TimeStamp: local offset form with milliseconds, e.g.
 * `2026-11-21T07:01:02.345+01:00` (the offset of the process's time zone).
 */
export function formatLocalTimestamp(d: Date): string {
  const offsetMinutes = -d.getTimezoneOffset();
  const local = new Date(d.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}
