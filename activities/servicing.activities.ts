/**
 * Servicing activities (docs/orchestrator.md, "Servicing"): the order after the sale. Reads that
 * change nothing (`reshopChange`, `quoteRefund`, `repriceOrder`, `listOrderServices`,
 * `readOrderSeatMaps`) are retried by Temporal; `changeOrder` is never retried (a failure after
 * the request went out is ORDER_OUTCOME_UNKNOWN: the workflow reads the order back first).
 */
import { Context } from '@temporalio/activity';
import type { DataLists, Order } from '../src/ndc/ndc.model';
import type { ReshopOffer } from '../src/ndc/servicing.model';
import { passengerOrderItemIds, reshopSummary } from '../src/ndc/order-servicing';
import { requireMoney } from '../src/ndc/require-element';
import { isAuthenticationChallenge, NdcInvalidResponseError, type OrderReshopSuccess } from '../src/ndc-client';
import { passengerIds, type NdcContext } from '../src/booking/intent-to-ndc';
import { orderFlights } from '../src/booking/order-from-ndc';
import { seatMaps, serviceOptions } from '../src/booking/extras-from-ndc';
import { add, currencyScale } from '../src/common/decimal';
import { itemPassengers } from '../src/booking/card-surcharge';
import {
  changeReshopRq,
  orderChangeRq,
  orderSeatAvailabilityRq,
  orderServiceListRq,
  refundQuoteRq,
  repriceRq,
  type OrderChangeParts,
} from '../src/booking/servicing-to-ndc';
import { orderRetrieveRq } from '../src/booking/intent-to-ndc';
import type { AirlineCall } from './airline-call';
import { challengeOf, orderSummary } from './order.activities';
import type {
  AuthenticationChallenge,
  ChangeOfferFound,
  ChangeOrderInput,
  CreateOrderResult,
  OrderExtrasInput,
  OrderRef,
  QuoteRefundInput,
  QuoteRefundResult,
  RepriceOrderInput,
  RepriceOrderResult,
  ReshopChangeInput,
  ReshopChangeResult,
  SeatMapResult,
  ServiceListResult,
} from './booking.activities.types';

/** The servicing activities of one airline. */
export function createServicingActivities(call: AirlineCall) {
  return {
    reshopChange: (input: ReshopChangeInput) => reshopChange(call, input),
    quoteRefund: (input: QuoteRefundInput) => quoteRefund(call, input),
    repriceOrder: (input: RepriceOrderInput) => repriceOrder(call, input),
    changeOrder: (input: ChangeOrderInput) => changeOrder(call, input),
    listOrderServices: (input: OrderExtrasInput) => listOrderServices(call, input),
    readOrderSeatMaps: (input: OrderExtrasInput) => readOrderSeatMaps(call, input),
    orderReadPermit: async () => ({ attempt: Context.current().info.attempt }),
  };
}

/** The order as the airline shows it now (its items name what a change deletes). */
async function currentOrder(call: AirlineCall, ctx: NdcContext, order: OrderRef): Promise<Order> {
  return (await currentView(call, ctx, order)).order;
}

/** The order as the airline shows it now, with the response's lists (its flights). */
async function currentView(call: AirlineCall, ctx: NdcContext, order: OrderRef) {
  const { rs } = await call.client.orderRetrieve(orderRetrieveRq(ctx, call.stamp(ctx), order), call.options(ctx));
  const found = rs.orders[0];
  if (found === undefined) throw new NdcInvalidResponseError('OrderViewRS without an Order');
  return { order: found, dataLists: rs.dataLists };
}

async function reshopChange(call: AirlineCall, input: ReshopChangeInput): Promise<ReshopChangeResult> {
  const { client, stamp, options, run } = call;
  return run(async (attempt) => {
    const { ctx, order } = input;
    const view = await currentView(call, ctx, order);
    // A round trip changed without a new return date keeps its return flights.
    const directions = input.request.journey.returnDate === undefined ? [0] : [0, 1];
    const directionOf = segmentDirections(view.dataLists, input.destination);
    const items = flightItemIds(view.order, (segment) => directions.includes(directionOf.get(segment) ?? 0));
    const rq = changeReshopRq(ctx, stamp(ctx), order, items, input.request, input);
    const rs = await client.orderReshop(rq, options(ctx));
    return { offers: changeOffers(rs, ctx.currency), attempt };
  });
}

async function quoteRefund(call: AirlineCall, input: QuoteRefundInput): Promise<QuoteRefundResult> {
  const { client, stamp, options, run } = call;
  return run(async (attempt) => {
    const { ctx, order } = input;
    const found = await currentOrder(call, ctx, order);
    const ids = passengerIds(ctx.passengers);
    const passengers = input.passengers ?? ids.map((_, index) => index).filter((i) => isOn(found, ids[i]!));
    const items =
      input.passengers === undefined
        ? found.orderItems.map((item) => item.orderItemId)
        : input.passengers.flatMap((index) => passengerOrderItemIds(found, ids[index]!));
    const rs = await client.orderReshop(refundQuoteRq(ctx, stamp(ctx), order, items), options(ctx));
    return { ...refundOf(rs, ctx.currency), passengers, attempt };
  });
}

