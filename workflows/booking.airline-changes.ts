/**
 * Changes the airline makes (docs/orchestrator.md, "Changes the airline makes"): a schedule change
 * or a cancelled flight, pushed as OrderChangeNotif (the `airlineChange` signal) or found by
 * reading the order back on a schedule. The booking compares it with the order it holds; the
 * agency's policy accepts a small retime, anything else waits in `ACTION_REQUIRED` for the agency
 * (accept, rebook with the fee waived, cancel with a full refund) until the airline's deadline,
 * after which the booking records what the airline did. Every step exactly once, like the others.
 */
import { ActivityFailure, log } from '@temporalio/workflow';
import type { NdcContext, OrderChange, OrderSummary } from '../activities/booking.activities.types';
import type { AirlineRoute, BookingState } from '../src/booking/booking.model';
import type { AirlineChangeAnswer, AirlineChangeNotice } from '../src/booking/servicing.model';
import { changeConfirmedOrder, holdExpired, refusal } from './booking.order-changes';
import { changeTrip } from './booking.requests';
import { airlineChangeOf, policyAccepts, type AirlineChangeKind } from './booking/airline-change.decisions';
import { cancelConfirmed } from './booking/cancel';
import { servicingContext, showOrder, type AfterSale, type Booking } from './booking/context';
import { readOrderForChanges } from './booking/order-reads';

/** `OrderChangeParameters/Reason` of an OrderChangeRQ that accepts the airline's change as it stands. */
export const ACCEPT_CHANGE_REASON = 'SCA';

/**
 * Takes the notices that came since the last look, in order. True when the booking ended (the
 * airline cancelled the order).
 */
export async function takeNotices(booking: Booking, afterSale: AfterSale): Promise<boolean> {
  const { notices } = booking.inbox;
  while (afterSale.noticesTaken < notices.length) {
    const notice = notices[afterSale.noticesTaken]!;
    afterSale.noticesTaken += 1;
    if (await takeNotice(booking, afterSale, notice)) return true;
  }
  return false;
}

/** A notice: dropped when for another order or a duplicate, else shown and settled by policy, or left to the agency. */
async function takeNotice(booking: Booking, afterSale: AfterSale, notice: AirlineChangeNotice): Promise<boolean> {
  if (notice.order.orderId !== afterSale.order.orderId) {
    log.warn('airline change notice for another order: dropped', { orderId: notice.order.orderId });
    return false;
  }
  if (notice.sequence !== undefined) {
    if (afterSale.lastSequence !== undefined && notice.sequence <= afterSale.lastSequence) {
      log.info('airline change notice already taken: dropped', { sequence: notice.sequence });
      return false;
    }
    afterSale.lastSequence = notice.sequence;
  }
  if (booking.trail.state.status === 'HELD' && notice.order.status !== 'OK') {
    holdExpired(booking, afterSale, notice.order);
    return true;
  }
  const change = airlineChangeOf(afterSale.order, notice.order);
  if (change.kind === 'none') return false;
  const { trail } = booking;
  const before = afterSale.order.flights ?? [];
  afterSale.order = notice.order;
  afterSale.actionDueAnnounced = false;
  afterSale.deadlineChecks = 0;
  trail.state.airlineChange = airlineChangeView(notice, change, before);
  showOrder(trail.state, notice.order);
  if (change.kind === 'cancelled') return settledByAirline(booking, afterSale, notice.order);
  const policy = booking.intent.airlineChanges ?? booking.settings.servicing?.airlineChanges;
  if (policyAccepts(policy, change, notice.order)) {
    await acceptChange(booking, afterSale, 'policy');
    return false;
  }
  trail.setStatus('ACTION_REQUIRED');
  return false;
}

function airlineChangeView(
  notice: AirlineChangeNotice,
  change: { kind: AirlineChangeKind; shiftMinutes?: number },
  before: NonNullable<OrderSummary['flights']>,
): NonNullable<BookingState['airlineChange']> {
  const kind = change.kind as 'retime' | 'reroute' | 'cancelled';
  return {
    detectedAt: notice.receivedAt,
    detectedBy: notice.detectedBy,
    kind,
    ...(notice.reason !== undefined ? { reason: notice.reason } : {}),
    before,
    after: notice.order.flights ?? [],
    ...(change.shiftMinutes !== undefined ? { shiftMinutes: change.shiftMinutes } : {}),
    ...(notice.order.actionBy !== undefined ? { actionBy: notice.order.actionBy } : {}),
    actions: kind === 'cancelled' ? [] : ['accept', 'rebook', 'cancel'],
  };
}

/** Records who settled the airline change, and how. */
function recordAction(
  state: BookingState,
  taken: 'accept' | 'rebook' | 'cancel' | 'airline-default',
  by: 'agency' | 'policy' | 'airline',
) {
  if (state.airlineChange !== undefined) state.airlineChange.action = { taken, by, at: new Date().toISOString() };
}

