/**
 * A circuit breaker per airline (docs/orchestrator.md, "Under load and outages"): after
 * `failureThreshold` transient failures in a row (no answer, a timeout, HTTP 5xx or 429) the
 * circuit opens and calls fail at once with {@link NdcCircuitOpenError} for `openMs`, so new
 * bookings skip the airline instead of each spending its retries on it; then one call is let
 * through (half-open): an answer closes the circuit, a failure opens it again. Any answer of the
 * airline, an NDC error included, counts as a success.
 */
import { NdcClientError } from './ndc-client.errors';

/** How the breaker decides. */
export interface CircuitOptions {
  /** Transient failures in a row that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long it stays open before one call may try again, in ms. Default 30 000. */
  openMs?: number;
  /** Clock (ms). Default `Date.now`. */
  now?: () => number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** What the breaker shows (health, metrics). */
export interface CircuitSnapshot {
  state: CircuitState;
  consecutiveFailures: number;
  /** When it last opened (ISO), while open or half-open. */
  openedAt?: string;
  /** How often it opened since the process started. */
  opens: number;
}

/** A call refused without being sent: the airline's circuit is open. */
export class NdcCircuitOpenError extends NdcClientError {
  override readonly name = 'NdcCircuitOpenError';

  constructor(airline: string, retryAt: number) {
    super(
      'CIRCUIT_OPEN',
      `${airline}: circuit open after repeated failures; not called until ${new Date(retryAt).toISOString()}`,
      true,
      false,
    );
  }
}

export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private trial = false;
  private opened = 0;
  private readonly threshold: number;
  private readonly openMs: number;
  private readonly now: () => number;

  constructor(
    readonly airline: string,
    options: CircuitOptions = {},
  ) {
    this.threshold = Math.max(1, options.failureThreshold ?? 5);
    this.openMs = Math.max(0, options.openMs ?? 30_000);
    this.now = options.now ?? Date.now;
  }

  /** Before a call: throws {@link NdcCircuitOpenError} while open; lets one trial call through once `openMs` passed. */
  before(): void {
    if (this.openedAt === undefined) return;
    const retryAt = this.openedAt + this.openMs;
    if (this.now() < retryAt || this.trial) throw new NdcCircuitOpenError(this.airline, Math.max(retryAt, this.now()));
    this.trial = true;
  }

  /** The airline answered (an NDC error too): closes the circuit. */
  success(): void {
    this.failures = 0;
    this.openedAt = undefined;
    this.trial = false;
  }

  /** A transient failure: counts; at the threshold, or on a failed trial call, opens the circuit. */
  failure(): void {
    this.failures += 1;
    if (this.trial || (this.openedAt === undefined && this.failures >= this.threshold)) {
      this.openedAt = this.now();
      this.opened += 1;
      this.trial = false;
    }
  }

  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.trial || this.now() >= this.openedAt + this.openMs ? 'half-open' : 'open';
  }

  snapshot(): CircuitSnapshot {
    return {
      state: this.state,
      consecutiveFailures: this.failures,
      ...(this.openedAt !== undefined ? { openedAt: new Date(this.openedAt).toISOString() } : {}),
      opens: this.opened,
    };
  }
}
