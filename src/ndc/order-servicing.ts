/**
 * Pure readings of servicing messages that both sides need: the money of a reshop offer, the
 * time limits of a held order, and the items of one passenger. Exact decimals throughout
 * (`src/common/decimal.ts`); amounts without currency take the one given.
 */
import { add, currencyScale, subtract } from '../common/decimal';
import type { Amount, Money, Order } from './ndc.model';
import { requireMoney } from './require-element';
import type { ReshopDifferential, ReshopOffer } from './servicing.model';

/** What a reshop offer costs or refunds in all, summed over its items' differentials. */
export interface ReshopSummary {
  /**
   * The difference to settle: positive the passenger pays it (`ReshopDue/ByPassenger`), negative
   * the airline refunds it (`ByAirline`); `0.00` when the items give none.
   */
  difference: Money;
  /** The penalties (`PenaltyAmount`) of the items, `0.00` when none is given. */
  penalty: Money;
  /** What was paid for the items given up (`OriginalOrderItem`), when every differential gives it. */
  original?: Money;
  /** The new items' prices (`NewOfferItem`), when every differential of a new item gives it. */
  newPrice?: Money;
}

/**
 * The money of `offer`: its add and delete items' differentials added up, each once (our airline
 * writes a change's on its AddOfferItems and a refund quote's on its DeleteOfferItems). Amounts
 * without currency take `currency`; an amount in another currency, or without currency when
 * `currency` is not given, throws (`NdcMissingElementError` naming the element, or a plain `Error`
 * for a mixed currency).
 */
export function reshopSummary(offer: ReshopOffer, currency: string): ReshopSummary {
  const diffs = [...offer.deleteItems, ...offer.addItems].flatMap((i) =>
    i.differential === undefined ? [] : [i.differential],
  );
  const scale = currencyScale(currency);
  const money = (a: Amount | undefined, what: string): string => {
    const m = requireMoney(a, `ReshopOffer[@OfferID='${offer.offerId}']/${what}`, { currency });
    if (m.currency !== currency)
      throw new Error(`ReshopOffer ${offer.offerId}: ${what} in ${m.currency}, not ${currency}`);
    return m.value;
  };
  const sum = (values: string[]): Money => ({ value: add(scale, '0', ...values), currency });
  const signedDue = (d: ReshopDifferential): string => {
    const v = money(d.due.amount, 'ReshopDifferential/ReshopDue/Total/Amount');
    return d.due.payer === 'passenger' ? v : subtract('0', v, scale);
  };
  const summary: ReshopSummary = {
    difference: sum(diffs.filter((d) => d.due.amount !== undefined).map(signedDue)),
    penalty: sum(diffs.flatMap((d) => (d.penalty === undefined ? [] : [money(d.penalty, 'PenaltyAmount')]))),
  };
  if (diffs.length > 0 && diffs.every((d) => d.original !== undefined))
    summary.original = sum(diffs.map((d) => money(d.original, 'OriginalOrderItem')));
  const added = offer.addItems.flatMap((i) => (i.differential === undefined ? [] : [i.differential]));
  if (added.length > 0 && added.every((d) => d.newOffer !== undefined))
    summary.newPrice = sum(added.map((d) => money(d.newOffer, 'NewOfferItem')));
  return summary;
}

/** The time limits of a held order, as an agency needs them. */
export interface OrderTimeLimits {
  /** By when the order must be paid: the order's `PaymentTimeLimit`, else its items' earliest. */
  paymentDue?: string;
  /** Until when its price is guaranteed: its items' earliest `PriceGuaranteeTimeLimits`. */
  priceGuaranteedUntil?: string;
}

/** The payment and price guarantee time limits of `order` (each absent when the order gives none). */
export function orderTimeLimits(order: Order): OrderTimeLimits {
  const limits: OrderTimeLimits = {};
  const paymentDue = order.paymentTimeLimit ?? earliest(order.orderItems.map((i) => i.paymentTimeLimit));
  if (paymentDue !== undefined) limits.paymentDue = paymentDue;
  const guaranteed = earliest(order.orderItems.map((i) => i.priceGuaranteeTimeLimit));
  if (guaranteed !== undefined) limits.priceGuaranteedUntil = guaranteed;
  return limits;
}

/** The earliest of ISO 8601 times (compared as instants; one that does not parse is left out). */
function earliest(times: readonly (string | undefined)[]): string | undefined {
  let best: { at: number; text: string } | undefined;
  for (const t of times) {
    if (t === undefined) continue;
    const at = Date.parse(t);
    if (!Number.isNaN(at) && (best === undefined || at < best.at)) best = { at, text: t };
  }
  return best?.text;
}

/**
 * The ids of the items of `order` that belong to `passengerId` alone (every service of the item
 * names that passenger): what an OrderReshopRQ refund quote or an OrderChangeRQ deletes to remove
 * one passenger. Items shared with other passengers are not included.
 */
export function passengerOrderItemIds(order: Pick<Order, 'orderItems'>, passengerId: string): string[] {
  return order.orderItems
    .filter((i) => i.services.length > 0 && i.services.every((s) => s.passengerRef === passengerId))
    .map((i) => i.orderItemId);
}
