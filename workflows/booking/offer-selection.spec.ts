import type { OfferSummary } from '../../activities/booking.activities.types';
import { selectAcrossAirlines, selectOffers } from './offer-selection';

function offer(offerId: string, direction: number, priceClass: string, total: string): OfferSummary {
  return {
    offerId,
    owner: 'ZZ',
    direction,
    priceClass,
    priceClassName: `Economy ${priceClass}`,
    total: { value: total, currency: 'GBP' },
    offerItems: [],
  };
}

const offers = [
  offer('A', 0, 'ECONOMY', '100.00'),
  offer('B', 0, 'PLUS', '150.00'),
  offer('C', 0, 'ECONOMY', '99.99'),
  offer('D', 1, 'PLUS', '120.00'),
  offer('E', 1, 'ECONOMY', '1000.00'),
  offer('F', 1, 'ECONOMY', '999.995'),
];

describe('selectOffers', () => {
  it('takes the cheapest offer per direction, comparing decimals exactly', () => {
    expect(selectOffers(offers, 2).map((o) => o?.offerId)).toEqual(['C', 'D']);
  });

  it('takes the cheapest of the requested price class, by code or name, case-insensitively', () => {
    expect(selectOffers(offers, 2, 'plus').map((o) => o?.offerId)).toEqual(['B', 'D']);
    expect(selectOffers(offers, 2, 'economy economy').map((o) => o?.offerId)).toEqual(['C', 'F']);
  });

  it('leaves a direction without a match undefined, and ignores directions beyond the journey', () => {
    expect(selectOffers(offers, 2, 'FLEX')).toEqual([undefined, undefined]);
    expect(selectOffers(offers, 1).map((o) => o?.offerId)).toEqual(['C']);
  });

  it('keeps the airline order on ties', () => {
    expect(selectOffers([offer('X', 0, 'ECONOMY', '10'), offer('Y', 0, 'ECONOMY', '10.00')], 1)[0]?.offerId).toBe('X');
  });
});

describe('selectAcrossAirlines', () => {
  const at = (airline: string, ...list: OfferSummary[]) => ({
    airline,
    offers: list.map((o) => ({ ...o, owner: airline })),
  });

  it('takes the airline whose best offers cost least in all, summing directions exactly', () => {
    const selection = selectAcrossAirlines(
      [
        at('ZZ', offer('A', 0, 'ECONOMY', '100.10'), offer('B', 1, 'ECONOMY', '50.00')),
        at('YY', offer('C', 0, 'ECONOMY', '80.00'), offer('D', 1, 'ECONOMY', '70.105')),
      ],
      2,
      'GBP',
    );
    expect(selection.picks.map((p) => [p.airline, p.total])).toEqual([
      ['ZZ', '150.10'],
      ['YY', '150.105'],
    ]);
    expect(selection.chosen?.airline).toBe('ZZ');
    expect(selection.chosen?.offers.map((o) => o.offerId)).toEqual(['A', 'B']);
  });

  it('breaks a tie by the order of the airlines', () => {
    const tie = (first: string, second: string) =>
      selectAcrossAirlines(
        [at(first, offer('A', 0, 'ECONOMY', '10')), at(second, offer('B', 0, 'ECONOMY', '10.00'))],
        1,
        'GBP',
      ).chosen?.airline;
    expect(tie('ZZ', 'YY')).toBe('ZZ');
    expect(tie('YY', 'ZZ')).toBe('YY');
  });

  it('leaves out an airline without every direction in the price class, or answering in another currency', () => {
    const eur = { ...offer('E', 0, 'PLUS', '1.00'), total: { value: '1.00', currency: 'EUR' } };
    const selection = selectAcrossAirlines(
      [at('ZZ', offer('A', 0, 'PLUS', '300.00')), at('YY', offer('B', 0, 'ECONOMY', '100.00')), at('XX', eur)],
      1,
      'GBP',
      'PLUS',
    );
    expect(selection.chosen?.airline).toBe('ZZ');
    expect(selection.missing).toEqual([
      { airline: 'YY', direction: 0 },
      { airline: 'XX', direction: 0, leftOutCurrency: 'EUR' },
    ]);
  });

  it('chooses none when no airline has a complete pick', () => {
    const selection = selectAcrossAirlines([at('ZZ', offer('A', 0, 'ECONOMY', '1'))], 2, 'GBP');
    expect(selection.chosen).toBeUndefined();
    expect(selection.missing).toEqual([{ airline: 'ZZ', direction: 1 }]);
  });
});
