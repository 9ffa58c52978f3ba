/**
 * The booking contract shared by the API, the workflows and the activities.
 * Plain data only (interfaces, and types inferred from the zod schemas of `booking.schemas.ts`):
 * these values cross HTTP and Temporal. Amounts are exact decimal strings with their currency
 * beside them.
 *
 * Statuses and failure types are declared once, in `booking.status.ts` and
 * `booking.failures.ts`, and re-exported here.
 */
import type { BookingStatus } from './booking.status';
// Type-only: the types below are inferred from the schemas; the workflow bundle never loads zod.
import type { z } from 'zod/v4';
import type {
  batchProgressSchema,
  batchStatusSchema,
  bookingIntentSchema,
  bookingErrorSchema,
  bookingErrorTypeSchema,
  bookingStateSchema,
  bookingStepNameSchema,
  compensationOutcomeSchema,
  intentContactSchema,
  intentPassengerSchema,
  passengerTypeSchema,
  stepRecordSchema,
  submittedIntentSchema,
} from './booking.schemas';

export { BookingStatus, BOOKING_STATUSES, isBookingStatus, isFinalStatus } from './booking.status';
export { FailureType, FAILURE_TYPES, isFailureType } from './booking.failures';

/** Re-exported for `scripts/start.ts`: the default lives with the Temporal settings. */

/**
 * Workflow type names, as registered by the worker (the exports of `workflows/index.ts`; the API's
 * `src/api/common/workflow-contract.ts` does not compile when one names no registered workflow).
 */
export const BOOKING_WORKFLOW = 'bookingWorkflow';
export const BATCH_WORKFLOW = 'batchWorkflow';

/**
 * Task queue of one airline's activities: `<taskQueue>-airline-<code>`, rate limited at that
 * airline's `rateLimitRps` (docs/orchestrator.md, "Airlines").
 */
export function airlineTaskQueue(taskQueue: string, code: string): string {
  return `${taskQueue}-airline-${code}`;
}

/**
 * Task queue of one airline's order-read permits: `<taskQueue>-airline-<code>-reads`, rate limited
 * at the share of the airline's quota that scheduled order reads may take (docs/orchestrator.md,
 * "Changes the airline makes").
 */
export function airlineReadsTaskQueue(taskQueue: string, code: string): string {
  return `${airlineTaskQueue(taskQueue, code)}-reads`;
}

/**
 * An airline a booking may use, as the API hands it to the workflow (from the airline's
 * profile): its designator and the settings the saga needs of it.
 */
export interface AirlineRoute {
  /** Designator, e.g. `ZZ`: the activities run on {@link airlineTaskQueue}. */
  code: string;
  /** See {@link BookingWorkflowOptions.settleWindowMs}; default the option's. */
  settleWindowMs?: number;
  /** See {@link BookingWorkflowOptions.unsettledPolicy}; default the option's. */
  unsettledPolicy?: UnsettledPolicy;
  /** See {@link BookingWorkflowOptions.authenticationTimeoutMs}; default the option's. */
  authenticationTimeoutMs?: number;
  /** Whether the airline answers calendar searches (`journey.flexibleDays`). Default true. */
  calendarSearch?: boolean;
  /**
   * How often a serviceable booking reads its order back for changes the airline made without
   * telling (docs/orchestrator.md, "Changes the airline makes"): every `everyMs` (default 24 h),
   * every `nearDepartureEveryMs` (default 6 h) within `nearDepartureMs` (default 7 days) of the
   * departure; three times less often when the airline `pushesNotifications`.
   */
  orderReads?: { everyMs?: number; nearDepartureEveryMs?: number; nearDepartureMs?: number };
  /** The airline pushes OrderChangeNotif to the API: its orders are read back less often. */
  pushesNotifications?: boolean;
  /**
   * The card fee the airline adds to a payment made in an OrderChangeRQ (a held order paid, a trip
   * change, extras), in percent of the amount due (a decimal string, e.g. `"2"`), for a card its
   * token answer does not call `debit`; the booking pays the amount and the fee. Default none.
   */
  servicingCardFeePercent?: string;
}

