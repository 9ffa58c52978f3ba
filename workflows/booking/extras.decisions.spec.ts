import type { SeatMaps, SeatView, ServiceOption } from '../../src/booking/booking.extras';
import { adjacentRuns, aLaCarteOffer, lostSeats, paxOf, pickBags, pickSeats, resolveChoice } from './extras.decisions';

const gbp = (value: string) => ({ value, currency: 'GBP' });
const FAMILY = paxOf([
  { type: 'ADT', title: 'MR', givenName: 'A', surname: 'S', birthdate: '1980-01-01', contactId: 'C' },
  { type: 'ADT', title: 'MS', givenName: 'B', surname: 'S', birthdate: '1981-01-01', contactId: 'C' },
  { type: 'CHD', title: 'MISS', givenName: 'C', surname: 'S', birthdate: '2018-01-01', contactId: 'C' },
  { type: 'INF', title: 'MSTR', givenName: 'D', surname: 'S', birthdate: '2026-01-01', contactId: 'C' },
]);

function seat(label: string, price: string, chars: string[], available = true): SeatView {
  const [, row, column] = /^(\d+)([A-Z])$/.exec(label)!;
  return {
    seat: label,
    row: Number(row),
    column: column!,
    available,
    zone: chars.includes('exit') ? 'XST_ZONE3' : 'XST_ZONE4',
    price,
    currency: 'GBP',
    characteristics: chars,
    items: { ADT: `Z-${label}-ADT`, CHD: `Z-${label}-CHD` },
  };
}

/** Rows 12 (exit, 18.00) and 20, 21 (6.00) of an ABC DEF cabin; 20B taken. */
function maps(): SeatMaps {
  const row = (n: number, price: string, extra: string[], taken: string[] = []) =>
    ['A', 'B', 'C', 'D', 'E', 'F'].map((c) => {
      const pos = c === 'A' || c === 'F' ? 'window' : c === 'C' || c === 'D' ? 'aisle' : 'middle';
      return seat(`${n}${c}`, price, [pos, ...extra], !taken.includes(`${n}${c}`));
    });
  return {
    aLaCarteOfferId: 'ALC__SR1',
    owner: 'ZZ',
    responseId: 'SR1',
    segments: [
      {
        segment: 'SEG1',
        flight: 'ZZ101',
        direction: 0,
        seats: [
          ...row(12, '18.00', ['exit', 'legroom', 'noInfant']),
          ...row(20, '6.00', [], ['20B']),
          ...row(21, '6.00', []),
        ],
      },
    ],
  };
}

