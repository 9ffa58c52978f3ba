/**
 * The airline's cancellation rules (docs/airline-world.md, "OrderCancel"),
 * pure: what a cancel of an order refunds and what it keeps as a fee.
 *
 * - Within `voidHours` (24) of the order's creation: a void, everything is
 *   refunded, no fee.
 * - Afterwards, per order item (one passenger on one journey): a price class
 *   in `taxesOnly` (Economy, the cheapest) refunds the item's taxes only (its
 *   base fare is the fee); another class pays `feePerPassengerAndJourney` of its
 *   class (in GBP, converted like fares, at most the item's base fare). The card
 *   surcharge item (CCF2) is kept unless `surchargeRefundedAfterVoid`.
 * - refund = order total - fee.
 */
import { add, currencyScale, compare, subtract } from '../../common/decimal';
import type { Money, MoneyOfferItem, OfferItem } from '../../ndc/ndc.model';
import { convert } from '../pricing/pricing';
import type { World } from '../world/world';

/** What a cancel refunds. */
export interface CancellationTerms {
  /** `void` within the void window, else `cancel`. */
  kind: 'void' | 'cancel';
  fee: Money;
  refund: Money;
}

const HOUR_MS = 3_600_000;
const PRICE_CLASS_PREFIX = 'PC__';

function priceClassOf(item: OfferItem): string | undefined {
  const ref = item.fareDetails[0]?.fareComponents[0]?.priceClassRef;
  return ref?.startsWith(PRICE_CLASS_PREFIX) ? ref.slice(PRICE_CLASS_PREFIX.length) : ref;
}

/**
 * Terms of cancelling, at `now`, an order created at `createdAt` of the priced
 * `items` with `total` (the order's TotalOrderPrice); `surchargeService` is the
 * ServiceID of the card surcharge item.
 */
export function cancellationTerms(
  world: World,
  order: { createdAt: string; total: Money; items: MoneyOfferItem[] },
  now: Date,
  surchargeService: string,
): CancellationTerms {
  const { currency } = order.total;
  const scale = currencyScale(currency);
  const rules = world.data.cancellation;
  if (now.getTime() - Date.parse(order.createdAt) < rules.voidHours * HOUR_MS) {
    return { kind: 'void', fee: { value: add(scale, '0'), currency }, refund: order.total };
  }
  const fees = order.items.map((item) => {
    const base = item.priceDetail.base.value;
    if (item.services.some((s) => s.serviceId === surchargeService))
      return rules.surchargeRefundedAfterVoid ? add(scale, '0') : base;
    const priceClass = priceClassOf(item);
    if (priceClass === undefined || rules.taxesOnly.includes(priceClass)) return base;
    const classFee = convert(world, rules.feePerPassengerAndJourney[priceClass] ?? '0', currency);
    return compare(classFee, base) > 0 ? base : classFee;
  });
  const fee = add(scale, '0', ...fees);
  const refund = subtract(order.total.value, fee, scale);
  return {
    kind: 'cancel',
    fee: { value: fee, currency },
    refund: { value: compare(refund, '0') < 0 ? add(scale, '0') : refund, currency },
  };
}
