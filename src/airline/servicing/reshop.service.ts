/**
 * OrderReshopRQ (docs/airline-service.md, "Servicing orders"): what a change of an order would
 * be, without changing it. `Reshop/OrderServicing` with `Add/FlightQuery` and `Delete` of the
 * flight items: change offers; with `Delete` alone: the refund removing those items (the whole
 * order, or some passengers) would give today; `Reprice` (or, as Iberia writes it, an `Add` with
 * qualifiers only): the price now of a held order, with a card's surcharge when
 * `PaymentCardQualifiers` name it. Each answer is kept until it expires
 * (AIRLINE_CHANGE_OFFER_TTL_MS) for the OrderChangeRQ that accepts it.
 */
import { add, currencyScale } from '../../common/decimal';
import type { MoneyOfferItem } from '../../ndc/ndc.model';
import type { OrderReshopResult, OrderReshopRs, RepricedOfferItem, ReshopAdd } from '../../ndc/servicing.model';
import { AirlineError } from '../airline.errors';
import type { AirlineClock } from '../airline.ports';
import { responseHeader } from '../shopping/shopping.service';
import type { AirlineStore } from '../store/airline.store';
import { lookupBin } from '../tokens/bin-table';
import { type IdSource, randomIds } from '../world/ids';
import type { World } from '../world/world';
import { ListsBuilder } from '../world/world.lists';
import { changeOffers } from './change-offers';
import type { LoadedOrder, OrderBook } from './order-book';
import { applyPlan, orderTotal } from './order-content';
import { addOrderLists } from './order-view';
import { itemRefunds, passengerItems, readDelete, refundQuote, removalPlan } from './removal';
import { repriceHeld } from './reprice';
import type { PaymentCardQualifier, ReshopRequest } from './reshop-request';
import { cardSurcharge } from './servicing.rules';
import type { ChangePlan, ReshopRecord } from './servicing.types';

/** Default lifetime of a reshop answer (AIRLINE_CHANGE_OFFER_TTL_MS): 15 minutes. */
export const DEFAULT_CHANGE_OFFER_TTL_MS = 900_000;

/** What one reshop answers: its result, lists, and what is kept for the OrderChangeRQ. */
interface Reshopped {
  result: OrderReshopResult;
  lists: ListsBuilder;
  record?: Pick<ReshopRecord, 'kind' | 'plans' | 'expiresAt'>;
}

/** One reshop being answered. */
interface ReshopCall {
  rq: ReshopRequest;
  loaded: LoadedOrder;
  now: Date;
  responseId: string;
}

export class ReshopService {
  constructor(
    private readonly world: World,
    private readonly store: AirlineStore,
    private readonly book: OrderBook,
    private readonly clock: AirlineClock,
    private readonly options: { ttlMs?: number; ids?: IdSource } = {},
  ) {}

  /**
   * Answers an OrderReshopRQ for the agency's order (913 otherwise; 770 cancelled, 772 expired);
   * nothing is changed. A business failure throws its AirlineError.
   */
  reshop(rq: ReshopRequest): OrderReshopRs {
    const loaded = this.book.find(rq.orderId, rq.party.agencyId, rq.owner);
    this.book.requireOpen(loaded.order);
    const now = this.clock.now();
    const call = { rq, loaded, now, responseId: (this.options.ids ?? randomIds).next('RR') };
    const answer = this.answer(call);
    if (answer.record) {
      const { order } = loaded;
      this.store.servicing.saveReshop({
        responseId: call.responseId,
        orderId: order.orderId,
        agencyId: order.agencyId,
        createdAt: now.toISOString(),
        ...answer.record,
      });
    }
    const metadata = answer.lists.metadata();
    delete metadata.journeys;
    return {
      ...responseHeader(rq, now),
      kind: 'success',
      reshopResponseId: call.responseId,
      result: answer.result,
      dataLists: { ...answer.lists.dataLists(loaded.content.passengers), contacts: loaded.content.contacts },
      metadata,
    };
  }

