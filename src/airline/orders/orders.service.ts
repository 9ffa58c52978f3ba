/**
 * Orders: creation from the latest pricing response (seats sold atomically; held unpaid without
 * Payments), retrieval by OrderID and by shopping response id, cancellation. An order is visible
 * only to the agency that created it; anyone else gets the same 913 as for a missing order.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  CustomerInputRq,
  CustomerInputRs,
  OrderCancelRq,
  OrderCancelRs,
  OrderCreateRq,
  OrderRetrieveRq,
  OrderViewRs,
} from '../../ndc/ndc.model';
import { type AuthenticationService, orderCreateSubject } from '../authentication/authentication.service';
import { add, compare, currencyScale } from '../../common/decimal';
import { cancellationPenalty } from '../../ndc/cancellation-penalty';
import { AGENCY_ID_ELEMENT, requireElement, requireMoney } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type { AirlineClock, PricingRecord } from '../airline.ports';
import { type ALaCarteOrderPricer, checkOrderAgainstPricing, orderedOffers } from '../order-pricing/order-pricing';
import type { ExtrasService } from '../extras/extras.service';
import { journeysOf, newOrderContent, orderTotal, settle } from '../servicing/order-content';
import { ORDER_NOT_FOUND_TEXT, OrderBook } from '../servicing/order-book';
import { HOLD_BEFORE_DEPARTURE_MS, holdTimeLimits } from '../servicing/servicing.rules';
import type { OrderContent, OrderHold, SoldJourney } from '../servicing/servicing.types';
import type { AirlineStore, StoredAuthentication, StoredOrder, StoredOrderView } from '../store/airline.store';
import { type IdSource, randomIds } from '../world/ids';
import type { World } from '../world/world';
import { CCF2_SERVICE_ID } from '../offer-price/offer-price.service';
import { type CancellationTerms, cancellationTerms } from './order-cancel';

type OrderView = Extract<OrderViewRs, { kind: 'success' }>;

export { ORDER_NOT_FOUND_TEXT };

/** Result of the GET of orders: the OrderViewRS and a weak ETag over its content. */
export interface OrdersLookup {
  rs: OrderViewRs;
  etag: string;
}

/**
 * Which response ids find an order in the GET: `any` id of its chain (the
 * AirShopping response and every OfferPrice response of the ordered offer),
 * or only the pricing response id the OrderCreateRQ named (`pricing-id-only`,
 * the simulator's `lookup-by-pricing-id-only`, the rule Norwegian documents).
 */
export type LookupRule = 'any' | 'pricing-id-only';

/** Booking reference alphabet: upper-case letters and digits without the ambiguous 0, O, 1, I and L. */
export const BOOKING_REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A random six-character booking reference. */
export function newBookingReference(): string {
  const bytes = randomBytes(6);
  let ref = '';
  // 256 % 31 != 0: the bias (at most one part in eight) is irrelevant for a locator.
  for (const b of bytes) ref += BOOKING_REFERENCE_ALPHABET[b % BOOKING_REFERENCE_ALPHABET.length];
  return ref;
}

/** Per-request context of an OrderCreate. */
export interface OrderCreateContext {
  /** Base URL of the issuer page as the cardholder's browser reaches it (needed when a card asks for 3-D Secure). */
  acsBaseUrl?: string;
}

/** How the airline takes holds (OrderCreateRQ without Payments; docs/airline-service.md "Holds"). */
export interface HoldSettings {
  /** AIRLINE_HOLD_MS: how long a hold lasts at most (default 24 h). */
  holdMs: number;
  /** AIRLINE_PRICE_GUARANTEE_MS: how long its price is guaranteed (default 1 h). */
  priceGuaranteeMs: number;
  /** AIRLINE_HOLD_DENIED_AGENCIES: agencies that may not hold (default none). */
  deniedAgencies: readonly string[];
}

/** Default hold settings: 24 h, the price guaranteed 1 h, every agency may hold. */
export const DEFAULT_HOLD_SETTINGS: HoldSettings = {
  holdMs: 86_400_000,
  priceGuaranteeMs: 3_600_000,
  deniedAgencies: [],
};

