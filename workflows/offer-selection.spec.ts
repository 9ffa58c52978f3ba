import type { OfferSummary } from '../activities/booking.activities.types';
import { selectOffers } from './offer-selection';

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