async function repriceOrder(call: AirlineCall, input: RepriceOrderInput): Promise<RepriceOrderResult> {
  const { client, stamp, options, run } = call;
  return run(async (attempt) => {
    const { ctx, order } = input;
    const rs = await client.orderReshop(repriceRq(ctx, stamp(ctx), order), options(ctx));
    const { result } = rs;
    if (result.kind === 'offers') throw new NdcInvalidResponseError('OrderReshopRS answered a reprice with offers');
    if (result.kind === 'noPriceChange') {
      const held = await currentOrder(call, ctx, order);
      const total = requireMoney(held.totalOrderPrice, 'Order/TotalOrderPrice', { currency: ctx.currency });
      return { total, unchanged: true, attempt };
    }
    const scale = currencyScale(ctx.currency);
    const prices = result.offer.items.map((item) =>
      requireMoney(item.priceDetail.total, `RepricedOfferItem[@OfferItemID='${item.offerItemId}']/TotalPriceDetail`, {
        currency: ctx.currency,
      }),
    );
    const total = { value: add(scale, '0', ...prices.map((p) => p.value)), currency: ctx.currency };
    return {
      total,
      unchanged: false,
      ...(rs.reshopResponseId !== undefined ? { responseId: rs.reshopResponseId } : {}),
      attempt,
    };
  });
}

async function changeOrder(
  call: AirlineCall,
  input: ChangeOrderInput,
): Promise<CreateOrderResult | AuthenticationChallenge> {
  const { client, stamp, options, run } = call;
  return run(
    async (attempt) => {
      const { ctx, order } = input;
      const parts = await changeParts(input, () => currentOrder(call, ctx, order));
      const answer = await client.orderChange(orderChangeRq(ctx, stamp(ctx), order, parts), options(ctx));
      if (isAuthenticationChallenge(answer)) return challengeOf(answer, attempt);
      return { order: orderSummary(answer.rs, ctx.currency), orderViewXml: answer.xml, attempt };
    },
    { orderChange: true },
  );
}

async function listOrderServices(call: AirlineCall, input: OrderExtrasInput): Promise<ServiceListResult> {
  const { client, stamp, options, run } = call;
  return run(async (attempt) => {
    const { ctx, order } = input;
    const rs = await client.orderServiceList(orderServiceListRq(ctx, stamp(ctx), order), options(ctx));
    const directionOf = segmentDirections(rs.dataLists, input.destination);
    const options_ = serviceOptions(rs, 0, ctx.currency).map((o) => ({
      ...o,
      direction: o.segmentKeys.some((key) => directionOf.get(key) === 1) ? 1 : 0,
    }));
    return {
      options: options_,
      ...(rs.aLaCarteOffer !== undefined
        ? { aLaCarteOfferId: rs.aLaCarteOffer.offerId, owner: rs.aLaCarteOffer.owner }
        : {}),
      ...(rs.shoppingResponseId !== undefined ? { responseId: rs.shoppingResponseId } : {}),
      attempt,
    };
  });
}

async function readOrderSeatMaps(call: AirlineCall, input: OrderExtrasInput): Promise<SeatMapResult> {
  const { client, stamp, options, run } = call;
  return run(async (attempt) => {
    const { ctx, order } = input;
    const rs = await client.orderSeatAvailability(orderSeatAvailabilityRq(ctx, stamp(ctx), order), options(ctx));
    const ids = passengerIds(ctx.passengers);
    const ptcOf = (id: string) => ctx.passengers[ids.indexOf(id)]?.type;
    const segments = seatMaps(rs, 0, ctx.currency, ptcOf);
    if (rs.aLaCarteOffer === undefined || segments.length === 0) return { attempt };
    const { offerId, owner } = rs.aLaCarteOffer;
    return {
      maps: { aLaCarteOfferId: offerId, owner, responseId: rs.shoppingResponseId ?? order.orderId, segments },
      attempt,
    };
  });
}

/** The OrderChangeRQ of a change: offers taken, a held order paid, or travellers' items deleted. */
async function changeParts(input: ChangeOrderInput, current: () => Promise<Order>): Promise<OrderChangeParts> {
  const { change, securePayment } = input;
  switch (change.kind) {
    case 'acceptOffers':
      return {
        acceptOffers: change.offers,
        ...(change.payment !== undefined ? { payment: change.payment, securePayment } : {}),
      };
    case 'pay':
      return {
        payment: { tokenId: change.tokenId, amount: change.amount },
        securePayment,
        ...(change.acceptRepricedOrder !== undefined ? { acceptRepricedOrder: change.acceptRepricedOrder } : {}),
      };
    case 'acceptAirlineChange':
      return { reason: change.reason };
    case 'removePassengers': {
      const order = await current();
      const ids = passengerIds(input.ctx.passengers);
      return { deleteOrderItemIds: change.passengers.flatMap((index) => passengerOrderItemIds(order, ids[index]!)) };
    }
  }
}

