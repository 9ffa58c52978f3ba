/**
 * Signals, queries and updates of the booking and batch workflows: the one place their names and
 * types are declared. Clients (the API, activities that signal a batch) import these definitions;
 * the booking workflow registers its handlers in `booking/handlers.ts`.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SeatChoice, SeatMaps } from '../src/booking/booking.extras';
import type {
  AuthenticationReceipt,
  AuthenticationReturn,
  BatchProgress,
  BookingState,
  BookingStatusReport,
} from '../src/booking/booking.model';

/** Approves a priced total above `selection.maxTotal` (only meaningful in `AWAITING_APPROVAL`). */
export const approvePriceSignal = defineSignal<[]>('approvePrice');

/**
 * Cancels the booking. Before order creation starts the booking ends `CANCELLED` at once; while
 * the order is being placed the request is remembered; once `CONFIRMED`, within the booking's
 * cancel window (`cancelWindowMs`), its order is cancelled at the airline exactly once and the
 * booking ends `CANCELLED` with the refund in `state.cancellation`. Sending it again changes
 * nothing.
 */
export const cancelSignal = defineSignal<[{ reason?: string }?]>('cancel');

/** Current {@link BookingState} of a booking workflow. */
export const stateQuery = defineQuery<BookingState>('state');

/** OrderViewRS XML of a CONFIRMED booking still open in its cancel window (`undefined` before). */
export const orderViewQuery = defineQuery<string | undefined>('orderView');

/** Current {@link BatchProgress} of a batch workflow. */
export const progressQuery = defineQuery<BatchProgress>('progress');

/**
 * Cancels the booking like {@link cancelSignal}, and answers with the {@link BookingState} once
 * the cancel has an outcome: `CANCELLED` (with `state.cancellation`), or the state unchanged when
 * nothing can be cancelled (the booking `FAILED`, `ESCALATED`, or its cancel window closed: the
 * workflow has completed and the server refuses the update: read the result instead). Idempotent:
 * a second call while the workflow runs answers the same state without contacting the airline
 * again; after a cancel the workflow completes `CANCELLED`, so a later call is answered from its
 * result. Argument: `{ reason? }` (send `{}` for none).
 */
export const cancelBookingUpdate = defineUpdate<BookingState, [{ reason?: string }]>('cancelBooking');

/** A child booking's status change, sent to its batch (workflows/webhook-events.ts, `emitBookingEvent`). */
export const bookingStatusSignal = defineSignal<[BookingStatusReport]>('bookingStatus');

/** The seat maps of a booking in `AWAITING_SEAT_SELECTION` (`undefined` before it reads them). */
export const seatMapQuery = defineQuery<SeatMaps | undefined>('seatMap');

/**
 * The traveller's seats for a booking in `AWAITING_SEAT_SELECTION`: the validator refuses a seat
 * that is taken or unknown, an unknown passenger or segment (the booking keeps waiting); accepted,
 * the booking prices the offer with them and goes on. Answers nothing.
 */
export const selectSeatsUpdate = defineUpdate<void, [SeatChoice[]]>('selectSeats');
/**
 * The cardholder's 3-D Secure result (`AWAITING_AUTHENTICATION`), from the API's return endpoint
 * or an agency's `POST /bookings/{id}/authentication`. The first result is taken; a later one
 * changes nothing and is answered with the first one's outcome (where to send the browser).
 * Refused (validator) while the booking has not been asked for authentication.
 */
export const authenticationResultUpdate = defineUpdate<AuthenticationReceipt, [AuthenticationReturn]>(
  'authenticationResult',
);
