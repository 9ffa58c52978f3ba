/**
 * Status changes of the running booking, for workflow interceptors (the booking metrics of
 * src/worker/booking-metrics.interceptor.ts). A booking reaches its outcome (CONFIRMED, FAILED,
 * ...) long before its workflow closes when it keeps a cancel window open, so what it became is
 * reported here, as it happens, not from the workflow's result.
 *
 * Workflow code: module state is per workflow (the SDK gives each workflow its own module cache).
 */
import type { BookingState } from '../src/booking/booking.model';

export type BookingStatusListener = (state: Readonly<BookingState>) => void;

const listeners: BookingStatusListener[] = [];

/** Calls `listener` after every status change of this workflow's booking. */
export function onBookingStatus(listener: BookingStatusListener): void {
  listeners.push(listener);
}

/** Called by the trail after each status change. */
export function bookingStatusChanged(state: Readonly<BookingState>): void {
  for (const listener of listeners) listener(state);
}
