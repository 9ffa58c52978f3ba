/**
 * The booking after the sale (docs/orchestrator.md, "Servicing"): the second half of the saga,
 * which `bookingWorkflow` delegates to once the order exists. The loop below waits for the next
 * thing to do and does it; the agency's requests are `booking.requests.ts`, the changes the
 * airline makes `booking.airline-changes.ts`, and their steps live in `booking/` like the
 * booking's own.
 *
 * The booking stays serviceable until its last flight has departed; it continues as new when its
 * history grows, carrying its state.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  condition,
  makeContinueAsNewFunc,
  workflowInfo,
} from '@temporalio/workflow';
import type { NdcContext, OrderSummary } from '../activities/booking.activities.types';
import type {
  BookingIntent,
  BookingResult,
  BookingWorkflowOptions,
  ResumedBooking,
} from '../src/booking/booking.model';
import type { ChangeOffer, ChangeOfferFound } from '../src/booking/servicing.model';
import {
  actionDeadline,
  answerAirlineChange,
  nextReadAt,
  readForChanges,
  takeNotices,
} from './booking.airline-changes';
import { holdExpired, refusal } from './booking.order-changes';
import { addServices, changeTrip, pay, removePassengers, servicesOnSale } from './booking.requests';
import { cancelConfirmed } from './booking/cancel';
import {
  cancelPending,
  servicingContext,
  showOrder,
  type AfterSale,
  type Booking,
  type Ticket,
} from './booking/context';
import { applicationFailureOf, toBookingError } from './booking/failures';
import { orderSeatMap, quoteRefund, readOrder, reshop } from './booking/order-reads';
import { nextTimedEvent, orderPaid, serviceableUntil, type TimedEvent } from './booking/servicing.decisions';

/** Step records a run carries into the next (the oldest are dropped: the history keeps them). */
const MAX_STEPS_CARRIED = 200;

/** Serves the booking until its last flight has departed (or it is cancelled, or expires). */
export async function serviceUntilDeparture(booking: Booking, order: OrderSummary): Promise<BookingResult> {
  const afterSale = openAfterSale(booking, order);
  for (;;) {
    const event = await nextEvent(booking, afterSale);
    if (event === 'departed') {
      delete booking.trail.state.currentStep;
      return resultOf(booking);
    }
    if (event === 'continueAsNew') {
      await continueServicing(booking, afterSale);
      continue;
    }
    if (await handle(booking, afterSale, event)) return resultOf(booking);
  }
}

/** Does one thing the loop woke for; true when the booking ended. */
async function handle(booking: Booking, afterSale: AfterSale, event: Exclude<Event, 'departed' | 'continueAsNew'>) {
  switch (event) {
    case 'cancel':
      return cancelOrder(booking, afterSale);
    case 'notice':
      return takeNotices(booking, afterSale);
    case 'ticket':
      await serveTicket(booking, afterSale);
      return booking.trail.state.status === 'CANCELLED';
    case 'paymentDue':
      afterSale.paymentDueAnnounced = true;
      booking.trail.announce('booking.payment_due');
      return false;
    case 'holdDeadline':
      return holdDeadline(booking, afterSale);
    case 'actionDue':
      afterSale.actionDueAnnounced = true;
      booking.trail.announce('booking.airline_change_due');
      return false;
    case 'actionDeadline':
      return actionDeadline(booking, afterSale);
    case 'orderRead':
      return readForChanges(booking, afterSale);
  }
}

/** The servicing memory: the run's own, or the one carried from the run before. */
function openAfterSale(booking: Booking, order: OrderSummary): AfterSale {
  booking.phase = 'serviceable';
  const { state } = booking.trail;
  state.serviceableUntil ??= serviceableUntil(order.flights, booking.intent.journey);
  booking.afterSale ??= {
    order,
    offers: [],
    paymentDueAnnounced: false,
    holdChecks: 0,
    guard: {},
    noticesTaken: 0,
    actionDueAnnounced: false,
    deadlineChecks: 0,
    nextReadAt: nextReadAt(booking.airline, Date.now(), Date.parse(state.serviceableUntil)),
  };
  return booking.afterSale;
}

type Event = TimedEvent | 'ticket' | 'cancel' | 'notice' | 'continueAsNew';

