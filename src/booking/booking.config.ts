/**
 * Deployment defaults of the booking workflow's options, read once from the environment by the
 * process that starts bookings (the API) and passed as `BookingWorkflowOptions`; an option given
 * with a request wins. Per airline: one deployment books with one airline (`AIRLINE_BASE_URL`).
 * One zod schema; fails fast naming the variable.
 */
import { z } from 'zod/v4';
import { parseEnv } from '../common/env';
import type { BookingWorkflowOptions, UnsettledPolicy } from './booking.model';
import { DEFAULT_PAYMENT_DUE_NOTICE_MS } from './servicing.model';

const POLICIES: readonly UnsettledPolicy[] = ['recreate', 'escalate'];

/**
 * - `ORDER_SETTLE_WINDOW_MS` (default 120000): how long an order create without a definite answer
 *   is looked up before the saga concludes no order exists. Must be longer than the airline's
 *   longest commit.
 * - `ORDER_UNSETTLED_POLICY` (`recreate`, default, or `escalate`): what follows a window without an
 *   order: create again, or end `ESCALATED` for a person to check.
 * - `SEAT_SELECTION_TIMEOUT_MS` (default 600000, 10 min): how long a booking with
 *   `extras.seats.mode: choose` waits in AWAITING_SEAT_SELECTION for the traveller's seats.
 * - `BOOKING_PAYMENT_DUE_NOTICE_MS` (default {@link DEFAULT_PAYMENT_DUE_NOTICE_MS}, 2 h): how long
 *   before a held booking's payment deadline the `booking.payment_due` webhook event goes out.
 * - `BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES` (default unset: every change waits for the
 *   agency): the deployment's policy for changes the airline makes, where the intent has none: a
 *   retime of at most that many minutes that keeps every connection is accepted by the booking.
 * - `BOOKING_AIRLINE_CHANGE_DUE_NOTICE_MS` (default 6 h): how long before the airline's deadline
 *   for an answer the `booking.airline_change_due` webhook event goes out.
 *
 * Every booking started with these defaults is serviceable (`servicing`): it stays open after
 * CONFIRMED or HELD until its last flight has departed (docs/orchestrator.md, "Servicing").
 * Returns the variables that are set, so the workflow's own defaults apply otherwise.
 */
export function loadBookingWorkflowDefaults(env: NodeJS.ProcessEnv = process.env): BookingWorkflowOptions {
  return parseEnv(bookingDefaultsEnvSchema, env, (variable, reason) => new Error(`${variable}: ${reason}`));
}

/** A whole number of milliseconds >= 0, given as text. */
const wholeMs = z
  .string()
  .trim()
  .refine((s) => Number.isInteger(Number(s)) && Number(s) >= 0, {
    error: (issue) => `must be a whole number of ms >= 0, got "${String(issue.input)}"`,
  })
  .transform(Number);

/** The variables of {@link loadBookingWorkflowDefaults}, for the schema of the process that reads them (the API's). */
export const bookingDefaultsEnvFields = {
  ORDER_SETTLE_WINDOW_MS: wholeMs.optional(),
  ORDER_UNSETTLED_POLICY: z
    .string()
    .trim()
    .refine((s) => (POLICIES as readonly string[]).includes(s), {
      error: (issue) => `must be one of ${POLICIES.join(', ')}, got "${String(issue.input)}"`,
    })
    .transform((s) => s as UnsettledPolicy)
    .optional(),
  SEAT_SELECTION_TIMEOUT_MS: wholeMs.optional(),
  BOOKING_PAYMENT_DUE_NOTICE_MS: wholeMs.optional(),
  BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES: z
    .string()
    .trim()
    .refine((s) => /^\d{1,4}$/.test(s) && Number(s) <= 1440, {
      error: (issue) => `must be a whole number of minutes from 0 to 1440, got "${String(issue.input)}"`,
    })
    .transform(Number)
    .optional(),
  BOOKING_AIRLINE_CHANGE_DUE_NOTICE_MS: wholeMs.optional(),
};

/** The options of the parsed {@link bookingDefaultsEnvFields}. */
export function bookingWorkflowDefaults(e: {
  ORDER_SETTLE_WINDOW_MS?: number;
  ORDER_UNSETTLED_POLICY?: UnsettledPolicy;
  SEAT_SELECTION_TIMEOUT_MS?: number;
  BOOKING_PAYMENT_DUE_NOTICE_MS?: number;
  BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES?: number;
  BOOKING_AIRLINE_CHANGE_DUE_NOTICE_MS?: number;
}): BookingWorkflowOptions {
  const autoAccept = e.BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES;
  return {
    ...(e.ORDER_SETTLE_WINDOW_MS !== undefined ? { settleWindowMs: e.ORDER_SETTLE_WINDOW_MS } : {}),
    ...(e.ORDER_UNSETTLED_POLICY !== undefined ? { unsettledPolicy: e.ORDER_UNSETTLED_POLICY } : {}),
    ...(e.SEAT_SELECTION_TIMEOUT_MS !== undefined ? { seatSelectionTimeoutMs: e.SEAT_SELECTION_TIMEOUT_MS } : {}),
    servicing: {
      paymentDueNoticeMs: e.BOOKING_PAYMENT_DUE_NOTICE_MS ?? DEFAULT_PAYMENT_DUE_NOTICE_MS,
      ...(autoAccept !== undefined ? { airlineChanges: { autoAccept: { maxShiftMinutes: autoAccept } } } : {}),
      ...(e.BOOKING_AIRLINE_CHANGE_DUE_NOTICE_MS !== undefined
        ? { actionDueNoticeMs: e.BOOKING_AIRLINE_CHANGE_DUE_NOTICE_MS }
        : {}),
    },
  };
}

const bookingDefaultsEnvSchema = z.object(bookingDefaultsEnvFields).transform(bookingWorkflowDefaults);
