/**
 * Schedule changes nobody answered (docs/airline-service.md, "Schedule changes"): at an order's
 * action deadline (`AIRLINE_CHANGE_ACTION_MS` after the change) the airline applies its default,
 * in one transaction per order, and tells the agency (OrderChangeNotif):
 * - a retime stands: the order no longer waits (`ScheduleChangeInd` gone), its flights as changed;
 * - an order on a cancelled flight (moved or not) is cancelled with a full refund of what was paid.
 * Durable: the deadlines are the orders' `change_action_by` in SQLite, run by a DeadlineJob (at
 * start, then at each next deadline).
 */
import { add, currencyScale } from '../../common/decimal';
import { cancellationPenalty } from '../../ndc/cancellation-penalty';
import type { AirlineClock } from '../airline.ports';
import type { LoadedOrder, OrderBook } from '../servicing/order-book';
import { settle } from '../servicing/order-content';
import type { AirlineStore, StoredCancellation } from '../store/airline.store';
import type { OrderNotices } from './notification-outbox';

export class ChangeDeadlines {
  constructor(
    private readonly store: AirlineStore,
    private readonly book: OrderBook,
    private readonly clock: AirlineClock,
    private readonly notices: OrderNotices,
  ) {}

  /** Applies the airline's default to every open order whose change deadline has passed; how many. */
  applyDue(): number {
    const now = this.clock.now();
    let applied = 0;
    for (const orderId of this.store.orders.changesDue(now.toISOString())) {
      const order = this.store.orders.getOrder(orderId);
      if (order === undefined || (order.status !== 'live' && order.status !== 'held')) continue;
      const loaded = { order, content: this.book.contentOf(order) };
      if (loaded.content.airlineChange === undefined) continue;
      this.store.transaction(() =>
        loaded.content.airlineChange!.kind === 'retime' ? this.stand(loaded, now) : this.cancel(loaded, now),
      );
      applied++;
    }
    return applied;
  }

  /** The next change deadline of an open order, if any. */
  nextDeadline(): Date | undefined {
    const due = this.store.orders.nextChangeDeadline();
    return due === undefined ? undefined : new Date(due);
  }

  /** The retime stands: the order no longer waits. */
  private stand(loaded: LoadedOrder, now: Date): void {
    const { order, content } = loaded;
    const { airlineChange, ...rest } = content;
    const view = this.book.reviseInTransaction(order, { content: rest, status: order.status, moves: NO_MOVES }, now);
    const reason = `No answer by ${airlineChange!.actionBy}: the change stands (${airlineChange!.reason})`;
    this.notices.queueInTransaction({ view, agencyId: order.agencyId, action: 'Update', reason });
  }

  /** The order off a cancelled flight is cancelled, everything paid refunded. */
  private cancel(loaded: LoadedOrder, now: Date): void {
    const { order, content } = loaded;
    const zero = { value: add(currencyScale(content.currency), '0'), currency: content.currency };
    const refund = content.paid;
    const cancellation: StoredCancellation = { cancelledAt: now.toISOString(), kind: 'cancel', fee: zero, refund };
    const moves = { release: content.segments, sell: [], releaseSeats: content.seats, sellSeats: [], seatOwner: '' };
    const { airlineChange, ...rest } = content;
    const settled = settle(rest, { refund, penalty: cancellationPenalty(zero, refund) });
    const view = this.book.reviseInTransaction(
      order,
      { content: settled, status: 'cancelled', moves, cancellation },
      now,
    );
    const reason = `No answer by ${airlineChange!.actionBy}: the order is cancelled and ${refund.value} ${refund.currency} refunded (${airlineChange!.reason})`;
    this.notices.queueInTransaction({ view, agencyId: order.agencyId, action: 'Cancel', reason });
  }
}

const NO_MOVES = { release: [], sell: [], releaseSeats: [], sellSeats: [], seatOwner: '' };