export interface OrdersServiceOptions {
  airlineCode: string;
  /** Prices the à-la-carte offers ordered beside the flight offer; absent: such an order is refused (720). */
  extras?: ExtrasService;
  /** 3-D Secure (test cards that need it); absent: no card is ever challenged. */
  authentication?: AuthenticationService;
  /** Base of WebAddressID, ending in `/`; the booking reference is appended. */
  portalUrl: string;
  /** Holds; default {@link DEFAULT_HOLD_SETTINGS}. */
  holds?: HoldSettings;
  /** Told the payment time limit of each new hold (the expiry job wakes for it). */
  onHeld?: (paymentDue: string) => void;
  /** Applies an OrderChange whose payment the CustomerInputRS authenticated; absent: none is ever held. */
  completeChange?: (hold: StoredAuthentication) => OrderViewRs;
  ids?: IdSource;
  newReference?: () => string;
}

export class OrdersService {
  private readonly ids: IdSource;
  private readonly newReference: () => string;
  private readonly book: OrderBook;
  private readonly holds: HoldSettings;
  /** Prices the à-la-carte offers of an order into its pricing (see `ExtrasService.priceForOrder`). */
  private readonly aLaCarte?: ALaCarteOrderPricer;

  constructor(
    private readonly store: AirlineStore,
    private readonly world: World,
    private readonly clock: AirlineClock,
    private readonly options: OrdersServiceOptions,
  ) {
    this.ids = options.ids ?? randomIds;
    this.newReference = options.newReference ?? newBookingReference;
    this.book = new OrderBook(store, world, options.portalUrl);
    this.holds = options.holds ?? DEFAULT_HOLD_SETTINGS;
    const extras = options.extras;
    // Their seats are locked to the owner of the pricing's seats, so the order sells them all at once.
    if (extras)
      this.aLaCarte = (alcs, pricing, rq) =>
        extras.priceForOrder(
          alcs,
          pricing,
          pricing.seatOwner ?? rq.transactionIdentifier ?? `RS-${pricing.shoppingResponseId}`,
        );
  }

  /**
   * OrderCreate: checks the request against the latest pricing of the offer,
   * then in one SQLite transaction sells the seats (all segments or none) and
   * stores the order. Without Payments the order is held unpaid (see {@link hold}).
   * Repeating an OrderCreate of an already ordered pricing response with the same
   * passengers, contacts and payment returns the existing order (safe retries); with
   * other data it is refused.
   */
  create(rq: OrderCreateRq, context: OrderCreateContext = {}): OrderViewRs | CustomerInputRq {
    const offer = orderedOffers(rq).flight;
    const auth = this.options.authentication;
    auth?.releaseExpired();
    const repeated = this.repeatedCreate(rq, offer.responseId);
    if (repeated) return repeated;
    const pricing = checkOrderAgainstPricing(rq, this.store.responses, this.store.tokens, this.clock, this.aLaCarte);
    if (rq.payments.length === 0) return this.hold(rq, pricing);
    const mode = auth?.modeOf(rq.payments[0]?.voucherNumber);
    const preAuthenticated = rq.securePayment?.authentication;
    if (auth && mode && preAuthenticated) auth.checkPreAuthenticated(preAuthenticated);
    if (auth && mode && !preAuthenticated) {
      auth.requireAlert(rq.securePayment);
      const acsBaseUrl = requireElement(context.acsBaseUrl, 'the ACS base URL (AIRLINE_ACS_BASE_URL)');
      const challenge = this.store.transaction(
        () =>
          this.store.inventory.sellAllInTransaction(pricing.segments, this.world.capacityOf) &&
          auth.hold(orderCreateSubject(rq), mode, pricing.pricedOffer.total, pricing.segments, acsBaseUrl),
      );
      if (!challenge) throw soldOut(offer.offerId);
      return challenge;
    }
    return this.sell(rq, pricing).view;
  }

