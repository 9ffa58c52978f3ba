/**
 * Items and orders for the servicing unit specs: fare items by price class, extras, the card
 * surcharge, and an order content holding them.
 */
import type { MoneyOfferItem, Passenger } from '../../ndc/ndc.model';
import { CCF2_SERVICE_ID } from '../offer-price/offer-price.service';
import type { OrderContent } from './servicing.types';

const money = (value: string, currency = 'GBP') => ({ value, currency });

/** A fare item of `pax` in `priceClass` (base and taxes), on flight `flightKey`. */
export function fareItem(
  id: string,
  pax: string,
  priceClass: string,
  base: string,
  taxes: string,
  flightKey = 'FLT__ZZ101_20261201',
): MoneyOfferItem {
  const total = (Number(base) + Number(taxes)).toFixed(2);
  return {
    offerItemId: id,
    priceDetail: { base: money(base), taxes: money(taxes), total: money(total) },
    services: [{ serviceId: `${id}-S1`, passengerRefs: [pax], flightRefs: [flightKey] }],
    fareDetails: [
      {
        passengerRefs: [pax],
        base: money(base),
        taxes: money(taxes),
        total: money(total),
        fareComponents: [
          { rbd: 'O', cabinTypeCode: 'M', cabinTypeName: 'ECONOMY', priceClassRef: `PC__${priceClass}` },
        ],
      },
    ],
  };
}

/** An extra of `pax` (a bag on the journey's segment) at `price`. */
export function extraItem(id: string, pax: string, price: string): MoneyOfferItem {
  return {
    offerItemId: id,
    priceDetail: { base: money(price), taxes: money('0.00'), total: money(price) },
    services: [
      {
        serviceId: `${id}-S1`,
        passengerRefs: [pax],
        serviceDefinitionRef: { ref: 'SD__YN1', segmentRefs: ['SEG__ZZ101_20261201'] },
      },
    ],
    fareDetails: [],
  };
}

/** The card surcharge item shared by `passengers`. */
export function surchargeItem(id: string, passengers: string[], price: string): MoneyOfferItem {
  return {
    offerItemId: id,
    priceDetail: { base: money(price), taxes: money('0.00'), total: money(price) },
    services: [{ serviceId: CCF2_SERVICE_ID, passengerRefs: passengers, serviceDefinitionRef: { ref: 'SD__CCF2' } }],
    fareDetails: [],
  };
}

/** An order content of `passengers` holding `items`, 2 seats sold on ZZ101, `paid` paid. */
export function contentOf(passengers: Passenger[], items: MoneyOfferItem[], paid: string): OrderContent {
  return {
    currency: 'GBP',
    items,
    journeys: [
      {
        offerId: 'SR1-O1',
        direction: 0,
        odKey: 'OD__LGW_OSL',
        from: 'LGW',
        to: 'OSL',
        date: '2026-12-01',
        flights: ['101'],
        flightKey: 'FLT__ZZ101_20261201',
        priceClass: 'ECONOMY',
      },
    ],
    segments: [{ inventoryKey: 'ZZ101/2026-12-01', rbd: 'O', seats: 2 }],
    seats: [{ inventoryKey: 'ZZ101/2026-12-01', seat: '20A', segmentKey: 'SEG__ZZ101_20261201', passengerId: 'PAX2' }],
    passengers,
    contacts: [],
    charges: [{ type: 'CC', amount: money(paid), voucherNumber: 'tok_1' }],
    paid: money(paid),
    penalties: [],
  };
}
