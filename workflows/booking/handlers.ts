/**
 * Every signal, query and update of the booking workflow (definitions in `../definitions.ts`),
 * registered in one place. Handlers only read the state and write the inbox; the steps that wait
 * read it.
 */
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import type { UpdateDefinition } from '@temporalio/common';
import type { ServicingAnswers } from '../../src/booking/booking.model';
import type { ServicingAction, ServicingArgs } from '../../src/booking/servicing.model';
import type { AuthenticationReceipt, AuthenticationReturn } from '../../src/booking/booking.model';
import {
  addServicesUpdate,
  airlineChangeSignal,
  airlineNoticeSeenQuery,
  answerAirlineChangeUpdate,
  approvePriceSignal,
  authenticationResultUpdate,
  cancelBookingUpdate,
  cancelQuoteUpdate,
  cancelSignal,
  changeOffersUpdate,
  changeTripUpdate,
  orderSeatMapUpdate,
  orderServicesUpdate,
  orderViewQuery,
  payBookingUpdate,
  removePassengersUpdate,
  seatMapQuery,
  selectSeatsUpdate,
  stateQuery,
} from '../definitions';
import { cancelPending, type Booking, type Ticket } from './context';
import { servicingRefusal, type ServicingView } from './servicing.decisions';
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
  // The order's latest OrderViewRS while it exists (held, confirmed, changing...), not once cancelled or expired.
  setHandler(orderViewQuery, () =>
    state.status === 'CANCELLED' || state.status === 'EXPIRED' ? undefined : booking.orderViewXml,
  );
  setHandler(seatMapQuery, () => inbox.seats?.maps);
  setHandler(approvePriceSignal, () => {
    inbox.approvals += 1;
  });
  setHandler(airlineChangeSignal, (notice) => {
    inbox.notices.push(notice);
  });
  setHandler(
    airlineNoticeSeenQuery,
    (sequence) =>
      (booking.afterSale?.lastSequence ?? -1) >= sequence ||
      inbox.notices.some((notice) => notice.sequence === sequence),
  );
  const requestCancel = (request?: { reason?: string }): void => {
    if (cancelPending(booking) || state.status === 'CANCELLED') return;
    inbox.cancel.requestedAt = new Date().toISOString();
    if (request?.reason !== undefined) inbox.cancel.reason = request.reason;
    else delete inbox.cancel.reason;
    onCancel();
  };
  setHandler(cancelSignal, requestCancel);
  setHandler(cancelBookingUpdate, async (request) => {
    requestCancel(request);
    const asked = inbox.cancel.requestedAt;
    await condition(
      () =>
        booking.phase === 'closed' ||
        state.status === 'CANCELLED' ||
        (state.cancellation?.requestedAt === asked && state.cancellation?.status === 'failed'),
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
  listenForServicing(booking);
}

/**
 * The servicing updates: each validator refuses what the booking cannot take now
 * (`servicingRefusal`); an accepted request becomes the inbox's ticket, which the servicing
 * orchestrator serves, and the handler answers its outcome.
 */
function listenForServicing(booking: Booking): void {
  serviceBy(booking, changeOffersUpdate, 'changeOffers');
  serviceBy(booking, changeTripUpdate, 'changeTrip');
  serviceBy(booking, orderServicesUpdate, 'orderServices');
  serviceBy(booking, orderSeatMapUpdate, 'orderSeatMap');
  serviceBy(booking, addServicesUpdate, 'addServices');
  serviceBy(booking, cancelQuoteUpdate, 'cancelQuote');
  serviceBy(booking, removePassengersUpdate, 'removePassengers');
  serviceBy(booking, payBookingUpdate, 'pay');
  serviceBy(booking, answerAirlineChangeUpdate, 'answerAirlineChange');
}

function serviceBy<A extends ServicingAction>(
  booking: Booking,
  update: UpdateDefinition<ServicingAnswers[A], [ServicingArgs[A]]>,
  action: A,
): void {
  setHandler(
    update,
    async (args) => {
      const ticket: Ticket<A> = { action, args: args ?? ({} as ServicingArgs[A]) };
      booking.inbox.ticket = ticket as unknown as Ticket;
      await condition(() => ticket.outcome !== undefined);
      delete booking.inbox.ticket;
      const outcome = ticket.outcome!;
      if (!outcome.ok) throw ApplicationFailure.nonRetryable(outcome.message, outcome.type);
      return outcome.value;
    },
    {
      validator: (args) => {
        const refusal = servicingRefusal(servicingView(booking), action, args ?? ({} as ServicingArgs[A]));
        if (refusal !== undefined) throw ApplicationFailure.nonRetryable(refusal.message, refusal.type);
      },
    },
  );
}

function servicingView(booking: Booking): ServicingView {
  return {
    status: booking.trail.state.status,
    serviceable: booking.phase === 'serviceable' || booking.phase === 'continuing',
    busy: booking.inbox.ticket !== undefined || booking.phase === 'continuing',
    passengers: booking.intent.passengers,
    order: booking.afterSale?.order,
    offers: booking.afterSale?.offers ?? [],
    nowMs: Date.now(),
  };
}

/**
 * The cardholder's 3-D Secure result: the first result while waiting is taken; any later one (a
 * reload of the return page, a second post) changes nothing and is answered with the outcome that
 * was taken (or `declined` when the wait ended without one).
 */
function listenForAuthentication(booking: Booking): void {
  const { state } = booking.trail;
  const urls = booking.intent.securePayment;
  const receipt = (outcome: AuthenticationReturn['outcome'], first: boolean): AuthenticationReceipt => ({
    outcome,
    first,
    redirectUrl: outcome === 'approved' ? urls.termUrl : urls.failUrl,
  });
  setHandler(
    authenticationResultUpdate,
    (returned) => {
      const inbox = booking.inbox.authentication;
      if (inbox?.result !== undefined) return receipt(inbox.result.outcome, false);
      if (inbox === undefined || !inbox.waiting || state.authentication === undefined)
        return receipt('declined', false);
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