/** Waits for the next thing to do: a cancel, a notice, a request, a history to cut, or the next timed event. */
async function nextEvent(booking: Booking, afterSale: AfterSale): Promise<Event> {
  const { state } = booking.trail;
  const servicing = booking.settings.servicing!;
  const timed = nextTimedEvent({
    until: state.serviceableUntil!,
    status: state.status,
    ...(state.payment !== undefined ? { payment: state.payment } : {}),
    paymentNoticeMs: servicing.paymentDueNoticeMs,
    paymentAnnounced: afterSale.paymentDueAnnounced,
    holdChecks: afterSale.holdChecks,
    ...(state.airlineChange?.actionBy !== undefined ? { actionBy: state.airlineChange.actionBy } : {}),
    actionNoticeMs: servicing.actionDueNoticeMs,
    actionAnnounced: afterSale.actionDueAnnounced,
    deadlineChecks: afterSale.deadlineChecks,
    ...(afterSale.nextReadAt !== undefined ? { nextReadAt: afterSale.nextReadAt } : {}),
  });
  const notice = () => afterSale.noticesTaken < booking.inbox.notices.length;
  const ticket = () => booking.inbox.ticket !== undefined && booking.inbox.ticket.outcome === undefined;
  const historyFull = () =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= servicing.maxHistoryEvents;
  const awake = () => cancelPending(booking) || notice() || ticket() || historyFull();
  const waitMs = timed.at - Date.now();
  if (!awake() && (waitMs <= 0 || !(await condition(awake, waitMs)))) return timed.event;
  if (cancelPending(booking)) return 'cancel';
  if (notice()) return 'notice';
  return ticket() ? 'ticket' : 'continueAsNew';
}

/** The booking as it is (and its OrderViewRS), for its result. */
function resultOf(booking: Booking): BookingResult {
  const { state } = booking.trail;
  return booking.orderViewXml !== undefined ? { state, orderViewXml: booking.orderViewXml } : { state };
}

/**
 * Continues as new with the state, the order and the servicing memory; the history starts again.
 * Meanwhile new requests are refused as busy (the client's retry reaches the next run); a cancel
 * or an airline's notice that comes in first is taken by this run: it returns to the loop.
 */
async function continueServicing(booking: Booking, afterSale: AfterSale): Promise<void> {
  booking.phase = 'continuing';
  const interrupted = () => cancelPending(booking) || afterSale.noticesTaken < booking.inbox.notices.length;
  await condition(() => allHandlersFinished() || interrupted());
  if (!interrupted()) await booking.trail.settled();
  if (interrupted()) {
    booking.phase = 'serviceable';
    return;
  }
  const { state } = booking.trail;
  const resume: ResumedBooking = {
    state: { ...state, steps: state.steps.slice(-MAX_STEPS_CARRIED) },
    order: afterSale.order,
    offers: afterSale.offers,
    paymentDueAnnounced: afterSale.paymentDueAnnounced,
    actionDueAnnounced: afterSale.actionDueAnnounced,
    ...(booking.orderViewXml !== undefined ? { orderViewXml: booking.orderViewXml } : {}),
    ...(afterSale.guard.approvedTotal !== undefined ? { approvedTotal: afterSale.guard.approvedTotal } : {}),
    ...(afterSale.lastSequence !== undefined ? { lastSequence: afterSale.lastSequence } : {}),
    ...(afterSale.nextReadAt !== undefined ? { nextReadAt: new Date(afterSale.nextReadAt).toISOString() } : {}),
  };
  // The search attributes and memo (the API's idempotency fingerprint) go on with the booking.
  const { typedSearchAttributes, memo } = workflowInfo();
  const next = makeContinueAsNewFunc<
    (intent: BookingIntent, options: BookingWorkflowOptions) => Promise<BookingResult>
  >({
    typedSearchAttributes,
    ...(memo !== undefined ? { memo } : {}),
  });
  return next(booking.intent, { ...booking.options, resume });
}

// ------------------------------------------------------------------ a held order's deadline, a cancel

/**
 * A held order at its payment deadline: read back. Cancelled by the airline: `EXPIRED`; paid
 * (elsewhere): `CONFIRMED`; still held (the airline not done yet, or no answer): read again later.
 */
