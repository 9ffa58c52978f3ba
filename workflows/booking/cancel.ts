/**
 * Step `cancelOrder` of a confirmed booking (docs/orchestrator.md, "Cancelling a confirmed
 * booking"): the order is cancelled at the airline exactly once. A cancel without a definite
 * answer is settled by reading the order's status back (a cancelled order reads back with a status
 * other than `OK`), never by cancelling blindly again.
 */
import { ActivityFailure, sleep } from '@temporalio/workflow';
import type { OrderSummary } from '../../activities/booking.activities.types';
import { FailureType } from '../../src/booking/booking.failures';
import type { BookingError } from '../../src/booking/booking.model';
import { nextSettleStep } from './decisions';
import { chosenAirline } from './airlines';
import { airlineSettings, MAX_CANCEL_ATTEMPTS, type Booking } from './context';
import { isOutcomeUnknown, toBookingError } from './failures';

/**
 * Cancels the confirmed `order` the booking was asked to cancel; `state.cancellation` (its one
 * writer) says how it went. True when the order is cancelled.
 */
export async function cancelConfirmed(
  booking: Booking,
  order: OrderSummary,
  request: { requestedAt: string; reason?: string } = booking.inbox.cancel as { requestedAt: string; reason?: string },
): Promise<boolean> {
  const { trail } = booking;
  const { state } = trail;
  state.cancellation = {
    status: 'cancelling',
    requestedAt: request.requestedAt,
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
  };
  trail.setStatus('CANCELLING');
  const outcome = await cancelOrder(booking, order);
  const cancellation = state.cancellation;
  cancellation.endedAt = new Date().toISOString();
  if (outcome.kind === 'failed') {
    cancellation.status = 'failed';
    cancellation.error = outcome.error;
    return false;
  }
  cancellation.status = 'cancelled';
  cancellation.settledBy = outcome.settledBy;
  if (outcome.refund !== undefined) cancellation.refund = outcome.refund;
  if (outcome.fee !== undefined) cancellation.fee = outcome.fee;
  if (state.order !== undefined && outcome.status !== undefined) state.order.status = outcome.status;
  return true;
}

type CancelOutcome =
  | {
      kind: 'cancelled';
      settledBy: 'answer' | 'retrieve';
      refund?: OrderSummary['total'];
      fee?: OrderSummary['total'];
      status?: string;
    }
  | { kind: 'failed'; error: BookingError };

async function cancelOrder(booking: Booking, order: OrderSummary): Promise<CancelOutcome> {
  const { ctx, trail } = booking;
  const { orders } = chosenAirline(booking);
  for (let attempt = 1; attempt <= MAX_CANCEL_ATTEMPTS; attempt += 1) {
    let unknown: boolean;
    let cause: unknown;
    try {
      const done = await trail.step('cancelOrder', () =>
        orders.cancelOrder({ ctx, orderId: order.orderId, owner: order.owner }),
      );
      return {
        kind: 'cancelled',
        settledBy: 'answer',
        ...(done.refund !== undefined ? { refund: done.refund } : {}),
        ...(done.fee !== undefined ? { fee: done.fee } : {}),
      };
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      unknown = isOutcomeUnknown(error);
      cause = error;
    }
    // No answer, or a refusal (perhaps "already cancelled"): what does the order say now?
    const status = await orderStatus(booking, order, unknown);
    if (status.kind === 'cancelled') {
      // The cancelled order names its refund and fee (when the airline writes them): take them from it.
      const { refund, cancellationFee } = status.order;
      return {
        kind: 'cancelled',
        settledBy: 'retrieve',
        status: status.order.status,
        ...(refund !== undefined ? { refund } : {}),
        ...(cancellationFee !== undefined ? { fee: cancellationFee } : {}),
      };
    }
    if (!unknown) return { kind: 'failed', error: toBookingError(cause) };
    if (status.kind === 'unknown') {
      return {
        kind: 'failed',
        error: {
          type: FailureType.CANCEL_OUTCOME_UNKNOWN,
          message: `cancel of order ${order.orderId} got no answer and its status cannot be read; check by hand`,
        },
      };
    }
    // The order still reads back live after the settle window: cancelling again is not blind.
  }
  return {
    kind: 'failed',
    error: {
      type: FailureType.CANCEL_FAILED,
      message: `order ${order.orderId} still live after ${MAX_CANCEL_ATTEMPTS} cancels without an answer`,
    },
  };
}

/**
 * The order's status read back: after a cancel without an answer, repeatedly with backoff until
 * it reads cancelled or the settle window has passed; after a refusal, once.
 */
async function orderStatus(
  booking: Booking,
  order: OrderSummary,
  settle: boolean,
): Promise<{ kind: 'cancelled'; order: OrderSummary } | { kind: 'live' } | { kind: 'unknown' }> {
  const { ctx, trail } = booking;
  const { ndc } = chosenAirline(booking);
  const since = Date.now();
  const windowMs = settle ? airlineSettings(booking).settleWindowMs : 0;
  let lookups = 0;
  let liveAfterWindow = false;
  for (;;) {
    const next = nextSettleStep({
      lookups,
      elapsedMs: Date.now() - since,
      windowMs,
      absentAfterWindow: liveAfterWindow,
    });
    if (next.kind === 'absent') return { kind: 'live' };
    if (next.kind === 'undecided') return { kind: 'unknown' };
    if (next.delayMs > 0) await sleep(next.delayMs);
    lookups += 1;
    try {
      const read = await trail.step(
        'retrieveOrder',
        () => ndc.retrieveOrder({ ctx, orderId: order.orderId, owner: order.owner }),
        { reason: `cancel check ${lookups}` },
      );
      if (read.order.status !== 'OK') return { kind: 'cancelled', order: read.order };
      liveAfterWindow = Date.now() - since >= windowMs;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      liveAfterWindow = false;
    }
  }
}
