/**
 * The booking after the sale (docs/orchestrator.md, "Servicing"): the second half of the saga,
 * which `bookingWorkflow` delegates to once the order exists. It names every servicing action in
 * the order its steps run; the steps live in `booking/` like the booking's own.
 *
 * The booking stays serviceable until its last flight has departed: it waits for a request (one at
 * a time, the updates of `booking/handlers.ts`), a cancel, a held order's payment notice and
 * deadline, or the departure; it continues as new when its history grows, carrying its state.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  makeContinueAsNewFunc,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { NdcContext, OrderChange, OrderSummary } from '../activities/booking.activities.types';
import { passengerIds } from '../src/booking/intent-to-ndc';
import {
  type BookingIntent,
  type BookingResult,
  type BookingStatus,
  type BookingWorkflowOptions,
  type ResumedBooking,
} from '../src/booking/booking.model';
import type { AddServicesRequest, ChangeOffer, OrderChangeRecord } from '../src/booking/servicing.model';
import { add, compare, currencyScale } from '../src/common/decimal';
import { awaitCardholder, sendCustomerInput } from './booking/authentication';
import { cancelConfirmed } from './booking/cancel';
import {
  cancelPending,
  showOrder,
  type AfterSale,
  type Booking,
  type PlaceOutcome,
  type Ticket,
} from './booking/context';
import { untilKnown } from './booking/exactly-once';
import { aLaCarteOffers, paxOf, pickBags, resolveChoice, type Picked } from './booking/extras.decisions';
import { applicationFailureOf, failed, toBookingError } from './booking/failures';
import { changeOrder, settleChange } from './booking/order-change';
import { orderSeatMap, orderServices, quoteRefund, readOrder, repriceOrder, reshop } from './booking/order-reads';
import { cardToken } from './booking/payment';
import { guardPrice } from './booking/price-guard';
import {
  flightsChangedTo,
  nextTimedEvent,
  orderPaid,
  passengersRemoved,
  serviceableUntil,
  servicesAdded,
  type TimedEvent,
} from './booking/servicing.decisions';
import { FailureType } from '../src/booking/booking.failures';

/** Step records a run carries into the next (the oldest are dropped: the history keeps them). */
const MAX_STEPS_CARRIED = 200;

/** Serves the booking until its last flight has departed (or it is cancelled, or expires). */
export async function serviceUntilDeparture(booking: Booking, order: OrderSummary): Promise<BookingResult> {
  const afterSale = openAfterSale(booking, order);
  for (;;) {
    const event = await nextEvent(booking, afterSale);
    switch (event) {
      case 'ticket':
        await serveTicket(booking, afterSale);
        break;
      case 'cancel':
        if (await cancelOrder(booking, afterSale)) return resultOf(booking);
        break;
      case 'paymentDue':
        afterSale.paymentDueAnnounced = true;
        booking.trail.announce('booking.payment_due');
        break;
      case 'holdDeadline':
        if (await holdDeadline(booking, afterSale)) return resultOf(booking);
        break;
      case 'departed':
        delete booking.trail.state.currentStep;
        return resultOf(booking);
      case 'continueAsNew':
        return continueServicing(booking, afterSale);
    }
  }
}

/** The servicing memory: the run's own, or the one carried from the run before. */
function openAfterSale(booking: Booking, order: OrderSummary): AfterSale {
  booking.phase = 'serviceable';
  booking.afterSale ??= { order, offers: [], paymentDueAnnounced: false, holdChecks: 0, guard: {} };
  const { state } = booking.trail;
  state.serviceableUntil ??= serviceableUntil(order.flights, booking.intent.journey);
  return booking.afterSale;
}

type Event = TimedEvent | 'ticket' | 'cancel' | 'continueAsNew';

/** Waits for the next thing to do: a cancel, a request, a history to cut, or the next timed event. */
async function nextEvent(booking: Booking, afterSale: AfterSale): Promise<Event> {
  const { state } = booking.trail;
  const timed = nextTimedEvent({
    until: state.serviceableUntil!,
    ...(state.payment !== undefined ? { payment: state.payment } : {}),
    noticeMs: booking.settings.servicing!.paymentDueNoticeMs,
    dueAnnounced: afterSale.paymentDueAnnounced,
    holdChecks: afterSale.holdChecks,
  });
  const ticket = () => booking.inbox.ticket !== undefined && booking.inbox.ticket.outcome === undefined;
  const historyFull = () =>
    workflowInfo().continueAsNewSuggested ||
    workflowInfo().historyLength >= booking.settings.servicing!.maxHistoryEvents;
  const awake = () => cancelPending(booking) || ticket() || historyFull();
  const waitMs = timed.at - Date.now();
  if (!awake() && (waitMs <= 0 || !(await condition(awake, waitMs)))) return timed.event;
  if (cancelPending(booking)) return 'cancel';
  return ticket() ? 'ticket' : 'continueAsNew';
}