describe('extras decisions', () => {
  it('picks bags by code, passenger and direction, and names what is not on sale', () => {
    const options: ServiceOption[] = [
      {
        itemId: 'YN1-OUT-ADT',
        code: 'YN1',
        passengerIds: ['PAX__ADT01', 'PAX__ADT02'],
        segmentKeys: ['S1'],
        direction: 0,
        price: gbp('35.00'),
      },
      {
        itemId: 'YN1-RET-ADT',
        code: 'YN1',
        passengerIds: ['PAX__ADT01', 'PAX__ADT02'],
        segmentKeys: ['S2'],
        direction: 1,
        price: gbp('35.00'),
      },
    ];
    const { picks, missing } = pickBags(
      [
        { passenger: 1, code: 'YN1', direction: 'both' },
        { passenger: 2, code: 'YN1', direction: 'outbound' },
      ],
      FAMILY,
      options,
      2,
    );
    expect(picks.map((p) => [p.itemId, p.passengerId, p.passenger])).toStrictEqual([
      ['YN1-OUT-ADT', 'PAX__ADT02', 1],
      ['YN1-RET-ADT', 'PAX__ADT02', 1],
    ]);
    expect(missing).toStrictEqual(['YN1 for passenger 2 (outbound)']);
  });

  it('seats a family together in the cheapest row with room, the window for the first, never the lap holder in an exit row', () => {
    const { picks, unseated } = pickSeats(maps(), FAMILY, { mode: 'auto', preference: 'window', together: true });
    expect(unseated).toStrictEqual([]);
    // Row 20 has no three adjacent free seats on the A side (20B taken): D E F.
    expect(picks.map((p) => [p.passengerId, p.seat])).toStrictEqual([
      ['PAX__ADT01', '20F'],
      ['PAX__ADT02', '20D'],
      ['PAX__CHD01', '20E'],
    ]);
  });

  it('keeps to the price cap: with nothing under it, passengers are unseated', () => {
    const { picks, unseated } = pickSeats(maps(), FAMILY, { mode: 'auto', maxPricePerSeat: '5.00' });
    expect(picks).toStrictEqual([]);
    expect(unseated).toStrictEqual(['passenger 0 on ZZ101', 'passenger 1 on ZZ101', 'passenger 2 on ZZ101']);
  });

  it('never puts the adult holding the infant in an exit row, even when only exit rows are in budget', () => {
    const m = maps();
    m.segments[0]!.seats = m.segments[0]!.seats.filter((s) => s.row === 12);
    const { picks, unseated } = pickSeats(m, FAMILY, { mode: 'auto', together: false });
    expect(unseated).toStrictEqual(['passenger 0 on ZZ101']);
    expect(picks.map((p) => p.passengerId)).toStrictEqual(['PAX__ADT02', 'PAX__CHD01']);
  });

  it('avoids seats lost to another transaction', () => {
    const first = pickSeats(maps(), FAMILY, { mode: 'auto', preference: 'window' });
    const lost = lostSeats(first.picks, first.picks.slice(1));
    expect(lost.map((p) => p.seat)).toStrictEqual(['20F']);
    const again = pickSeats(maps(), FAMILY, { mode: 'auto', preference: 'window' }, new Set(['SEG1/20F']));
    expect(again.picks.map((p) => p.seat)).not.toContain('20F');
  });

  it('finds runs of adjacent seats, not across the aisle', () => {
    const row = maps().segments[0]!.seats.filter((s) => s.row === 21);
    expect(adjacentRuns(row, 3).map((r) => r.map((s) => s.seat).join())).toStrictEqual(['21A,21B,21C', '21D,21E,21F']);
  });

  it('selects each pick as an OfferItem with ALaCarteSelection and SeatSelection', () => {
    const { picks } = pickSeats(maps(), FAMILY.slice(0, 1), { mode: 'auto', preference: 'aisle' });
    expect(aLaCarteOffer({ offerId: 'ALC__SR1', owner: 'ZZ', responseId: 'SR1' }, picks)).toStrictEqual({
      offerId: 'ALC__SR1',
      owner: 'ZZ',
      responseId: 'SR1',
      offerItems: [
        {
          offerItemId: 'Z-20C-ADT',
          passengerRefs: ['PAX__ADT01'],
          aLaCarteSelection: { quantity: 1, segmentId: 'SEG1' },
          seatSelection: { row: 20, column: 'C' },
        },
      ],
    });
  });

  it('validates a traveller choice: taken seat, unknown passenger, infant, exit row for the lap holder', () => {
    const m = maps();
    expect(resolveChoice(m, FAMILY, [{ passenger: 2, seat: '21A' }]).map((p) => p.seat)).toStrictEqual(['21A']);
    expect(() => resolveChoice(m, FAMILY, [{ passenger: 0, seat: '20B' }])).toThrow(
      'seats[0].seat: seat 20B on ZZ101 is taken',
    );
    expect(() => resolveChoice(m, FAMILY, [{ passenger: 7, seat: '21A' }])).toThrow('seats[0].passenger');
    expect(() => resolveChoice(m, FAMILY, [{ passenger: 3, seat: '21A' }])).toThrow('seats[0].passenger');
    expect(() => resolveChoice(m, FAMILY, [{ passenger: 0, seat: '12A' }])).toThrow('exit row');
    expect(() => resolveChoice(m, FAMILY, [{ passenger: 1, seat: '99Z' }])).toThrow('no seat 99Z');
  });
});
