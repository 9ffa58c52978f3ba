/**
 * The booking contract shared by the API, the workflows and the activities.
 * Plain interfaces only: these values cross HTTP and Temporal.
 * Amounts are exact decimal strings with their currency beside them.
 *
 * Statuses and failure types are declared once, in `booking.status.ts` and
 * `booking.failures.ts`, and re-exported here.
 */
import type { BookingStatus } from './booking.status';
import type { FailureType } from './booking.failures';
import type { BookingExtras, ExtrasState } from './booking.extras';

export { BookingStatus, BOOKING_STATUSES, isBookingStatus, isFinalStatus } from './booking.status';
export { FailureType, FAILURE_TYPES, isFailureType } from './booking.failures';

/** Task queue the worker polls. Overridable with `TEMPORAL_TASK_QUEUE` (default `ndc-saga`). */
export const DEFAULT_TASK_QUEUE = 'ndc-saga';

/** Workflow type names, as registered by the worker. */
export const BOOKING_WORKFLOW = 'bookingWorkflow';
export const BATCH_WORKFLOW = 'batchWorkflow';

/** Custom search attributes upserted by the booking workflow (all Keyword). */
export const SEARCH_ATTRIBUTES = ['BookingStatus', 'AgencyId', 'Route', 'BookingReference'] as const;

export type PassengerType = 'ADT' | 'CHD' | 'INF';

export interface IntentPassenger {
  type: PassengerType;
  title: string;
  givenName: string;
  surname: string;
  /** YYYY-MM-DD */
  birthdate: string;
  contactId: string;
}

export interface IntentContact {
  id: string;
  emails: string[];
  phones: { countryDialingCode: string; number: string }[];
}

export interface CardAddress {
  addressLine1: string;
  addressLine2?: string;
  postalCode: string;
  cityName: string;
  stateOrProvince?: string;
  countryCode: string;
}

/** Card data. Sensitive: never logged, never stored in clear, never returned. */
export interface PaymentCard {
  number: string;
  name: string;
  expirationYear: number;
  expirationMonth: number;
  verificationCode: string;
  address: CardAddress;
}

export interface BookingIntent {
  agency: { id: string; name: string };
  /** ISO 3166 country of the point of sale. */
  pointOfSale: string;
  /** ISO 4217 currency prices are requested in. */
  currency: string;
  /** Language code, e.g. `EN`. */
  language: string;
  journey: {
    origin: string;
    destination: string;
    departureDate: string;
    returnDate?: string;
    /** When set, a calendar search of +/- this many days picks the cheapest date first. */
    flexibleDays?: number;
  };
  passengers: IntentPassenger[];
  contacts: IntentContact[];
  selection?: {
    /** Price class code (e.g. `ECONOMY`, `PLUS`); cheapest offer when absent. */
    priceClass?: string;
    /** Decimal string in `currency`; a higher priced total waits for approval. */
    maxTotal?: string;
  };
  promotionCode?: string;
  corporate?: { airlineId: string; account: string };
  /** Bags, other services and seats to add to the offer (docs/api.md "Extras"). */
  extras?: BookingExtras;
  payment: { card: PaymentCard };
  securePayment: { failUrl: string; termUrl: string; ipAddress: string; userAgent: string };
}

export type BookingStepName =
  | 'calendar'
  | 'shop'
  | 'price'
  | 'tokenise'
  | 'repriceWithToken'
  | 'serviceList'
  | 'seatMap'
  | 'createOrder'
  | 'reconcileOrder'
  | 'retrieveOrder'
  | 'cancelOrder';

export interface StepRecord {
  name: BookingStepName;
  /** ISO date-times (workflow time). */
  startedAt: string;
  endedAt?: string;
  attempts: number;
  outcome?: 'ok' | 'failed';
  /** Why the step failed (`outcome: 'failed'`). */
  failure?: FailureType;
  /**
   * Why this step runs: set on the first step of a fresh shopping round, e.g.
   * `reshop 1/2 after NO_SEATS (711)`, and on order lookups while settling.
   */
  reason?: string;
}

/**
 * Type of a {@link BookingError}: a {@link FailureType} for every business outcome; the API
 * reports a workflow that closed without one (failed by a bug, terminated, timed out) as
 * `WORKFLOW_<execution status>`, e.g. `WORKFLOW_TERMINATED`.
 */
