/**
 * 3-D Secure (docs/orchestrator.md, "3-D Secure"): when the airline answers the OrderCreateRQ
 * with a CustomerInputRQ, step `awaitCardholder` waits durably (`AWAITING_AUTHENTICATION`) for the
 * cardholder's result (the `authenticationResult` update, `handlers.ts`), and step `customerInput`
 * sends it to the airline (CustomerInputRS). A lost answer is settled by the orchestrator as for
 * OrderCreate.
 */
import { condition, log } from '@temporalio/workflow';
import type { AuthenticationChallenge } from '../../activities/booking.activities.types';
import { FailureType } from '../../src/booking/booking.failures';
import type { AuthenticationReturn, BookingStatus } from '../../src/booking/booking.model';
import { chosenAirline } from './airlines';
import { airlineSettings, cancelPending, placed, type Booking, type PlaceOutcome, type Sent } from './context';
import { failed, isOutcomeUnknown } from './failures';

/** The cardholder's result, ready to send: approved or declined by the issuer, with its PaRes. */
export interface CardholderResult {
  kind: 'authenticated';
  outcome: AuthenticationReturn['outcome'];
  paRes: string;
  /** When the authentication window closes (workflow time, ms). */
  expiresAtMs: number;
}

/**
 * Waits for the cardholder, at most the chosen airline's authentication window. No result within
 * it: `AUTHENTICATION_TIMEOUT`; declined without an issuer result: `AUTHENTICATION_FAILED` (a
 * declined result the issuer signed is sent too, so the airline releases the seats at once; it
 * answers 781). A cancel while waiting ends the booking `CANCELLED`: nothing was ordered.
 */
export async function awaitCardholder(
  booking: Booking,
  challenge: AuthenticationChallenge,
  after: BookingStatus = 'RUNNING',
): Promise<CardholderResult | Exclude<PlaceOutcome, { kind: 'placed' }>> {
  const { trail, inbox } = booking;
  const { authenticationTimeoutMs: timeoutMs } = airlineSettings(booking);
  const expiresAtMs = Date.now() + timeoutMs;
  const expiresAt = new Date(expiresAtMs).toISOString();
  trail.state.authentication = { redirectUrl: challenge.acsUrl, expiresAt };
  const waiting: NonNullable<Booking['inbox']['authentication']> = { waiting: true };
  inbox.authentication = waiting;
  trail.setStatus('AWAITING_AUTHENTICATION');
  log.info('waiting for the 3-D Secure result of the cardholder', { expiresAt });
  await condition(() => waiting.result !== undefined || cancelPending(booking), timeoutMs);
  waiting.waiting = false;
  if (cancelPending(booking)) return { kind: 'cancelled' };
  const returned = waiting.result;
  if (returned === undefined) {
    return failed(
      `no 3-D Secure result within ${timeoutMs} ms: no order was made, the airline releases the seats`,
      FailureType.AUTHENTICATION_TIMEOUT,
    );
  }
  trail.setStatus(after);
  if (returned.paRes === undefined) {
    return failed(
      `the cardholder was not authenticated (${returned.outcome}, without an issuer result): no order was made`,
      FailureType.AUTHENTICATION_FAILED,
    );
  }
  return { kind: 'authenticated', outcome: returned.outcome, paRes: returned.paRes, expiresAtMs };
}

/**
 * Sends the cardholder's result to the chosen airline (CustomerInputRS, never retried by
 * Temporal): the order it placed, a definite failure, or unknown (no answer: settled by lookup,
 * never sent again blindly). `sends` counts this send among those of the same result.
 */
export async function sendCustomerInput(
  booking: Booking,
  challenge: AuthenticationChallenge,
  result: CardholderResult,
  sends: number,
): Promise<Sent> {
  const { trail, ctx } = booking;
  const { orders } = chosenAirline(booking);
  const { spmTxnReference, originalTransactionId } = challenge;
  const reason = `3-D Secure ${result.outcome}${sends > 1 ? `, sent again (${sends}): no order after the settle window` : ''}`;
  try {
    const answer = await trail.step(
      'customerInput',
      () =>
        orders.customerInput({
          ctx,
          spmTxnReference,
          ...(originalTransactionId !== undefined ? { originalTransactionId } : {}),
          paRes: result.paRes,
          status: result.outcome === 'approved' ? 'Y' : 'N',
        }),
      { reason },
    );
    return placed(answer);
  } catch (error) {
    if (!isOutcomeUnknown(error)) return { kind: 'failed', cause: error };
    log.warn('customer input outcome unknown: settling by lookup before anything else', { sends });
    return { kind: 'unknown' };
  }
}
