/**
 * What the steps of the booking saga share (docs/orchestrator.md, "The saga, file by file"): the
 * settings, the trail (state, status and search attributes, step records) and the inboxes the
 * handlers fill. Imports no step; a step imports this, the airline proxies (`airlines.ts`), the
 * failure readers (`failures.ts`) and pure decisions, never another step.
 *
 * Workflow code: deterministic, activities imported as types only.
 */
import { ActivityFailure, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type {
  ChangeOfferFound,
  OrderRef,
  OrderSummary,
  PriceResult,
  ShopResult,
} from '../../activities/booking.activities.types';
import {
  DEFAULT_PAYMENT_DUE_NOTICE_MS,
  type AirlineChangeNotice,
  type ServicingAction,
  type ServicingArgs,
  type ServicingOptions,
} from '../../src/booking/servicing.model';
import {
  DEFAULT_AUTHENTICATION_TIMEOUT_MS,
  type AirlineRoute,
  type AuthenticationReturn,
  type BookingError,
  type BookingIntent,
  type BookingResult,
  type BookingState,
  type BookingStepName,
  type BookingWorkflowOptions,
  type ResumedBooking,
  type ServicingAnswers,
  type StepRecord,
  type UnsettledPolicy,
} from '../../src/booking/booking.model';
import type { BookingStatus } from '../../src/booking/booking.status';
import { ndcContextOf, type NdcContext } from '../../src/booking/intent-to-ndc';
import { extrasAsked } from '../../src/booking/booking.extras';
import type { ExtraPick, SeatMaps } from '../../src/booking/booking.extras';
import { failureTypeOf } from '../../src/booking/booking.failures';
import { AgencyIdKey, AirlineKey, BookingStatusKey, ExtrasKey, RouteKey } from '../../src/temporal/search-attributes';
import { bookingStatusChanged } from '../booking-status-listeners';
import { emitBookingEvent } from '../webhook-events';
import type { WebhookEventType } from '../../src/webhooks/webhook.model';
import { DEFAULT_SETTLE_WINDOW_MS, DEFAULT_UNAVAILABLE_BUDGET_MS } from './decisions';
import type { Pax } from './extras.decisions';
import { applicationFailureOf, attemptsOf, toBookingError } from './failures';

/** Default wait for the traveller's seats (`SEAT_SELECTION_TIMEOUT_MS`): 10 min, less than the airline's seat lock. */
export const DEFAULT_SEAT_SELECTION_TIMEOUT_MS = 10 * 60 * 1000;
/** Default wait of the price guard for `approvePrice` / `cancel`: 24 h. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Default number of fresh shop-and-price rounds after a "shop again" answer. */
export const DEFAULT_MAX_RESHOPS = 2;
/** Default number of order-create attempts (each retry preceded by a settled lookup). */
export const DEFAULT_MAX_CREATE_ATTEMPTS = 5;
/** Cancel attempts of a confirmed order whose earlier cancels got no answer and that still reads back live. */
export const MAX_CANCEL_ATTEMPTS = 3;
export { DEFAULT_SETTLE_WINDOW_MS } from './decisions';

/**
 * Versions the `SETTLING` search-attribute upserts: histories recorded before them replay without
 * (docs/orchestrator.md, "Tests").
 */
export const SETTLING_STATUS_PATCH = 'settling-status';

/** The booking's settings: its workflow options with their defaults. */
export interface Settings {
  approvalTimeoutMs: number;
  maxReshops: number;
  maxCreateAttempts: number;
  settleWindowMs: number;
  unsettledPolicy: UnsettledPolicy;
  cancelWindowMs: number;
  seatSelectionTimeoutMs: number;
  authenticationTimeoutMs: number;
  /** How long the booking keeps trying when no allowed airline answers before an order exists. */
  unavailableBudgetMs: number;
  /** Absent: the booking completes at its outcome (or after its cancel window), as before servicing. */
  servicing?: ServicingSettings;
}

/** The servicing options with their defaults. */
export interface ServicingSettings {
  paymentDueNoticeMs: number;
  maxHistoryEvents: number;
  actionDueNoticeMs: number;
  airlineChanges?: ServicingOptions['airlineChanges'];
}

/** Default of {@link ServicingOptions.actionDueNoticeMs}: 6 h. */
export const DEFAULT_ACTION_DUE_NOTICE_MS = 6 * 60 * 60 * 1000;

/** Default of {@link ServicingOptions.maxHistoryEvents}. */
export const DEFAULT_SERVICING_MAX_HISTORY_EVENTS = 10_000;

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
    unavailableBudgetMs: Math.max(0, options.unavailableBudgetMs ?? DEFAULT_UNAVAILABLE_BUDGET_MS),
    ...(options.servicing !== undefined
      ? {
          servicing: {
            paymentDueNoticeMs: Math.max(0, options.servicing.paymentDueNoticeMs ?? DEFAULT_PAYMENT_DUE_NOTICE_MS),
            maxHistoryEvents: Math.max(100, options.servicing.maxHistoryEvents ?? DEFAULT_SERVICING_MAX_HISTORY_EVENTS),
            actionDueNoticeMs: Math.max(0, options.servicing.actionDueNoticeMs ?? DEFAULT_ACTION_DUE_NOTICE_MS),
            ...(options.servicing.airlineChanges !== undefined
              ? { airlineChanges: options.servicing.airlineChanges }
              : {}),
          },
        }
      : {}),
  };
}

