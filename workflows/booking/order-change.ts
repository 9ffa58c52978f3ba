/**
 * Step `changeOrder`: one OrderChangeRQ (take a change or à-la-carte offer, pay a held order,
 * remove travellers), sent once. Its answer is the order as it now is, a 3-D Secure challenge, a
 * definite failure, or unknown; an unknown outcome is settled by reading the order back until the
 * change shows or the settle window has passed (`settleChange`), never by sending it again blindly.
 */
import { ActivityFailure, log, sleep } from '@temporalio/workflow';
import type {
  AuthenticationChallenge,
  NdcContext,
  OrderChange,
  OrderSummary,
} from '../../activities/booking.activities.types';
import { chosenAirline } from './airlines';
import { airlineSettings, placed, refOf, securePaymentOf, type Booking, type Sent } from './context';
import { nextSettleStep } from './decisions';
import type { Settled } from './exactly-once';
import { isOutcomeUnknown } from './failures';

export async function changeOrder(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  change: OrderChange,
  attempt: number,
): Promise<Sent | { kind: 'challenge'; challenge: AuthenticationChallenge }> {
  const { orders } = chosenAirline(booking);
  const reason =
    attempt > 1 ? `${change.kind}, sent again (${attempt}): not applied after the settle window` : change.kind;
  try {
    const answer = await booking.trail.step(
      'changeOrder',
      () => orders.changeOrder({ ctx, order: refOf(order), change, securePayment: securePaymentOf(booking) }),
      { reason },
    );
    if (answer.kind === 'challenge') return { kind: 'challenge', challenge: answer };
    return placed(answer);
  } catch (error) {
    if (!isOutcomeUnknown(error)) return { kind: 'failed', cause: error };
    log.warn('order change outcome unknown: settling by reading the order back', { change: change.kind, attempt });
    return { kind: 'unknown' };
  }
}

/**
 * Reads the order back with the settle backoff until `applied` says the change shows (found), or
 * the settle window has passed without it (absent), or no read answered (undecided).
 */
export async function settleChange(
  booking: Booking,
  order: OrderSummary,
  applied: (read: OrderSummary) => boolean,
): Promise<Settled> {
  const { settleWindowMs } = airlineSettings(booking);
  const since = Date.now();
  let reads = 0;
  let absentAfterWindow = false;
  for (;;) {
    const next = nextSettleStep({
      lookups: reads,
      elapsedMs: Date.now() - since,
      windowMs: settleWindowMs,
      absentAfterWindow,
    });
    if (next.kind !== 'lookup') return next;
    if (next.delayMs > 0) await sleep(next.delayMs);
    reads += 1;
    try {
      const read = await booking.trail.step(
        'retrieveOrder',
        () => chosenAirline(booking).ndc.retrieveOrder({ ctx: booking.ctx, ...refOf(order) }),
        { reason: `change check ${reads}` },
      );
      if (applied(read.order)) return { kind: 'found', placed: placed(read) };
      absentAfterWindow = Date.now() - since >= settleWindowMs;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      absentAfterWindow = false;
    }
  }
}
