import { orderTotal } from './intent-to-ndc';

describe('orderTotal', () => {
  const alc = (value: string, currency = 'GBP') => ({
    offerId: `ALC__SR-${value}`,
    owner: 'ZZ',
    responseId: 'SR-1',
    offerItems: [],
    total: { value, currency },
  });

  it('is the priced total as the airline wrote it when nothing is ordered beside it', () => {
    expect(orderTotal({ total: { value: '177.590', currency: 'GBP' } })).toStrictEqual({
      value: '177.590',
      currency: 'GBP',
    });
  });

  it('adds each à-la-carte offer exactly, and refuses one in another currency', () => {
    const priced = { total: { value: '177.59', currency: 'GBP' }, aLaCarte: [alc('35.00'), alc('6.01')] };
    expect(orderTotal(priced)).toStrictEqual({ value: '218.60', currency: 'GBP' });
    expect(() => orderTotal({ ...priced, aLaCarte: [alc('6.00', 'EUR')] })).toThrow(
      'à-la-carte offer ALC__SR-6.00 is in EUR, the priced offer in GBP',
    );
  });
});
