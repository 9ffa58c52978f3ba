/**
 * An order's content (servicing.types.ts) as pure functions: what a new order holds, its total,
 * and a change plan applied to it (items, journeys, inventory, seats, passengers) with the money
 * it moves. Exact decimals throughout.
 */
import { add, compare, currencyScale, subtract } from '../../common/decimal';
import type { Money, MoneyOfferItem, OrderPayment, Passenger, Penalty } from '../../ndc/ndc.model';
import { requireElement, requireMoney } from '../../ndc/require-element';
import type { PricingRecord, ShoppingRecord, SoldSegment } from '../airline.ports';
import type { StoredOffer } from '../shopping/shopping.types';
import type { ChangePlan, OrderCharge, OrderContent, OrderHold, SoldJourney } from './servicing.types';

/** What an OrderCreateRQ adds to its pricing: who flies, whom to contact, what was paid (nothing for a hold). */
export interface OrderSale {
  passengers: Passenger[];
  contacts: OrderContent['contacts'];
  payments: OrderPayment[];
  hold?: OrderHold;
}

/** The journeys of `pricing`, in direction order, from the shopping response its offers came from. */
export function journeysOf(pricing: PricingRecord, shopping: ShoppingRecord): SoldJourney[] {
  return pricing.requestedOfferIds.map((id) => {
    const offer = shopping.offers[id] as StoredOffer | undefined;
    if (!offer) throw new Error(`offer ${id} of pricing ${pricing.responseId} is not in ${shopping.responseId}`);
    const { items: _items, ...journey } = offer;
    return journey;
  });
}

/** What a new order of `pricing` holds: the priced items, journeys, inventory and seats, and its payment. */
export function newOrderContent(pricing: PricingRecord, journeys: SoldJourney[], sale: OrderSale): OrderContent {
  const total = pricing.pricedOffer.total;
  const charges: OrderCharge[] = sale.payments.map((p) => ({
    type: p.type,
    amount: requireMoney(p.amount, 'Query/Payments/Payment/Amount', { currency: total.currency }),
    voucherNumber: requireElement(p.voucherNumber, 'Query/Payments/Payment/Method/Voucher/Number'),
  }));
  return {
    currency: total.currency,
    items: pricing.pricedOffer.offerItems,
    journeys,
    segments: pricing.segments,
    seats: pricing.seats ?? [],
    passengers: sale.passengers,
    contacts: sale.contacts,
    charges,
    paid: sumMoney(
      total.currency,
      charges.map((c) => c.amount),
    ),
    ...(sale.hold !== undefined ? { hold: sale.hold } : {}),
    penalties: [],
  };
}

/** The sum of `amounts` (all in `currency`), at its scale. */
export function sumMoney(currency: string, amounts: readonly Money[]): Money {
  return { value: add(currencyScale(currency), '0', ...amounts.map((a) => a.value)), currency };
}

/** The order's total: the sum of its items (TotalOrderPrice). */
export function orderTotal(content: Pick<OrderContent, 'currency' | 'items'>): Money {
  return sumMoney(
    content.currency,
    content.items.map((i) => i.priceDetail.total),
  );
}

/** `content` with `plan` applied: items, journeys, inventory, seats and passengers (money apart: {@link settle}). */
export function applyPlan(content: OrderContent, plan: ChangePlan): OrderContent {
  const removedPax = new Set(plan.removePassengerIds);
  const released = new Set(plan.releaseSeats.map(seatKey));
  return {
    ...content,
    items: replaceItems(content.items, plan).map((item) => withoutPassengers(item, removedPax)),
    journeys: [...content.journeys.filter((j) => !plan.removeJourneys.includes(j.flightKey)), ...plan.addJourneys].sort(
      (a, b) => a.direction - b.direction,
    ),
    segments: moveSegments(content.segments, plan.release, plan.sell),
    seats: [...content.seats.filter((s) => !released.has(seatKey(s))), ...plan.sellSeats],
    passengers: content.passengers.filter((p) => !removedPax.has(p.passengerId)),
  };
}

/** What a change does with the agency's money: a charge, a refund, the fee it keeps. */
export interface Settlement {
  charge?: OrderCharge;
  refund?: Money;
  /** The PenaltyList entry of the change (fee kept, refund given). */
  penalty?: Penalty;
  /** A payment makes a held order paid. */
  paysHold?: boolean;
}

/** `content` after `settlement`: the charge recorded, the refund given back, the penalty listed first. */
export function settle(content: OrderContent, settlement: Settlement): OrderContent {
  const scale = currencyScale(content.currency);
  let paid = content.paid.value;
  if (settlement.charge) paid = add(scale, paid, settlement.charge.amount.value);
  if (settlement.refund) paid = subtract(paid, settlement.refund.value, scale);
  if (compare(paid, '0') < 0) throw new Error(`a refund of ${settlement.refund?.value} exceeds what was paid`);
  const next: OrderContent = {
    ...content,
    charges: settlement.charge ? [...content.charges, settlement.charge] : content.charges,
    paid: { value: paid, currency: content.currency },
    penalties: settlement.penalty ? [settlement.penalty, ...content.penalties] : content.penalties,
  };
  if (settlement.paysHold) delete next.hold;
  return next;
}

/** The items after a change: removed ones dropped (or replaced in place by an added item of the same id), the other added ones last. */
function replaceItems(items: readonly MoneyOfferItem[], plan: ChangePlan): MoneyOfferItem[] {
  const removed = new Set(plan.removeItemIds);
  const added = new Map(plan.addItems.map((i) => [i.offerItemId, i]));
  const kept = items.flatMap((item) => {
    if (!removed.has(item.offerItemId)) return [item];
    const replacement = added.get(item.offerItemId);
    added.delete(item.offerItemId);
    return replacement ? [replacement] : [];
  });
  return [...kept, ...added.values()];
}

/** `item` without the passengers `removed` (an item shared by several passengers, such as the card surcharge). */
function withoutPassengers(item: MoneyOfferItem, removed: ReadonlySet<string>): MoneyOfferItem {
  if (removed.size === 0) return item;
  const keep = (refs: string[]) => refs.filter((r) => !removed.has(r));
  return {
    ...item,
    services: item.services.map((s) => ({ ...s, passengerRefs: keep(s.passengerRefs) })),
    fareDetails: item.fareDetails.map((f) => ({ ...f, passengerRefs: keep(f.passengerRefs) })),
  };
}

/** Seats per flight and booking class after giving `release` back and selling `sell`. */
function moveSegments(
  segments: readonly SoldSegment[],
  release: readonly SoldSegment[],
  sell: readonly SoldSegment[],
): SoldSegment[] {
  const out = new Map<string, SoldSegment>();
  const move = (s: SoldSegment, sign: number) => {
    const key = `${s.inventoryKey}\u0000${s.rbd}`;
    const before = out.get(key) ?? { inventoryKey: s.inventoryKey, rbd: s.rbd, seats: 0 };
    out.set(key, { ...before, seats: before.seats + sign * s.seats });
  };
  for (const s of segments) move(s, 1);
  for (const s of release) move(s, -1);
  for (const s of sell) move(s, 1);
  return [...out.values()].filter((s) => s.seats > 0);
}

function seatKey(s: { inventoryKey: string; seat: string }): string {
  return `${s.inventoryKey}/${s.seat}`;
}