  /**
   * The answer to an OrderCreateRQ repeated after a lost answer: the order it made, or the
   * challenge it is waiting with; undefined when it made nothing yet. The same pricing ordered
   * with other data is refused.
   */
  private repeatedCreate(rq: OrderCreateRq, responseId: string): OrderViewRs | CustomerInputRq | undefined {
    const existing = this.store.orders.orderByPricingResponse(responseId);
    if (existing && existing.agencyId === rq.party.agencyId) {
      if (sameOrderData(existing, rq)) return existing.view;
      throw alreadyOrdered(responseId, existing.orderId);
    }
    const waiting = this.options.authentication && this.store.authentications.pendingAuthenticationFor(responseId);
    if (waiting && waiting.agencyId === rq.party.agencyId) {
      // A retry of an OrderCreate that is waiting for 3-D Secure gets the same challenge.
      if (sameOrderData({ request: waiting.request }, rq)) return waiting.challenge;
      throw alreadyOrdered(responseId, `none yet: ${waiting.spmRef} awaits authentication`);
    }
    return undefined;
  }

  /**
   * A hold (docs/airline-service.md "Holds"): the order is made unpaid and its seats sold, with a
   * payment time limit (AIRLINE_HOLD_MS, never later than 2 hours before the first departure) and
   * a price guarantee (AIRLINE_PRICE_GUARANTEE_MS). An agency listed in AIRLINE_HOLD_DENIED_AGENCIES,
   * or a first flight leaving within 2 hours, is HOLD_NOT_ALLOWED.
   */
  private hold(rq: OrderCreateRq, pricing: PricingRecord): OrderViewRs {
    const agencyId = requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT);
    if (this.holds.deniedAgencies.includes(agencyId))
      throw new AirlineError('HOLD_NOT_ALLOWED', `Agency ${agencyId} may not hold orders: send Payments to order`);
    const now = this.clock.now();
    const journeys = this.journeysOf(pricing);
    const first = Math.min(
      ...journeys.map((j) => this.world.departureOf(this.world.journeyOf(j.flights, j.date).segments[0]).getTime()),
    );
    const hold = holdTimeLimits(now, this.holds, new Date(first));
    if (!hold) {
      throw new AirlineError(
        'HOLD_NOT_ALLOWED',
        `The first flight leaves at ${new Date(first).toISOString()}, within ${HOLD_BEFORE_DEPARTURE_MS / 3_600_000} hours: it cannot be held; send Payments to order`,
      );
    }
    const order = this.sell(rq, pricing, hold);
    this.options.onHeld?.(hold.paymentDue);
    return order.view;
  }

  /** Sells the seats of `pricing` and stores the order of `rq` (held when `hold` is given), in one transaction. */
  private sell(rq: OrderCreateRq, pricing: PricingRecord, hold?: OrderHold): StoredOrder {
    const sold = this.store.transaction(
      () =>
        this.store.inventory.sellAllInTransaction(pricing.segments, this.world.capacityOf) &&
        this.saveNewOrder(rq, pricing, hold),
    );
    if (!sold) throw soldOut(pricing.pricedOffer.offerId);
    return sold;
  }

  private journeysOf(pricing: PricingRecord): SoldJourney[] {
    const shopping = this.store.responses.getShopping(pricing.shoppingResponseId);
    if (!shopping) throw new AirlineError('UNKNOWN_OFFER', `Shopping response ${pricing.shoppingResponseId} not found`);
    return journeysOf(pricing, shopping);
  }

  /**
   * CustomerInputRS: the authentication result of an OrderCreate (or an OrderChange payment) that
   * answered CustomerInputRQ. An approved, valid result orders from the held seats (no second sale)
   * and answers the OrderViewRS; the same result sent again answers the order it made (exactly
   * once); anything else is an NDC error and nothing is ordered (AuthenticationService). A change's
   * result is applied by the change service (`completeChange`).
   */
  completeAuthentication(rs: CustomerInputRs): OrderViewRs {
    const auth = this.options.authentication;
    if (!auth) throw new AirlineError('INVALID_REQUEST', 'This airline asks for no 3-D Secure authentication');
    auth.releaseExpired();
    const hold = auth.approvedHold(rs);
    if (hold.change) {
      if (!this.options.completeChange)
        throw new Error(`hold ${hold.spmRef} is a change, and no change service is set`);
      return this.options.completeChange(hold);
    }
    if (hold.state === 'ordered') {
      const made = hold.orderId === undefined ? undefined : this.store.orders.getOrder(hold.orderId);
      if (!made)
        throw new AirlineError('AUTHENTICATION_USED', `The authentication result of ${hold.spmRef} was already used`);
      return made.view;
    }
    const request = requireElement(hold.request, `the OrderCreateRQ of hold ${hold.spmRef}`);
    const priced = this.store.responses.getPricing(hold.pricingResponseId);
    if (!priced) throw new Error(`hold ${hold.spmRef} has no pricing record`);
    const { aLaCarte } = orderedOffers(request);
    const pricing = aLaCarte.length && this.aLaCarte ? this.aLaCarte(aLaCarte, priced, request) : priced;
    const order = this.store.transaction(() => {
      const placed = this.saveNewOrder(request, pricing);
      return this.store.endAuthentication(hold, 'ordered', placed.orderId) && placed;
    });
    if (!order) {
      throw new AirlineError('AUTHENTICATION_USED', `The authentication result of ${hold.spmRef} was already used`);
    }
    return order.view;
  }

  /** Builds and stores the order of `rq` priced by `pricing` (inside the transaction that holds its seats); held with `hold`. */
  private saveNewOrder(rq: OrderCreateRq, pricing: PricingRecord, hold?: OrderHold): StoredOrder {
    if (pricing.response.kind !== 'success')
      throw new AirlineError('UNKNOWN_OFFER', `Pricing response ${pricing.responseId} holds no offer`);
    const now = this.clock.now();
    let reference = this.newReference();
    while (this.store.orders.bookingReferenceTaken(reference)) reference = this.newReference();
    const orderId = this.ids.next(`${this.options.airlineCode}-ORD-`);
    sellPricedSeats(this.store, pricing, orderId, now);
    // Extras ordered beside the priced offer: the pricing record becomes what was ordered, so
    // the lookups see every item.
    if (orderedOffers(rq).aLaCarte.length > 0) this.store.responses.updatePricingInTransaction(pricing);
    const sale = { passengers: rq.passengers, contacts: rq.contacts, payments: rq.payments, ...(hold ? { hold } : {}) };
    const content = newOrderContent(pricing, this.journeysOf(pricing), sale);
    const status = hold ? 'held' : 'live';
    const order: StoredOrder = {
      orderId,
      bookingReference: reference,
      agencyId: requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT),
      shoppingResponseId: pricing.shoppingResponseId,
      pricingResponseId: pricing.responseId,
      createdAt: now.toISOString(),
      status,
      version: 1,
      ...(hold ? { paymentDueAt: hold.paymentDue } : {}),
      content,
      view: this.book.view({ orderId, bookingReference: reference }, content, status, 1),
      request: { passengers: rq.passengers, contacts: rq.contacts, payments: rq.payments },
    };
    this.store.orders.saveOrder(order);
    return order;
  }

  /**
   * OrderRetrieve: the order of `Query/Filters/OrderID` if the requesting agency created it and
   * its Owner is this airline; else AirlineError ORDER_NOT_FOUND (913).
   */
  retrieve(rq: OrderRetrieveRq): OrderViewRs {
    const orderId = requireElement(rq.orderId, 'Query/Filters/OrderID');
    const owner = requireElement(rq.owner, 'Query/Filters/OrderID/@Owner');
    return this.book.find(orderId, rq.party.agencyId, owner).order.view;
  }

  /**
   * OrderCancel: cancels the agency's order named in `Query/Order` under the
   * rules of {@link cancellationTerms} (void within 24 h, else fees per price
   * class; an unpaid order refunds nothing), gives its seats back and marks it
   * cancelled, in one transaction. Another agency's or an unknown order: 913; an
   * order already cancelled: ORDER_ALREADY_CANCELLED (never refunded twice); an
   * expired one: ORDER_EXPIRED; a refund below the request's ExpectedRefundAmount:
   * REFUND_BELOW_EXPECTED (nothing changed).
   */
  cancel(rq: OrderCancelRq): OrderCancelRs {
    const ref = requireElement(rq.order, 'Query/Order');
    const { order, content } = this.book.find(ref.orderId, rq.party.agencyId, ref.owner);
    if (order.cancellation) {
      throw new AirlineError(
        'ORDER_ALREADY_CANCELLED',
        `Order ${order.orderId} was already cancelled on ${order.cancellation.cancelledAt}; nothing more is refunded`,
      );
    }
    this.book.requireOpen(order);
    const now = this.clock.now();
    const terms = this.cancellationTermsOf(order, content, now);
    checkExpectedRefund(rq, order.orderId, terms);
    const cancellation = { cancelledAt: now.toISOString(), kind: terms.kind, fee: terms.fee, refund: terms.refund };
    const penalty = cancellationPenalty(terms.fee, terms.refund);
    const moves = { release: content.segments, sell: [], releaseSeats: content.seats, sellSeats: [], seatOwner: '' };
    this.store.transaction(() =>
      this.book.reviseInTransaction(
        order,
        { content: settle(content, { refund: terms.refund, penalty }), status: 'cancelled', moves, cancellation },
        now,
      ),
    );
    return {
      target: 'Test',
      version: '17.2',
      timeStamp: now.toISOString(),
      kind: 'success',
      cancellations: [{ orderReference: order.orderId, cancellationFee: terms.fee, refund: terms.refund }],
    };
  }

  /**
   * What cancelling `order` now refunds: the cancellation rules on its items, never more than was
   * paid (nothing when unpaid); everything paid, no fee, while it waits on a schedule change the
   * airline made (involuntary).
   */
  private cancellationTermsOf(order: StoredOrder, content: OrderContent, now: Date): CancellationTerms {
    const total = orderTotal(content);
    const zero = { value: add(currencyScale(total.currency), '0'), currency: total.currency };
    if (order.status === 'held') return { kind: 'cancel', fee: zero, refund: zero };
    if (content.airlineChange !== undefined) return { kind: 'cancel', fee: zero, refund: content.paid };
    const terms = cancellationTerms(
      this.world,
      { createdAt: order.createdAt, total, items: content.items },
      now,
      CCF2_SERVICE_ID,
    );
    return compare(terms.refund.value, content.paid.value) > 0 ? { ...terms, refund: content.paid } : terms;
  }

  /**
   * Orders of `agencyId` found by `responseId` under `rule` (see
   * {@link LookupRule}), as one OrderViewRS, with a weak ETag over their content.
   */
  byResponseId(responseId: string, agencyId: string, rule: LookupRule = 'any'): OrdersLookup {
    const orders = this.ordersFor(responseId, rule).filter((o) => o.agencyId === agencyId);
    if (orders.length === 0) throw new AirlineError('ORDER_NOT_FOUND', ORDER_NOT_FOUND_TEXT);
    const rs = mergeViews(orders);
    return { rs, etag: orderStateEtag(rs) };
  }

  private ordersFor(responseId: string, rule: LookupRule): StoredOrder[] {
    const named = this.store.orders.orderByPricingResponse(responseId);
    if (rule === 'pricing-id-only') return named ? [named] : [];
    const byShopping = this.store.orders.ordersByShoppingResponse(responseId);
    if (byShopping.length > 0) return byShopping;
    if (named) return [named];
    // Another OfferPrice response of the ordered offer (e.g. the one before the token-bearing reprice).
    const pricing = this.store.responses.getPricing(responseId);
    if (!pricing) return [];
    return this.store.orders
      .ordersByShoppingResponse(pricing.shoppingResponseId)
      .filter(
        (o) =>
          this.store.responses.getPricing(o.pricingResponseId)?.pricedOffer.offerId === pricing.pricedOffer.offerId,
      );
  }
}