/** The booking as it is (and its OrderViewRS), for its result. */
function resultOf(booking: Booking): BookingResult {
  const { state } = booking.trail;
  return booking.orderViewXml !== undefined ? { state, orderViewXml: booking.orderViewXml } : { state };
}

/** Continues as new with the state, the order and the servicing memory; the history starts again. */
async function continueServicing(booking: Booking, afterSale: AfterSale): Promise<never> {
  await condition(allHandlersFinished);
  await booking.trail.settled();
  const { state } = booking.trail;
  const resume: ResumedBooking = {
    state: { ...state, steps: state.steps.slice(-MAX_STEPS_CARRIED) },
    order: afterSale.order,
    offers: afterSale.offers,
    paymentDueAnnounced: afterSale.paymentDueAnnounced,
    ...(booking.orderViewXml !== undefined ? { orderViewXml: booking.orderViewXml } : {}),
    ...(afterSale.guard.approvedTotal !== undefined ? { approvedTotal: afterSale.guard.approvedTotal } : {}),
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

// ------------------------------------------------------------------ the airline's own deadlines, a cancel

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
  afterSale.order = read;
  if (read.status !== 'OK') {
    showOrder(state, read);
    state.payment = { ...state.payment!, status: 'expired' };
    trail.finish('EXPIRED');
    return true;
  }
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
  const ctx: NdcContext = { ...booking.ctx, transactionId: uuid4().replace(/-/g, '') };
  try {
    await serve(booking, afterSale, ctx, ticket);
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
      afterSale.offers = await reshop(booking, ctx, order, ticket.args);
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
  }
}

/** A change offer as the agency sees it (without what accepting it names at the airline). */
function publicOffer({
  owner: _owner,
  responseId: _responseId,
  ...offer
}: ChangeOffer & { owner: string; responseId: string }): ChangeOffer {
  return offer;
}

function refusal(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, type);
}

// ------------------------------------------------------------------ the actions

/** Another date: `CHANGING`, [tokenise,] changeOrder (accept the offer, paying what is due), `CONFIRMED`. */
async function changeTrip(
  booking: Booking,
  afterSale: AfterSale,
  ctx: NdcContext,
  args: { offerId: string; card?: Parameters<typeof cardToken>[1] },
) {
  const offer = afterSale.offers.find((o) => o.id === args.offerId)!;
  if (Date.parse(offer.expiresAt) <= Date.now())
    throw refusal('OFFER_EXPIRED', `offerId: the change offer ${offer.id} expired at ${offer.expiresAt}`);
  booking.trail.setStatus('CHANGING', { event: null });
  const due = compare(offer.difference.value, '0') > 0;
  const payment = due
    ? { tokenId: (await cardToken(booking, args.card!, undefined)).id, amount: offer.difference }
    : undefined;
  const before = afterSale.order;
  const accepted = { offerId: offer.id, owner: offer.owner, responseId: offer.responseId, offerItems: [] };
  const change: OrderChange = {
    kind: 'acceptOffers',
    offers: [accepted],
    ...(payment !== undefined ? { payment } : {}),
  };
  const outcome = await changeExactlyOnce(
    booking,
    ctx,
    before,
    change,
    (read) => flightsChangedTo(read, offer),
    'CHANGING',
  );
  return recordChange(booking, afterSale, outcome, 'CONFIRMED', (order) => ({
    kind: 'trip',
    ...(before.flights !== undefined ? { from: before.flights } : {}),
    ...(order.flights !== undefined ? { to: order.flights } : {}),
    difference: offer.difference,
    penalty: offer.penalty,
  }));
}

/** The services on sale for the order, as the API lists them (codes as in the intent's extras). */
async function servicesOnSale(booking: Booking, ctx: NdcContext, order: OrderSummary) {
  const list = await orderServices(booking, ctx, order);
  return list.options.flatMap((option) =>
    option.passengerIds.flatMap((id) => {
      const passenger = passengerIds(booking.intent.passengers).indexOf(id);
      return passenger < 0
        ? []
        : (option.segmentKeys.length > 0 ? option.segmentKeys : ['']).map((segment) => ({
            code: option.code,
            passenger,
            direction: option.direction === 1 ? ('return' as const) : ('outbound' as const),
            segment,
            price: option.price?.value ?? '0',
            currency: option.price?.currency ?? booking.intent.currency,
          }));
    }),
  );
}

