/**
 * Removing passengers from an order, and what removing items would refund (docs/airline-service.md,
 * "Servicing orders"): a Delete names every item of some passengers (never leaving an infant
 * without its adult, nor the order without an adult); each item refunds what OrderCancel's rules
 * give today (item by item), never more than was paid. The same reading serves the refund quote
 * of an OrderReshopRQ and the Delete of an OrderChangeRQ, so the quote is what the change refunds.
 */
import { add, currencyScale, subtract } from '../../common/decimal';
import type { Money, MoneyOfferItem, Passenger, Penalty } from '../../ndc/ndc.model';
import { cancellationPenalty } from '../../ndc/cancellation-penalty';
import type { ReshopDeleteItem, ReshopOffer } from '../../ndc/servicing.model';
import { AirlineError } from '../airline.errors';
import { findSeat, lapHolders } from '../extras/extras.catalogue';
import type { World } from '../world/world';
import type { LoadedOrder } from './order-book';
import { journeyOfSold, seatsOf } from './order-fares';
import { type ItemRefund, checkPassengerRemoval, itemRefund } from './servicing.rules';
import type { ChangePlan, OrderContent } from './servicing.types';

/** What a Delete of order items is: the whole order, or every item of some passengers. */
export type DeleteReading = { kind: 'order' } | { kind: 'passengers'; passengerIds: string[] };

/** The items of `passengerId` alone: every service (and fare detail) names that passenger only. */
export function passengerItems(content: Pick<OrderContent, 'items'>, passengerId: string): MoneyOfferItem[] {
  return content.items.filter(
    (i) =>
      i.services.length > 0 &&
      i.services.every((s) => s.passengerRefs.length === 1 && s.passengerRefs[0] === passengerId),
  );
}

/**
 * What the Delete `itemIds` removes: every item of the order, or every item of some passengers.
 * Unknown items are INVALID_REQUEST; part of a passenger's items, or an item shared by several
 * passengers (the card surcharge), is PASSENGER_REMOVAL_REFUSED naming what is missing.
 */
export function readDelete(content: OrderContent, itemIds: readonly string[]): DeleteReading {
  const unknown = itemIds.filter((id) => !content.items.some((i) => i.offerItemId === id));
  if (unknown.length > 0)
    throw new AirlineError(
      'INVALID_REQUEST',
      `Delete names order items the order does not have: ${unknown.join(', ')}`,
    );
  if (content.items.every((i) => itemIds.includes(i.offerItemId))) return { kind: 'order' };
  const owners = content.passengers.filter((p) =>
    passengerItems(content, p.passengerId).some((i) => itemIds.includes(i.offerItemId)),
  );
  const named = new Set(owners.flatMap((p) => passengerItems(content, p.passengerId).map((i) => i.offerItemId)));
  const shared = itemIds.filter((id) => !named.has(id));
  const missing = [...named].filter((id) => !itemIds.includes(id));
  if (shared.length > 0 || missing.length > 0 || owners.length === 0) {
    throw new AirlineError(
      'PASSENGER_REMOVAL_REFUSED',
      `Delete removes whole passengers: every item of each (${shared.length ? `shared by several passengers: ${shared.join(', ')}; ` : ''}${missing.length ? `missing: ${missing.join(', ')}` : ''}); ` +
        'to end the whole order send OrderCancelRQ',
    );
  }
  return { kind: 'passengers', passengerIds: owners.map((p) => p.passengerId) };
}

/**
 * Each item's refund if removed now (nothing for an unpaid order); the whole item, no fee, while
 * the order waits on a schedule change the airline made (involuntary).
 */
export function itemRefunds(
  world: World,
  loaded: LoadedOrder,
  items: readonly MoneyOfferItem[],
  now: Date,
): ItemRefund[] {
  const { order, content } = loaded;
  const paid = order.status === 'live';
  if (content.airlineChange !== undefined) {
    const zero = add(currencyScale(content.currency), '0');
    return items.map((item) => {
      const total = item.priceDetail.total.value;
      return { original: paid ? total : zero, fee: zero, refund: paid ? total : zero };
    });
  }
  const terms = { createdAt: order.createdAt, currency: content.currency, paid };
  return items.map((item) => itemRefund(world, item, terms, now));
}

/**
 * The plan of removing `passengerIds` (every item of theirs, their seats and inventory), refunding
 * each item by the OrderCancel rules; refused (776) when it would leave an infant without an adult
 * or no adult, or put an infant on the lap of an adult seated in an exit row.
 */