  /** The reshop `call.rq` asks for: change offers, a refund quote, or a reprice. */
  private answer(call: ReshopCall): Reshopped {
    const action = call.rq.action;
    switch (action.kind) {
      case 'nameChange':
        throw new AirlineError(
          'INVALID_REQUEST',
          'Reshop/NameChange: name changes are not offered; cancel and book again',
        );
      case 'reprice':
        return this.reprice(call, action.orderItemIds);
      case 'servicing': {
        const { add, deleteOrderItemIds } = action;
        if (add?.flightQuery !== undefined) return this.change(call, add, deleteOrderItemIds);
        if (deleteOrderItemIds.length > 0) return this.refund(call, deleteOrderItemIds);
        // Iberia's reprice: an Add holding only qualifiers (the order, a payment card).
        if (add !== undefined) return this.reprice(call, []);
        throw new AirlineError(
          'INVALID_REQUEST',
          'Reshop/OrderServicing has neither Add nor Delete: nothing to reshop',
        );
      }
    }
  }

  private expiry(now: Date): string {
    return new Date(now.getTime() + (this.options.ttlMs ?? DEFAULT_CHANGE_OFFER_TTL_MS)).toISOString();
  }

  /** Change offers (change-offers.ts) for a paid order. */
  private change(call: ReshopCall, add: ReshopAdd, deleteIds: string[]): Reshopped {
    const { loaded, now, responseId } = call;
    requirePaid(loaded);
    const query = add.flightQuery!;
    if (query.kind !== 'day')
      throw new AirlineError(
        'INVALID_REQUEST',
        'Add/FlightQuery: send OriginDestinations with the new dates (Affinity is not served for changes)',
      );
    if (deleteIds.length === 0)
      throw new AirlineError(
        'INVALID_REQUEST',
        'Reshop/OrderServicing/Delete must name the flight items the new flights replace',
      );
    const lists = new ListsBuilder(this.world);
    const expiresAt = this.expiry(now);
    const sold = (key: string, rbd: string) => this.store.inventory.sold(key, rbd);
    const feeWaived = loaded.content.airlineChange !== undefined;
    const ctx = { world: this.world, sold, now, expiresAt, responseId, lists, feeWaived };
    const quotes = changeOffers(ctx, loaded, {
      legs: query.originDestinations,
      ...(add.priceClass !== undefined ? { priceClass: add.priceClass } : {}),
      ...(add.cabin !== undefined ? { cabin: add.cabin } : {}),
      deleteItemIds: deleteIds,
    });
    return {
      result: { kind: 'offers', offers: quotes.map((q) => q.offer) },
      lists,
      record: { kind: 'change', expiresAt, plans: Object.fromEntries(quotes.map((q) => [q.offer.offerId, q.plan])) },
    };
  }

  /**
   * The refund of deleting `deleteIds` (the whole order, or every item of some passengers), item
   * by item by the OrderCancel rules, valid until the offer expires or the void window ends.
   */
  private refund(call: ReshopCall, deleteIds: string[]): Reshopped {
    const { loaded, now, responseId } = call;
    const { content, order } = loaded;
    const reading = readDelete(content, deleteIds);
    const plan = reading.kind === 'passengers' ? removalPlan(this.world, loaded, reading.passengerIds, now) : undefined;
    const items =
      reading.kind === 'order' ? content.items : reading.passengerIds.flatMap((id) => passengerItems(content, id));
    const voidEnds = Date.parse(order.createdAt) + this.world.data.cancellation.voidHours * 3_600_000;
    const expiry = Date.parse(this.expiry(now));
    const expiresAt = new Date(voidEnds > now.getTime() ? Math.min(expiry, voidEnds) : expiry).toISOString();
    const offerId = `${responseId}-Q1`;
    const offer = refundQuote(loaded, items, itemRefunds(this.world, loaded, items, now), {
      offerId,
      owner: this.world.airlineCode,
      expiresAt,
    });
    const plans: Record<string, ChangePlan> = plan ? { [offerId]: plan } : {};
    return {
      result: { kind: 'offers', offers: [offer] },
      lists: new ListsBuilder(this.world),
      record: { kind: 'refund', expiresAt, plans },
    };
  }

