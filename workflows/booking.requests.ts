/**
 * The agency's servicing requests (docs/orchestrator.md, "Servicing"), each in the order its steps
 * run: change the trip, the order's services, add bags and seats, remove travellers, pay a hold.
 * The servicing loop (`booking.servicing.ts`) serves them one at a time.
 */
import type { NdcContext, OrderChange, OrderSummary } from '../activities/booking.activities.types';
import type { PaymentCard } from '../src/booking/booking.model';
import { passengerIds } from '../src/booking/intent-to-ndc';
import type { AddServicesRequest } from '../src/booking/servicing.model';
import { add, compare, currencyScale } from '../src/common/decimal';
import {
  changeConfirmedOrder,
  changeExactlyOnce,
  negate,
  paymentOf,
  recordChange,
  refusal,
  showAmount,
} from './booking.order-changes';
import type { AfterSale, Booking } from './booking/context';
import { aLaCarteOffers, paxOf, pickBags, resolveChoice, type Picked } from './booking/extras.decisions';
import { orderSeatMap, orderServices, repriceOrder } from './booking/order-reads';
import { cardToken } from './booking/payment';
import { guardPrice } from './booking/price-guard';
import {
  flightsChangedTo,
  orderPaid,
  passengersRemoved,
  servicesAdded,
  withCardFee,
} from './booking/servicing.decisions';

/** Another date: `CHANGING`, [tokenise,] changeOrder (accept the offer, paying what is due), `CONFIRMED`. */
export async function changeTrip(
  booking: Booking,
  afterSale: AfterSale,
  ctx: NdcContext,
  args: { offerId: string; card?: PaymentCard },
) {
  const offer = afterSale.offers.find((o) => o.id === args.offerId)!;
  if (Date.parse(offer.expiresAt) <= Date.now())
    throw refusal('OFFER_EXPIRED', `offerId: the change offer ${offer.id} expired at ${offer.expiresAt}`);
  const before = afterSale.order;
  const accepted = {
    offerId: offer.id,
    owner: offer.owner,
    responseId: offer.responseId,
    offerItems: offer.offerItems,
  };
  const paying = await paymentOf(booking, offer.difference, args.card);
  const change: OrderChange = { kind: 'acceptOffers', offers: [accepted], ...paying };
  return changeConfirmedOrder(
    booking,
    afterSale,
    ctx,
    change,
    (read) => flightsChangedTo(read, offer),
    (order) => ({
      kind: 'trip',
      ...(before.flights !== undefined ? { from: before.flights } : {}),
      ...(order.flights !== undefined ? { to: order.flights } : {}),
      difference: paying.payment?.amount ?? offer.difference,
      penalty: offer.penalty,
    }),
  );
}

/** The services on sale for the order, as the API lists them (codes as in the intent's extras). */
export async function servicesOnSale(booking: Booking, ctx: NdcContext, order: OrderSummary) {
  const list = await orderServices(booking, ctx, order);
  return list.options.flatMap((option) =>
    option.passengerIds.flatMap((id) => {
      const passenger = passengerIds(booking.intent.passengers).indexOf(id);
      return passenger < 0
        ? []
        : (option.segmentKeys.length > 0 ? option.segmentKeys : ['']).map((segment) => ({
            code: option.code,
            passenger,
            direction: option.direction === 1 ? ('return' as const) : ('outbound' as const),
            segment,
            price: option.price?.value ?? '0',
            currency: option.price?.currency ?? booking.intent.currency,
          }));
    }),
  );
}

/** Bags and seats: picked from what the order's lists offer, `CHANGING`, [tokenise,] changeOrder, `CONFIRMED`. */
export async function addServices(booking: Booking, afterSale: AfterSale, ctx: NdcContext, args: AddServicesRequest) {
  const before = afterSale.order;
  const picked = await pickServices(booking, ctx, before, args);
  const currency = booking.intent.currency;
  const amount = {
    value: add(currencyScale(currency), '0', ...picked.flatMap((p) => p.picks.map((pick) => pick.price?.value ?? '0'))),
    currency,
  };
  if (compare(amount.value, '0') > 0 && args.card === undefined)
    throw refusal('CARD_REQUIRED', `payment.card: ${amount.value} ${currency} is due for these services`);
  const paying = await paymentOf(booking, amount, args.card);
  const change: OrderChange = { kind: 'acceptOffers', offers: aLaCarteOffers(picked), ...paying };
  return changeConfirmedOrder(
    booking,
    afterSale,
    ctx,
    change,
    (read) => servicesAdded(read, before),
    () => ({ kind: 'services', difference: paying.payment?.amount ?? amount }),
  );
}

