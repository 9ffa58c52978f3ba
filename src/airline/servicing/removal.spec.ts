import { readDelete } from './removal';
import { contentOf, extraItem, fareItem, surchargeItem } from './servicing.fixture';

const content = contentOf(
  [
    { passengerId: 'PAX1', ptc: 'ADT' },
    { passengerId: 'PAX2', ptc: 'ADT' },
  ],
  [
    fareItem('F1', 'PAX1', 'ECONOMY', '46.55', '13.00'),
    fareItem('F2', 'PAX2', 'ECONOMY', '46.55', '13.00'),
    extraItem('B2', 'PAX2', '35.00'),
    surchargeItem('C', ['PAX1', 'PAX2'], '2.38'),
  ],
  '156.48',
);

describe('readDelete', () => {
  it('reads every item as the whole order, every item of a passenger as that passenger', () => {
    expect(readDelete(content, ['F1', 'F2', 'B2', 'C'])).toEqual({ kind: 'order' });
    expect(readDelete(content, ['B2', 'F2'])).toEqual({ kind: 'passengers', passengerIds: ['PAX2'] });
  });

  it('refuses part of a passenger (776), a shared item (776) and an unknown item (701)', () => {
    expect(() => readDelete(content, ['F2'])).toThrow(
      expect.objectContaining({ code: 'PASSENGER_REMOVAL_REFUSED', message: expect.stringContaining('missing: B2') }),
    );
    expect(() => readDelete(content, ['F1', 'C'])).toThrow(
      expect.objectContaining({
        code: 'PASSENGER_REMOVAL_REFUSED',
        message: expect.stringContaining('shared by several passengers: C'),
      }),
    );
    expect(() => readDelete(content, ['F9'])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});