export type PassengerType = z.infer<typeof passengerTypeSchema>;
export type IntentPassenger = z.infer<typeof intentPassengerSchema>;
export type IntentContact = z.infer<typeof intentContactSchema>;
export type { CardAddress, CardAuthentication, PaymentCard } from '../common/payment-card';
import type { PaymentCard } from '../common/payment-card';
import type {
  ChangeOffer,
  ChangeOfferFound,
  OrderServiceOffer,
  OrderSummary,
  RefundQuote,
  ServicingOptions,
} from './servicing.model';
import type { SeatMaps } from './booking.extras';

/**
 * A booking intent as the saga books it (`bookingWorkflow`'s first argument): inferred from
 * `bookingIntentSchema` (booking.schemas.ts), where every field is described.
 */
export type BookingIntent = z.infer<typeof bookingIntentSchema>;

/** An intent that pays by card (not a hold). */
export type CardIntent = BookingIntent & { payment: { card: PaymentCard } };

/** The intent's card; undefined for a hold (`payment: { hold: true }`: the order is paid later). */
export function cardOf(intent: Pick<BookingIntent, 'payment'>): PaymentCard | undefined {
  return intent.payment.card;
}

/** A booking intent as submitted to the API: `agency.id` may be missing (the caller's is used then). */
export type SubmittedIntent = z.infer<typeof submittedIntentSchema>;

/** A step of the saga's trail (the activity it runs). */
export type BookingStepName = z.infer<typeof bookingStepNameSchema>;

/** One step of the trail: when it ran, how often, how it ended and why it ran. */
export type StepRecord = z.infer<typeof stepRecordSchema>;

/**
 * Type of a {@link BookingError}: a `FailureType` for every business outcome; the API
 * reports a workflow that closed without one (failed by a bug, terminated, timed out) as
 * `WORKFLOW_<execution status>`, e.g. `WORKFLOW_TERMINATED`.
 */
export type BookingErrorType = z.infer<typeof bookingErrorTypeSchema>;

/** A business failure: its stable type, a message and the airline's NDC error code when it gave one. */
export type BookingError = z.infer<typeof bookingErrorSchema>;

/**
 * The booking's state (the `state` query, the API's BookingView): inferred from
 * `bookingStateSchema` (booking.schemas.ts), where every field is described.
 */
export type BookingState = z.infer<typeof bookingStateSchema>;

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
   * How long the booking waits for the cardholder's 3-D Secure result when the airline asks for
   * one, ms (an airline route's own value wins). Default 600 000 (10 minutes, the embedded
   * airline's hold). None in time: `FAILED` with `AUTHENTICATION_TIMEOUT`.
   */
  authenticationTimeoutMs?: number;
  /**
   * Where the cardholder's browser comes back after 3-D Secure: the booking API's return
   * endpoint with this booking's one-time token (`/bookings/{id}/authentication/return`), sent to
   * the airline as TermURL and FailURL instead of the intent's. Absent: the intent's URLs.
   */
  authenticationReturn?: { termUrl: string; failUrl: string };
  /**
   * The airlines to shop at, in preference order, with their settings (the API fills it from the
   * airline profiles and the intent's `airlines`). Each airline's activities run on its own task
   * queue. Absent (workflows started before airline profiles, tests): one airline, whose
   * activities run on the workflow's own task queue.
   */
  airlines?: AirlineRoute[];
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
  /**
   * Keeps the booking open after its order exists, for servicing (pay a hold, change the trip,
   * add bags and seats, refund quotes, remove travellers, cancel) until its last flight has
   * departed (docs/orchestrator.md, "Servicing"); the API always sets it. Absent (bookings started
   * before servicing): the booking completes at `CONFIRMED`, or after its `cancelWindowMs`.
   */
  servicing?: ServicingOptions;
  /**
   * How long a booking keeps trying, before an order exists, when no airline the intent allows
   * answers (each stopped airline is left for the others first), in ms. Default 600 000 (10 min;
   * `AIRLINE_UNAVAILABLE_BUDGET_MS` of the API).
   */
  unavailableBudgetMs?: number;
  /** Set by the booking itself when it continues as new: the run goes straight on servicing. */
  resume?: ResumedBooking;
}

