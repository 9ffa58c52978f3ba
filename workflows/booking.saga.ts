/**
 * What the phases of the booking saga share (docs/orchestrator.md): settings, the activity
 * proxies, the trail (state, status and search attribute, step records), the price guard, and
 * the reading of failures. Workflow code: deterministic, activities imported as types only.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { BookingActivities, PriceResult, ShopResult } from '../activities/booking.activities.types';
import { failureTypeOf, FailureType, type FailureDetails } from '../src/booking/booking.failures';
import {
  DEFAULT_AUTHENTICATION_TIMEOUT_MS,
  type AirlineRoute,
  type BookingError,
  type BookingIntent,
  type BookingResult,
  type BookingState,
  type BookingStepName,
  type BookingWorkflowOptions,
  type StepRecord,
  type UnsettledPolicy,
} from '../src/booking/booking.model';
import type { BookingStatus } from '../src/booking/booking.status';
import { type NdcContext } from '../src/booking/intent-to-ndc';
import { compare } from '../src/common/decimal';
import { AgencyIdKey, BookingStatusKey, ExtrasKey, RouteKey } from '../src/temporal/search-attributes';
import { extrasAsked } from '../src/booking/booking.extras';
import { bookingStatusChanged } from './booking-status-listeners';
import { DEFAULT_SETTLE_WINDOW_MS, needsApproval } from './booking.decisions';
import type { AuthenticationInbox } from './booking.authentication';
import { approvePriceSignal, stateQuery } from './definitions';
import { emitBookingEvent } from './webhook-events';

/** Default wait for the traveller's seats (`SEAT_SELECTION_TIMEOUT_MS`): 10 min, less than the airline's seat lock. */
export const DEFAULT_SEAT_SELECTION_TIMEOUT_MS = 10 * 60 * 1000;
/** Default wait of the price guard for `approvePrice` / `cancel`: 24 h. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Default number of fresh shop-and-price rounds after a "shop again" answer. */
export const DEFAULT_MAX_RESHOPS = 2;
/** Default number of order-create attempts (each retry preceded by a settled lookup). */
export const DEFAULT_MAX_CREATE_ATTEMPTS = 5;
export { DEFAULT_SETTLE_WINDOW_MS } from './booking.decisions';

/**
 * Versions the `SETTLING` search-attribute upserts: histories recorded before them replay without
 * (docs/orchestrator.md, "Tests").
 */
export const SETTLING_STATUS_PATCH = 'settling-status';

/**
 * Retry policy of the NDC activities: transient failures (network, timeouts, 5xx, 429) are retried
 * with exponential backoff; classified business failures are thrown non-retryable.
 */
export const NDC_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  // Activities heartbeat every second while waiting for the airline: a worker that dies is
  // noticed within seconds and the activity is retried on another (or the restarted) worker.
  heartbeatTimeout: '5s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 8 },
};
/** Maximum attempts of {@link NDC_ACTIVITY_OPTIONS}, used to count attempts of exhausted activities. */
export const NDC_MAX_ATTEMPTS = 8;

/**
 * Order creation is never retried by Temporal: the workflow settles (looks the order up) before
 * every retry, so a request that may have reached the airline is never sent twice.
 */
export const CREATE_ORDER_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  heartbeatTimeout: '5s',
  retry: { maximumAttempts: 1 },
};

export const ndc = proxyActivities<BookingActivities>(NDC_ACTIVITY_OPTIONS);
/** The activities never retried by Temporal: each may change the order at the airline. */
export type OrderActivities = Pick<BookingActivities, 'createOrder' | 'customerInput' | 'cancelOrder'>;
export const orders = proxyActivities<OrderActivities>(CREATE_ORDER_ACTIVITY_OPTIONS);

/** Cancel attempts of a confirmed order whose earlier cancels got no answer and that still reads back live. */
export const MAX_CANCEL_ATTEMPTS = 3;

export interface Settings {
  approvalTimeoutMs: number;
  maxReshops: number;
  maxCreateAttempts: number;
  settleWindowMs: number;
  unsettledPolicy: UnsettledPolicy;
  cancelWindowMs: number;
  seatSelectionTimeoutMs: number;
  authenticationTimeoutMs: number;
}

