/**
 * Keeps the booking workflow's current details (Temporal UI: the workflow page's "Current
 * details", served by the SDK's metadata query) up to date at every status change: status, PNR,
 * total, what it waits for and until when. Sets no command: histories replay unchanged.
 */
import { setCurrentDetails } from '@temporalio/workflow';
import type { BookingState } from '../../src/booking/booking.model';
import { bookingCurrentDetails, bookingWait } from '../../src/booking/booking.summary';
import { onBookingStatus } from '../booking-status-listeners';
import type { Settings } from './context';

/** When the wait that `state`'s status starts now ends (workflow time), if it has a deadline. */
function waitEnd(state: Readonly<BookingState>, settings: Pick<Settings, 'approvalTimeoutMs' | 'cancelWindowMs'>) {
  const now = Date.now();
  if (state.status === 'AWAITING_APPROVAL') return new Date(now + settings.approvalTimeoutMs).toISOString();
  if (state.status === 'CONFIRMED' && settings.cancelWindowMs > 0)
    return new Date(now + settings.cancelWindowMs).toISOString();
  return undefined;
}

/** Shows `state` now and after each of its status changes. */
export function trackBookingDetails(
  state: Readonly<BookingState>,
  settings: Pick<Settings, 'approvalTimeoutMs' | 'cancelWindowMs'>,
): void {
  const show = (current: Readonly<BookingState>): void =>
    setCurrentDetails(bookingCurrentDetails(current, bookingWait(current, waitEnd(current, settings))));
  onBookingStatus(show);
  show(state);
}