// ------------------------------------------------------------------ the trail

/** Why a step runs (see {@link StepRecord.reason}) and the airline it runs at. */
export interface StepOptions {
  reason?: string;
  airline?: string;
}

/** The booking's visible record: state, status and search attribute, step trail. */
export interface Trail {
  readonly state: BookingState;
  /**
   * The one writer of the status: state, search attribute (unless `upsert: false`), webhook event
   * (the status's own, or `event`; `null`: none), listeners.
   */
  setStatus(status: BookingStatus, options?: { upsert?: boolean; event?: WebhookEventType | null }): void;
  /** Sends a webhook event about the booking as it is, without a status change (e.g. `booking.payment_due`). */
  announce(event: WebhookEventType): void;
  /** Runs one activity call as a recorded step (at the chosen airline unless `options.airline` says). */
  step<T extends { attempt: number }>(name: BookingStepName, call: () => Promise<T>, options?: StepOptions): Promise<T>;
  finish(status: BookingStatus, error?: BookingError): BookingResult;
  /** Resolves once every status change has reached the batch and the webhook registry. */
  settled(): Promise<void>;
}

/**
 * The trail of a new booking (its first search attributes set), or of one continued as new
 * (`resumed`: its state carried over; the server carries its search attributes).
 */
function createTrail(intent: BookingIntent, correlationId: string, resumed?: BookingState): Trail {
  const state: BookingState = resumed ?? { status: 'RUNNING', steps: [], correlationId };
  if (resumed === undefined) {
    // Bookings with extras also say which (bookings without any keep the commands they always had).
    const extras = extrasAsked(intent.extras);
    upsertSearchAttributes([
      { key: BookingStatusKey, value: 'RUNNING' },
      { key: AgencyIdKey, value: intent.agency.id },
      { key: RouteKey, value: `${intent.journey.origin}-${intent.journey.destination}` },
      ...(extras !== undefined ? [{ key: ExtrasKey, value: extras }] : []),
    ]);
  }
  const events: Promise<void>[] = [];
  const setStatus: Trail['setStatus'] = (status, options = {}) => {
    state.status = status;
    if (options.upsert !== false) upsertSearchAttributes([{ key: BookingStatusKey, value: status }]);
    events.push(emitBookingEvent(intent.agency.id, state, options.event));
    bookingStatusChanged(state);
  };
  return {
    state,
    setStatus,
    announce: (event) => {
      events.push(emitBookingEvent(intent.agency.id, state, event));
    },
    settled: () => Promise.all(events).then(() => undefined),
    step: (name, call, options = {}) => recordStep(state, name, call, options),
    finish(status, error) {
      delete state.currentStep;
      if (error !== undefined) state.error = error;
      setStatus(status);
      return { state };
    },
  };
}

async function recordStep<T extends { attempt: number }>(
  state: BookingState,
  name: BookingStepName,
  call: () => Promise<T>,
  options: StepOptions,
): Promise<T> {
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
}

