/**
 * The booking saga: one intent in, one confirmed order (or a clear outcome) out. Every step of a
 * booking is named in this file, in the order it runs (docs/orchestrator.md, "The saga, file by
 * file"); each step lives in `booking/`, in a file that imports the shared context and pure
 * decisions, never another step:
 *
 * 1. prepare the offer: [calendar] -> shop (every airline) -> choose the offers and the airline
 *    -> [extras] -> price -> price guard -> [tokenise] -> reprice with the token -> price guard;
 * 2. place the order: createOrder -> [3-D Secure: await the cardholder -> customerInput], each
 *    send that got no definite answer settled by looking the order up before anything is sent
 *    again;
 * 3. confirm: retrieveOrder (`CONFIRMED`, or `HELD` for an order made unpaid);
 * 4. after confirmation: servicing until the last flight has departed (`booking.servicing.ts`:
 *    pay a hold, change the trip, add bags and seats, quote a refund, remove travellers, cancel);
 *    bookings started without servicing: the cancel window.
 *
 * A "shop again" answer (sold out, expired offer or token) before or at order time starts a fresh
 * round at 1, `maxReshops` times in all.
 *
 * Deterministic: no I/O, no clock but the workflow's, activities imported as types only.
 */
import { CancellationScope, condition, isCancellation, log, patched, sleep } from '@temporalio/workflow';
import type { AuthenticationChallenge, OrderSummary } from '../activities/booking.activities.types';
import { failureTypeOf, FailureType } from '../src/booking/booking.failures';
import {
  cardOf,
  type BookingIntent,
  type BookingResult,
  type BookingWorkflowOptions,
} from '../src/booking/booking.model';
import { serviceUntilDeparture } from './booking.servicing';
import { cancelConfirmed } from './booking/cancel';
import { confirm } from './booking/confirm';
import {
  airlineSettings,
  chooseAirline,
  openBooking,
  type Booking,
  type PlaceOutcome,
  type ReadyToOrder,
  type Placed,
  type Round,
} from './booking/context';
import { untilKnown } from './booking/exactly-once';
import { customerInputAfterAbsent, reshopDecision, unavailableDecision, unsettledOutcome } from './booking/decisions';
import { trackBookingDetails } from './booking/details';
import { priceWithExtras, showExtras } from './booking/price';
import { applicationFailureOf, detailsOf, failed, toBookingError } from './booking/failures';
import { listen } from './booking/handlers';
import { awaitCardholder, sendCustomerInput, type CardholderResult } from './booking/authentication';
import { createOrder } from './booking/order';
import { cardToken, repriceWithToken, showPrice } from './booking/payment';
import { guardPrice, wouldWait, type GuardMemory } from './booking/price-guard';
import { lookupIdsOf, settle } from './booking/settle';
import { chooseOffers, shop } from './booking/shop';
import { travelDates, type Travel } from './booking/travel-dates';

/**
 * Patch id: a CustomerInputRS without an answer whose order the settle window did not find is
 * sent again (policy `recreate`, within the authentication window) instead of failing at once.
 */
export const CUSTOMER_INPUT_RESEND_PATCH = 'customer-input-resend';

/**
 * Books one intent. Completes normally for every business outcome (`CONFIRMED`, `FAILED`,
 * `CANCELLED`, `ESCALATED`, see `result.state.status`); only a bug fails the workflow task.
 */
export async function bookingWorkflow(
  intent: BookingIntent,
  options: BookingWorkflowOptions = {},
): Promise<BookingResult> {
  const booking = openBooking(intent, options);
  trackBookingDetails(booking.trail.state, booking.settings);
  // Cancel ends the booking at once until order placement starts (an order is never left
  // half-made); later it is remembered, and carried out on the order once it is confirmed.
  const preOrder = new CancellationScope();
  listen(booking, () => {
    if (booking.phase === 'preparing') preOrder.cancel();
  });
  const result =
    options.resume !== undefined
      ? await serviceUntilDeparture(booking, options.resume.order)
      : await book(booking, preOrder);
  booking.phase = 'closed';
  // Status events (webhooks, the batch) are signals: delivered before the workflow completes.
  await booking.trail.settled();
  return result;
}

