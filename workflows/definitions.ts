/**
 * Signals and queries of the booking and batch workflows. Clients (the API) import these
 * definitions; the names are also exported as strings from `src/booking/booking.model.ts`.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { BatchProgress, BookingState, BookingStatusReport } from '../src/booking/booking.model';

/** Approves a priced total above `selection.maxTotal` (only meaningful in `AWAITING_APPROVAL`). */
export const approvePriceSignal = defineSignal<[]>('approvePrice');

/**
 * Cancels the booking. Honoured at any point before order creation starts (the booking ends
 * `CANCELLED`); ignored afterwards, so an order is never left half-made.
 */
export const cancelSignal = defineSignal<[{ reason?: string }?]>('cancel');

/** Current {@link BookingState} of a booking workflow. */
export const stateQuery = defineQuery<BookingState>('state');

/** Current {@link BatchProgress} of a batch workflow. */
export const progressQuery = defineQuery<BatchProgress>('progress');

/** A child booking's status change, sent to its batch (workflows/webhook-events.ts, `emitBookingEvent`). */
export const bookingStatusSignal = defineSignal<[BookingStatusReport]>('bookingStatus');