/** Bags and seats: picked from what the order's lists offer, `CHANGING`, [tokenise,] changeOrder, `CONFIRMED`. */
async function addServices(booking: Booking, afterSale: AfterSale, ctx: NdcContext, args: AddServicesRequest) {
  const before = afterSale.order;
  const picked = await pickServices(booking, ctx, before, args);
  const currency = booking.intent.currency;
  const amount = {
    value: add(currencyScale(currency), '0', ...picked.flatMap((p) => p.picks.map((pick) => pick.price?.value ?? '0'))),
    currency,
  };
  const due = compare(amount.value, '0') > 0;
  if (due && args.card === undefined)
    throw refusal('CARD_REQUIRED', `payment.card: ${amount.value} ${currency} is due for these services`);
  booking.trail.setStatus('CHANGING', { event: null });
  const payment = due ? { tokenId: (await cardToken(booking, args.card!, undefined)).id, amount } : undefined;
  const change: OrderChange = {
    kind: 'acceptOffers',
    offers: aLaCarteOffers(picked),
    ...(payment !== undefined ? { payment } : {}),
  };
  const outcome = await changeExactlyOnce(
    booking,
    ctx,
    before,
    change,
    (read) => servicesAdded(read, before),
    'CHANGING',
  );
  return recordChange(booking, afterSale, outcome, 'CONFIRMED', () => ({ kind: 'services', difference: amount }));
}

/** The à-la-carte picks of a request; what the order's lists do not have is refused, naming it. */
async function pickServices(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  args: AddServicesRequest,
): Promise<Picked[]> {
  const pax = paxOf(booking.intent.passengers);
  const picked: Picked[] = [];
  if (args.bags !== undefined && args.bags.length > 0) {
    const list = await orderServices(booking, ctx, order);
    const directions = booking.intent.journey.returnDate !== undefined ? 2 : 1;
    const { picks, missing } = pickBags(args.bags, pax, list.options, directions);
    if (missing.length > 0 || list.aLaCarteOfferId === undefined)
      throw refusal(
        'INVALID_SERVICING_REQUEST',
        `bags: not on sale for this order: ${missing.join(', ') || 'any bag'}`,
      );
    const responseId = list.responseId ?? order.orderId;
    picked.push({ offer: { offerId: list.aLaCarteOfferId, owner: list.owner ?? order.owner, responseId }, picks });
  }
  if (args.seats !== undefined && args.seats.length > 0) {
    const { maps } = await orderSeatMap(booking, ctx, order);
    if (maps === undefined)
      throw refusal('INVALID_SERVICING_REQUEST', 'seats: the airline has no seat map for this order');
    let picks;
    try {
      picks = resolveChoice(maps, pax, args.seats);
    } catch (error) {
      throw refusal('INVALID_SERVICING_REQUEST', (error as Error).message);
    }
    picked.push({ offer: { offerId: maps.aLaCarteOfferId, owner: maps.owner, responseId: maps.responseId }, picks });
  }
  return picked;
}

/** Some travellers off the order: `CHANGING`, changeOrder (their items deleted), `CONFIRMED` with the refund. */
async function removePassengers(booking: Booking, afterSale: AfterSale, ctx: NdcContext, passengers: number[]) {
  const ids = passengerIds(booking.intent.passengers);
  const removed = passengers.map((index) => ids[index]!);
  booking.trail.setStatus('CHANGING', { event: null });
  const before = afterSale.order;
  const change: OrderChange = { kind: 'removePassengers', passengers };
  const outcome = await changeExactlyOnce(
    booking,
    ctx,
    before,
    change,
    (read) => passengersRemoved(read, removed),
    'CHANGING',
  );
  return recordChange(booking, afterSale, outcome, 'CONFIRMED', (order) => ({
    kind: 'passengers',
    passengers,
    ...(order.refund !== undefined
      ? { difference: { value: negate(order.refund.value), currency: order.refund.currency } }
      : {}),
    ...(order.cancellationFee !== undefined ? { penalty: order.cancellationFee } : {}),
  }));
}

/**
 * A held booking paid: tokenise, repriceOrder with the token (the price now, card fee included),
 * the price guard on a higher price, changeOrder with the payment, `CONFIRMED`.
 */
