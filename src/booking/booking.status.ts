/**
 * The one booking-status vocabulary: `BookingState.status`, the `BookingStatus` search attribute,
 * batch progress and the API's enums all derive from it.
 *
 * Pure: imported by the workflow bundle, the activities and the API.
 */
export const BookingStatus = {
  /** Shopping, pricing or ordering. */
  RUNNING: 'RUNNING',
  /** The priced total is above `selection.maxTotal`: waiting for `approvePrice` or `cancel`. */
  AWAITING_APPROVAL: 'AWAITING_APPROVAL',
  /**
   * `extras.seats.mode: choose`: waiting for the traveller's seats (`POST /bookings/{id}/seats`,
   * the seat map at `GET /bookings/{id}/seat-map`), at most the seat-selection timeout.
   */
  AWAITING_SEAT_SELECTION: 'AWAITING_SEAT_SELECTION',
  /**
   * The airline asks for 3-D Secure: the cardholder's browser must go to
   * `state.authentication.redirectUrl`; the booking waits for the result (the return endpoint or
   * `POST /bookings/{id}/authentication`) until `state.authentication.expiresAt`.
   */
  AWAITING_AUTHENTICATION: 'AWAITING_AUTHENTICATION',
  /**
   * An order create got no definite answer: the saga looks the order up with backoff for the
   * settle window (`ORDER_SETTLE_WINDOW_MS`) before it concludes that none exists.
   */
  SETTLING: 'SETTLING',
  /**
   * The order exists at the airline. With a cancel window (`cancelWindowMs`), the workflow stays
   * open this long, accepting `cancel` / `cancelBooking`.
   */
  CONFIRMED: 'CONFIRMED',
  /**
   * The order exists, unpaid (intent `payment.hold`): seats held until `state.payment.dueBy`;
   * `POST /bookings/{id}/payment` pays it (then `CONFIRMED`).
   */
  HELD: 'HELD',
  /** A held order was not paid by its deadline: the airline cancelled it and the seats went back on sale. */
  EXPIRED: 'EXPIRED',
  /** A servicing action is changing the confirmed order (another date, bags and seats, a traveller removed, a payment). */
  CHANGING: 'CHANGING',
  /**
   * The airline changed the order (a schedule change, a cancelled flight): the agency must accept,
   * rebook or cancel by `state.airlineChange.actionBy` (docs/orchestrator.md, "Changes the airline makes").
   */
  ACTION_REQUIRED: 'ACTION_REQUIRED',
  /** A confirmed order is being cancelled at the airline. */
  CANCELLING: 'CANCELLING',
  /** A business failure: no order exists. */
  FAILED: 'FAILED',
  /** Cancelled by the agency: before the order existed, or its order cancelled at the airline (`state.cancellation`). */
  CANCELLED: 'CANCELLED',
  /**
   * `ORDER_UNSETTLED_POLICY=escalate` and the settle window passed without the airline showing
   * an order: whether one exists must be checked by hand (the state carries the lookup ids).
   */
  ESCALATED: 'ESCALATED',
} as const;
export type BookingStatus = (typeof BookingStatus)[keyof typeof BookingStatus];

/** Every status, in declaration order (OpenAPI enums, validation). */
export const BOOKING_STATUSES: readonly BookingStatus[] = Object.values(BookingStatus);

export function isBookingStatus(value: unknown): value is BookingStatus {
  return typeof value === 'string' && (BOOKING_STATUSES as readonly string[]).includes(value);
}

/**
 * True for the statuses in which a booking has its outcome: an order exists (confirmed or held),
 * or is known not to (failed, cancelled, expired), or needs a person (escalated). A booking stays
 * open after `CONFIRMED` or `HELD` for servicing until its flights have departed.
 */
export function isFinalStatus(status: BookingStatus): boolean {
  switch (status) {
    case 'CONFIRMED':
    case 'HELD':
    case 'FAILED':
    case 'CANCELLED':
    case 'EXPIRED':
    case 'ESCALATED':
      return true;
    case 'RUNNING':
    case 'AWAITING_APPROVAL':
    case 'AWAITING_SEAT_SELECTION':
    case 'AWAITING_AUTHENTICATION':
    case 'SETTLING':
    case 'CHANGING':
    case 'ACTION_REQUIRED':
    case 'CANCELLING':
      return false;
  }
}