// ------------------------------------------------------------------ the inboxes

/**
 * What the handlers (`handlers.ts`) received, read by the steps that wait for it. Each field has
 * one writer: the handler that receives it, except `seats` (opened by the extras step, its
 * `choice` written by the `selectSeats` handler) and `authentication.waiting` (the authenticate
 * step).
 */
export interface Inbox {
  /** `approvePrice` signals received; the price guard waits for one more than it saw when it began. */
  approvals: number;
  /** A cancel asked for by signal or update (the first one counts). */
  cancel: { requestedAt?: string; reason?: string };
  /** The traveller's seats, for the seat request the extras step opened (`AWAITING_SEAT_SELECTION`). */
  seats?: SeatChoiceRequest;
  /**
   * The 3-D Secure challenge the authenticate step waits on (a new one per challenge: the order,
   * then each payment after it), its result written by the `authenticationResult` handler.
   */
  authentication?: { waiting: boolean; result?: AuthenticationReturn };
  /** The servicing request being served (one at a time): set and cleared by its update handler. */
  ticket?: Ticket;
  /** Changes the airline made, as they came (the `airlineChange` signal appends; the servicing loop reads on). */
  notices: AirlineChangeNotice[];
}

/** A servicing request: its update handler waits until the servicing loop writes its outcome. */
export interface Ticket<A extends ServicingAction = ServicingAction> {
  readonly action: A;
  readonly args: ServicingArgs[A];
  /** Written by the servicing loop once served. */
  outcome?: { ok: true; value: ServicingAnswers[A] } | { ok: false; type: string; message: string };
}

/** A seat map offered to the traveller: opened by the extras step, answered by the `selectSeats` update. */
export interface SeatChoiceRequest {
  readonly maps: SeatMaps;
  readonly pax: readonly Pax[];
  choice?: ExtraPick[];
}

// ------------------------------------------------------------------ the booking

/** Where the booking is, as the cancel handler needs to know: written by the orchestrator only. */
export type Phase =
  /** Before order placement: a cancel ends the booking at once. */
  | 'preparing'
  /** Placing and confirming the order: a cancel is remembered, carried out once it is confirmed. */
  | 'ordering'
  /** The order exists: servicing actions are taken until the last flight has departed. */
  | 'serviceable'
  /** Serviceable, continuing as new: servicing requests are refused as busy meanwhile. */
  | 'continuing'
  /** About to complete: no cancel is carried out any more. */
  | 'closed';

/** Everything the steps share. */
export interface Booking {
  readonly intent: BookingIntent;
  /** The workflow's options, as started (a continue-as-new passes them on). */
  readonly options: BookingWorkflowOptions;
  /** One NDC TransactionIdentifier for every message of the booking (the airline's seat locks need it). */
  readonly ctx: NdcContext;
  readonly settings: Settings;
  readonly trail: Trail;
  readonly inbox: Inbox;
  /** The airlines to shop at (`options.airlines`); undefined: one, on the workflow's own queue. */
  readonly routes: readonly AirlineRoute[] | undefined;
  /** The API's 3-D Secure return URLs (`options.authenticationReturn`), sent as TermURL / FailURL. */
  readonly authenticationReturn?: { termUrl: string; failUrl: string };
  /** The airline that owns the chosen offer: written by {@link chooseAirline} only. */
  airline: AirlineRoute | undefined;
  /** Written by the orchestrator only. */
  phase: Phase;
  /** The OrderViewRS of the confirmed order (`orderView` query): written by the orchestrators only. */
  orderViewXml?: string;
  /** The order after the sale: written by the servicing orchestrator only. */
  afterSale?: AfterSale;
}

