/**
 * Step `retrieveOrder` after the order was placed: records the order and reads it back. The order
 * exists: the booking is CONFIRMED whatever the retrieve says (reporting it FAILED would invite
 * the agency to book again); a failed retrieve leaves `retrieveError` and the OrderViewRS of the
 * create.
 */
import { log, upsertSearchAttributes } from '@temporalio/workflow';
import type { OrderSummary } from '../../activities/booking.activities.types';
import type { BookingResult, BookingState } from '../../src/booking/booking.model';
import { BookingReferenceKey } from '../../src/temporal/search-attributes';
import { chosenAirline } from './airlines';
import type { Booking, Placed } from './context';
import { toBookingError } from './failures';

export async function confirm(booking: Booking, placed: Placed): Promise<BookingResult> {
  const { ctx, trail } = booking;
  const { state } = trail;
  recordOrder(state, placed.order);
  upsertSearchAttributes([{ key: BookingReferenceKey, value: placed.order.bookingReference }]);
  try {
    const retrieved = await trail.step('retrieveOrder', () =>
      chosenAirline(booking).ndc.retrieveOrder({ ctx, orderId: placed.order.orderId, owner: placed.order.owner }),
    );
    recordOrder(state, retrieved.order);
    return { ...trail.finish('CONFIRMED'), orderViewXml: retrieved.orderViewXml };
  } catch (error) {
    state.retrieveError = toBookingError(error);
    log.warn('order created but not retrieved: confirmed with the OrderViewRS of its creation', {
      orderId: placed.order.orderId,
    });
    const result = trail.finish('CONFIRMED');
    return placed.orderViewXml !== undefined ? { ...result, orderViewXml: placed.orderViewXml } : result;
  }
}

/** The order as the state shows it. */
function recordOrder(state: BookingState, order: OrderSummary): void {
  state.order = {
    orderId: order.orderId,
    bookingReference: order.bookingReference,
    total: order.total,
    status: order.status,
  };
}