async function holdDeadline(booking: Booking, afterSale: AfterSale): Promise<boolean> {
  const { trail } = booking;
  const { state } = trail;
  let read: OrderSummary;
  try {
    read = (await readOrder(booking, afterSale.order, 'payment deadline')).order;
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    afterSale.holdChecks += 1;
    return false;
  }
  if (read.status !== 'OK') {
    holdExpired(booking, afterSale, read);
    return true;
  }
  afterSale.order = read;
  showOrder(state, read);
  if (orderPaid(read)) trail.setStatus('CONFIRMED');
  else afterSale.holdChecks += 1;
  return false;
}

/** The whole booking cancelled at the airline, exactly once. False: the cancel failed (`state.cancellation`). */
async function cancelOrder(booking: Booking, afterSale: AfterSale): Promise<boolean> {
  const before = booking.trail.state.status;
  if (await cancelConfirmed(booking, afterSale.order)) {
    booking.trail.finish('CANCELLED');
    return true;
  }
  booking.trail.setStatus(before, { event: null });
  return false;
}

// ------------------------------------------------------------------ serving a request

/** Serves the inbox's ticket (its own TransactionIdentifier for the airline) and writes its outcome. */
async function serveTicket(booking: Booking, afterSale: AfterSale): Promise<void> {
  const ticket = booking.inbox.ticket as AnyTicket;
  const { state } = booking.trail;
  state.servicing = { action: ticket.action, since: new Date().toISOString() };
  try {
    await serve(booking, afterSale, servicingContext(booking), ticket);
  } catch (error) {
    // A refusal or a failure of the airline answers the request; anything else is a bug.
    const failure = applicationFailureOf(error);
    const { type, message } =
      failure?.type != null ? { type: failure.type, message: failure.message } : toBookingError(error);
    ticket.outcome = { ok: false, type, message };
  } finally {
    delete state.servicing;
  }
}

/** A ticket of any action, narrowed by its `action`. */
type AnyTicket = { [A in Ticket['action']]: Ticket<A> }[Ticket['action']];

async function serve(booking: Booking, afterSale: AfterSale, ctx: NdcContext, ticket: AnyTicket): Promise<void> {
  const { order } = afterSale;
  switch (ticket.action) {
    case 'changeOffers': {
      // While the airline's change waits for an answer, a rebook is the airline's doing: no change fee.
      const involuntary = booking.trail.state.status === 'ACTION_REQUIRED';
      afterSale.offers = await reshop(booking, ctx, order, ticket.args, involuntary);
      ticket.outcome = { ok: true, value: { offers: afterSale.offers.map(publicOffer) } };
      return;
    }
    case 'changeTrip':
      ticket.outcome = { ok: true, value: await changeTrip(booking, afterSale, ctx, ticket.args) };
      return;
    case 'orderServices':
      ticket.outcome = { ok: true, value: { services: await servicesOnSale(booking, ctx, order) } };
      return;
    case 'orderSeatMap': {
      const { maps } = await orderSeatMap(booking, ctx, order);
      if (maps === undefined) throw refusal('INVALID_SERVICING_REQUEST', 'the airline has no seat map for this order');
      ticket.outcome = { ok: true, value: maps };
      return;
    }
    case 'addServices':
      ticket.outcome = { ok: true, value: await addServices(booking, afterSale, ctx, ticket.args) };
      return;
    case 'cancelQuote': {
      const { attempt: _attempt, ...quote } = await quoteRefund(booking, ctx, order, ticket.args.passengers);
      ticket.outcome = { ok: true, value: quote };
      return;
    }
    case 'removePassengers':
      ticket.outcome = { ok: true, value: await removePassengers(booking, afterSale, ctx, ticket.args.passengers) };
      return;
    case 'pay':
      ticket.outcome = { ok: true, value: await pay(booking, afterSale, ctx, ticket.args.card) };
      return;
    case 'answerAirlineChange':
      ticket.outcome = { ok: true, value: await answerAirlineChange(booking, afterSale, ctx, ticket.args) };
      return;
  }
}

/** A change offer as the agency sees it (without what accepting it names at the airline). */
function publicOffer({
  owner: _owner,
  responseId: _responseId,
  offerItems: _offerItems,
  ...offer
}: ChangeOfferFound): ChangeOffer {
  return offer;
}
