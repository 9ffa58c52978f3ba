import { localInstant } from './world.dates';

describe('localInstant', () => {
  it('reads a local time in the airport time zone, summer and winter', () => {
    expect(localInstant('2026-12-01', '07:00', 'Europe/Oslo').toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(localInstant('2026-07-01', '07:00', 'Europe/Oslo').toISOString()).toBe('2026-07-01T05:00:00.000Z');
    expect(localInstant('2026-07-01', '19:00', 'America/New_York').toISOString()).toBe('2026-07-01T23:00:00.000Z');
    expect(localInstant('2026-01-10', '10:00', 'Europe/London').toISOString()).toBe('2026-01-10T10:00:00.000Z');
  });

  it('reads a time without zone as UTC', () => {
    expect(localInstant('2026-12-01', '07:00').toISOString()).toBe('2026-12-01T07:00:00.000Z');
  });

  it('reads the hour of a clock change: a gap with the offset before it, a repeated hour at its second pass', () => {
    expect(localInstant('2026-03-29', '02:30', 'Europe/Oslo').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(localInstant('2026-10-25', '02:30', 'Europe/Oslo').toISOString()).toBe('2026-10-25T01:30:00.000Z');
  });
});
