/**
 * Every signal, query and update of the booking workflow (definitions in `../definitions.ts`),
 * registered in one place. Handlers only read the state and write the inbox; the steps that wait
 * read it.
 */
import { condition, setHandler } from '@temporalio/workflow';
import type { AuthenticationReceipt, AuthenticationReturn } from '../../src/booking/booking.model';
import {
  approvePriceSignal,
  authenticationResultUpdate,
  cancelBookingUpdate,
  cancelSignal,
  orderViewQuery,
  seatMapQuery,
  selectSeatsUpdate,
  stateQuery,
} from '../definitions';
import type { Booking } from './context';
import { resolveChoice } from './extras.decisions';

/** Longest PaRes accepted (the embedded airline's is about 120 characters; 3-D Secure 1 ones a few kB). */
const MAX_PARES_LENGTH = 8192;

/**
 * Registers the booking's handlers. `onCancel` runs at the first cancel request (the orchestrator
 * ends a booking that has not started ordering at once).
 */
export function listen(booking: Booking, onCancel: () => void): void {
  const { trail, inbox } = booking;
  const { state } = trail;
  setHandler(stateQuery, () => state);
  setHandler(orderViewQuery, () => (state.status === 'CONFIRMED' ? booking.orderViewXml : undefined));
  setHandler(seatMapQuery, () => inbox.seats?.maps);
  setHandler(approvePriceSignal, () => {
    inbox.approvals += 1;
  });
  const requestCancel = (request?: { reason?: string }): void => {
    if (inbox.cancel.requestedAt !== undefined) return;
    inbox.cancel.requestedAt = new Date().toISOString();
    if (request?.reason !== undefined) inbox.cancel.reason = request.reason;
    onCancel();
  };
  setHandler(cancelSignal, requestCancel);
  setHandler(cancelBookingUpdate, async (request) => {
    requestCancel(request);
    await condition(
      () => booking.phase === 'closed' || state.status === 'CANCELLED' || state.cancellation?.status === 'failed',
    );
    return state;
  });
  setHandler(
    selectSeatsUpdate,
    (seats) => {
      const request = inbox.seats!;
      request.choice = resolveChoice(request.maps, request.pax, seats);
    },
    {
      validator: (seats) => {
        const request = inbox.seats;
        if (request === undefined || request.choice !== undefined)
          throw new Error('seats: the booking is not waiting for a seat selection');
        resolveChoice(request.maps, request.pax, seats);
      },
    },
  );
  listenForAuthentication(booking);
}

/**
 * The cardholder's 3-D Secure result: the first result while waiting is taken; any later one (a
 * reload of the return page, a second post) changes nothing and is answered with the outcome that
 * was taken (or `declined` when the wait ended without one).
 */
function listenForAuthentication(booking: Booking): void {
  const { state } = booking.trail;
  const inbox = booking.inbox.authentication;
  const urls = booking.intent.securePayment;
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
}