export type BookingErrorType = FailureType | `WORKFLOW_${string}`;

export interface BookingError {
  /** Stable type, e.g. `PRICE_MISMATCH`, `NO_OFFERS`, `PRICE_NOT_APPROVED`. */
  type: BookingErrorType;
  message: string;
  /** The airline's NDC error code, when it gave one. */
  airlineCode?: string;
}

export interface BookingState {
  status: BookingStatus;
  currentStep?: BookingStepName;
  steps: StepRecord[];
  chosenOffer?: {
    offerIds: string[];
    priceClass?: string;
    departureDate: string;
    returnDate?: string;
    shoppingResponseId: string;
  };
  pricedTotal?: { value: string; currency: string };
  /** The extras asked for in the intent, as priced (absent without `intent.extras`). */
  extras?: ExtrasState;
  surcharge?: { value: string; currency: string };
  order?: {
    orderId: string;
    bookingReference: string;
    total: { value: string; currency: string };
    status: string;
  };
  error?: BookingError;
  /**
   * While `SETTLING`, and kept afterwards (also on `ESCALATED`): the ids the airline's order
   * lookup was asked for (the ResponseID the OrderCreateRQ carried, then the shopping response
   * id), when the window started and when it ends (workflow time, ISO 8601), and how many
   * lookups found nothing. With these ids ops can check by hand.
   */
  settling?: {
    lookupIds: string[];
    since: string;
    until: string;
    lookups: number;
  };
  /**
   * Cancelling the confirmed order (`cancel` / `cancelBooking` within the cancel window):
   * `cancelling` while it runs, then `cancelled` (status `CANCELLED`, with the airline's refund
   * and fee when it stated them) or `failed` (the booking stays `CONFIRMED`, `error` says why).
   * `settledBy: 'retrieve'` when the cancel got no answer and the order's status read back
   * cancelled (the refund is then not known here).
   */
  cancellation?: {
    status: 'cancelling' | 'cancelled' | 'failed';
    requestedAt: string;
    reason?: string;
    endedAt?: string;
    refund?: { value: string; currency: string };
    fee?: { value: string; currency: string };
    settledBy?: 'answer' | 'retrieve';
    error?: BookingError;
  };
  /**
   * Set when the order exists (the booking is `CONFIRMED`) but the retrieve step failed after
   * all its retries: the booking's OrderViewRS is then the one OrderCreate (or the
   * reconciliation) answered.
   */
  retrieveError?: BookingError;
  /** The correlation id sent to the airline (the starting request's X-Request-Id, or the workflow id). */
  correlationId?: string;
}

/**
 * What `bookingWorkflow` returns. The workflow completes normally for every business outcome
 * (`CONFIRMED`, `FAILED`, `CANCELLED`); `state.status` says which. Only bugs fail the workflow.
 */
export interface BookingResult {
  state: BookingState;
  /**
   * OrderViewRS XML as returned by the airline: the retrieve step's, or OrderCreate's when the
   * retrieve failed (`state.retrieveError`). Present only when `CONFIRMED`.
   */
  orderViewXml?: string;
}

/** Second, optional argument of `bookingWorkflow`. */
export interface BookingWorkflowOptions {
  /** How long the price guard waits for `approvePrice` / `cancel`, in ms. Default 24 h (86 400 000). */
  approvalTimeoutMs?: number;
  /** How many times an expired offer / response / token leads to a fresh shop and price. Default 2. */
  maxReshops?: number;
  /** How many times an order create whose outcome is unknown is retried (after reconciling). Default 5. */
  maxCreateAttempts?: number;
  /**
   * After an order create without a definite answer, how long the saga keeps looking the order up
   * (with backoff) before it concludes that none exists, in ms. Must be longer than the airline's
   * longest commit. Default 120 000 (`ORDER_SETTLE_WINDOW_MS` of the API/worker).
   */
  settleWindowMs?: number;
  /**
   * What happens when the settle window passes without an order: `recreate` (default) sends the
   * create again; `escalate` ends the booking `ESCALATED` for a person to check.
   */
  unsettledPolicy?: UnsettledPolicy;
  /**
   * How long a `CONFIRMED` booking stays open for `cancel` / `cancelBooking`, which then cancel its
   * order at the airline, in ms. Default 0: the workflow completes at `CONFIRMED` (and a later
   * cancel is refused). Deployment default `BOOKING_CANCEL_WINDOW_MS`.
   */
  cancelWindowMs?: number;
  /**
   * Sent to the airline as the NDC CorrelationID (at most 64 characters): the API passes the
   * `X-Request-Id` of the request that started the booking. Default: the workflow id.
   */
  correlationId?: string;
  /**
   * How long a booking with `extras.seats.mode: choose` waits in `AWAITING_SEAT_SELECTION` for the
   * traveller's seats before it goes on without, in ms. Default 600 000 (10 min;
   * `SEAT_SELECTION_TIMEOUT_MS` of the API/worker).
   */
  seatSelectionTimeoutMs?: number;
}