/** Rounds of prepare, place and confirm, until the booking has its outcome. */
async function book(booking: Booking, preOrder: CancellationScope): Promise<BookingResult> {
  const { trail } = booking;
  const guard: GuardMemory = {};
  let round: Round = { number: 0 };
  let travel: Travel | undefined;
  for (;;) {
    let ready: ReadyToOrder;
    try {
      ready = await preOrder.run(async () =>
        prepareOffer(booking, (travel ??= await travelDates(booking)), round, guard),
      );
    } catch (error) {
      if (isCancellation(error)) {
        return trail.finish('CANCELLED', {
          type: FailureType.CANCELLED,
          message: 'booking cancelled before order creation',
        });
      }
      const next = await preOrder
        .run(() => nextRound(booking, round, guard, error))
        .catch((stop: unknown) => {
          if (isCancellation(stop)) return 'cancelled' as const;
          throw stop;
        });
      if (next === 'cancelled')
        return trail.finish('CANCELLED', {
          type: FailureType.CANCELLED,
          message: 'booking cancelled before order creation',
        });
      if (next === undefined) return trail.finish('FAILED', toBookingError(error));
      round = next;
      continue;
    }
    booking.phase = 'ordering';
    // From here on nothing cancels: an order is either made and confirmed, or known not to exist.
    const outcome = await CancellationScope.nonCancellable(() => placeOrder(booking, ready));
    switch (outcome.kind) {
      case 'placed':
        return CancellationScope.nonCancellable(() => confirmAndKeep(booking, outcome));
      case 'escalated':
        return trail.finish('ESCALATED', outcome.error);
      case 'cancelled':
        return trail.finish('CANCELLED', {
          type: FailureType.CANCELLED,
          message: 'booking cancelled while waiting for 3-D Secure authentication: no order was made',
        });
      case 'failed': {
        // A definite "shop again" answer (sold out, the pricing or token expired while the guard
        // waited): nothing was booked, so a fresh round is safe.
        const next = await nextRound(booking, round, guard, outcome.cause);
        if (next === undefined) return trail.finish('FAILED', toBookingError(outcome.cause));
        round = next;
        booking.phase = 'preparing';
        if (booking.inbox.cancel.requestedAt !== undefined) preOrder.cancel();
      }
    }
  }
}

// ------------------------------------------------------------------ 1. prepare the offer

/**
 * Shop (everywhere), choose, [extras,] price, guard; then, paying by card: tokenise (once per
 * token and airline), reprice with the token, guard. A hold stops after the first guard.
 */
async function prepareOffer(booking: Booking, travel: Travel, round: Round, guard: GuardMemory): Promise<ReadyToOrder> {
  const { state } = booking.trail;
  const shopped = await shop(booking, travel, round);
  const offer = chooseOffers(booking, shopped, travel);
  chooseAirline(booking, offer.route);
  if (offer.route !== undefined) round.chosen = offer.route.code;

  const { priced: firstPrice, offers } = await priceWithExtras(booking, offer.chosen);
  showPrice(state, firstPrice);
  const card = cardOf(booking.intent);
  // One approval per price: paying by card, the guard asks once, for the total with the card fee
  // (bookings that asked for the fare first replay so: the patch is taken only where they differ).
  const askTwice = () => wouldWait(booking, guard, firstPrice.total.value, round) && !patched(ONE_APPROVAL_PATCH);
  if (card === undefined || askTwice()) await guardPrice(booking, guard, firstPrice.total.value, round);
  if (card === undefined) return { shop: offer.shop, priced: firstPrice };

  round.token = await cardToken(booking, card, round.token);
  const priced = await repriceWithToken(booking, offers, firstPrice, round.token.id);
  showPrice(state, priced);
  showExtras(state.extras, priced);
  await guardPrice(booking, guard, priced.total.value, round);
  return { shop: offer.shop, priced, tokenId: round.token.id };
}

/**
 * The next shopping round after a definite failure (nothing was booked), or `undefined` when the
 * booking fails: a "shop again" answer, or airlines that stopped answering ({@link afterUnavailable}).
 */
