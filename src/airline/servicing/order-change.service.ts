/**
 * OrderChangeRQ (docs/airline-service.md, "Servicing orders"), answered with the OrderViewRS of the
 * changed order: `OrderServicing/AcceptOffer` of a reshop offer or of the order's à-la-carte
 * offers, `Payments` for a held order (with `AcceptRepricedOrder` after a reprice), `Delete` of
 * some passengers' items; with none of these, while a schedule change waits for the seller
 * (`Status@ScheduleChangeInd`), the acceptance of the changed order as it stands (whatever its
 * `OrderChangeParameters/Reason`, e.g. `SCA`); taking a reshop offer then settles the change too.
 * All or nothing (one SQLite transaction with the inventory and seats),
 * exactly once by TransactionIdentifier, each payment with OrderCreate's card surcharge and 3-D
 * Secure (a CustomerInputRQ, completed by the CustomerInputRS).
 */
import { createHash } from 'node:crypto';
import type { CustomerInputRq, Money, OrderViewRs } from '../../ndc/ndc.model';
import type { OrderChangeRq } from '../../ndc/servicing.model';
import { requireElement } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type { AirlineClock, TokenLookup } from '../airline.ports';
import type { AuthenticationService } from '../authentication/authentication.service';
import { isALaCarteOfferId } from '../extras/extras.catalogue';
import type { AirlineStore, StoredAuthentication, StoredOrderView } from '../store/airline.store';
import type { World } from '../world/world';
import { ListsBuilder } from '../world/world.lists';
import { checkChangePayment, settlementOf, surchargeItem } from './change-payment';
import type { LoadedOrder, OrderBook } from './order-book';
import { applyPlan, orderTotal, settle } from './order-content';
import { type OrderExtras, orderSeatOwner } from './order-extras';
import { readDelete, removalPlan } from './removal';
import { repriceHeld } from './reprice';
import type { ChangePlan, OrderContent, PendingChange, ReshopRecord } from './servicing.types';

/** Where an OrderChangeRQ carries its 3-D Secure data. */
const CHANGE_ALERT = 'OrderChangeParameters/Alerts/Alert/SecurePaymentAlert';

/** What a change does: its plan (none: a payment alone), whether it pays a held order, whether it accepts the airline's change. */
interface ChangeWork {
  plan?: ChangePlan;
  paysHold: boolean;
  acceptsAirlineChange?: boolean;
}

export interface OrderChangeOptions {
  /** 3-D Secure of payments; absent: no card is ever challenged. */
  authentication?: AuthenticationService;
  /** Extras after the sale (à-la-carte offers of the order). */
  extras: OrderExtras;
}

export class OrderChangeService {
  constructor(
    private readonly world: World,
    private readonly store: AirlineStore,
    private readonly book: OrderBook,
    private readonly tokens: TokenLookup,
    private readonly clock: AirlineClock,
    private readonly options: OrderChangeOptions,
  ) {}

  /**
   * Answers an OrderChangeRQ for the agency's order: the OrderViewRS of the changed order, or a
   * CustomerInputRQ when its card needs 3-D Secure. The same request sent again (same
   * TransactionIdentifier and content) answers what it answered, changing nothing more.
   */
  change(rq: OrderChangeRq, context: { acsBaseUrl?: string } = {}): OrderViewRs | CustomerInputRq {
    this.options.authentication?.releaseExpired();
    const loaded = this.book.find(rq.order.orderId, rq.party.agencyId, rq.order.owner);
    const hash = requestHash(rq);
    const repeated = this.repeated(loaded, rq, hash);
    if (repeated) return repeated;
    this.book.requireOpen(loaded.order);
    const now = this.clock.now();
    const work = this.work(rq, loaded, now);
    if (!work) return loaded.order.view;
    const pending: PendingChange = {
      orderId: loaded.order.orderId,
      version: loaded.order.version,
      request: rq,
      requestHash: hash,
      ...(work.plan ? { plan: work.plan } : {}),
      paysHold: work.paysHold,
      ...(work.acceptsAirlineChange ? { acceptsAirlineChange: true } : {}),
      ...checkChangePayment(this.world, this.tokens, rq.payments, this.dueOf(loaded.content, work), now),
    };
    const challenge = this.authenticate(loaded, pending, context);
    if (challenge) return challenge;
    return this.apply(loaded, pending, { sold: false });
  }