  /**
   * The price now of a held order (reprice.ts), with the card surcharge of the card the request
   * names: NoPriceChangeInd when neither the fares nor a surcharge change what is due.
   */
  private reprice(call: ReshopCall, itemIds: string[]): Reshopped {
    const { loaded, now, responseId } = call;
    const { content, order } = loaded;
    if (order.status !== 'held')
      throw new AirlineError('ORDER_ALREADY_PAID', `Order ${order.orderId} is paid: there is no price to confirm`);
    const unknown = itemIds.filter((id) => !content.items.some((i) => i.offerItemId === id));
    if (unknown.length > 0)
      throw new AirlineError(
        'INVALID_REQUEST',
        `Reprice names order items the order does not have: ${unknown.join(', ')}`,
      );
    const lists = new ListsBuilder(this.world);
    addOrderLists(this.world, content, lists);
    const sold = (key: string, rbd: string) => this.store.inventory.sold(key, rbd);
    const { plan, changed } = repriceHeld(this.world, loaded, sold, now, lists);
    const total = orderTotal(applyPlan(content, plan));
    const surcharge = call.rq.card && cardSurcharge(this.world, total, fundingOf(call.rq.card));
    const expiresAt = this.expiry(now);
    const offerId = `${responseId}-R1`;
    const record = { kind: 'reprice' as const, expiresAt, plans: { [offerId]: plan } };
    if (changed.length === 0 && surcharge === undefined)
      return { result: { kind: 'noPriceChange', indicator: true }, lists, record };
    const named = itemIds.length > 0 ? content.items.filter((i) => itemIds.includes(i.offerItemId)) : content.items;
    const items = named.map((original, i) => {
      const nowItem = changed.find((c) => c.original.offerItemId === original.offerItemId)?.now ?? original;
      return repricedItem(`${offerId}-${i + 1}`, original, nowItem);
    });
    if (surcharge) items.push(surchargeItem(`${offerId}-CCF2`, `${order.orderId}-CCF2`, surcharge));
    return { result: { kind: 'repriced', offer: { offerId, owner: this.world.airlineCode, items } }, lists, record };
  }
}

/** A change of flights is for a paid order (773 otherwise: pay it first). */
function requirePaid(loaded: LoadedOrder): void {
  if (loaded.order.status === 'held')
    throw new AirlineError(
      'ORDER_UNPAID',
      `Order ${loaded.order.orderId} is not paid yet: pay it (OrderChangeRQ with Payments) before changing it`,
    );
}

/** The funding of the card a request names: by its IIN in the BIN table (a card without IIN: credit, as an unknown card). */
function fundingOf(card: PaymentCardQualifier) {
  return lookupBin(card.iin ?? '').funding;
}

function repricedItem(offerItemId: string, original: MoneyOfferItem, now: MoneyOfferItem): RepricedOfferItem {
  return {
    offerItemId,
    priceDetail: now.priceDetail,
    fareDetails: now.fareDetails,
    originalOrderItemId: original.offerItemId,
    originalPriceDetail: original.priceDetail,
  };
}

/** The card surcharge as a repriced item: the item the payment adds (`<OrderID>-CCF2`), nothing before it. */
function surchargeItem(
  offerItemId: string,
  orderItemId: string,
  surcharge: { value: string; currency: string },
): RepricedOfferItem {
  const zero = { value: add(currencyScale(surcharge.currency), '0'), currency: surcharge.currency };
  return {
    offerItemId,
    priceDetail: { total: surcharge, base: surcharge, taxes: zero },
    fareDetails: [],
    originalOrderItemId: orderItemId,
    originalPriceDetail: { total: zero, base: zero, taxes: zero },
  };
}