export function settingsOf(options: BookingWorkflowOptions): Settings {
  return {
    approvalTimeoutMs: options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    maxReshops: options.maxReshops ?? DEFAULT_MAX_RESHOPS,
    maxCreateAttempts: Math.max(1, options.maxCreateAttempts ?? DEFAULT_MAX_CREATE_ATTEMPTS),
    settleWindowMs: Math.max(0, options.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS),
    unsettledPolicy: options.unsettledPolicy ?? 'recreate',
    cancelWindowMs: Math.max(0, options.cancelWindowMs ?? 0),
    seatSelectionTimeoutMs: Math.max(0, options.seatSelectionTimeoutMs ?? DEFAULT_SEAT_SELECTION_TIMEOUT_MS),
    authenticationTimeoutMs: Math.max(0, options.authenticationTimeoutMs ?? DEFAULT_AUTHENTICATION_TIMEOUT_MS),
  };
}

/** Why a step runs (see {@link StepRecord.reason}) and the airline it runs at. */
export interface StepOptions {
  reason?: string;
  airline?: string;
}

/** The booking's visible record: state, status and search attribute, step trail. */
export interface Trail {
  readonly state: BookingState;
  setStatus(status: BookingStatus, options?: { upsert?: boolean }): void;
  /** Runs one activity call as a recorded step (at the chosen airline unless `options.airline` says). */
  step<T extends { attempt: number }>(name: BookingStepName, call: () => Promise<T>, options?: StepOptions): Promise<T>;
  finish(status: BookingStatus, error?: BookingError): BookingResult;
  /** Resolves once every status change has reached the batch and the webhook registry. */
  settled(): Promise<void>;
}

export function createTrail(intent: BookingIntent, correlationId: string): Trail {
  const state: BookingState = { status: 'RUNNING', steps: [], correlationId };
  setHandler(stateQuery, () => state);
  // Bookings with extras also say which (bookings without any keep the commands they always had).
  const extras = extrasAsked(intent.extras);
  upsertSearchAttributes([
    { key: BookingStatusKey, value: 'RUNNING' },
    { key: AgencyIdKey, value: intent.agency.id },
    { key: RouteKey, value: `${intent.journey.origin}-${intent.journey.destination}` },
    ...(extras !== undefined ? [{ key: ExtrasKey, value: extras }] : []),
  ]);
  const events: Promise<void>[] = [];
  const setStatus: Trail['setStatus'] = (status, options = {}) => {
    state.status = status;
    if (options.upsert !== false) upsertSearchAttributes([{ key: BookingStatusKey, value: status }]);
    events.push(emitBookingEvent(intent.agency.id, state));
    bookingStatusChanged(state);
  };
  return {
    state,
    setStatus,
    settled: () => Promise.all(events).then(() => undefined),
    async step(name, call, options = {}) {
      const record: StepRecord = { name, startedAt: new Date().toISOString(), attempts: 0 };
      const airline = options.airline ?? state.airline;
      if (airline !== undefined) record.airline = airline;
      if (options.reason !== undefined) record.reason = options.reason;
      state.steps.push(record);
      state.currentStep = name;
      try {
        const result = await call();
        record.attempts = result.attempt;
        record.outcome = 'ok';
        return result;
      } catch (error) {
        record.attempts = attemptsOf(error);
        record.outcome = 'failed';
        const failure = applicationFailureOf(error);
        if (failure !== undefined) record.failure = failureTypeOf(failure.type);
        if (record.airline !== undefined && error instanceof ActivityFailure)
          record.message = toBookingError(error).message;
        throw error;
      } finally {
        record.endedAt = new Date().toISOString();
      }
    },
    finish(status, error) {
      delete state.currentStep;
      if (error !== undefined) state.error = error;
      setStatus(status);
      return { state };
    },
  };
}

/** Everything the phases share: read-only apart from the trail's state and the chosen airline. */
export interface Saga {
  intent: BookingIntent;
  ctx: NdcContext;
  settings: Settings;
  trail: Trail;
  guard: PriceGuard;
  /** The airlines to shop at (`options.airlines`); undefined: one, on the workflow's own queue. */
  airlines: readonly AirlineRoute[] | undefined;
  /** The airline that owns the chosen offer (set by selection; `booking.airlines.ts`). */
  airline?: AirlineRoute;
  /** The API's 3-D Secure return URLs (`options.authenticationReturn`), sent as TermURL / FailURL. */
  authenticationReturn?: { termUrl: string; failUrl: string };
  /** The cardholder's 3-D Secure result (`booking.authentication.ts`). */
  inbox: AuthenticationInbox;
  /** A cancel asked for (read while waiting for 3-D Secure). */
  cancel?: CancelRequest;
}

/** One shopping round: its number, why it started, the token it may reuse. */
export interface Round {
  number: number;
  reason?: string;
  /** A card token of an earlier round, usable at that round's airline only. */
  token?: { id: string; airline?: string };
  /** Highest total the price guard let through in earlier rounds. */
  acceptedBefore?: string;
}