export function removalPlan(world: World, loaded: LoadedOrder, passengerIds: string[], now: Date): ChangePlan {
  const { content, order } = loaded;
  checkPassengerRemoval(content.passengers, passengerIds);
  checkLapHolderSeats(world, content, passengerIds);
  const items = passengerIds.flatMap((id) => passengerItems(content, id));
  const refunds = itemRefunds(world, loaded, items, now);
  const scale = currencyScale(content.currency);
  const leaving = content.passengers.filter((p) => passengerIds.includes(p.passengerId));
  const seats = seatsOfLeaving(world, leaving);
  return {
    kind: 'passengers',
    version: order.version,
    removeItemIds: items.map((i) => i.offerItemId),
    addItems: [],
    removeJourneys: [],
    addJourneys: [],
    release: seats === 0 ? [] : content.segments.map((s) => ({ ...s, seats })),
    sell: [],
    releaseSeats: content.seats.filter((s) => passengerIds.includes(s.passengerId)),
    sellSeats: [],
    removePassengerIds: passengerIds,
    difference: {
      value: subtract('0', add(scale, '0', ...refunds.map((r) => r.refund)), scale),
      currency: content.currency,
    },
    penalty: { value: add(scale, '0', ...refunds.map((r) => r.fee)), currency: content.currency },
  };
}

/** Seats the leaving passengers take (infants on a lap take none). */
function seatsOfLeaving(world: World, leaving: readonly Passenger[]): number {
  return leaving.some((p) => p.ptc !== 'INF') ? seatsOf(world, leaving) : 0;
}

/** After the removal, an infant's lap holder (the first adults) may not sit in an exit row (776). */
function checkLapHolderSeats(world: World, content: OrderContent, removed: readonly string[]): void {
  const holders = lapHolders(content.passengers.filter((p) => !removed.includes(p.passengerId)));
  for (const seat of content.seats.filter((s) => holders.has(s.passengerId))) {
    const segment = content.journeys
      .flatMap((j) => journeyOfSold(world, j).segments)
      .find((s) => s.segmentKey === seat.segmentKey);
    const aircraft = segment && world.data.aircraft?.[segment.flight.aircraft];
    const m = /^(\d+)([A-Z])$/.exec(seat.seat);
    const spec = aircraft && m ? findSeat(aircraft, Number(m[1]), m[2]) : undefined;
    if (spec?.infantBlocked) {
      throw new AirlineError(
        'PASSENGER_REMOVAL_REFUSED',
        `Removing ${removed.join(', ')} puts an infant on the lap of ${seat.passengerId}, who sits in exit row seat ${seat.seat} on ${seat.inventoryKey}; change that seat first`,
      );
    }
  }
}

/**
 * The refund quote of deleting `items` (OrderReshopRS `ReshopOffer` with DeleteOfferItems only):
 * per item what was paid, the fee kept and the refund (`ReshopDue/ByAirline`), valid until
 * `expiresAt`.
 */
export function refundQuote(
  loaded: LoadedOrder,
  items: readonly MoneyOfferItem[],
  refunds: readonly ItemRefund[],
  ids: { offerId: string; owner: string; expiresAt: string },
): ReshopOffer {
  const currency = loaded.content.currency;
  const money = (value: string) => ({ value, currency });
  const deleteItems: ReshopDeleteItem[] = items.map((item, i) => ({
    offerItemId: `${ids.offerId}-DEL${i + 1}`,
    orderItemId: item.offerItemId,
    differential: {
      original: money(refunds[i].original),
      penalty: money(refunds[i].fee),
      due: { payer: 'airline', amount: money(refunds[i].refund) },
    },
  }));
  const scale = currencyScale(currency);
  const fee = add(scale, '0', ...refunds.map((r) => r.fee));
  const refund = add(scale, '0', ...refunds.map((r) => r.refund));
  return {
    offerId: ids.offerId,
    owner: ids.owner,
    expiresAt: ids.expiresAt,
    penalty: removalPenalty(money(fee), money(refund)),
    flightsOverview: [],
    deleteItems,
    addItems: [],
  };
}

/** The penalty of removing items: the fee kept (`Cancellation`) and the refund (`Refund`), as a cancel's; keyed `key` (default none). */
export function removalPenalty(fee: Money, refund: Money, key?: string): Penalty {
  const { penaltyId: _cancel, ...penalty } = cancellationPenalty(fee, refund);
  return key === undefined ? penalty : { penaltyId: key, ...penalty };
}