/** The à-la-carte picks of a request; what the order's lists do not have is refused, naming it. */
async function pickServices(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  args: AddServicesRequest,
): Promise<Picked[]> {
  const pax = paxOf(booking.intent.passengers);
  const picked: Picked[] = [];
  if (args.bags !== undefined && args.bags.length > 0) {
    const list = await orderServices(booking, ctx, order);
    const directions = booking.intent.journey.returnDate !== undefined ? 2 : 1;
    const { picks, missing } = pickBags(args.bags, pax, list.options, directions);
    if (missing.length > 0 || list.aLaCarteOfferId === undefined)
      throw refusal(
        'INVALID_SERVICING_REQUEST',
        `bags: not on sale for this order: ${missing.join(', ') || 'any bag'}`,
      );
    const responseId = list.responseId ?? order.orderId;
    picked.push({ offer: { offerId: list.aLaCarteOfferId, owner: list.owner ?? order.owner, responseId }, picks });
  }
  if (args.seats !== undefined && args.seats.length > 0) {
    const { maps } = await orderSeatMap(booking, ctx, order);
    if (maps === undefined)
      throw refusal('INVALID_SERVICING_REQUEST', 'seats: the airline has no seat map for this order');
    let picks;
    try {
      picks = resolveChoice(maps, pax, args.seats);
    } catch (error) {
      throw refusal('INVALID_SERVICING_REQUEST', (error as Error).message);
    }
    picked.push({ offer: { offerId: maps.aLaCarteOfferId, owner: maps.owner, responseId: maps.responseId }, picks });
  }
  return picked;
}

/** Some travellers off the order: `CHANGING`, changeOrder (their items deleted), `CONFIRMED` with the refund. */
export async function removePassengers(booking: Booking, afterSale: AfterSale, ctx: NdcContext, passengers: number[]) {
  const ids = passengerIds(booking.intent.passengers);
  const removed = passengers.map((index) => ids[index]!);
  const change: OrderChange = { kind: 'removePassengers', passengers };
  return changeConfirmedOrder(
    booking,
    afterSale,
    ctx,
    change,
    (read) => passengersRemoved(read, removed),
    (order) => ({
      kind: 'passengers',
      passengers,
      ...(order.refund !== undefined
        ? { difference: { value: negate(order.refund.value), currency: order.refund.currency } }
        : {}),
      ...(order.cancellationFee !== undefined ? { penalty: order.cancellationFee } : {}),
    }),
  );
}

/**
 * A held booking paid: tokenise, repriceOrder (the price now), the price guard on a higher price,
 * changeOrder with the payment (the price plus the airline's servicing card fee), `CONFIRMED`.
 */
export async function pay(booking: Booking, afterSale: AfterSale, ctx: NdcContext, card: PaymentCard) {
  const { state } = booking.trail;
  const before = afterSale.order;
  const token = await cardToken(booking, card, undefined, booking.airline?.servicingCardFeePercent !== undefined);
  const repriced = await repriceOrder(booking, ctx, before, token.id);
  const held = state.payment!.amount;
  const acceptedBefore = add(currencyScale(held.currency), held.value, repriced.surcharge?.value ?? '0');
  // The price now is what a person approves when the guard waits (the booking's reads show it).
  showAmount(booking, repriced.total);
  await guardPrice(booking, afterSale.guard, repriced.total.value, { acceptedBefore }, 'HELD');
  // The airline's card fee on top of the price, as for every servicing payment (none for debit).
  const due = withCardFee(repriced.total, booking.airline?.servicingCardFeePercent, token.funding);
  const change: OrderChange = {
    kind: 'pay',
    tokenId: token.id,
    amount: due,
    ...(!repriced.unchanged && repriced.responseId !== undefined ? { acceptRepricedOrder: repriced.responseId } : {}),
  };
  showAmount(booking, due);
  const outcome = await changeExactlyOnce(booking, ctx, before, change, orderPaid, 'HELD');
  return recordChange(booking, afterSale, outcome, { done: 'CONFIRMED', before: 'HELD' }, () => ({
    kind: 'payment',
    difference: due,
  }));
}