/** What the prepare phase hands to the order phase. */
export interface ReadyToOrder {
  shop: ShopResult;
  priced: PriceResult;
  tokenId: string;
}

/** Waits for approval when a total is above the limit; remembers what was approved. */
export interface PriceGuard {
  /** Throws PRICE_NOT_APPROVED when nobody approves within the timeout. */
  check(total: string, round: Round): Promise<void>;
  /** The highest total let through in this run. */
  readonly highestAccepted: string | undefined;
}

export function createPriceGuard(intent: BookingIntent, trail: Trail, timeoutMs: number): PriceGuard {
  let approved = false;
  let approvedTotal: string | undefined;
  let highestAccepted: string | undefined;
  setHandler(approvePriceSignal, () => {
    approved = true;
  });
  const accept = (total: string): void => {
    if (highestAccepted === undefined || compare(total, highestAccepted) > 0) highestAccepted = total;
  };
  return {
    get highestAccepted() {
      return highestAccepted;
    },
    async check(total, round) {
      const maxTotal = intent.selection?.maxTotal;
      const limits = {
        ...(maxTotal !== undefined ? { maxTotal } : {}),
        ...(round.acceptedBefore !== undefined ? { acceptedBefore: round.acceptedBefore } : {}),
        ...(approvedTotal !== undefined ? { approvedTotal } : {}),
      };
      if (!needsApproval(total, limits)) return accept(total);
      const limit = maxTotal ?? round.acceptedBefore;
      approved = false;
      trail.setStatus('AWAITING_APPROVAL');
      log.info('price above the limit, waiting for approval', { total, limit });
      if (!(await condition(() => approved, timeoutMs))) {
        const what = maxTotal !== undefined ? `maxTotal ${maxTotal}` : `the earlier offer's ${limit}`;
        throw ApplicationFailure.nonRetryable(
          `priced total ${total} ${intent.currency} exceeds ${what} and was not approved within ${timeoutMs} ms`,
          FailureType.PRICE_NOT_APPROVED,
        );
      }
      approvedTotal = total;
      accept(total);
      trail.setStatus('RUNNING');
    },
  };
}

/** A cancel asked for by signal or update, and whether the booking still accepts one. */
export interface CancelRequest {
  requestedAt?: string;
  reason?: string;
  /** The workflow is about to complete: no cancel will be carried out any more. */
  closed: boolean;
}

// ------------------------------------------------------------------ failures

/** The `ApplicationFailure` behind an error (thrown by an activity or by the workflow), if any. */
export function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) return error.cause;
  if (error instanceof ApplicationFailure) return error;
  return undefined;
}

export function detailsOf(
  failure: ApplicationFailure | undefined,
): Partial<FailureDetails> & Pick<BookingError, 'airlines'> {
  const first = failure?.details?.[0];
  return typeof first === 'object' && first !== null ? (first as Partial<FailureDetails>) : {};
}

/** Attempts an activity made before it failed (see docs/orchestrator.md, "State"). */
export function attemptsOf(error: unknown): number {
  const failure = applicationFailureOf(error);
  const reported = detailsOf(failure).attempt;
  if (typeof reported === 'number') return reported;
  // A retryable failure that reached the workflow exhausted the retry policy.
  if (error instanceof ActivityFailure && failure !== undefined && !failure.nonRetryable) return NDC_MAX_ATTEMPTS;
  return 1;
}

/**
 * True when an order create may or may not have happened: thrown ORDER_OUTCOME_UNKNOWN, a timeout
 * of the activity (worker lost), or any transient failure. Classified business failures are not.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  const failure = applicationFailureOf(error);
  if (failure === undefined) return true; // timeout, cancellation by the server, ...
  return failure.type === FailureType.ORDER_OUTCOME_UNKNOWN || !failure.nonRetryable;
}

/** Maps a failure to the state's error; rethrows what is not a business failure (bugs). */
export function toBookingError(error: unknown): BookingError {
  const failure = applicationFailureOf(error);
  if (failure !== undefined && (failure.nonRetryable || error instanceof ActivityFailure)) {
    const { airlineCode, airlines } = detailsOf(failure);
    const type = failure.nonRetryable ? failureTypeOf(failure.type) : FailureType.AIRLINE_UNAVAILABLE;
    return {
      type,
      message: failure.message,
      ...(airlineCode !== undefined ? { airlineCode } : {}),
      ...(airlines !== undefined ? { airlines } : {}),
    };
  }
  if (error instanceof ActivityFailure) {
    return { type: FailureType.AIRLINE_UNAVAILABLE, message: error.cause?.message ?? error.message };
  }
  throw error;
}
