import { formatLocalTimestamp } from './timestamp';

describe('formatLocalTimestamp', () => {
  function at(iso: string, offsetMinutes: number): Date {
    const d = new Date(iso);
    jest.spyOn(d, 'getTimezoneOffset').mockReturnValue(-offsetMinutes);
    return d;
  }

  it.each([
    ['2026-11-21T06:01:02.345Z', 0, '2026-11-21T06:01:02.345+00:00'],
    ['2026-11-21T06:01:02.005Z', 60, '2026-11-21T07:01:02.005+01:00'],
    ['2026-11-21T02:00:00.000Z', -300, '2026-11-20T21:00:00.000-05:00'],
    ['2026-11-21T06:00:00.000Z', 330, '2026-11-21T11:30:00.000+05:30'],
  ])('%s at offset %i minutes is %s', (iso, offset, expected) => {
    expect(formatLocalTimestamp(at(iso, offset))).toBe(expected);
  });
});