  /**
   * The CustomerInputRS approving a change's payment (the hold AuthenticationService found):
   * applies the change with the seats it held, once; sent again, answers the changed order.
   */
  complete(hold: StoredAuthentication): OrderViewRs {
    const pending = requireElement(hold.change, `the change of hold ${hold.spmRef}`);
    const order = this.store.orders.getOrder(pending.orderId);
    if (!order) throw new Error(`hold ${hold.spmRef} names no order`);
    if (hold.state === 'ordered') return this.appliedView(pending) ?? order.view;
    if (order.version !== pending.version) {
      this.store.transaction(() => this.store.endAuthentication(hold, 'declined'));
      throw new AirlineError(
        'ORDER_CHANGED',
        `Order ${order.orderId} changed while the payment was authenticated; nothing was charged`,
      );
    }
    const loaded = { order, content: this.book.contentOf(order) };
    return this.apply(loaded, pending, {
      sold: true,
      inTransaction: () => this.store.endAuthentication(hold, 'ordered', order.orderId),
    });
  }

  /**
   * A request seen before: the same TransactionIdentifier applied already answers its OrderViewRS
   * (other content: TRANSACTION_REUSED); a change waiting for 3-D Secure answers its challenge to
   * the same request and refuses any other (CHANGE_IN_PROGRESS).
   */
  private repeated(loaded: LoadedOrder, rq: OrderChangeRq, hash: string): OrderViewRs | CustomerInputRq | undefined {
    const { orderId } = loaded.order;
    const tx = rq.transactionIdentifier;
    const done = tx === undefined ? undefined : this.store.servicing.getChange(orderId, tx);
    if (done) {
      if (done.requestHash === hash) return done.view;
      throw new AirlineError(
        'TRANSACTION_REUSED',
        `TransactionIdentifier ${tx} already changed order ${orderId} with another request; use a new one`,
      );
    }
    const waiting = this.store.authentications.pendingAuthenticationFor(orderSeatOwner(orderId));
    if (!waiting) return undefined;
    if (waiting.change?.requestHash === hash) return waiting.challenge;
    throw new AirlineError(
      'CHANGE_IN_PROGRESS',
      `A change of order ${orderId} awaits 3-D Secure (${waiting.spmRef}, until ${waiting.expiresAt}); complete it or wait for it to end`,
    );
  }

  /** What the request does (see the file's comment); undefined: nothing (the order is answered as it is). */
  private work(rq: OrderChangeRq, loaded: LoadedOrder, now: Date): ChangeWork | undefined {
    const { order, content } = loaded;
    const servicing = rq.acceptOffers.length > 0 || rq.deleteOrderItemIds.length > 0;
    if (rq.acceptRepricedOrder !== undefined || (!servicing && rq.payments.length > 0)) {
      if (order.status !== 'held')
        throw new AirlineError('ORDER_ALREADY_PAID', `Order ${order.orderId} is already paid`);
      const plan = this.paymentPlan(rq, loaded, now);
      return { ...(plan ? { plan } : {}), paysHold: true };
    }
    if (rq.acceptOffers.length > 0) {
      if (order.status === 'held')
        throw new AirlineError(
          'ORDER_UNPAID',
          `Order ${order.orderId} is not paid yet: pay it (Payments) before changing it`,
        );
      return { plan: this.offersPlan(rq, loaded), paysHold: false };
    }
    if (rq.deleteOrderItemIds.length > 0) {
      const reading = readDelete(content, rq.deleteOrderItemIds);
      if (reading.kind === 'order')
        throw new AirlineError(
          'PASSENGER_REMOVAL_REFUSED',
          `Delete names every item of order ${order.orderId}: cancel it with OrderCancelRQ`,
        );
      return { plan: removalPlan(this.world, loaded, reading.passengerIds, now), paysHold: false };
    }
    if (content.airlineChange !== undefined) return { paysHold: false, acceptsAirlineChange: true };
    return undefined;
  }

  /**
   * The plan of paying a held order: the accepted reprice's (AcceptRepricedOrder), else none while
   * the price stands (the guarantee lasts, or the price now is the held price); a price that
   * changed after the guarantee is PRICE_GUARANTEE_EXPIRED naming it.
   */
  private paymentPlan(rq: OrderChangeRq, loaded: LoadedOrder, now: Date): ChangePlan | undefined {
    if (rq.acceptRepricedOrder !== undefined) {
      const record = this.acceptedRecord(rq.acceptRepricedOrder, loaded, now);
      if (record.kind !== 'reprice')
        throw new AirlineError(
          'CHANGE_OFFER_NOT_FOUND',
          `ResponseID ${record.responseId} is not a reprice of order ${loaded.order.orderId}`,
        );
      return this.current(Object.values(record.plans)[0]!, loaded);
    }
    const sold = (key: string, rbd: string) => this.store.inventory.sold(key, rbd);
    const { plan, changed } = repriceHeld(this.world, loaded, sold, now, new ListsBuilder(this.world));
    if (changed.length === 0) return undefined;
    const priceNow = orderTotal(applyPlan(loaded.content, plan));
    throw new AirlineError(
      'PRICE_GUARANTEE_EXPIRED',
      `The price of order ${loaded.order.orderId} was guaranteed until ${loaded.content.hold?.priceGuaranteedUntil}; it is now ${priceNow.value} ${priceNow.currency}: reprice (OrderReshopRQ) and pay with AcceptRepricedOrder`,
    );
  }

