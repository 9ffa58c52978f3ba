/**
 * A durable deadline's timer (docs/airline-service.md, "Holds" and "Schedule changes"): the
 * deadlines themselves are in SQLite (a held order's payment time limit, a schedule change's
 * action deadline), so the job runs once at start (a restart after a deadline acts at once) and
 * then wakes at each next deadline. Used for held orders that expire and for schedule changes
 * nobody answered.
 */
import { AsyncResource } from 'node:async_hooks';
import type { AirlineClock } from '../airline.ports';

/** What the job runs and how it learns when to run next. */
export interface DeadlineJobOptions {
  /**
   * Acts on what is due (e.g. 3-D Secure holds, then orders). May be async (pushing
   * notifications): a run never overlaps the one before; a wake during a run runs again after it.
   */
  run: () => void | Promise<void>;
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
 * A timer that runs {@link DeadlineJobOptions.run} at start and at each next deadline (at most
 * `maxWaitMs` apart). It never keeps the process alive (`unref`); stop it before the store closes.
 */
export class DeadlineJob {
  private timer?: NodeJS.Timeout;
  private wakeAt = Infinity;
  private running = false;
  /** A run that has not ended (async), and whether a wake came meanwhile. */
  private busy = false;
  private again = false;
  /**
   * The async context the job was made in (the app's start): runs happen there, not in the context
   * of the request that woke it (whose log fields would otherwise follow the run's logs).
   */
  private readonly home = new AsyncResource('DeadlineJob');

  constructor(private readonly options: DeadlineJobOptions) {}

  /** Runs once now (a restart after a deadline cancels at start) and schedules the next run. */
  start(): void {
    this.running = true;
    this.tick();
  }

  /**
   * Wakes at `at` (ISO 8601) unless already waking sooner: a new deadline (a hold's, a schedule
   * change's); at once when `at` has passed on the job's clock (which tests move).
   */
  wakeBy(at: string): void {
    const when = Date.parse(at);
    if (this.running && (when < this.wakeAt || when <= this.options.clock.now().getTime())) this.schedule(when);
  }

  /** Resolves once no run is under way (tests; a stopped job's last run ends by itself). */
  async idle(): Promise<void> {
    while (this.busy) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (!this.running) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    let result: void | Promise<void>;
    try {
      result = this.options.run();
    } catch (error) {
      this.failed(error);
      return;
    }
    if (!(result instanceof Promise)) return this.scheduleNext();
    this.busy = true;
    result.then(
      () => this.ended(() => this.scheduleNext()),
      (error: unknown) => this.ended(() => this.failed(error)),
    );
  }

  private ended(then: () => void): void {
    this.busy = false;
    if (!this.running) return;
    if (this.again) {
      this.again = false;
      return this.tick();
    }
    then();
  }

  private scheduleNext(): void {
    this.schedule(this.options.next()?.getTime() ?? Infinity);
  }

  private failed(error: unknown): void {
    this.options.onError(error);
    this.schedule(this.options.clock.now().getTime() + (this.options.retryMs ?? 1000));
  }

  private schedule(when: number): void {
    const now = this.options.clock.now().getTime();
    const at = Math.min(when, now + (this.options.maxWaitMs ?? 60_000));
    clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => this.home.runInAsyncScope(() => this.tick()), Math.max(0, at - now));
    this.timer.unref();
  }
}
