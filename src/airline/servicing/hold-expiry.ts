/**
 * Held orders that reach their payment time limit unpaid (docs/airline-service.md, "Holds"): the
 * airline cancels them itself and their seats go back on sale. Durable: the deadlines are the
 * orders' `payment_due_at` in SQLite, so a restart after a deadline cancels at start
 * (its DeadlineJob runs at start); between starts a timer wakes at the next deadline, and every
 * request that counts seats or reads orders expires what is due first.
 */
import type { AirlineClock } from '../airline.ports';
import type { OrderNotices } from '../schedule/notification-outbox';
import type { AirlineStore } from '../store/airline.store';
import type { OrderBook } from './order-book';

/** Where an expired hold is told (OrderChangeNotif, as for the airline's other changes), and how to send it now. */
export interface ExpiryNotices {
  queue: OrderNotices;
  pushNow(): void;
}

export class HoldExpiry {
  constructor(
    private readonly store: AirlineStore,
    private readonly book: OrderBook,
    private readonly clock: AirlineClock,
    private readonly notices?: ExpiryNotices,
  ) {}

  /**
   * Cancels every held order whose payment time limit has passed (status `expired`, OrderViewRS
   * status `XX`, version one more), giving its inventory and seats back and queueing its
   * OrderChangeNotif, each in one transaction; returns how many. A payment being authenticated for such an order ends by the same deadline, so
   * release those holds first (AuthenticationService.releaseExpired).
   */
  expireDue(): number {
    const now = this.clock.now();
    let expired = 0;
    for (const orderId of this.store.orders.heldOrdersDue(now.toISOString())) {
      const order = this.store.orders.getOrder(orderId);
      if (order?.status !== 'held') continue;
      const content = this.book.contentOf(order);
      const moves = { release: content.segments, sell: [], releaseSeats: content.seats, sellSeats: [], seatOwner: '' };
      this.store.transaction(() => {
        const view = this.book.reviseInTransaction(order, { content, status: 'expired', moves }, now);
        const reason = `Not paid by the payment time limit ${content.hold?.paymentDue ?? ''}: the order is cancelled`;
        this.notices?.queue.queueInTransaction({ view, agencyId: order.agencyId, action: 'Cancel', reason });
      });
      expired++;
    }
    if (expired > 0) this.notices?.pushNow();
    return expired;
  }

  /** The next payment time limit of a held order, if any. */
  nextDeadline(): Date | undefined {
    const due = this.store.orders.nextHoldDeadline();
    return due === undefined ? undefined : new Date(due);
  }
}
