import { readFileSync } from 'node:fs';
import { createWorld, DEFAULT_WORLD_PATH, loadWorld, WorldDataError } from './world';
import { ageOn, addDays, isIsoDate, weekdayOf } from './world.dates';
import type { FlightChange, WorldData } from './world.types';
import { worldForSeed, worldVariant } from './world.variant';
import { multiply } from '../../common/decimal';

describe('World', () => {
  const world = loadWorld();

  it('uses the configured airline designator in flight numbers, keys and capacity', () => {
    const xy = loadWorld(DEFAULT_WORLD_PATH, 'XY');
    const [j] = xy.journeys('LGW', 'OSL', '2026-12-01', '2026-11-21');
    expect(j.flightKey).toBe('FLT__XY101_20261201');
    expect(j.segments[0]).toMatchObject({
      segmentKey: 'SEG__XY101_20261201',
      inventoryKey: 'XY101/2026-12-01',
      flightNumber: 'XY101',
    });
    expect(xy.capacity('XY101/2026-12-01', 'O')).toBe(4);
    expect(xy.capacity('XY101/2026-12-01', 'Y')).toBe(20);
    expect(xy.capacity('XY999/2026-12-01', 'O')).toBe(0);
    expect(xy.capacity('XY101/2026-12-01', 'Z')).toBe(0);
  });

  it('applies schedule changes: a retime moves times (and days past midnight) but not the keys; a cancelled flight is neither offered nor sold', () => {
    const changes: Record<string, FlightChange> = {
      '202/2026-12-01': { kind: 'retime', shiftMinutes: 300 },
      '101/2026-12-02': { kind: 'retime', shiftMinutes: -45 },
      '301/2026-12-02': { kind: 'cancelled' },
    };
    const changed = world.withSchedule({ changeOf: (n, d) => changes[`${n}/${d}`] });
    const [late] = changed.journeys('JFK', 'LGW', '2026-12-01', '2026-11-21');
    expect(late!.segments[0]).toMatchObject({
      segmentKey: 'SEG__ZZ202_20261201',
      inventoryKey: 'ZZ202/2026-12-01',
      departureDate: '2026-12-02',
      arrivalDate: '2026-12-02',
      flight: { departure: '00:00', arrival: '12:05', arrivalDayOffset: 0 },
    });
    expect(changed.departureOf(late!.segments[0]!).toISOString()).toBe('2026-12-02T05:00:00.000Z');
    const early = changed.journeyOf(['101'], '2026-12-02').segments[0]!;
    expect([early.departureDate, early.flight.departure, early.flight.arrival]).toEqual([
      '2026-12-02',
      '06:15',
      '09:15',
    ]);
    // The connection through the cancelled ZZ301 is gone; ZZ101 alone still flies.
    expect(changed.journeys('LGW', 'BCN', '2026-12-02', '2026-11-21')).toEqual([]);
    expect(changed.journeys('LGW', 'OSL', '2026-12-02', '2026-11-21')).toHaveLength(1);
    expect([changed.capacity('ZZ301/2026-12-02', 'Y'), changed.capacity('ZZ301/2026-12-03', 'Y')]).toEqual([0, 20]);
    expect(changed.capacityOf('ZZ301/2026-12-02', 'Y')).toBe(0);
    // The world it came from is unchanged.
    expect(world.journeyOf(['202'], '2026-12-01').segments[0]!.flight.departure).toBe('19:00');
    expect(world.capacity('ZZ301/2026-12-02', 'Y')).toBe(20);
  });

  it('has the six daily non-stop routes and the connections via Oslo', () => {
    const today = '2026-11-21';
    const routes = [
      ['LGW', 'OSL'],
      ['OSL', 'LGW'],
      ['LGW', 'JFK'],
      ['JFK', 'LGW'],
      ['OSL', 'BCN'],
      ['BCN', 'OSL'],
    ];
    for (const [from, to] of routes) {
      const js = world.journeys(from, to, '2027-03-15', today);
      expect(js.map((j) => j.transfer)).toEqual([false]);
    }
    const out = world.journeys('LON', 'BCN', '2027-03-15', today);
    expect(out.map((j) => [j.flightKey, j.transfer, j.journeyTime])).toEqual([
      ['FLT__ZZ101_ZZ301_20270315', true, 'PT7H15M'],
    ]);
    expect(world.journeys('BCN', 'LGW', '2027-03-15', today).map((j) => j.flightKey)).toEqual([
      'FLT__ZZ302_ZZ102_20270315',
    ]);
    // JFK-LGW arrives the next day.
    expect(world.journeys('JFK', 'LGW', '2027-03-15', today)[0].segments[0].arrivalDate).toBe('2027-03-16');
    expect(world.journeys('JFK', 'OSL', '2027-03-15', today)).toEqual([]);
  });

  it('operates from today for 365 days', () => {
    expect(world.operatesOn('2026-11-20', '2026-11-21')).toBe(false);
    expect(world.operatesOn('2026-11-21', '2026-11-21')).toBe(true);
    expect(world.operatesOn('2027-11-20', '2026-11-21')).toBe(true);
    expect(world.operatesOn('2027-11-21', '2026-11-21')).toBe(false);
    expect(world.operatesOn('2027-02-30', '2026-11-21')).toBe(false);
  });

  it('refuses inconsistent data', () => {
    const data = JSON.parse(readFileSync(DEFAULT_WORLD_PATH, 'utf8')) as WorldData;
    data.flights[0].fares.ECONOMY = ['1.00'];
    expect(() => createWorld(data)).toThrow(new WorldDataError('fares of 101/ECONOMY do not match its rbds'));
  });
});

describe('world dates', () => {
  it('computes ages, weekdays and date arithmetic on calendar dates', () => {
    expect(ageOn('2010-12-01', '2026-11-30')).toBe(15);
    expect(ageOn('2010-12-01', '2026-12-01')).toBe(16);
    expect(ageOn('2012-02-29', '2028-02-28')).toBe(15);
    expect(ageOn('2012-02-29', '2028-02-29')).toBe(16);
    expect(weekdayOf('2026-12-01')).toBe('TUE');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
  });
});

describe('worlds of other airlines (world.variant.ts)', () => {
  const data = JSON.parse(readFileSync(DEFAULT_WORLD_PATH, 'utf8')) as WorldData;

  it('keeps the file itself for seed ZZ', () => {
    expect(worldForSeed(data, 'ZZ')).toBe(data);
  });

  it('moves every time by the same minutes and scales fares per price class, exactly, for another seed', () => {
    expect(worldVariant(data, 'YY')).toEqual({
      shiftMinutes: 15,
      fareFactors: { ECONOMY: '0.95', PLUS: '1.15', FLEX: '0.90' },
    });
    const yy = worldForSeed(data, 'YY');
    const [base, shifted] = [data, yy].map((d) => d.flights.find((f) => f.number === '101')!);
    expect([shifted!.departure, shifted!.arrival]).toEqual(['07:15', '10:15']);
    expect(shifted!.fares.ECONOMY).toEqual(base!.fares.ECONOMY!.map((fare) => multiply(fare, '0.95', 2)));
    expect(shifted!.fares.ECONOMY![0]).toBe('46.55');
    // Connections keep their flights and layovers; the routes are the same.
    expect(yy.connections).toEqual(data.connections);
    expect(yy.flights.map((f) => [f.from, f.to])).toEqual(data.flights.map((f) => [f.from, f.to]));
  });
});