async function pay(booking: Booking, afterSale: AfterSale, ctx: NdcContext, card: Parameters<typeof cardToken>[1]) {
  const { state } = booking.trail;
  const before = afterSale.order;
  const token = await cardToken(booking, card, undefined);
  const repriced = await repriceOrder(booking, ctx, before, token.id);
  const held = state.payment!.amount;
  const acceptedBefore = add(currencyScale(held.currency), held.value, repriced.surcharge?.value ?? '0');
  await guardPrice(booking, afterSale.guard, repriced.total.value, { acceptedBefore }, 'HELD');
  const change: OrderChange = {
    kind: 'pay',
    tokenId: token.id,
    amount: repriced.total,
    ...(!repriced.unchanged && repriced.responseId !== undefined ? { acceptRepricedOrder: repriced.responseId } : {}),
  };
  const outcome = await changeExactlyOnce(booking, ctx, before, change, orderPaid, 'HELD');
  return recordChange(booking, afterSale, outcome, 'CONFIRMED', () => ({
    kind: 'payment',
    difference: repriced.total,
  }));
}

// ------------------------------------------------------------------ one change, exactly once

/**
 * changeOrder until its outcome is known (settled by reading the order back); a payment the
 * airline asks 3-D Secure for waits for the cardholder (then the status goes back to `status`)
 * and sends the result, settled the same way.
 */
async function changeExactlyOnce(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  change: OrderChange,
  applied: (read: OrderSummary) => boolean,
  status: BookingStatus,
): Promise<PlaceOutcome> {
  const settle = () => settleChange(booking, order, applied);
  const undecided = (): PlaceOutcome => ({
    kind: 'escalated',
    error: {
      type: FailureType.CHANGE_UNSETTLED,
      message: `${change.kind} got no answer and the order could not be read back; check order ${order.orderId} by hand`,
    },
  });
  const afterAbsent = (attempt: number) =>
    attempt < booking.settings.maxCreateAttempts
      ? ('again' as const)
      : failed(
          `${change.kind} was sent ${attempt} times and the order never showed it`,
          FailureType.CHANGE_NOT_APPLIED,
        );
  const sent = await untilKnown({
    send: (attempt) => changeOrder(booking, ctx, order, change, attempt),
    settle,
    undecided,
    afterAbsent,
  });
  if (sent.kind !== 'challenge') return sent;
  const result = await awaitCardholder(booking, sent.challenge, status);
  if (result.kind !== 'authenticated') return result;
  return untilKnown({
    send: (sends) => sendCustomerInput(booking, sent.challenge, result, sends),
    settle,
    undecided,
    afterAbsent,
  });
}

/**
 * Records a change's outcome: the order as it now is, the change in `state.changes`, the status
 * `done` (`booking.changed` for a change of a confirmed order). Otherwise the status goes back
 * and the request fails with the reason.
 */
function recordChange(
  booking: Booking,
  afterSale: AfterSale,
  outcome: PlaceOutcome,
  done: BookingStatus,
  describe: (order: OrderSummary) => Omit<OrderChangeRecord, 'at'>,
) {
  const { trail } = booking;
  const { state } = trail;
  const before: BookingStatus = done === 'CONFIRMED' && state.payment?.status === 'due' ? 'HELD' : 'CONFIRMED';
  if (outcome.kind !== 'placed') {
    trail.setStatus(before, { event: null });
    throw failureOf(outcome);
  }
  afterSale.order = outcome.order;
  if (outcome.orderViewXml !== undefined) booking.orderViewXml = outcome.orderViewXml;
  showOrder(state, outcome.order);
  (state.changes ??= []).push({ at: new Date().toISOString(), ...describe(outcome.order), total: outcome.order.total });
  trail.setStatus(done, before === 'HELD' ? {} : { event: 'booking.changed' });
  return state;
}

function failureOf(outcome: Exclude<PlaceOutcome, { kind: 'placed' }>): ApplicationFailure {
  switch (outcome.kind) {
    case 'failed': {
      const failure = applicationFailureOf(outcome.cause);
      return failure ?? ApplicationFailure.nonRetryable(String(outcome.cause), FailureType.AIRLINE_ERROR);
    }
    case 'escalated':
      return ApplicationFailure.nonRetryable(outcome.error.message, outcome.error.type);
    case 'cancelled':
      return ApplicationFailure.nonRetryable(
        'the payment was abandoned: the booking is being cancelled',
        FailureType.CANCELLED,
      );
  }
}

function negate(value: string): string {
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}
