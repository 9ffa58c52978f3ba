/**
 * Step `createOrder`: the OrderCreateRQ from the latest, token-bearing pricing, sent once. Its
 * answer is an order, a 3-D Secure challenge, a definite failure, or unknown (the orchestrator
 * then settles it by reading the order back before anything is sent again).
 */
import { log } from '@temporalio/workflow';
import { cardOf } from '../../src/booking/booking.model';
import type { AuthenticationChallenge } from '../../activities/booking.activities.types';
import { chosenAirline } from './airlines';
import { placed, securePaymentOf, type Booking, type ReadyToOrder, type Sent } from './context';
import { isOutcomeUnknown } from './failures';

export async function createOrder(
  booking: Booking,
  ready: ReadyToOrder,
  attempt: number,
): Promise<Sent | { kind: 'challenge'; challenge: AuthenticationChallenge }> {
  const { ctx, intent, trail } = booking;
  const { orders } = chosenAirline(booking);
  const authentication = cardOf(intent)?.authentication;
  let created: Awaited<ReturnType<typeof orders.createOrder>>;
  try {
    created = await trail.step('createOrder', () =>
      orders.createOrder({
        ctx,
        priced: ready.priced,
        // Absent for a hold: the order is made unpaid. Added to the input only when present, like
        // the authentication: earlier histories replay with identical inputs.
        ...(ready.tokenId !== undefined ? { tokenId: ready.tokenId } : {}),
        securePayment: securePaymentOf(booking),
        ...(authentication !== undefined ? { authentication } : {}),
      }),
    );
  } catch (error) {
    if (!isOutcomeUnknown(error)) return { kind: 'failed', cause: error };
    log.warn('order create outcome unknown: settling before any retry', { attempt });
    return { kind: 'unknown' };
  }
  if (created.kind === 'challenge') return { kind: 'challenge', challenge: created };
  return placed(created);
}
