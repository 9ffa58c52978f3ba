/**
 * Step `retrieveOrder` after the order was placed: records the order and reads it back. The order
 * exists: the booking is CONFIRMED (HELD when it was made unpaid) whatever the retrieve says (reporting it FAILED would invite
 * the agency to book again); a failed retrieve leaves `retrieveError` and the OrderViewRS of the
 * create.
 */
import { log, upsertSearchAttributes } from '@temporalio/workflow';
import type { OrderSummary } from '../../activities/booking.activities.types';
import type { BookingResult } from '../../src/booking/booking.model';
import { BookingReferenceKey } from '../../src/temporal/search-attributes';
import { chosenAirline } from './airlines';
import { showOrder, type Booking, type Placed } from './context';
import { toBookingError } from './failures';
import { serviceableUntil } from './servicing.decisions';

export async function confirm(
  booking: Booking,
  placed: Placed,
): Promise<{ result: BookingResult; order: OrderSummary }> {
  const { ctx, trail } = booking;
  const { state } = trail;
  showOrder(state, placed.order);
  upsertSearchAttributes([{ key: BookingReferenceKey, value: placed.order.bookingReference }]);
  try {
    const retrieved = await trail.step('retrieveOrder', () =>
      chosenAirline(booking).ndc.retrieveOrder({ ctx, orderId: placed.order.orderId, owner: placed.order.owner }),
    );
    showOrder(state, retrieved.order);
    keepUntilDeparture(booking, retrieved.order);
    const result = { ...trail.finish(outcomeOf(retrieved.order)), orderViewXml: retrieved.orderViewXml };
    return { result, order: retrieved.order };
  } catch (error) {
    state.retrieveError = toBookingError(error);
    log.warn('order created but not retrieved: confirmed with the OrderViewRS of its creation', {
      orderId: placed.order.orderId,
    });
    keepUntilDeparture(booking, placed.order);
    const finished = trail.finish(outcomeOf(placed.order));
    const result = placed.orderViewXml !== undefined ? { ...finished, orderViewXml: placed.orderViewXml } : finished;
    return { result, order: placed.order };
  }
}

/** A serviceable booking shows how long it stays open from its first status with the order on. */
function keepUntilDeparture({ settings, trail, intent }: Booking, order: OrderSummary): void {
  if (settings.servicing !== undefined) trail.state.serviceableUntil = serviceableUntil(order.flights, intent.journey);
}

/** `HELD` for an order made unpaid (a hold), else `CONFIRMED`. */
function outcomeOf(order: OrderSummary): 'HELD' | 'CONFIRMED' {
  return order.payment?.status === 'due' ? 'HELD' : 'CONFIRMED';
}
