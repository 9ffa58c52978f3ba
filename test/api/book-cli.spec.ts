import * as fs from 'node:fs';
import * as path from 'node:path';
import { extrasLines, resolveDate, resolveRelativeDates, trailLines } from '../../scripts/book';
import { validateIntent } from '../../src/api/bookings/booking.dto';

const TODAY = new Date('2026-11-21T10:00:00Z');

describe('npm run book: relative dates', () => {
  it('resolves +Nd, -Ny and -Nm against today (UTC) and leaves others alone', () => {
    expect(resolveDate('+30d', TODAY)).toBe('2026-12-21');
    expect(resolveDate('-8y', TODAY)).toBe('2018-11-21');
    expect(resolveDate('-7m', TODAY)).toBe('2026-04-21');
    expect(resolveDate('1985-12-10', TODAY)).toBe('1985-12-10');
  });

  it.each(['one-way.json', 'round-trip-family.json', 'promotion.json', 'debit-card.json'])(
    'examples/%s is a valid intent once resolved',
    (file) => {
      const raw = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', file), 'utf8'));
      const r = validateIntent(resolveRelativeDates(raw, TODAY), '2026-11-21');
      expect(r.ok ? [] : r.fields).toEqual([]);
    },
  );

  it('round-trip-family resolves to ADT+CHD+INF with real birthdates', () => {
    const raw = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'round-trip-family.json'), 'utf8'),
    );
    const intent = resolveRelativeDates(raw, TODAY);
    expect(intent.journey).toEqual({
      origin: 'LGW',
      destination: 'JFK',
      departureDate: '2027-01-05',
      returnDate: '2027-01-12',
    });
    expect(intent.passengers.map((p: { type: string; birthdate: string }) => [p.type, p.birthdate])).toEqual([
      ['ADT', '1980-03-04'],
      ['CHD', '2018-11-21'],
      ['INF', '2026-04-21'],
    ]);
  });
});

describe('npm run book: the trail as it happens', () => {
  const at = '2026-11-25T10:00:00.000Z';
  it('regression: prints every step, also those that started and ended between two polls', () => {
    const first = [{ name: 'shop', attempts: 1, startedAt: at }];
    // By the next poll: shop ended, price ran and ended (failed once, retried), tokenise started.
    const second = [
      { name: 'shop', attempts: 1, startedAt: at, endedAt: at, outcome: 'ok' as const },
      { name: 'price', attempts: 2, startedAt: at, endedAt: at, outcome: 'ok' as const },
      { name: 'tokenise', attempts: 1, startedAt: at },
    ];
    const third = [
      ...second.slice(0, 2),
      {
        name: 'tokenise',
        attempts: 1,
        startedAt: at,
        endedAt: at,
        outcome: 'failed' as const,
        failure: 'PAYMENT_DECLINED',
      },
      { name: 'shop', attempts: 1, startedAt: at, reason: 'reshop 1/2 after OFFER_EXPIRED (760)' },
    ];
    expect(trailLines('one-way', [], first)).toEqual(['  one-way: shop']);
    expect(trailLines('one-way', first, second)).toEqual([
      '  one-way: shop ok',
      '  one-way: price',
      '  one-way: price ok after 2 attempts',
      '  one-way: tokenise',
    ]);
    expect(trailLines('one-way', second, third)).toEqual([
      '  one-way: tokenise failed PAYMENT_DECLINED',
      '  one-way: shop (reshop 1/2 after OFFER_EXPIRED (760))',
    ]);
    expect(trailLines('one-way', third, third)).toEqual([]);
  });

  it('names the airline of every step of a booking routed by airline (a shop at two airlines is two lines each)', () => {
    const at = '2026-11-28T10:00:00.000Z';
    const shops = [
      { name: 'shop', airline: 'ZZ', attempts: 1, startedAt: at },
      { name: 'shop', airline: 'YY', attempts: 1, startedAt: at },
    ];
    const ended = shops.map((s) => ({ ...s, endedAt: at, outcome: 'ok' as const }));
    expect(trailLines('two', [], shops)).toEqual(['  two: shop at ZZ', '  two: shop at YY']);
    expect(trailLines('two', shops, ended)).toEqual(['  two: shop at ZZ ok', '  two: shop at YY ok']);
  });
});

describe('npm run book: extras', () => {
  it('prints each priced extra against its passenger, the extras total and the notes', () => {
    expect(
      extrasLines('family.json', {
        priced: [
          {
            passenger: 0,
            code: 'YN1',
            segmentKeys: ['SEG__ZZ101_20261201'],
            price: { value: '35.00', currency: 'GBP' },
          },
          {
            passenger: 1,
            code: 'XST_ZONE4',
            seat: '21A',
            segmentKeys: ['SEG__ZZ101_20261201'],
            price: { value: '6.00', currency: 'GBP' },
          },
        ],
        total: { value: '41.00', currency: 'GBP' },
        notes: ['not on sale: YN1 for passenger 3 (outbound)'],
      }),
    ).toStrictEqual([
      '  family.json: passenger 0 YN1 on SEG__ZZ101_20261201, 35.00 GBP',
      '  family.json: passenger 1 XST_ZONE4 seat 21A on SEG__ZZ101_20261201, 6.00 GBP',
      '  family.json: extras total 41.00 GBP',
      '  family.json: not on sale: YN1 for passenger 3 (outbound)',
    ]);
  });
});
