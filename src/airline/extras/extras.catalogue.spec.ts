import type { Passenger } from '../../ndc/ndc.model';
import { loadWorld } from '../world/world';
import {
  extraItemId,
  findSeat,
  lapHolders,
  layoutColumns,
  parseExtraItemId,
  seatsOf,
  servicePrice,
  zonePrice,
} from './extras.catalogue';

const world = loadWorld();
const a320 = world.data.aircraft!['320'];

describe('extras catalogue', () => {
  it('prices a service by fare family and passenger type: a first bag included in FLEX, none for an infant', () => {
    expect(servicePrice(world, 'YN1', 'ECONOMY', 'ADT')).toBe('35.00');
    expect(servicePrice(world, 'YN1', 'FLEX', 'CHD')).toBe('0.00');
    expect(servicePrice(world, 'YN1', 'ECONOMY', 'INF')).toBeUndefined();
    expect(servicePrice(world, 'SPML_BBML', 'ECONOMY', 'INF')).toBe('5.00');
    expect(servicePrice(world, 'BNDL_PLUS', 'PLUS', 'ADT')).toBeUndefined();
    expect(zonePrice(world, 'XST_ZONE3', 'PLUS')).toBe('12.00');
  });

  it('round-trips item ids and refuses anything else', () => {
    const key = { code: 'XST_ZONE3', ptc: 'ADT', scope: 'SEG__ZZ101_20261201' };
    expect(extraItemId(key)).toBe('ALC-XST_ZONE3-ADT-SEG__ZZ101_20261201');
    expect(parseExtraItemId(extraItemId(key))).toStrictEqual(key);
    expect(parseExtraItemId('ALC-YN1-ADT-FLT__ZZ101_ZZ301_20261201')).toStrictEqual({
      code: 'YN1',
      ptc: 'ADT',
      scope: 'FLT__ZZ101_ZZ301_20261201',
    });
    expect(parseExtraItemId('OFFER-1')).toBeUndefined();
    expect(parseExtraItemId('ALC-YN1-ADT-PAX__1')).toBeUndefined();
  });

  it('lays out an A320: windows at the ends, aisles beside the gap, zones by row, exit rows blocked for infants', () => {
    expect(layoutColumns(a320).map((c) => `${c.designator}:${c.position}`)).toStrictEqual([
      'A:window',
      'B:middle',
      'C:aisle',
      'D:aisle',
      'E:middle',
      'F:window',
    ]);
    expect(seatsOf(a320)).toHaveLength(30 * 6);
    expect(findSeat(a320, 1, 'A')).toMatchObject({ zone: 'XST_ZONE1', exitRow: false });
    expect(findSeat(a320, 12, 'C')).toMatchObject({ zone: 'XST_ZONE3', exitRow: true, infantBlocked: true });
    expect(findSeat(a320, 14, 'F')).toMatchObject({ zone: 'XST_ZONE4', position: 'window', infantBlocked: false });
    expect(findSeat(a320, 31, 'A')).toBeUndefined();
    expect(findSeat(a320, 10, 'G')).toBeUndefined();
  });

  it('takes the first adults as lap holders, one per infant', () => {
    const pax: Passenger[] = [
      { passengerId: 'C', ptc: 'CHD' },
      { passengerId: 'A1', ptc: 'ADT' },
      { passengerId: 'A2', ptc: 'ADT' },
      { passengerId: 'I', ptc: 'INF' },
    ];
    expect([...lapHolders(pax)]).toStrictEqual(['A1']);
  });
});
