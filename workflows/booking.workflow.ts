/**
 * The booking saga: one intent in, one confirmed order (or a clear outcome) out, in three named
 * phases (docs/orchestrator.md):
 *
 * 1. prepare the offer: [calendar] -> shop -> select -> price -> guard -> [tokenise] ->
 *    repriceWithToken -> guard;
 * 2. place the order: createOrder, and after a create without a definite answer, settle it by
 *    looking the order up (reconcileOrder) until the settle window has passed;
 * 3. confirm: retrieveOrder.
 *
 * A "shop again" answer (sold out, expired offer or token) before or at order time starts a fresh
 * round at phase 1, `maxReshops` times in all. Every decision is a pure function in
 * `booking.decisions.ts` / `offer-selection.ts`.
 *
 * Deterministic: no I/O, no clock but the workflow's, activities imported as types only.
 */
import { CancellationScope, condition, isCancellation, log, setHandler, workflowInfo } from '@temporalio/workflow';
import { failureTypeOf, FailureType } from '../src/booking/booking.failures';
import type { AirlineRoute, BookingIntent, BookingResult, BookingWorkflowOptions } from '../src/booking/booking.model';
import { ndcContextOf } from '../src/booking/intent-to-ndc';
import { reshopDecision } from './booking.decisions';
import { cancelBookingUpdate, cancelSignal, orderViewQuery } from './definitions';
import { listenForAuthentication } from './booking.authentication';
import { cancelWindow } from './booking.cancel';
import { confirm, placeOrder } from './booking.order';
import { prepareOffer, travelDates, type Travel } from './booking.prepare';
import { trackBookingDetails } from './booking.details';
import {
  applicationFailureOf,
  createPriceGuard,
  createTrail,
  detailsOf,
  settingsOf,
  toBookingError,
  type CancelRequest,
  type ReadyToOrder,
  type Round,
  type Saga,
} from './booking.saga';

export {
  CREATE_ORDER_ACTIVITY_OPTIONS,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_CREATE_ATTEMPTS,
  DEFAULT_MAX_RESHOPS,
  DEFAULT_SETTLE_WINDOW_MS,
  MAX_CANCEL_ATTEMPTS,
  NDC_ACTIVITY_OPTIONS,
  SETTLING_STATUS_PATCH,
} from './booking.saga';

/**
 * Books one intent. Completes normally for every business outcome (`CONFIRMED`, `FAILED`,
 * `CANCELLED`, `ESCALATED`, see `result.state.status`); only a bug fails the workflow task.
 */