/** An ExpectedRefundAmount (in the order's currency when without Code) above the refund refuses the cancel (771). */
function checkExpectedRefund(rq: OrderCancelRq, orderId: string, terms: CancellationTerms): void {
  // An ExpectedRefundAmount without Code (optional in the XSD; OrderCancelRQ has no currency
  // metadata) is in the order's currency.
  const expected =
    rq.expectedRefundAmount &&
    requireMoney(rq.expectedRefundAmount, 'ExpectedRefundAmount/Total', { currency: terms.refund.currency });
  if (expected && (expected.currency !== terms.refund.currency || compare(expected.value, terms.refund.value) > 0)) {
    throw new AirlineError(
      'REFUND_BELOW_EXPECTED',
      `The refund of order ${orderId} would be ${terms.refund.value} ${terms.refund.currency} (cancellation fee ${terms.fee.value}), ` +
        `less than the ExpectedRefundAmount ${expected.value} ${expected.currency}; the order was not cancelled`,
    );
  }
}

function alreadyOrdered(responseId: string, orderId: string): AirlineError {
  return new AirlineError(
    'INVALID_REQUEST',
    `Pricing response ${responseId} was already ordered (OrderID ${orderId}) with other data; shop and price again`,
  );
}

function soldOut(offerId: string): AirlineError {
  return new AirlineError('SOLD_OUT', `Seats of offer ${offerId} are no longer available; shop again`);
}

