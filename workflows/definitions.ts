/**
 * Signals, queries and updates of the booking and batch workflows: the one place their names and
 * types are declared. Clients (the API, activities that signal a batch) import these definitions;
 * the booking workflow registers its handlers in `booking/handlers.ts`.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SeatChoice, SeatMaps } from '../src/booking/booking.extras';
import type {
  AddServicesRequest,
  AirlineChangeAnswer,
  AirlineChangeNotice,
  ChangeOffer,
  ChangeOffersRequest,
  ChangeTripRequest,
  OrderServiceOffer,
  PayRequest,
  RefundQuote,
} from '../src/booking/servicing.model';
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

// ------------------------------------------------------------------ servicing (docs/orchestrator.md, "Servicing")
// One at a time per booking: each validator refuses another while one runs (BOOKING_BUSY); the
// validators also refuse what the booking's status does not allow, an unknown or expired offer,
// a difference above `maxDifference`. Refusals and failures carry their type (ApplicationFailure
// type, `SERVICING_REFUSALS` in src/booking/servicing.model.ts).

/** The airline's offers to change the trip to other dates (OrderReshopRQ); remembered for `changeTrip`. */
export const changeOffersUpdate = defineUpdate<{ offers: ChangeOffer[] }, [ChangeOffersRequest]>('changeOffers');

/** Takes a change offer (OrderChangeRQ, paying what is due): `CHANGING`, then `CONFIRMED` on the new flights. */
export const changeTripUpdate = defineUpdate<BookingState, [ChangeTripRequest]>('changeTrip');

/** The services on sale for the order (ServiceListRQ for its OrderID). */
export const orderServicesUpdate = defineUpdate<{ services: OrderServiceOffer[] }, [Record<string, never>]>(
  'orderServices',
);

/** The order's seat map (SeatAvailabilityRQ for its OrderID). */
export const orderSeatMapUpdate = defineUpdate<SeatMaps, [Record<string, never>]>('orderSeatMap');

/** Adds bags and seats to the order (OrderChangeRQ with the order's à-la-carte offers), paying for them. */
export const addServicesUpdate = defineUpdate<BookingState, [AddServicesRequest]>('addServices');

/** What cancelling (all, or some travellers) would refund now, without cancelling (OrderReshopRQ). */
export const cancelQuoteUpdate = defineUpdate<RefundQuote, [{ passengers?: number[] }]>('cancelQuote');

/** Removes some travellers (OrderChangeRQ deleting their items); the others keep flying. */
export const removePassengersUpdate = defineUpdate<BookingState, [{ passengers: number[]; reason?: string }]>(
  'removePassengers',
);

/** Pays a `HELD` booking (reprice when due, price guard, token, OrderChangeRQ with the payment): `CONFIRMED`. */
export const payBookingUpdate = defineUpdate<BookingState, [PayRequest]>('payBooking');

// ------------------------------------------------------------------ changes the airline makes

/**
 * A change the airline made to the order (the API's notification endpoint, or the booking's own
 * order read): the booking compares it with the order it holds, settles it by the agency's policy
 * or waits for the agency in `ACTION_REQUIRED`. A duplicate (its sequence already taken, or the
 * same order) changes nothing.
 */
export const airlineChangeSignal = defineSignal<[AirlineChangeNotice]>('airlineChange');

/**
 * Whether the booking already has the airline's notification of order version `sequence` (taken,
 * or waiting in its inbox): the notification endpoint acknowledges such a repeat without a signal.
 */
export const airlineNoticeSeenQuery = defineQuery<boolean, [number]>('airlineNoticeSeen');

/** The agency's answer to an airline change (`ACTION_REQUIRED`): accept, rebook on an offer (fee waived), or cancel (full refund). */
export const answerAirlineChangeUpdate = defineUpdate<BookingState, [AirlineChangeAnswer]>('answerAirlineChange');