/**
 * The order's flight items on the segments `replaced` keeps: those whose services name such a
 * segment and are neither a service nor a seat.
 */
function flightItemIds(order: Order, replaced: (segmentKey: string) => boolean): string[] {
  return order.orderItems
    .filter((item) =>
      item.services.some(
        (s) =>
          s.segmentRef !== undefined &&
          replaced(s.segmentRef) &&
          s.serviceDefinitionRef === undefined &&
          s.selectedSeat === undefined,
      ),
    )
    .map((item) => item.orderItemId);
}

function isOn(order: Order, passengerId: string): boolean {
  return order.orderItems.some((item) => item.services.some((s) => s.passengerRef === passengerId));
}

/** 0 for segments of the outbound, 1 for those departing from the trip's destination (and after). */
function segmentDirections(dataLists: DataLists, destination: string | undefined): Map<string, number> {
  const directions = new Map<string, number>();
  let back = false;
  for (const flight of orderFlights(dataLists)) {
    if (flight.origin === destination) back = true;
    directions.set(flight.segmentKey, back ? 1 : 0);
  }
  return directions;
}

/** The change offers of an OrderReshopRS, each with its flights, money and expiry. */
function changeOffers(rs: OrderReshopSuccess, currency: string): ChangeOfferFound[] {
  if (rs.result.kind !== 'offers') throw new NdcInvalidResponseError('OrderReshopRS without ReshopOffers');
  const responseId = rs.reshopResponseId;
  if (responseId === undefined) throw new NdcInvalidResponseError('OrderReshopRS without a ReShoppingResponseID');
  return rs.result.offers.map((offer) => changeOffer(offer, rs.dataLists, responseId, currency));
}

function changeOffer(offer: ReshopOffer, dataLists: DataLists, responseId: string, currency: string): ChangeOfferFound {
  const { difference, penalty } = reshopSummary(offer, currency);
  const flights = offerFlights(offer, dataLists);
  const departures = flights.map((f) => f.departure.slice(0, 10));
  const priceClassRef = offer.flightsOverview[0]?.priceClassRef;
  const priceClass = dataLists.priceClasses?.find((pc) => pc.priceClassId === priceClassRef);
  const code = priceClass?.code ?? priceClassRef?.replace(/^PC__/, '');
  if (offer.expiresAt === undefined)
    throw new NdcInvalidResponseError(`ReshopOffer ${offer.offerId} without TimeLimits/OfferExpiration`);
  return {
    id: offer.offerId,
    owner: offer.owner,
    responseId,
    offerItems: offer.addItems.map((item) => ({ offerItemId: item.offerItemId, passengerRefs: itemPassengers(item) })),
    journey: {
      departureDate: departures[0] ?? '',
      ...(flights.length > 1 && flights[flights.length - 1]!.destination === flights[0]!.origin
        ? { returnDate: departures[departures.length - 1]! }
        : {}),
    },
    flights,
    ...(code !== undefined ? { priceClass: code } : {}),
    total: requireMoney(offer.totalPrice, `ReshopOffer[@OfferID='${offer.offerId}']/TotalPrice`, { currency }),
    difference,
    penalty,
    expiresAt: offer.expiresAt,
  };
}

/** The flights an offer's FlightsOverview names, from the response's lists. */
function offerFlights(offer: ReshopOffer, dataLists: DataLists) {
  const keys = new Set(
    offer.flightsOverview.flatMap(
      (ref) => dataLists.flights?.find((flight) => flight.flightKey === ref.flightKey)?.segmentRefs ?? [],
    ),
  );
  return orderFlights({
    ...dataLists,
    flightSegments: (dataLists.flightSegments ?? []).filter((s) => keys.has(s.segmentKey)),
  });
}

/** A refund quote: what the airline would give back (the difference it owes) and keep. */
function refundOf(rs: OrderReshopSuccess, currency: string): Omit<QuoteRefundResult, 'passengers' | 'attempt'> {
  if (rs.result.kind !== 'offers' || rs.result.offers[0] === undefined)
    throw new NdcInvalidResponseError('OrderReshopRS without the refund quote offer');
  const offer = rs.result.offers[0];
  const { difference, penalty } = reshopSummary(offer, currency);
  const refund = difference.value.startsWith('-') ? difference.value.slice(1) : '0';
  return {
    refund: { value: refund === '0' ? add(currencyScale(currency), '0') : refund, currency },
    penalty,
    ...(offer.expiresAt !== undefined ? { expiresAt: offer.expiresAt } : {}),
  };
}
