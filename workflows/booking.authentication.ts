/**
 * 3-D Secure in the booking saga (docs/orchestrator.md, "3-D Secure"): when the airline answers
 * the OrderCreateRQ with a CustomerInputRQ, the booking waits durably (`AWAITING_AUTHENTICATION`)
 * for the cardholder's result, sends it to the airline exactly once (CustomerInputRS), and
 * settles a lost answer by looking the order up, as for OrderCreate.
 */
import { ApplicationFailure, condition, log, patched, setHandler } from '@temporalio/workflow';
import type { AuthenticationChallenge } from '../activities/booking.activities.types';
import { FailureType } from '../src/booking/booking.failures';
import {
  DEFAULT_AUTHENTICATION_TIMEOUT_MS,
  type AuthenticationReceipt,
  type AuthenticationReturn,
  type BookingIntent,
  type BookingState,
} from '../src/booking/booking.model';
import { airlineSettings, chosenAirline } from './booking.airlines';
import { customerInputAfterAbsent } from './booking.decisions';
import { settle, type PlaceOutcome } from './booking.order';
import { isOutcomeUnknown, type ReadyToOrder, type Saga } from './booking.saga';
import { authenticationResultUpdate } from './definitions';

/**
 * Patch id: a CustomerInputRS without an answer whose order the settle window did not find is
 * sent again (policy `recreate`, within the authentication window) instead of failing at once.
 */
export const CUSTOMER_INPUT_RESEND_PATCH = 'customer-input-resend';

/** Longest PaRes accepted (the embedded airline's is about 120 characters; 3-D Secure 1 ones a few kB). */
const MAX_PARES_LENGTH = 8192;

/** The cardholder's result, once it came, and whether the booking is still waiting for one. */
export interface AuthenticationInbox {
  result?: AuthenticationReturn;
  waiting: boolean;
}

/**
 * Registers the handler of {@link authenticationResultUpdate}: the first result while waiting is
 * taken; any later one (a reload of the return page, a second post) changes nothing and is
 * answered with the outcome that was taken (or `declined` when the wait ended without one).
 */
export function listenForAuthentication(
  state: BookingState,
  urls: Pick<BookingIntent['securePayment'], 'termUrl' | 'failUrl'>,
): AuthenticationInbox {
  const inbox: AuthenticationInbox = { waiting: false };
  const receipt = (outcome: AuthenticationReturn['outcome'], first: boolean): AuthenticationReceipt => ({
    outcome,
    first,
    redirectUrl: outcome === 'approved' ? urls.termUrl : urls.failUrl,
  });
  setHandler(
    authenticationResultUpdate,
    (returned) => {
      if (inbox.result !== undefined) return receipt(inbox.result.outcome, false);
      if (!inbox.waiting || state.authentication === undefined) return receipt('declined', false);
      inbox.result = { outcome: returned.outcome, ...(returned.paRes !== undefined ? { paRes: returned.paRes } : {}) };
      state.authentication = {
        ...state.authentication,
        returned: returned.outcome,
        returnedAt: new Date().toISOString(),
      };
      return receipt(returned.outcome, true);
    },
    {
      validator: (returned) => {
        if (state.authentication === undefined) throw new Error('the booking was not asked for 3-D Secure');
        if (returned?.outcome !== 'approved' && returned?.outcome !== 'declined')
          throw new Error('outcome must be approved or declined');
        const { paRes } = returned;
        if (paRes !== undefined && (typeof paRes !== 'string' || paRes === '' || paRes.length > MAX_PARES_LENGTH))
          throw new Error(`paRes must be a string of 1 to ${MAX_PARES_LENGTH} characters`);
      },
    },
  );
  return inbox;
}

/** The intent's secure-payment data with the booking API's return URLs, when it has them. */
export function securePaymentOf(saga: Saga): BookingIntent['securePayment'] {
  const { securePayment } = saga.intent;
  return saga.authenticationReturn === undefined ? securePayment : { ...securePayment, ...saga.authenticationReturn };
}

/** The wait of the chosen airline (else the booking's option, else 10 minutes). */
export function authenticationTimeoutOf({ airline, settings }: Saga): number {
  return Math.max(
    0,
    airline?.authenticationTimeoutMs ?? settings.authenticationTimeoutMs ?? DEFAULT_AUTHENTICATION_TIMEOUT_MS,
  );
}

function failed(message: string, type: FailureType): PlaceOutcome {
  return { kind: 'failed', cause: ApplicationFailure.nonRetryable(message, type) };
}

