/**
 * Deployment defaults of the booking workflow's options, read once from the environment by the
 * process that starts bookings (the API) and passed as `BookingWorkflowOptions`; an option given
 * with a request wins. Per airline: one deployment books with one airline (`AIRLINE_BASE_URL`).
 * Fails fast naming the variable.
 */
import type { BookingWorkflowOptions, UnsettledPolicy } from './booking.model';

const POLICIES: readonly UnsettledPolicy[] = ['recreate', 'escalate'];

/** The API's default cancel window of a confirmed booking: 7 days, in ms. */
export const DEFAULT_CANCEL_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * - `ORDER_SETTLE_WINDOW_MS` (default 120000): how long an order create without a definite answer
 *   is looked up before the saga concludes no order exists. Must be longer than the airline's
 *   longest commit.
 * - `ORDER_UNSETTLED_POLICY` (`recreate`, default, or `escalate`): what follows a window without an
 *   order: create again, or end `ESCALATED` for a person to check.
 *
 * - `BOOKING_CANCEL_WINDOW_MS` (default {@link DEFAULT_CANCEL_WINDOW_MS}, 7 days; `0` closes a
 *   booking at CONFIRMED): how long a CONFIRMED booking stays open so that
 *   `POST /bookings/:id/cancel` can cancel its order at the airline (void within 24 h, a refund
 *   less the fee afterwards).
 *
 * Returns the variables that are set and the cancel window, so the workflow's own defaults apply
 * otherwise (the workflow's own cancel window is 0: a booking started without the API's defaults,
 * e.g. in a test, closes at CONFIRMED).
 */
export function loadBookingWorkflowDefaults(env: NodeJS.ProcessEnv = process.env): BookingWorkflowOptions {
  const options: BookingWorkflowOptions = { cancelWindowMs: DEFAULT_CANCEL_WINDOW_MS };
  const window = env.ORDER_SETTLE_WINDOW_MS?.trim();
  if (window !== undefined && window !== '') {
    const value = Number(window);
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`ORDER_SETTLE_WINDOW_MS: must be a whole number of ms >= 0, got "${window}"`);
    options.settleWindowMs = value;
  }
  const policy = env.ORDER_UNSETTLED_POLICY?.trim();
  if (policy !== undefined && policy !== '') {
    if (!(POLICIES as readonly string[]).includes(policy)) {
      throw new Error(`ORDER_UNSETTLED_POLICY: must be one of ${POLICIES.join(', ')}, got "${policy}"`);
    }
    options.unsettledPolicy = policy as UnsettledPolicy;
  }
  const cancelWindow = env.BOOKING_CANCEL_WINDOW_MS?.trim();
  if (cancelWindow !== undefined && cancelWindow !== '') {
    const value = Number(cancelWindow);
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`BOOKING_CANCEL_WINDOW_MS: must be a whole number of ms >= 0, got "${cancelWindow}"`);
    options.cancelWindowMs = value;
  }
  return options;
}