/** The airline cancelled the order (or applied its default): the booking shows it and ends when cancelled. */
function settledByAirline(booking: Booking, afterSale: AfterSale, order: OrderSummary): boolean {
  const { trail } = booking;
  recordAction(trail.state, 'airline-default', 'airline');
  (trail.state.changes ??= []).push({
    at: new Date().toISOString(),
    kind: 'airline',
    by: 'airline',
    ...flightsOf(order),
  });
  if (order.status !== 'OK') {
    trail.finish('CANCELLED');
    return true;
  }
  trail.setStatus('CONFIRMED', { event: 'booking.changed' });
  return false;
}

function flightsOf(order: OrderSummary) {
  return order.flights !== undefined ? { to: order.flights } : {};
}

/** Accepts the changed order as it stands (OrderChangeRQ, exactly once): `CONFIRMED` on the new flights. */
async function acceptChange(booking: Booking, afterSale: AfterSale, by: 'agency' | 'policy'): Promise<BookingState> {
  const { state } = booking.trail;
  const before = afterSale.order;
  const change: OrderChange = { kind: 'acceptAirlineChange', reason: ACCEPT_CHANGE_REASON };
  // Recorded before the status changes (its event says who accepted), taken back when the change fails.
  recordAction(state, 'accept', by);
  try {
    return await changeConfirmedOrder(
      booking,
      afterSale,
      servicingContext(booking),
      change,
      (read) => read.scheduleChange !== true,
      () => ({ kind: 'airline', by, ...flightsOf(before) }),
    );
  } catch (error) {
    delete state.airlineChange?.action;
    throw error;
  }
}

/** The agency's answer to an airline change: accept, rebook on an offer (fee waived), or cancel (full refund). */
export async function answerAirlineChange(
  booking: Booking,
  afterSale: AfterSale,
  ctx: NdcContext,
  answer: AirlineChangeAnswer,
): Promise<BookingState> {
  const { state } = booking.trail;
  switch (answer.action) {
    case 'accept':
      return acceptChange(booking, afterSale, 'agency');
    case 'rebook': {
      const done = await changeTrip(booking, afterSale, ctx, {
        offerId: answer.offerId!,
        ...(answer.card !== undefined ? { card: answer.card } : {}),
      });
      recordAction(state, 'rebook', 'agency');
      return done;
    }
    case 'cancel': {
      const request = {
        requestedAt: new Date().toISOString(),
        reason: 'the agency cancels after the airline changed the order',
      };
      if (!(await cancelConfirmed(booking, afterSale.order, request))) {
        booking.trail.setStatus('ACTION_REQUIRED', { event: null });
        throw refusal(
          state.cancellation?.error?.type ?? 'CANCEL_FAILED',
          state.cancellation?.error?.message ?? 'the cancel failed',
        );
      }
      recordAction(state, 'cancel', 'agency');
      booking.trail.finish('CANCELLED');
      return state;
    }
  }
}

/**
 * The airline's deadline passed without the agency's answer: the order read back says what the
 * airline did (cancelled: the booking ends `CANCELLED`; the change stands: `CONFIRMED`); an order
 * still waiting is read again later. True when the booking ended.
 */
export async function actionDeadline(booking: Booking, afterSale: AfterSale): Promise<boolean> {
  let read: OrderSummary;
  try {
    read = (await readOrderForChanges(booking, afterSale.order, 'airline change deadline')).order;
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    afterSale.deadlineChecks += 1;
    return false;
  }
  if (read.status === 'OK' && read.scheduleChange === true) {
    afterSale.deadlineChecks += 1;
    return false;
  }
  afterSale.order = read;
  showOrder(booking.trail.state, read);
  return settledByAirline(booking, afterSale, read);
}

/**
 * The order read back on its schedule (behind bookings and servicing, within the airline's share
 * of reads): a difference is taken as a notice would be. The next read is scheduled either way.
 */
export async function readForChanges(booking: Booking, afterSale: AfterSale): Promise<boolean> {
  afterSale.nextReadAt = nextReadAt(booking.airline, Date.now(), Date.parse(booking.trail.state.serviceableUntil!));
  let read: OrderSummary;
  try {
    read = (await readOrderForChanges(booking, afterSale.order, 'scheduled order read')).order;
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    return false;
  }
  const notice: AirlineChangeNotice = { detectedBy: 'order-read', order: read, receivedAt: new Date().toISOString() };
  return takeNotice(booking, afterSale, notice);
}

const HOUR_MS = 3_600_000;

/**
 * When the order is read back next: every `everyMs` (default 24 h), every `nearDepartureEveryMs`
 * (default 6 h) within `nearDepartureMs` (default 7 days) of the departure, three times less often
 * for an airline that pushes its changes. Pure.
 */
export function nextReadAt(route: AirlineRoute | undefined, nowMs: number, departureMs: number): number {
  const reads = route?.orderReads ?? {};
  const near = departureMs - nowMs <= (reads.nearDepartureMs ?? 7 * 24 * HOUR_MS);
  const every = near ? (reads.nearDepartureEveryMs ?? 6 * HOUR_MS) : (reads.everyMs ?? 24 * HOUR_MS);
  return nowMs + every * (route?.pushesNotifications === true ? 3 : 1);
}