/** What the servicing orchestrator keeps of the order after the sale. */
export interface AfterSale {
  /** The order as last read or changed. */
  order: OrderSummary;
  /** The change offers of the last `changeOffers` (accepted by `changeTrip` while unexpired). */
  offers: ChangeOfferFound[];
  /** `booking.payment_due` went out for the current deadline. */
  paymentDueAnnounced: boolean;
  /** Reads at or after the payment deadline that still showed the order held (the airline not done yet). */
  holdChecks: number;
  /** The price guard's memory while paying a hold. */
  guard: { approvedTotal?: string; highestAccepted?: string };
  /** Notices of the inbox already taken (the next one to look at is `inbox.notices[noticesTaken]`). */
  noticesTaken: number;
  /** The last OrderChangeNotif sequence taken: duplicates at or below it are dropped. */
  lastSequence?: number;
  /** When the order is read back next for changes the airline made without telling (epoch ms). */
  nextReadAt?: number;
  /** `booking.airline_change_due` went out for the current airline change. */
  actionDueAnnounced: boolean;
  /** Reads at or after an airline change's deadline that did not show the airline's default yet. */
  deadlineChecks: number;
}

/** The booking's shared context, its search attributes set. Registers no handler (`handlers.ts` does). */
export function openBooking(intent: BookingIntent, options: BookingWorkflowOptions): Booking {
  const correlationId = options.correlationId ?? workflowInfo().workflowId;
  const { resume, ...started } = options;
  const routes = routesFor(intent, options.airlines);
  const booking: Booking = {
    intent,
    options: started,
    ctx: ndcContextOf(intent, correlationId, workflowInfo().firstExecutionRunId.replace(/-/g, '')),
    settings: settingsOf(options),
    trail: createTrail(intent, correlationId, resume?.state),
    inbox: { approvals: 0, cancel: {}, notices: [] },
    routes,
    ...(options.authenticationReturn !== undefined ? { authenticationReturn: options.authenticationReturn } : {}),
    airline: undefined,
    phase: resume === undefined ? 'preparing' : 'serviceable',
  };
  if (resume !== undefined) resumeAfterSale(booking, resume);
  return booking;
}

/** A booking continued as new: its airline, order and servicing memory as the last run left them. */
function resumeAfterSale(booking: Booking, resume: ResumedBooking): void {
  booking.airline = booking.routes?.find((route) => route.code === resume.state.airline);
  if (resume.orderViewXml !== undefined) booking.orderViewXml = resume.orderViewXml;
  booking.afterSale = {
    order: resume.order,
    offers: resume.offers,
    paymentDueAnnounced: resume.paymentDueAnnounced,
    holdChecks: 0,
    noticesTaken: 0,
    ...(resume.lastSequence !== undefined ? { lastSequence: resume.lastSequence } : {}),
    ...(resume.nextReadAt !== undefined ? { nextReadAt: Date.parse(resume.nextReadAt) } : {}),
    actionDueAnnounced: resume.actionDueAnnounced ?? false,
    deadlineChecks: 0,
    guard: resume.approvedTotal !== undefined ? { approvedTotal: resume.approvedTotal } : {},
  };
}

/**
 * The airlines this booking shops at: those the intent names (in its order) of the routes the
 * API passed, else all of them. Undefined without routes (one airline, on this task queue).
 */
function routesFor(intent: BookingIntent, routes: AirlineRoute[] | undefined): AirlineRoute[] | undefined {
  if (routes === undefined || intent.airlines === undefined) return routes;
  return intent.airlines.flatMap((code) => routes.filter((route) => route.code === code));
}

/**
 * Shows the order as the airline last showed it: the one writer of `state.order`, `state.flights`
 * and a held order's `state.payment` (what is due, by when).
 */
export function showOrder(state: BookingState, order: OrderSummary): void {
  state.order = {
    orderId: order.orderId,
    bookingReference: order.bookingReference,
    total: order.total,
    status: order.status,
  };
  if (order.flights !== undefined && order.flights.length > 0) state.flights = order.flights;
  const { payment } = order;
  if (payment?.status === 'due') {
    state.payment = {
      status: 'due',
      amount: order.total,
      ...(payment.dueBy !== undefined ? { dueBy: payment.dueBy } : {}),
      ...(payment.priceGuaranteedUntil !== undefined ? { priceGuaranteedUntil: payment.priceGuaranteedUntil } : {}),
    };
  } else if (state.payment?.status === 'due') {
    state.payment = { ...state.payment, status: 'paid', amount: order.total, paidAt: new Date().toISOString() };
  }
}

/**
 * The NDC context of one servicing action: the booking's, with a TransactionIdentifier of its own
 * (an airline de-duplicates a repeated change by it, so each action has one).
 */
