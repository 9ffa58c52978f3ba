/**
 * The airline's servicing rules as pure functions (docs/airline-world.md, "Holds" and "Changes";
 * docs/airline-service.md, "Servicing orders"): a hold's time limits, the change fee and what a
 * changed item costs or refunds, what removing items refunds, who may be removed, the card
 * surcharge of a payment. Exact decimals; amounts in the order's currency.
 */
import { add, compare, currencyScale, percentOf, subtract } from '../../common/decimal';
import type { Money, MoneyOfferItem, Passenger } from '../../ndc/ndc.model';
import { AirlineError } from '../airline.errors';
import type { CardFunding } from '../airline.ports';
import { CCF2_SERVICE_ID } from '../offer-price/offer-price.service';
import { cancellationTerms } from '../orders/order-cancel';
import { convert } from '../pricing/pricing';
import type { World } from '../world/world';
import type { OrderHold } from './servicing.types';

/** A hold ends at the latest this long before the first departure: 2 hours. */
export const HOLD_BEFORE_DEPARTURE_MS = 2 * 3_600_000;

/**
 * The time limits of an order held at `now`: payment due after `holdMs` but never later than 2
 * hours before `firstDeparture`, the price guaranteed for `guaranteeMs` but never past the payment
 * limit. Undefined when the first flight leaves within 2 hours (no hold is possible).
 */
export function holdTimeLimits(
  now: Date,
  settings: { holdMs: number; priceGuaranteeMs: number },
  firstDeparture: Date,
): OrderHold | undefined {
  const due = Math.min(now.getTime() + settings.holdMs, firstDeparture.getTime() - HOLD_BEFORE_DEPARTURE_MS);
  if (due <= now.getTime()) return undefined;
  const guaranteed = Math.min(now.getTime() + settings.priceGuaranteeMs, due);
  return { paymentDue: new Date(due).toISOString(), priceGuaranteedUntil: new Date(guaranteed).toISOString() };
}

/** The price class code of a fare item (`PC__FLEX` -> `FLEX`); undefined for extras and the surcharge. */
export function priceClassOfItem(item: MoneyOfferItem): string | undefined {
  return item.fareDetails[0]?.fareComponents[0]?.priceClassRef?.replace(/^PC__/, '');
}

/** True for an item of the card surcharge (CCF2). */
export function isSurchargeItem(item: MoneyOfferItem): boolean {
  return item.services.some((s) => s.serviceId === CCF2_SERVICE_ID);
}

/**
 * The fee for changing fare item `item` (one passenger on one journey): its price class's
 * `changes.feePerPassengerAndJourney` (converted to `currency` at the fixed rates), at most the
 * item's base fare; a class not listed changes for free.
 */
export function changeFee(world: World, item: MoneyOfferItem, currency: string): string {
  const scale = currencyScale(currency);
  const priceClass = priceClassOfItem(item);
  const fee = priceClass === undefined ? undefined : world.data.changes.feePerPassengerAndJourney[priceClass];
  if (fee === undefined) return add(scale, '0');
  const converted = convert(world, fee, currency);
  const base = item.priceDetail.base.value;
  return compare(converted, base) > 0 ? base : converted;
}

/** What one passenger's change of journey costs: the old item given up, the new one, the fee, the net due. */
export interface ItemDifference {
  original: string;
  newPrice: string;
  penalty: string;
  /** Positive: the passenger pays it; negative: the airline refunds it; zero: even. */
  due: string;
}

/**
 * The money of replacing fare item `old` (paid `original`) by a new fare of `newPrice`: the fee of
 * `old`'s price class is added (none when `feeWaived`: a change the airline made); a cheaper trip
 * refunds the difference less the fee (never below zero), or nothing when `old`'s price class does
 * not refund differences.
 */
export function itemDifference(
  world: World,
  old: MoneyOfferItem,
  newPrice: string,
  currency: string,
  feeWaived = false,
): ItemDifference {
  const scale = currencyScale(currency);
  const original = old.priceDetail.total.value;
  const penalty = feeWaived ? add(scale, '0') : changeFee(world, old, currency);
  const raw = subtract(add(scale, newPrice, penalty), original, scale);
  const refunds = world.data.changes.refundsDifference.includes(priceClassOfItem(old) ?? '');
  const due = compare(raw, '0') >= 0 || refunds ? raw : add(scale, '0');
  return { original, newPrice, penalty, due };
}

/** What removing an item refunds now and what the airline keeps (the OrderCancel rules, item by item). */
export interface ItemRefund {
  /** What was paid for the item (`0.00` when the order is unpaid). */
  original: string;
  fee: string;
  refund: string;
}

/**
 * The refund of removing `item` from an order created at `createdAt` (at `now`), by the rules of
 * OrderCancel: the whole item within the void window, else its total less the cancellation fee of
 * its price class (extras and the card surcharge: their whole price). Nothing for an unpaid order.
 */
export function itemRefund(
  world: World,
  item: MoneyOfferItem,
  order: { createdAt: string; currency: string; paid: boolean },
  now: Date,
): ItemRefund {
  const zero = add(currencyScale(order.currency), '0');
  if (!order.paid) return { original: zero, fee: zero, refund: zero };
  const total = item.priceDetail.total;
  const terms = cancellationTerms(world, { createdAt: order.createdAt, total, items: [item] }, now, CCF2_SERVICE_ID);
  return { original: total.value, fee: terms.fee.value, refund: terms.refund.value };
}

/**
 * Refuses a removal of `removed` that would leave an infant without an adult to hold it, or no
 * adult at all (PASSENGER_REMOVAL_REFUSED, naming who stays).
 */
export function checkPassengerRemoval(passengers: readonly Passenger[], removed: readonly string[]): void {
  const staying = passengers.filter((p) => !removed.includes(p.passengerId));
  const adults = staying.filter((p) => p.ptc === 'ADT').length;
  const infants = staying.filter((p) => p.ptc === 'INF').length;
  const who = staying.map((p) => `${p.passengerId} (${p.ptc ?? '?'})`).join(', ') || 'nobody';
  if (adults === 0)
    throw new AirlineError(
      'PASSENGER_REMOVAL_REFUSED',
      `Removing ${removed.join(', ')} would leave no adult on the order (left: ${who}); cancel the order instead (OrderCancelRQ)`,
    );
  if (infants > adults)
    throw new AirlineError(
      'PASSENGER_REMOVAL_REFUSED',
      `Removing ${removed.join(', ')} would leave ${infants} infants with ${adults} adults (left: ${who}); every infant travels on an adult's lap: remove the infant too`,
    );
}

/** The card surcharge (CCF2) of paying `amount` with a card of `funding`: its percent for credit cards, none for debit. */
export function cardSurcharge(world: World, amount: Money, funding: CardFunding): Money | undefined {
  if (funding !== 'credit') return undefined;
  const value = percentOf(amount.value, world.data.cardSurcharge.percent, currencyScale(amount.currency));
  return { value, currency: amount.currency };
}