export async function bookingWorkflow(
  intent: BookingIntent,
  options: BookingWorkflowOptions = {},
): Promise<BookingResult> {
  const settings = settingsOf(options);
  const correlationId = options.correlationId ?? workflowInfo().workflowId;
  const trail = createTrail(intent, correlationId);
  trackBookingDetails(trail.state, settings);
  const saga: Saga = {
    intent,
    // One NDC TransactionIdentifier for every message of the booking (the airline's seat locks need it).
    ctx: ndcContextOf(intent, correlationId, workflowInfo().firstExecutionRunId.replace(/-/g, '')),
    settings,
    trail,
    guard: createPriceGuard(intent, trail, settings.approvalTimeoutMs),
    airlines: routesFor(intent, options.airlines),
    inbox: listenForAuthentication(trail.state, intent.securePayment),
    ...(options.authenticationReturn !== undefined ? { authenticationReturn: options.authenticationReturn } : {}),
  };

  // Cancel ends the booking at once until order placement starts (an order is never left
  // half-made); later it is remembered, and carried out on the order once it is confirmed.
  const preOrder = new CancellationScope();
  let ordering = false;
  const cancel: CancelRequest = { closed: false };
  saga.cancel = cancel;
  const requestCancel = (request?: { reason?: string }): void => {
    if (cancel.requestedAt !== undefined) return;
    cancel.requestedAt = new Date().toISOString();
    if (request?.reason !== undefined) cancel.reason = request.reason;
    if (!ordering) preOrder.cancel();
  };
  setHandler(cancelSignal, requestCancel);
  setHandler(cancelBookingUpdate, async (request) => {
    requestCancel(request);
    await condition(
      () => cancel.closed || trail.state.status === 'CANCELLED' || trail.state.cancellation?.status === 'failed',
    );
    return trail.state;
  });

  let round: Round = { number: 0 };
  let travel: Travel | undefined;
  const result = await (async (): Promise<BookingResult> => {
    for (;;) {
      let ready: ReadyToOrder;
      try {
        ready = await preOrder.run(async () => prepareOffer(saga, (travel ??= await travelDates(saga)), round));
      } catch (error) {
        if (isCancellation(error)) {
          return trail.finish('CANCELLED', {
            type: FailureType.CANCELLED,
            message: 'booking cancelled before order creation',
          });
        }
        const next = nextRound(saga, round, error);
        if (next === undefined) return trail.finish('FAILED', toBookingError(error));
        round = next;
        continue;
      }

      ordering = true;
      // From here on nothing cancels: an order is either made and confirmed, or known not to exist.
      const placed = await CancellationScope.nonCancellable(() => placeOrder(saga, ready));
      switch (placed.kind) {
        case 'placed': {
          const confirmed = await CancellationScope.nonCancellable(() => confirm(saga, placed));
          setHandler(orderViewQuery, () => (trail.state.status === 'CONFIRMED' ? confirmed.orderViewXml : undefined));
          const result = await CancellationScope.nonCancellable(() =>
            cancelWindow(saga, confirmed, placed.order, cancel),
          );
          cancel.closed = true;
          return result;
        }
        case 'escalated':
          cancel.closed = true;
          return trail.finish('ESCALATED', placed.error);
        case 'cancelled':
          cancel.closed = true;
          return trail.finish('CANCELLED', {
            type: FailureType.CANCELLED,
            message: 'booking cancelled while waiting for 3-D Secure authentication: no order was made',
          });
        case 'failed': {
          // A definite "shop again" answer (sold out, the pricing or token expired while the guard
          // waited): nothing was booked, so a fresh round is safe.
          const next = nextRound(saga, round, placed.cause);
          if (next === undefined) {
            cancel.closed = true;
            return trail.finish('FAILED', toBookingError(placed.cause));
          }
          round = next;
          ordering = false;
          if (cancel.requestedAt !== undefined) preOrder.cancel();
          continue;
        }
      }
    }
  })();
  // Status events (webhooks, the batch) are signals: delivered before the workflow completes.
  await trail.settled();
  return result;
}

/**
 * The airlines this booking shops at: those the intent names (in its order) of the routes the
 * API passed, else all of them. Undefined without routes (one airline, on this task queue).
 */
function routesFor(intent: BookingIntent, routes: AirlineRoute[] | undefined): AirlineRoute[] | undefined {
  if (routes === undefined || intent.airlines === undefined) return routes;
  return intent.airlines.flatMap((code) => routes.filter((route) => route.code === code));
}

/** The next shopping round after a definite failure, or `undefined` when the booking fails. */
function nextRound(saga: Saga, round: Round, error: unknown): Round | undefined {
  const failure = applicationFailureOf(error);
  if (failure === undefined) return undefined;
  const airlineCode = detailsOf(failure).airlineCode;
  const decision = reshopDecision(
    { type: failureTypeOf(failure.type), ...(airlineCode !== undefined ? { airlineCode } : {}) },
    { done: round.number, max: saga.settings.maxReshops },
  );
  if (!decision.reshop) return undefined;
  log.info('shopping again', { reason: decision.reason });
  const accepted = saga.guard.highestAccepted;
  return {
    number: round.number + 1,
    reason: decision.reason,
    ...(!decision.newToken && round.token !== undefined ? { token: round.token } : {}),
    ...(accepted !== undefined ? { acceptedBefore: accepted } : {}),
  };
}