async function nextRound(
  booking: Booking,
  round: Round,
  guard: GuardMemory,
  error: unknown,
): Promise<Round | undefined> {
  const failure = applicationFailureOf(error);
  if (failure === undefined) return undefined;
  if (isUnavailable(error) && patched(AIRLINE_FAILOVER_PATCH)) return afterUnavailable(booking, round, error);
  const airlineCode = detailsOf(failure).airlineCode;
  const decision = reshopDecision(
    { type: failureTypeOf(failure.type), ...(airlineCode !== undefined ? { airlineCode } : {}) },
    { done: round.number, max: booking.settings.maxReshops },
  );
  if (!decision.reshop) return undefined;
  log.info('shopping again', { reason: decision.reason });
  return {
    number: round.number + 1,
    reason: decision.reason,
    ...(!decision.newToken && round.token !== undefined ? { token: round.token } : {}),
    ...(guard.highestAccepted !== undefined ? { acceptedBefore: guard.highestAccepted } : {}),
  };
}

/** Patch id: paying by card, the price guard asks once, for the total the traveller pays (card fee included). */
export const ONE_APPROVAL_PATCH = 'one-approval';

/**
 * Patch id: an airline that stops answering before an order exists sends the booking to the other
 * airlines, and when none answers it keeps trying within its budget (before: FAILED at once).
 */
export const AIRLINE_FAILOVER_PATCH = 'airline-failover';

/** Transient failures that exhausted their retries, or an airline whose circuit is open. */
function isUnavailable(error: unknown): boolean {
  const failure = applicationFailureOf(error);
  if (failure === undefined) return false;
  return toBookingError(error).type === FailureType.AIRLINE_UNAVAILABLE;
}

/**
 * Airlines stopped answering before any order could exist: the chosen one is left out and the
 * others shopped (the price guard applies as for any re-shop); when none answers, the booking
 * waits and tries them all again within `unavailableBudgetMs`.
 */
async function afterUnavailable(booking: Booking, round: Round, error: unknown): Promise<Round | undefined> {
  const excluded = round.excluded ?? [];
  const allowed = (booking.routes ?? []).map((route) => route.code).filter((code) => !excluded.includes(code));
  const unavailable = round.unavailable ?? { sinceMs: Date.now(), waits: 0 };
  const decision = unavailableDecision({
    ...(round.chosen !== undefined ? { chosen: round.chosen } : {}),
    allowed,
    sinceMs: unavailable.sinceMs,
    nowMs: Date.now(),
    budgetMs: booking.settings.unavailableBudgetMs,
    waits: unavailable.waits,
  });
  log.warn('airline unavailable before an order existed', {
    decision: decision.kind,
    error: toBookingError(error).message,
  });
  const carried = {
    number: round.number,
    ...(round.token !== undefined ? { token: round.token } : {}),
    ...(round.acceptedBefore !== undefined ? { acceptedBefore: round.acceptedBefore } : {}),
  };
  switch (decision.kind) {
    case 'fail':
      return undefined;
    case 'elsewhere':
      return { ...carried, reason: decision.reason, excluded: [...excluded, decision.exclude], unavailable };
    case 'wait':
      await sleep(decision.delayMs);
      return { ...carried, reason: decision.reason, unavailable: { ...unavailable, waits: unavailable.waits + 1 } };
  }
}

// ------------------------------------------------------------------ 2. place the order, exactly once

/**
 * createOrder; when the airline asks for 3-D Secure, the cardholder's result and customerInput.
 * Each send without a definite answer is settled by looking the order up ({@link untilKnown}).
 */
