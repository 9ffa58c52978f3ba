/**
 * Step `createOrder`: the OrderCreateRQ from the latest, token-bearing pricing, sent once. Its
 * answer is an order, a 3-D Secure challenge, a definite failure, or unknown (the orchestrator
 * then settles it by reading the order back before anything is sent again).
 */
import { log } from '@temporalio/workflow';
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
  let created: Awaited<ReturnType<typeof orders.createOrder>>;
  try {
    created = await trail.step('createOrder', () =>
      orders.createOrder({
        ctx,
        priced: ready.priced,
        tokenId: ready.tokenId,
        securePayment: securePaymentOf(booking),
        // Added to the input only when present: earlier histories replay with identical inputs.
        ...(intent.payment.card.authentication !== undefined
          ? { authentication: intent.payment.card.authentication }
          : {}),
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
