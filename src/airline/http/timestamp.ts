/**
 * Response TimeStamp: local offset form with milliseconds, e.g.
 * `2026-11-21T07:01:02.345+01:00` (the offset of the process's time zone).
 */
let lastTime = Number.NaN;
let lastText = '';

export function formatLocalTimestamp(d: Date): string {
  // Busy servers answer many requests within one millisecond: the text of the last one is reused.
  const time = d.getTime();
  if (time === lastTime) return lastText;
  const offsetMinutes = -d.getTimezoneOffset();
  const local = new Date(time + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  lastText = `${local}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
  lastTime = time;
  return lastText;
}
