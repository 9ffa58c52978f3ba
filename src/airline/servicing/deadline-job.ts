/**
 * A durable deadline's timer (docs/airline-service.md, "Holds" and "Schedule changes"): the
 * deadlines themselves are in SQLite (a held order's payment time limit, a schedule change's
 * action deadline), so the job runs once at start (a restart after a deadline acts at once) and
 * then wakes at each next deadline. Used for held orders that expire and for schedule changes
 * nobody answered.
 */
import type { AirlineClock } from '../airline.ports';

/** What the job runs and how it learns when to run next. */
export interface DeadlineJobOptions {
  /** Acts on what is due (e.g. 3-D Secure holds, then orders). */
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
 * A timer that runs {@link DeadlineJobOptions.run} at start and at each next deadline (at most
 * `maxWaitMs` apart). It never keeps the process alive (`unref`); stop it before the store closes.
 */
export class DeadlineJob {
  private timer?: NodeJS.Timeout;
  private wakeAt = Infinity;
  private running = false;

  constructor(private readonly options: DeadlineJobOptions) {}

  /** Runs once now (a restart after a deadline cancels at start) and schedules the next run. */
  start(): void {
    this.running = true;
    this.tick();
  }

  /** Wakes at `at` (ISO 8601) unless already waking sooner: a new deadline (a hold's, a schedule change's). */
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