/**
 * Waits for the cardholder, then sends the result to the airline exactly once. No result within
 * the window: `AUTHENTICATION_TIMEOUT`; declined without an issuer result: `AUTHENTICATION_FAILED`
 * (a declined result the issuer signed is sent too, so the airline releases the seats at once;
 * it answers 781). A cancel while waiting ends the booking `CANCELLED`: nothing was ordered.
 *
 * A CustomerInputRS without an answer is settled by looking the order up, as an OrderCreate is;
 * when the settle window proves that no order exists, the airline's `unsettledPolicy` decides
 * ({@link customerInputAfterAbsent}): `recreate` sends it again while the authentication window
 * lasts (the airline answers a result that already made an order with that order), else the
 * booking fails `ORDER_NOT_CREATED`.
 */
export async function authenticate(
  saga: Saga,
  ready: ReadyToOrder,
  challenge: AuthenticationChallenge,
): Promise<PlaceOutcome> {
  const { trail, inbox, cancel } = saga;
  const timeoutMs = authenticationTimeoutOf(saga);
  const expiresAt = new Date(Date.now() + timeoutMs).toISOString();
  trail.state.authentication = { redirectUrl: challenge.acsUrl, expiresAt };
  inbox.waiting = true;
  trail.setStatus('AWAITING_AUTHENTICATION');
  log.info('waiting for the 3-D Secure result of the cardholder', { expiresAt });
  await condition(() => inbox.result !== undefined || cancel?.requestedAt !== undefined, timeoutMs);
  inbox.waiting = false;
  if (cancel?.requestedAt !== undefined) return { kind: 'cancelled' };
  const returned = inbox.result;
  if (returned === undefined) {
    return failed(
      `no 3-D Secure result within ${timeoutMs} ms: no order was made, the airline releases the seats`,
      FailureType.AUTHENTICATION_TIMEOUT,
    );
  }
  trail.setStatus('RUNNING');
  if (returned.paRes === undefined) {
    return failed(
      `the cardholder was not authenticated (${returned.outcome}, without an issuer result): no order was made`,
      FailureType.AUTHENTICATION_FAILED,
    );
  }
  const expiresAtMs = Date.parse(expiresAt);
  const { unsettledPolicy } = airlineSettings(saga);
  for (let sends = 1; ; sends += 1) {
    const sent = await sendCustomerInput(saga, challenge, { outcome: returned.outcome, paRes: returned.paRes }, sends);
    if (sent !== undefined) return sent;
    const settled = await settle(saga, ready);
    if (settled.kind === 'found') return settled.placed;
    const ids = trail.state.settling?.lookupIds.join(', ') ?? '';
    if (settled.kind === 'undecided') {
      return {
        kind: 'escalated',
        error: {
          type: FailureType.ORDER_UNSETTLED,
          message: `the airline answered no order lookup after the customer input; check by hand with the lookup ids ${ids}`,
        },
      };
    }
    const next = customerInputAfterAbsent(unsettledPolicy, sends, saga.settings.maxCreateAttempts, {
      nowMs: Date.now(),
      expiresAtMs,
    });
    // Histories recorded before the resend fail here, as they did.
    if (next.kind === 'resend' && patched(CUSTOMER_INPUT_RESEND_PATCH)) {
      log.warn('customer input without an answer and no order after the settle window: sending it again', { sends });
      continue;
    }
    return failed(
      `the customer input got no answer and no order exists for ${ids} after the settle window (sent ${sends} time(s))`,
      FailureType.ORDER_NOT_CREATED,
    );
  }
}

/**
 * Sends the cardholder's result to the chosen airline (CustomerInputRS): the order it placed, a
 * definite failure, or undefined when the outcome is unknown (no answer: the caller settles it by
 * lookup; it is never sent again blindly).
 */
async function sendCustomerInput(
  saga: Saga,
  challenge: AuthenticationChallenge,
  returned: { outcome: AuthenticationReturn['outcome']; paRes: string },
  sends: number,
): Promise<PlaceOutcome | undefined> {
  const { trail, ctx } = saga;
  const { orders } = chosenAirline(saga);
  const { spmTxnReference, originalTransactionId } = challenge;
  const reason = `3-D Secure ${returned.outcome}${sends > 1 ? `, sent again (${sends}): no order after the settle window` : ''}`;
  try {
    const placed = await trail.step(
      'customerInput',
      () =>
        orders.customerInput({
          ctx,
          spmTxnReference,
          ...(originalTransactionId !== undefined ? { originalTransactionId } : {}),
          paRes: returned.paRes,
          status: returned.outcome === 'approved' ? 'Y' : 'N',
        }),
      { reason },
    );
    return {
      kind: 'placed',
      order: placed.order,
      ...(placed.orderViewXml !== undefined ? { orderViewXml: placed.orderViewXml } : {}),
    };
  } catch (error) {
    if (!isOutcomeUnknown(error)) return { kind: 'failed', cause: error };
    log.warn('customer input outcome unknown: settling by lookup before anything else', { sends });
    return undefined;
  }
}