/** What each servicing action answers. */
export interface ServicingAnswers {
  changeOffers: { offers: ChangeOffer[] };
  changeTrip: BookingState;
  orderServices: { services: OrderServiceOffer[] };
  orderSeatMap: SeatMaps;
  addServices: BookingState;
  cancelQuote: RefundQuote;
  removePassengers: BookingState;
  pay: BookingState;
  answerAirlineChange: BookingState;
}

/** What a serviceable booking carries into its next run (continue-as-new). */
export interface ResumedBooking {
  state: BookingState;
  order: OrderSummary;
  offers: ChangeOfferFound[];
  paymentDueAnnounced: boolean;
  orderViewXml?: string;
  /** The price guard's memory (what was approved). */
  approvedTotal?: string;
  /** The last OrderChangeNotif sequence taken (duplicates at or below it are dropped). */
  lastSequence?: number;
  /** When the order is read back next (changes the airline made without telling). */
  nextReadAt?: string;
  /** `booking.airline_change_due` went out for the current airline change. */
  actionDueAnnounced?: boolean;
}

/** See {@link BookingWorkflowOptions.unsettledPolicy}. */
export type UnsettledPolicy = 'recreate' | 'escalate';

/** Default of {@link BookingWorkflowOptions.authenticationTimeoutMs}: 10 minutes. */
export const DEFAULT_AUTHENTICATION_TIMEOUT_MS = 600_000;

/**
 * A 3-D Secure result brought back by the cardholder's browser (or posted by the agency):
 * `approved` came to the TermURL, `declined` to the FailURL; `paRes` is the issuer's signed
 * result as it came (sensitive: never logged, never in the state).
 */
export interface AuthenticationReturn {
  outcome: 'approved' | 'declined';
  paRes?: string;
}

/**
 * The workflow's answer to an {@link AuthenticationReturn}: the outcome of the result it took
 * (the first: a later one changes nothing), and whether this one was it.
 */
export interface AuthenticationReceipt {
  outcome: 'approved' | 'declined';
  first: boolean;
  /** The intent's `securePayment.termUrl` (approved) or `failUrl` (declined): where the browser goes next. */
  redirectUrl: string;
}

/** Argument of `batchWorkflow`. Child booking ids are `<batch workflow id>-<index>` (0-based). */
/** Child workflow id of intent `index` (0-based) of batch `batchId`. */
export function batchChildId(batchId: string, index: number): string {
  return `${batchId}-${index}`;
}

export interface BatchInput {
  intents: BookingIntent[];
  /** Children running at once. Default 4. */
  concurrency?: number;
  /** Passed to every child `bookingWorkflow`. */
  options?: BookingWorkflowOptions;
  /**
   * The 3-D Secure return URLs of each child (index as in `intents`; child id {@link batchChildId}),
   * set by the booking API: child `i` gets `authenticationReturns[i]` as its
   * `options.authenticationReturn`, exactly as a single booking does. Absent: the intents' URLs.
   */
  authenticationReturns?: { termUrl: string; failUrl: string }[];
  /**
   * All or nothing: once a booking ends other than `CONFIRMED`, no further intent starts, running
   * ones are cancelled, and every confirmed one is cancelled at the airline (the batch ends
   * `COMPENSATED`). Default false.
   */
  atomic?: boolean;
}

/** Status of an atomic batch (see {@link BatchProgress.status}). */
export type BatchStatus = z.infer<typeof batchStatusSchema>;

/**
 * Compensation of one confirmed booking of a failed atomic batch: `PENDING` while its cancel is
 * retried, `DONE` once it is `CANCELLED`, `IMPOSSIBLE` when the booking can no longer be
 * cancelled through its workflow (it closed while still confirmed).
 */
export type CompensationOutcome = z.infer<typeof compensationOutcomeSchema>;

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

/**
 * A batch's progress (the `progress` query): counts per outcome and one entry per started child,
 * in intent order; atomic batches add the refund of a cancelled order, the compensation outcome,
 * the batch status and the intents skipped. Inferred from `batchProgressSchema`.
 */
export type BatchProgress = z.infer<typeof batchProgressSchema>;