/**
 * Sells the seats priced into `pricing` to `orderId` inside the order's transaction; a seat sold
 * or locked by another transaction meanwhile throws SOLD_OUT naming it (the transaction rolls back).
 */
function sellPricedSeats(store: AirlineStore, pricing: PricingRecord, orderId: string, now: Date): void {
  if (!pricing.seats?.length) return;
  const lost = store.seats.sellSeatsInTransaction(pricing.seats, pricing.seatOwner ?? '', orderId, now.toISOString());
  if (lost) {
    throw new AirlineError(
      'SOLD_OUT',
      `Seat ${lost.seat} on ${lost.inventoryKey} is no longer available; choose another seat and price again`,
    );
  }
}

/**
 * Weak ETag of the state of the orders in `view`: their orders, data lists,
 * metadata and commission. The message header (time stamp, echoed
 * TransactionIdentifier and CorrelationID, target, version) is left out, so
 * the tag changes when an order does (e.g. is cancelled) and only then.
 */
export function orderStateEtag(view: OrderView): string {
  const { orders, dataLists, metadata, commission } = view;
  const state = JSON.stringify({ orders, dataLists, metadata, commission });
  return `W/"${createHash('sha256').update(state).digest('base64url').slice(0, 27)}"`;
}

/** True when `rq` repeats the passengers, contacts and payment of `order`. */
function sameOrderData(
  order: { request?: Pick<OrderCreateRq, 'passengers' | 'contacts' | 'payments'> },
  rq: OrderCreateRq,
): boolean {
  const canonical = (r: Pick<OrderCreateRq, 'passengers' | 'contacts' | 'payments'>) =>
    JSON.stringify({ passengers: r.passengers, contacts: r.contacts, payments: r.payments });
  return order.request !== undefined && canonical(order.request) === canonical(rq);
}

/** One OrderViewRS holding several orders; data list entries are de-duplicated by id (first wins). */
export function mergeViews(orders: StoredOrder[]): OrderView {
  if (orders.length === 1) return orders[0].view;
  const [first, ...rest] = orders.map((o) => o.view);
  const merged: StoredOrderView = structuredClone(first);
  // One root, several orders: no single version to write.
  delete merged.sequenceNumber;
  for (const v of rest) {
    merged.orders.push(...v.orders);
    const dl = merged.dataLists as Record<string, unknown[] | undefined>;
    for (const [list, entries] of Object.entries(v.dataLists as Record<string, unknown[] | undefined>)) {
      if (!entries) continue;
      const target = (dl[list] ??= []);
      const ids = new Set(target.map(idOf));
      for (const e of entries) if (!ids.has(idOf(e))) target.push(e);
    }
  }
  return merged;
}

function idOf(entry: unknown): string {
  const e = entry as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (/(Id|Key)$/.test(k) && typeof e[k] === 'string') return `${k}=${String(e[k])}`;
  }
  return JSON.stringify(e);
}