  /** The plan of accepting reshop offers or the order's à-la-carte offers (not both at once). */
  private offersPlan(rq: OrderChangeRq, loaded: LoadedOrder): ChangePlan {
    const alcs = rq.acceptOffers.filter((o) => isALaCarteOfferId(o.offerId));
    const reshops = rq.acceptOffers.filter((o) => !isALaCarteOfferId(o.offerId));
    if (alcs.length > 0 && reshops.length > 0)
      throw new AirlineError(
        'INVALID_REQUEST',
        'Accept either a reshop offer or à-la-carte offers in one OrderChangeRQ, not both',
      );
    if (alcs.length > 0) {
      if (rq.deleteOrderItemIds.length > 0)
        throw new AirlineError(
          'INVALID_REQUEST',
          'Delete goes alone or with the reshop offer it belongs to, not with à-la-carte offers',
        );
      return this.options.extras.plan(alcs, loaded);
    }
    if (reshops.length > 1) throw new AirlineError('INVALID_REQUEST', 'Accept one reshop offer at a time');
    const offer = reshops[0];
    const record = this.acceptedRecord(offer.responseId, loaded, this.clock.now());
    const plan = record.plans[offer.offerId];
    if (!plan) {
      const why =
        record.kind === 'refund'
          ? ': a refund quote of the whole order is accepted by cancelling it (OrderCancelRQ)'
          : '';
      throw new AirlineError(
        'CHANGE_OFFER_NOT_FOUND',
        `Offer ${offer.offerId} is not an offer of reshop response ${offer.responseId}${why}`,
      );
    }
    const foreign = offer.offerItems.filter((i) => !i.offerItemId.startsWith(`${offer.offerId}-`));
    if (foreign.length > 0)
      throw new AirlineError(
        'CHANGE_OFFER_NOT_FOUND',
        `OfferItems ${foreign.map((i) => i.offerItemId).join(', ')} are not items of offer ${offer.offerId}`,
      );
    const extra = rq.deleteOrderItemIds.filter((id) => !plan.removeItemIds.includes(id));
    if (extra.length > 0)
      throw new AirlineError(
        'INVALID_REQUEST',
        `Delete names items offer ${offer.offerId} does not remove: ${extra.join(', ')}`,
      );
    return this.current(plan, loaded);
  }

  /** The agency's unexpired reshop response `responseId` of this order (726 unknown, 727 expired). */
  private acceptedRecord(responseId: string, loaded: LoadedOrder, now: Date): ReshopRecord {
    const record = this.store.servicing.getReshop(responseId);
    if (!record || record.orderId !== loaded.order.orderId || record.agencyId !== loaded.order.agencyId)
      throw new AirlineError(
        'CHANGE_OFFER_NOT_FOUND',
        `Reshop response ${responseId} not found for order ${loaded.order.orderId}`,
      );
    if (Date.parse(record.expiresAt) <= now.getTime())
      throw new AirlineError(
        'CHANGE_OFFER_EXPIRED',
        `Reshop response ${responseId} expired at ${record.expiresAt}; reshop`,
      );
    return record;
  }

  /** `plan`, made for the order as it still is (else ORDER_CHANGED: reshop). */
  private current(plan: ChangePlan, loaded: LoadedOrder): ChangePlan {
    if (plan.version !== loaded.order.version)
      throw new AirlineError(
        'ORDER_CHANGED',
        `Order ${loaded.order.orderId} changed after this offer was made (version ${plan.version}, now ${loaded.order.version}); reshop`,
      );
    return plan;
  }

  /** What is due: a held order's whole total after the plan; a change's positive difference. */
  private dueOf(content: OrderContent, work: ChangeWork): Money {
    if (work.paysHold) return orderTotal(work.plan ? applyPlan(content, work.plan) : content);
    return work.plan?.difference ?? { value: '0', currency: content.currency };
  }

