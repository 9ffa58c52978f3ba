/**
 * One change of the order, exactly once (docs/orchestrator.md, "Servicing"): an OrderChangeRQ sent
 * until its outcome is known, settled by reading the order back, with 3-D Secure when the airline
 * asks for it; then the outcome recorded. Used by the agency's requests and by airline changes.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { NdcContext, OrderChange, OrderSummary } from '../activities/booking.activities.types';
import { FailureType } from '../src/booking/booking.failures';
import type { BookingState, BookingStatus, PaymentCard } from '../src/booking/booking.model';
import type { OrderChangeRecord } from '../src/booking/servicing.model';
import { awaitCardholder, sendCustomerInput } from './booking/authentication';
import { showOrder, type AfterSale, type Booking, type PlaceOutcome } from './booking/context';
import { untilKnown } from './booking/exactly-once';
import { applicationFailureOf, failed } from './booking/failures';
import { changeOrder, settleChange } from './booking/order-change';
import { cardToken } from './booking/payment';
import { compare } from '../src/common/decimal';
import { withCardFee } from './booking/servicing.decisions';

/**
 * changeOrder until its outcome is known (settled by reading the order back); a payment the
 * airline asks 3-D Secure for waits for the cardholder (then the status goes back to `status`)
 * and sends the result, settled the same way.
 */
export async function changeExactlyOnce(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  change: OrderChange,
  applied: (read: OrderSummary) => boolean,
  status: BookingStatus,
): Promise<PlaceOutcome> {
  const settle = () => settleChange(booking, order, applied);
  const undecided = (): PlaceOutcome => ({
    kind: 'escalated',
    error: {
      type: FailureType.CHANGE_UNSETTLED,
      message: `${change.kind} got no answer and the order could not be read back; check order ${order.orderId} by hand`,
    },
  });
  const afterAbsent = (attempt: number) =>
    attempt < booking.settings.maxCreateAttempts
      ? ('again' as const)
      : failed(
          `${change.kind} was sent ${attempt} times and the order never showed it`,
          FailureType.CHANGE_NOT_APPLIED,
        );
  const sent = await untilKnown({
    send: (attempt) => changeOrder(booking, ctx, order, change, attempt),
    settle,
    undecided,
    afterAbsent,
  });
  if (sent.kind !== 'challenge') return sent;
  const result = await awaitCardholder(booking, sent.challenge, status);
  if (result.kind !== 'authenticated') return result;
  return untilKnown({
    send: (sends) => sendCustomerInput(booking, sent.challenge, result, sends),
    settle,
    undecided,
    afterAbsent,
  });
}

/**
 * A change of a confirmed order, start to end: `CHANGING` (no event), the change exactly once
 * (`applied` tells it in the order read back), its outcome recorded (`CONFIRMED`, `describe` says
 * what changed); a card token is made first when `payment` is due.
 */
export async function changeConfirmedOrder(
  booking: Booking,
  afterSale: AfterSale,
  ctx: NdcContext,
  change: OrderChange,
  applied: (read: OrderSummary) => boolean,
  describe: (order: OrderSummary) => Omit<OrderChangeRecord, 'at'>,
): Promise<BookingState> {
  const before = booking.trail.state.status;
  booking.trail.setStatus('CHANGING', { event: null });
  const outcome = await changeExactlyOnce(booking, ctx, afterSale.order, change, applied, 'CHANGING');
  return recordChange(booking, afterSale, outcome, { done: 'CONFIRMED', before }, describe);
}

/**
 * What paying `amount` with `card` adds to an OrderChangeRQ (a token first); nothing when nothing
 * is due. The amount shows as the running action's (`state.servicing.amount`).
 */
export async function paymentOf(
  booking: Booking,
  amount: { value: string; currency: string },
  card: PaymentCard | undefined,
): Promise<{ payment?: { tokenId: string; amount: { value: string; currency: string } } }> {
  if (compare(amount.value, '0') <= 0) {
    showAmount(booking, amount);
    return {};
  }
  const token = await cardToken(booking, card!, undefined, booking.airline?.servicingCardFeePercent !== undefined);
  const due = withCardFee(amount, booking.airline?.servicingCardFeePercent, token.funding);
  showAmount(booking, due);
  return { payment: { tokenId: token.id, amount: due } };
}

/**
 * A held order the airline ended unpaid (at its payment deadline, or cancelled while held): the
 * booking shows the order and ends `EXPIRED`, its payment `expired`.
 */
export function holdExpired({ trail }: Booking, afterSale: AfterSale, order: OrderSummary): void {
  afterSale.order = order;
  showOrder(trail.state, order);
  trail.state.payment = { ...trail.state.payment!, status: 'expired' };
  trail.finish('EXPIRED');
}

/** The running servicing action's amount (positive: charged), for the Temporal UI and the booking's reads. */
export function showAmount({ trail }: Booking, amount: { value: string; currency: string }): void {
  if (trail.state.servicing !== undefined) trail.state.servicing.amount = amount;
}

/**
 * Records a change's outcome: the order as it now is, the change in `state.changes`, the status
 * `done` (with `booking.changed`, or `booking.airline_change` for the airline's change; a held order
 * paid: `booking.confirmed`). Otherwise the status goes back to `before` and the request fails with
 * the reason.
 */
export function recordChange(
  booking: Booking,
  afterSale: AfterSale,
  outcome: PlaceOutcome,
  change: { done: BookingStatus; before: BookingStatus },
  describe: (order: OrderSummary) => Omit<OrderChangeRecord, 'at'>,
) {
  const { trail } = booking;
  const { state } = trail;
  const { done, before } = change;
  if (outcome.kind !== 'placed') {
    trail.setStatus(before, { event: null });
    throw failureOf(outcome);
  }
  afterSale.order = outcome.order;
  // Offers were for the order as it was: none can be taken again.
  afterSale.offers = [];
  if (outcome.orderViewXml !== undefined) booking.orderViewXml = outcome.orderViewXml;
  showOrder(state, outcome.order);
  const record = { at: new Date().toISOString(), ...describe(outcome.order), total: outcome.order.total };
  (state.changes ??= []).push(record);
  const event = record.kind === 'airline' ? 'booking.airline_change' : 'booking.changed';
  trail.setStatus(done, before === 'HELD' ? {} : { event });
  return state;
}

function failureOf(outcome: Exclude<PlaceOutcome, { kind: 'placed' }>): ApplicationFailure {
  switch (outcome.kind) {
    case 'failed': {
      const failure = applicationFailureOf(outcome.cause);
      return failure ?? ApplicationFailure.nonRetryable(String(outcome.cause), FailureType.AIRLINE_ERROR);
    }
    case 'escalated':
      return ApplicationFailure.nonRetryable(outcome.error.message, outcome.error.type);
    case 'cancelled':
      return ApplicationFailure.nonRetryable(
        'the payment was abandoned: the booking is being cancelled',
        FailureType.CANCELLED,
      );
  }
}

export function negate(value: string): string {
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

/** A refusal of a request before (or instead of) anything sent to the airline. */
export function refusal(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, type);
}
