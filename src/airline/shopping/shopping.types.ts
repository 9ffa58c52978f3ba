import type { Qualifier } from '../../ndc/ndc.model';

/**
 * What a shopping response remembers of each offer (ShoppingRecord.offers[OfferID]),
 * enough to price it again from current inventory in OfferPrice.
 */
export interface StoredOffer {
  offerId: string;
  /** 0 = outbound, 1 = return. */
  direction: number;
  odKey: string;
  /** Requested origin and destination codes of the direction. */
  from: string;
  to: string;
  date: string;
  /** Flight numbers (without designator) of the journey. */
  flights: string[];
  flightKey: string;
  priceClass: string;
  items: { offerItemId: string; passengerRefs: string[] }[];
  /** Qualifier of the AirShoppingRQ, used when the OfferPriceRQ has none. */
  qualifier?: Qualifier;
}