  /**
   * A payment whose card needs 3-D Secure (and carries no pre-authenticated result): the change
   * waits, with the seats of its new flights held, for the CustomerInputRS (a held order's payment
   * at the latest until its payment time limit). Undefined when no authentication is needed.
   */
  private authenticate(
    loaded: LoadedOrder,
    pending: PendingChange,
    context: { acsBaseUrl?: string },
  ): CustomerInputRq | undefined {
    const auth = this.options.authentication;
    const charge = pending.charge;
    const mode = charge && auth?.modeOf(charge.voucherNumber);
    if (!auth || !charge || !mode) return undefined;
    const rq = pending.request;
    const preAuthenticated = rq.securePayment?.authentication;
    if (preAuthenticated) {
      auth.checkPreAuthenticated(preAuthenticated);
      return undefined;
    }
    auth.requireAlert(rq.securePayment, CHANGE_ALERT);
    const acsBaseUrl = requireElement(context.acsBaseUrl, 'the ACS base URL (AIRLINE_ACS_BASE_URL)');
    const segments = pending.plan?.sell ?? [];
    const hold = loaded.content.hold;
    const subject = {
      key: orderSeatOwner(loaded.order.orderId),
      party: rq.party,
      ...(rq.transactionIdentifier !== undefined ? { transactionIdentifier: rq.transactionIdentifier } : {}),
      tokenId: charge.voucherNumber,
      ...(rq.securePayment !== undefined ? { securePayment: rq.securePayment } : {}),
      alertPath: CHANGE_ALERT,
      change: pending,
      ...(loaded.order.status === 'held' && hold ? { until: new Date(hold.paymentDue) } : {}),
    };
    const challenge = this.store.transaction(
      () =>
        this.store.inventory.sellAllInTransaction(segments, this.world.capacityOf) &&
        auth.hold(subject, mode, charge.amount, segments, acsBaseUrl),
    );
    if (!challenge) throw new AirlineError('SOLD_OUT', 'Seats of the new flights are no longer available; reshop');
    return challenge;
  }

  /**
   * Applies `pending` to `loaded` in one transaction: the plan, the surcharge item, the money, the
   * status, the inventory and seats (the new flights' seats already held when `sold`), the change
   * recorded by TransactionIdentifier, and `inTransaction` (ending a 3-D Secure hold).
   */
  private apply(
    loaded: LoadedOrder,
    pending: PendingChange,
    how: { sold: boolean; inTransaction?: () => boolean },
  ): StoredOrderView {
    const { order, content } = loaded;
    const version = order.version + 1;
    const { plan } = pending;
    let next = plan ? applyPlan(content, plan) : content;
    if (pending.surcharge)
      next = {
        ...next,
        items: [
          ...next.items,
          surchargeItem(this.world, `${order.orderId}-CCF2-V${version}`, pending.surcharge, next.passengers),
        ],
      };
    next = settle(next, { ...settlementOf(content, plan, pending, version), paysHold: pending.paysHold });
    // Accepted as it stands, or left for other flights: the airline's change no longer waits.
    if (pending.acceptsAirlineChange || plan?.kind === 'flights') delete next.airlineChange;
    const moves = {
      release: plan?.release ?? [],
      sell: how.sold ? [] : (plan?.sell ?? []),
      releaseSeats: plan?.releaseSeats ?? [],
      sellSeats: plan?.sellSeats ?? [],
      seatOwner: orderSeatOwner(order.orderId),
    };
    const now = this.clock.now();
    const status = pending.paysHold ? 'live' : order.status;
    const tx = pending.request.transactionIdentifier;
    return this.store.transaction(() => {
      if (how.inTransaction && !how.inTransaction())
        throw new AirlineError('AUTHENTICATION_USED', 'The authentication result was already used');
      const view = this.book.reviseInTransaction(order, { content: next, status, moves }, now);
      if (tx !== undefined)
        this.store.servicing.saveChangeInTransaction({
          orderId: order.orderId,
          transactionId: tx,
          requestHash: pending.requestHash,
          version,
          appliedAt: now.toISOString(),
          view,
        });
      return view;
    });
  }

  /** The OrderViewRS a change answered, when it was recorded by its TransactionIdentifier. */
  private appliedView(pending: PendingChange): StoredOrderView | undefined {
    const tx = pending.request.transactionIdentifier;
    return tx === undefined ? undefined : this.store.servicing.getChange(pending.orderId, tx)?.view;
  }
}

/**
 * A digest of what an OrderChangeRQ asks (the order, the agency, the servicing, the payments and
 * their 3-D Secure data, the lists), without its header (time stamp, ids): the same
 * TransactionIdentifier with another digest is another request.
 */
export function requestHash(rq: OrderChangeRq): string {
  const {
    order,
    securePayment,
    reason,
    acceptOffers,
    deleteOrderItemIds,
    acceptRepricedOrder,
    payments,
    passengers,
    contacts,
  } = rq;
  const content = {
    agency: rq.party.agencyId,
    order,
    securePayment,
    reason,
    acceptOffers,
    deleteOrderItemIds,
    acceptRepricedOrder,
    payments,
    passengers,
    contacts,
  };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
