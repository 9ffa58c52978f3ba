/**
 * Held orders that reach their payment time limit unpaid (docs/airline-service.md, "Holds"): the
 * airline cancels them itself and their seats go back on sale. Durable: the deadlines are the
 * orders' `payment_due_at` in SQLite, so a restart after a deadline cancels at start
 * ({@link HoldExpiryJob.start}); between starts a timer wakes at the next deadline, and every
 * request that counts seats or reads orders expires what is due first.
 */
import type { AirlineClock } from '../airline.ports';
import type { AirlineStore } from '../store/airline.store';
import type { OrderBook } from './order-book';

export class HoldExpiry {
  constructor(
    private readonly store: AirlineStore,
    private readonly book: OrderBook,
    private readonly clock: AirlineClock,
  ) {}

  /**
   * Cancels every held order whose payment time limit has passed (status `expired`, OrderViewRS
   * status `XX`, version one more), giving its inventory and seats back, each in one transaction;
   * returns how many. A payment being authenticated for such an order ends by the same deadline, so
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
      this.store.transaction(() => this.book.reviseInTransaction(order, { content, status: 'expired', moves }, now));
      expired++;
    }
    return expired;
  }

  /** The next payment time limit of a held order, if any. */
  nextDeadline(): Date | undefined {
    const due = this.store.orders.nextHoldDeadline();
    return due === undefined ? undefined : new Date(due);
  }
}

/** What the job runs and how it learns when to run next. */
export interface HoldExpiryJobOptions {
  /** Expires what is due (3-D Secure holds, then orders). */
  run: () => void;
  /** The next deadline. */
  next: () => Date | undefined;
  clock: AirlineClock;
  /** A failed run (logged by the caller); the job tries again after `retryMs`. */
  onError: (error: unknown) => void;
  /** Longest sleep, so a clock moved by tests or the system is noticed: default 60 s. */
  maxWaitMs?: number;
  /** Wait after a failed run: default 1 s. */
  retryMs?: number;
}

/**
 * A timer that runs {@link HoldExpiryJobOptions.run} at start and at each next deadline (at most
 * `maxWaitMs` apart). It never keeps the process alive (`unref`); stop it before the store closes.
 */
export class HoldExpiryJob {
  private timer?: NodeJS.Timeout;
  private wakeAt = Infinity;
  private running = false;

  constructor(private readonly options: HoldExpiryJobOptions) {}

  /** Runs once now (a restart after a deadline cancels at start) and schedules the next run. */
  start(): void {
    this.running = true;
    this.tick();
  }

  /** Wakes at `at` (ISO 8601) unless already waking sooner: a new hold's deadline. */
  wakeBy(at: string): void {
    const when = Date.parse(at);
    if (this.running && when < this.wakeAt) this.schedule(when);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (!this.running) return;
    const { run, next, clock, onError } = this.options;
    try {
      run();
    } catch (error) {
      onError(error);
      this.schedule(clock.now().getTime() + (this.options.retryMs ?? 1000));
      return;
    }
    this.schedule(next()?.getTime() ?? Infinity);
  }

  private schedule(when: number): void {
    const now = this.options.clock.now().getTime();
    const at = Math.min(when, now + (this.options.maxWaitMs ?? 60_000));
    clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => this.tick(), Math.max(0, at - now));
    this.timer.unref();
  }
}