async function placeOrder(booking: Booking, ready: ReadyToOrder): Promise<PlaceOutcome> {
  const { unsettledPolicy, settleWindowMs } = airlineSettings(booking);
  const { maxCreateAttempts } = booking.settings;
  const created = await untilKnown({
    send: (attempt) => createOrder(booking, ready, attempt),
    settle: () => settle(booking, ready),
    undecided: () => escalated(booking, 'the airline answered no order lookup after the settle window'),
    afterAbsent: (attempt) => {
      const next = unsettledOutcome(unsettledPolicy, attempt, maxCreateAttempts);
      if (next.kind === 'recreate') return 'again';
      if (next.kind === 'escalate')
        return escalated(booking, `no order found within the settle window of ${settleWindowMs} ms`);
      return failed(
        `order creation failed ${maxCreateAttempts} times and no order exists for ${lookupIdsOf(booking)}`,
        FailureType.ORDER_NOT_CREATED,
      );
    },
  });
  if (created.kind !== 'challenge') return created;
  const result = await awaitCardholder(booking, created.challenge);
  if (result.kind !== 'authenticated') return result;
  return authenticated(booking, ready, created.challenge, result);
}

/**
 * The cardholder's result sent to the airline. When the settle window proves that no order exists,
 * the airline's `unsettledPolicy` decides ({@link customerInputAfterAbsent}): `recreate` sends it
 * again while the authentication window lasts (the airline answers a result that already made an
 * order with that order), else the booking fails `ORDER_NOT_CREATED`.
 */
async function authenticated(
  booking: Booking,
  ready: ReadyToOrder,
  challenge: AuthenticationChallenge,
  result: CardholderResult,
): Promise<PlaceOutcome> {
  const { unsettledPolicy } = airlineSettings(booking);
  return untilKnown({
    send: (sends) => sendCustomerInput(booking, challenge, result, sends),
    settle: () => settle(booking, ready),
    undecided: () => escalated(booking, 'the airline answered no order lookup after the customer input'),
    afterAbsent: (sends) => {
      const next = customerInputAfterAbsent(unsettledPolicy, sends, booking.settings.maxCreateAttempts, {
        nowMs: Date.now(),
        expiresAtMs: result.expiresAtMs,
      });
      // Histories recorded before the resend fail here, as they did.
      if (next.kind === 'resend' && patched(CUSTOMER_INPUT_RESEND_PATCH)) {
        log.warn('customer input without an answer and no order after the settle window: sending it again', { sends });
        return 'again';
      }
      return failed(
        `the customer input got no answer and no order exists for ${lookupIdsOf(booking)} after the settle window (sent ${sends} time(s))`,
        FailureType.ORDER_NOT_CREATED,
      );
    },
  });
}

/** `ESCALATED`: whether an order exists must be checked by hand, with the ids it was looked up by. */
function escalated(booking: Booking, why: string): PlaceOutcome {
  return {
    kind: 'escalated',
    error: {
      type: FailureType.ORDER_UNSETTLED,
      message: `${why}; check by hand with the lookup ids ${lookupIdsOf(booking)}`,
    },
  };
}

// ------------------------------------------------------------------ 3. confirm, 4. after confirmation

/**
 * Confirms the placed order, then serves the booking until its last flight has departed
 * (`booking.servicing.ts`); a booking started without servicing keeps its cancel window instead.
 */
async function confirmAndKeep(booking: Booking, placed: Placed): Promise<BookingResult> {
  const { result, order } = await confirm(booking, placed);
  booking.orderViewXml = result.orderViewXml;
  if (booking.settings.servicing !== undefined) return serviceUntilDeparture(booking, order);
  return afterConfirmation(booking, result, placed.order);
}

/**
 * Keeps a confirmed booking open for `cancelWindowMs` (none by default). A cancel within it (or
 * asked for while the order was being placed) cancels the order at the airline exactly once.
 */
async function afterConfirmation(
  booking: Booking,
  confirmed: BookingResult,
  order: OrderSummary,
): Promise<BookingResult> {
  const { trail, settings, inbox } = booking;
  if (settings.cancelWindowMs <= 0) return confirmed;
  const asked = () => inbox.cancel.requestedAt !== undefined;
  if (!asked() && !(await condition(asked, settings.cancelWindowMs))) return confirmed;
  if (!(await cancelConfirmed(booking, order))) {
    trail.setStatus('CONFIRMED');
    return confirmed;
  }
  const result = trail.finish('CANCELLED');
  return confirmed.orderViewXml !== undefined ? { ...result, orderViewXml: confirmed.orderViewXml } : result;
}
