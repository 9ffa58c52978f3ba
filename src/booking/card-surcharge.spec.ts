import type { OfferItem } from '../ndc/ndc.model';
import { NdcMissingElementError, NdcNoMoneyPriceError } from '../ndc/require-element';
import { cardSurcharge, offerItemTotalElement } from './card-surcharge';

describe('cardSurcharge', () => {
  const item = (id: string, total: string, pax: string[], serviceId = `${id}-S`): OfferItem =>
    ({
      offerItemId: id,
      priceDetail: { total: { value: total, currency: 'GBP' } },
      fareDetails: pax.length > 0 ? [{ passengerRefs: pax }] : [],
      services: [{ serviceId, passengerRefs: pax }],
    }) as unknown as OfferItem;

  it('is the total beyond the per-passenger fares when a CCF2 item is present', () => {
    const items = [item('FARE', '50.00', ['PAX__ADT01', 'PAX__ADT02']), item('FEE', '2.02', [], 'SRV-CCF2')];
    expect(cardSurcharge({ total: { value: '102.02', currency: 'GBP' }, offerItems: items })).toEqual({
      value: '2.02',
      currency: 'GBP',
    });
  });

  it('is absent without a fee item or when nothing is left over', () => {
    expect(
      cardSurcharge({ total: { value: '100.00', currency: 'GBP' }, offerItems: [item('FARE', '100.00', ['A'])] }),
    ).toBeUndefined();
    const items = [item('FARE', '100.00', ['A']), item('FEE', '0.00', [], 'CCF2')];
    expect(cardSurcharge({ total: { value: '100.00', currency: 'GBP' }, offerItems: items })).toBeUndefined();
  });
  it('names the item whose total it needs but the message gives without money or currency', () => {
    const award = {
      ...item('FARE', '0', ['A']),
      priceDetail: { otherPrice: { form: 'AwardPricing', redemption: { unit: 'Points', quantity: '15000' } } },
    } as OfferItem;
    const fee = item('FEE', '2.00', [], 'CCF2');
    expect(() => cardSurcharge({ total: { value: '102.00', currency: 'GBP' }, offerItems: [award, fee] })).toThrow(
      new NdcNoMoneyPriceError(offerItemTotalElement('FARE'), 'AwardPricing'),
    );
    const none = { ...item('FARE', '0', ['A']), priceDetail: {} } as OfferItem;
    expect(() => cardSurcharge({ total: { value: '102.00', currency: 'GBP' }, offerItems: [none, fee] })).toThrow(
      new NdcMissingElementError("PricedOffer/OfferItem[@OfferItemID='FARE']/TotalPriceDetail/TotalAmount"),
    );
    // An item total without Code takes the total's currency.
    const bare = { ...item('FARE', '100.00', ['A']), priceDetail: { total: { value: '100.00' } } } as OfferItem;
    expect(cardSurcharge({ total: { value: '102.00', currency: 'GBP' }, offerItems: [bare, fee] })).toEqual({
      value: '2.00',
      currency: 'GBP',
    });
  });
});
