/**
 * The servicing requests a booking sends (docs/orchestrator.md, "Servicing"): OrderReshopRQ (change
 * offers, refund quote, reprice), OrderChangeRQ, and ServiceListRQ / SeatAvailabilityRQ for an
 * order, built from the booking's context like every other request (`intent-to-ndc.ts`). Pure.
 */
import type { OrderChangeRq, OrderReshopRq } from '../ndc/servicing.model';
import type { Amount, DayOriginDestination, OrderOffer } from '../ndc/ndc.model';
import type { SeatAvailabilityRq, ServiceListRq } from '../ndc/extras.model';
import type { BookingIntent } from './booking.model';
import {
  requestCommon,
  shoppingPassengers,
  type NdcContext,
  type OfferToPrice,
  type RequestStamp,
} from './intent-to-ndc';
import type { ChangeOffersRequest } from './servicing.model';

/** An order named by its id and owner. */
export interface OrderKey {
  orderId: string;
  owner: string;
}

/**
 * Offers to replace the order's flight items (`flightItemIds`) with flights on other dates: the
 * trip's airports, the new dates (a round trip without a new `returnDate` keeps its return: the airline
 * reshops the outbound only), an optional price class.
 */
export function changeReshopRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  order: OrderKey,
  flightItemIds: string[],
  request: ChangeOffersRequest,
  trip: { origin: string; destination: string },
): OrderReshopRq {
  const legs: DayOriginDestination[] = [
    { departureCode: trip.origin, arrivalCode: trip.destination, date: request.journey.departureDate },
  ];
  if (request.journey.returnDate !== undefined)
    legs.push({ departureCode: trip.destination, arrivalCode: trip.origin, date: request.journey.returnDate });
  return {
    ...requestCommon(ctx, stamp),
    orderId: order.orderId,
    owner: order.owner,
    action: {
      kind: 'servicing',
      add: {
        flightQuery: { kind: 'day', originDestinations: legs },
        ...(request.priceClass !== undefined ? { priceClass: request.priceClass } : {}),
      },
      deleteOrderItemIds: flightItemIds,
    },
    passengers: shoppingPassengers(ctx),
  };
}

/** What deleting `itemIds` (every item, or some travellers') would refund: nothing is changed. */
export function refundQuoteRq(ctx: NdcContext, stamp: RequestStamp, order: OrderKey, itemIds: string[]): OrderReshopRq {
  return {
    ...requestCommon(ctx, stamp),
    orderId: order.orderId,
    action: { kind: 'servicing', deleteOrderItemIds: itemIds },
    passengers: shoppingPassengers(ctx),
  };
}

/** The price of a held order now (every item). */
export function repriceRq(ctx: NdcContext, stamp: RequestStamp, order: OrderKey): OrderReshopRq {
  return {
    ...requestCommon(ctx, stamp),
    orderId: order.orderId,
    action: { kind: 'reprice', orderItemIds: [] },
    passengers: shoppingPassengers(ctx),
  };
}

/** What an OrderChangeRQ carries besides the order. */
export interface OrderChangeParts {
  acceptOffers?: readonly OfferToPrice[];
  deleteOrderItemIds?: string[];
  acceptRepricedOrder?: string;
  /** A card token paying `amount`. */
  payment?: { tokenId: string; amount: Amount };
  /** 3-D Secure data of the payment (TermURL / FailURL, the browser). */
  securePayment?: BookingIntent['securePayment'];
  /** `OrderChangeParameters/Reason` (e.g. accepting the airline's change). */
  reason?: string;
}

export function orderChangeRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  order: OrderKey,
  parts: OrderChangeParts,
): OrderChangeRq {
  const { securePayment, payment } = parts;
  return {
    ...requestCommon(ctx, stamp),
    order: { orderId: order.orderId, owner: order.owner },
    ...(payment !== undefined && securePayment !== undefined
      ? {
          securePayment: {
            failUrl: securePayment.failUrl,
            termUrl: securePayment.termUrl,
            ipAddress: securePayment.ipAddress,
            userAgent: securePayment.userAgent,
          },
        }
      : {}),
    ...(parts.reason !== undefined ? { reason: parts.reason } : {}),
    acceptOffers: (parts.acceptOffers ?? []).map(orderOffer),
    deleteOrderItemIds: parts.deleteOrderItemIds ?? [],
    ...(parts.acceptRepricedOrder !== undefined ? { acceptRepricedOrder: parts.acceptRepricedOrder } : {}),
    payments: payment !== undefined ? [{ type: 'CC', voucherNumber: payment.tokenId, amount: payment.amount }] : [],
    passengers: [],
    contacts: [],
  };
}

function orderOffer(offer: OfferToPrice): OrderOffer {
  return { offerId: offer.offerId, owner: offer.owner, responseId: offer.responseId, offerItems: offer.offerItems };
}

/** ServiceListRQ for the order: what can be added to it. */
export function orderServiceListRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  order: OrderKey,
): Omit<ServiceListRq, 'offers' | 'shoppingResponseId' | 'order'> & { order: OrderKey } {
  return { ...requestCommon(ctx, stamp), order, passengers: shoppingPassengers(ctx) };
}

/** SeatAvailabilityRQ for the order: the seat maps of all its segments, for all its passengers. */
export function orderSeatAvailabilityRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  order: OrderKey,
): Omit<SeatAvailabilityRq, 'offer' | 'shoppingResponseId' | 'order'> & {
  order: OrderKey & { passengerIds: string[]; segmentIds: string[] };
} {
  return {
    ...requestCommon(ctx, stamp),
    order: { ...order, passengerIds: [], segmentIds: [] },
    passengers: shoppingPassengers(ctx),
  };
}