export function servicingContext(booking: Booking): NdcContext {
  return { ...booking.ctx, transactionId: uuid4().replace(/-/g, '') };
}

/** The order as the activities name it. */
export function refOf(order: Pick<OrderSummary, 'orderId' | 'owner'>): OrderRef {
  return { orderId: order.orderId, owner: order.owner };
}

/** A cancel asked for and not yet carried out (or tried: a failed cancel may be asked for again). */
export function cancelPending({ inbox, trail }: Booking): boolean {
  const asked = inbox.cancel.requestedAt;
  return asked !== undefined && asked !== trail.state.cancellation?.requestedAt;
}

/** Records the chosen airline: the booking's routing, the state, and (routed bookings) the search attribute. */
export function chooseAirline(booking: Booking, route: AirlineRoute | undefined): void {
  booking.airline = route;
  if (route === undefined) return;
  const { state } = booking.trail;
  if (state.airline !== route.code) upsertSearchAttributes([{ key: AirlineKey, value: route.code }]);
  state.airline = route.code;
}

/** The settle window and unsettled policy of the chosen airline (else the booking's). */
export function airlineSettings({
  airline,
  settings,
}: Booking): Pick<Settings, 'settleWindowMs' | 'unsettledPolicy' | 'authenticationTimeoutMs'> {
  return {
    settleWindowMs: Math.max(0, airline?.settleWindowMs ?? settings.settleWindowMs),
    unsettledPolicy: airline?.unsettledPolicy ?? settings.unsettledPolicy,
    authenticationTimeoutMs: Math.max(0, airline?.authenticationTimeoutMs ?? settings.authenticationTimeoutMs),
  };
}

/** The intent's secure-payment data with the booking API's return URLs, when it has them. */
export function securePaymentOf(booking: Booking): BookingIntent['securePayment'] {
  const { securePayment } = booking.intent;
  return booking.authenticationReturn === undefined
    ? securePayment
    : { ...securePayment, ...booking.authenticationReturn };
}

// ------------------------------------------------------------------ what passes between the phases

/** One shopping round: its number, why it started, the token it may reuse. */
export interface Round {
  /** Shop-again rounds so far (`maxReshops` of them at most). */
  number: number;
  reason?: string;
  /** A card token of an earlier round, usable at that round's airline only. */
  token?: { id: string; airline?: string; funding?: string };
  /** Highest total the price guard let through in earlier rounds. */
  acceptedBefore?: string;
  /** The airline this round chose (written by the orchestrator once the offers are chosen). */
  chosen?: string;
  /** Airlines left out: they stopped answering before an order existed. */
  excluded?: string[];
  /** Airlines not answering: since when (workflow ms), and how often the booking waited for them. */
  unavailable?: { sinceMs: number; waits: number };
}

/** What preparing the offer hands to placing the order. */
export interface ReadyToOrder {
  shop: ShopResult;
  priced: PriceResult;
  /** The card token the order is paid with; absent for a hold (paid later). */
  tokenId?: string;
}

/** An order the airline made (by its answer, or found by reading it back). */
export interface Placed {
  kind: 'placed';
  order: OrderSummary;
  orderViewXml?: string;
}

/** A placed order from an activity's answer. */
export function placed(answer: { order: OrderSummary; orderViewXml?: string | undefined }): Placed {
  return {
    kind: 'placed',
    order: answer.order,
    ...(answer.orderViewXml !== undefined ? { orderViewXml: answer.orderViewXml } : {}),
  };
}

/** How placing the order ended. */
export type PlaceOutcome =
  | Placed
  /** A definite failure: no order exists. */
  | { kind: 'failed'; cause: unknown }
  /** Whether an order exists is unknown: a person must check. */
  | { kind: 'escalated'; error: BookingError }
  /** Cancelled while waiting for 3-D Secure: no order exists. */
  | { kind: 'cancelled' };

/** A call that may have changed the order got no definite answer: settle it before anything else. */
export type Unknown = { kind: 'unknown' };

/** What one call that may make the order answered: an order, a definite failure, or nothing known. */
export type Sent = Placed | { kind: 'failed'; cause: unknown } | Unknown;