/** See {@link BookingWorkflowOptions.unsettledPolicy}. */
export type UnsettledPolicy = 'recreate' | 'escalate';

/** Argument of `batchWorkflow`. Child booking ids are `<batch workflow id>-<index>` (0-based). */
export interface BatchInput {
  intents: BookingIntent[];
  /** Children running at once. Default 4. */
  concurrency?: number;
  /** Passed to every child `bookingWorkflow`. */
  options?: BookingWorkflowOptions;
  /**
   * All or nothing: once a booking ends other than `CONFIRMED`, no further intent starts, running
   * ones are cancelled, and every confirmed one is cancelled at the airline (the batch ends
   * `COMPENSATED`). Default false.
   */
  atomic?: boolean;
}

/** Status of an atomic batch (see {@link BatchProgress.status}). */
export type BatchStatus = 'RUNNING' | 'COMPLETED' | 'COMPENSATING' | 'COMPENSATED' | 'COMPENSATION_FAILED';

/**
 * Compensation of one confirmed booking of a failed atomic batch: `PENDING` while its cancel is
 * retried, `DONE` once it is `CANCELLED`, `IMPOSSIBLE` when the booking can no longer be
 * cancelled through its workflow (it closed while still confirmed).
 */
export type CompensationOutcome = 'PENDING' | 'DONE' | 'IMPOSSIBLE';

/** What a child booking tells its batch at each status change (signal `bookingStatus`). */
export interface BookingStatusReport {
  bookingId: string;
  status: BookingStatus;
  refund?: { value: string; currency: string };
}

/** A batch child's status for its batch (`reportBookingStatus`). */
export interface ReportBookingStatusInput {
  batchId: string;
  report: BookingStatusReport;
}

/** Workflow-side view of the local activity that tells a batch of its child's status (activities/status-signal.activities.ts). */
export interface BatchReportActivities {
  /** Signals the report to the batch: `true`, or `false` when the batch is closed. */
  reportBookingStatus(input: ReportBookingStatusInput): Promise<boolean>;
}

/** Signal and query names (the definitions live in `workflows/definitions.ts`). */
export const APPROVE_PRICE_SIGNAL = 'approvePrice';
export const CANCEL_SIGNAL = 'cancel';
export const STATE_QUERY = 'state';
export const PROGRESS_QUERY = 'progress';

export interface BatchProgress {
  total: number;
  /** Intents whose child workflow has not started yet (concurrency limit). */
  pending: number;
  running: number;
  confirmed: number;
  failed: number;
  cancelled: number;
  /** Children that ended `ESCALATED` (whether an order exists must be checked by hand). */
  escalated: number;
  /**
   * One entry per started child, in intent order: id is the child booking workflow id. Atomic
   * batches add the refund of a cancelled order and the compensation outcome.
   */
  bookings: {
    id: string;
    status: BookingStatus;
    refund?: { value: string; currency: string };
    compensation?: CompensationOutcome;
  }[];
  /** Atomic batches only (absent otherwise). */
  atomic?: true;
  /**
   * Atomic batches only: `RUNNING`, then `COMPLETED` (all confirmed) or `COMPENSATING` ->
   * `COMPENSATED` (every confirmed booking cancelled), or `COMPENSATION_FAILED` when one could
   * not be (its `compensation` is `IMPOSSIBLE`).
   */
  status?: BatchStatus;
  /** Atomic batches only: intents never started because a booking had already failed. */
  skipped?: number;
}
