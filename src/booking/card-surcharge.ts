/**
 * The card fee of a token-bearing pricing, read from its offer items: pure, used by the pricing
 * activity (activities/pricing.activities.ts) to show the surcharge the traveller pays.
 */
import type { Money, OfferItem } from '../ndc/ndc.model';
import { add, compare, currencyScale, subtract, times } from '../common/decimal';
import { requireMoney } from '../ndc/require-element';

/** Distinct passenger refs of an offer item (from its fare details, else its services). */
export function itemPassengers(item: OfferItem): string[] {
  const refs = new Set<string>();
  for (const detail of item.fareDetails) detail.passengerRefs.forEach((r) => refs.add(r));
  if (refs.size === 0) for (const service of item.services) service.passengerRefs.forEach((r) => refs.add(r));
  return [...refs];
}

/** Element path of an OfferPriceRS item's total, as the missing-element errors name it. */
export function offerItemTotalElement(offerItemId: string): string {
  return `PricedOffer/OfferItem[@OfferItemID='${offerItemId}']/TotalPriceDetail/TotalAmount`;
}

/** True for the CCF2 credit card fee item of a token-bearing OfferPriceRS. */
export function isCardFeeItem(item: OfferItem): boolean {
  return item.services.some(
    (s) =>
      /CCF2/.test(s.serviceId) || (s.serviceDefinitionRef !== undefined && /CCF2/.test(s.serviceDefinitionRef.ref)),
  );
}

/**
 * The card fee a token-bearing pricing includes: what the total holds beyond the per-passenger
 * fares of the other items, when a CCF2 item is present and that is positive. Computed so, it does
 * not matter whether the airline prices the fee item once or per passenger. An item whose
 * `TotalAmount` has no money (award, combination, Equivalent) throws `NdcNoMoneyPriceError`, one
 * without a currency takes the total's (the activities map both to `INVALID_RESPONSE`).
 */
export function cardSurcharge(priced: { total: Money; offerItems: readonly OfferItem[] }): Money | undefined {
  if (!priced.offerItems.some(isCardFeeItem)) return undefined;
  const currency = priced.total.currency;
  const scale = currencyScale(currency);
  const fares = priced.offerItems
    .filter((item) => !isCardFeeItem(item))
    .map((item) => {
      const fare = requireMoney(item.priceDetail.total, offerItemTotalElement(item.offerItemId), {
        currency,
        otherPrice: item.priceDetail.otherPrice,
      });
      return times(fare.value, Math.max(1, itemPassengers(item).length), scale);
    });
  const fee = subtract(priced.total.value, add(scale, '0', ...fares), scale);
  return compare(fee, '0') > 0 ? { value: fee, currency } : undefined;
}
