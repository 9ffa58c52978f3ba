/**
 * The booking after the sale (workflows/booking.servicing.ts) on Temporal's time-skipping test
 * server, with jest mocks as activities: serviceable until departure across continue-as-new, one
 * servicing action at a time, a lost OrderChange answer settled by reading the order back, a hold
 * that expires and a hold that is paid. The same flows against the real airline are in
 * test/workflows/saga-servicing.e2e-spec.ts.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { OrderSummary } from '../../activities/booking.activities.types';
import type { BookingWorkflowOptions } from '../../src/booking/booking.model';
import type { ChangeOfferFound } from '../../src/booking/servicing.model';
import {
  airlineChangeSignal,
  changeOffersUpdate,
  changeTripUpdate,
  payBookingUpdate,
  removePassengersUpdate,
  stateQuery,
} from '../../workflows/definitions';
import {
  activityGate,
  attempt,
  happyMocks,
  oneWayIntent,
  ORDER,
  outcomeUnknown,
  pollUntil,
  TEST_CARD_NUMBER,
  type ActivityMocks,
} from './booking.fixtures';
import { timeSkippingBookings } from './time-skipping-server';

jest.setTimeout(180_000);

const SERVICING: BookingWorkflowOptions = { servicing: {} };
const DAY_MS = 24 * 3600_000;

/** `YYYY-MM-DDTHH:MM`, `days` after `nowMs` (the test server's clock: one for every test of the file). */
const localTime = (nowMs: number, days: number) => new Date(nowMs + days * DAY_MS).toISOString().slice(0, 16);

const flight = (departure: string, segmentKey = 'SEG1') => ({
  segmentKey,
  flight: 'ZZ1234',
  origin: 'LGW',
  destination: 'OSL',
  departure,
});

/** An order departing in 30 days, and an offer to move it two days later (the test server's time). */
function orderAndOffer(nowMs: number) {
  const order: OrderSummary = {
    ...ORDER,
    flights: [flight(localTime(nowMs, 30))],
    passengerIds: ['PAX__ADT01'],
    itemCount: 1,
    payment: { status: 'paid' },
  };
  const offer: ChangeOfferFound = {
    id: 'RESHOP-OFFER-1',
    owner: 'ZZ',
    responseId: 'RESHOP-1',
    offerItems: [{ offerItemId: 'RESHOP-OFFER-1-1', passengerRefs: ['PAX__ADT01'] }],
    journey: { departureDate: localTime(nowMs, 32).slice(0, 10) },
    flights: [flight(localTime(nowMs, 32), 'SEG9')],
    priceClass: 'ECONOMY',
    total: { value: '120.00', currency: 'GBP' },
    difference: { value: '16.98', currency: 'GBP' },
    penalty: { value: '0.00', currency: 'GBP' },
    expiresAt: new Date(nowMs + 300 * DAY_MS).toISOString(),
  };
  return { order, offer };
}

describe('booking servicing (time-skipping test server)', () => {
  let mocks: ActivityMocks;
  let CONFIRMED_ORDER: OrderSummary;
  let OFFER: ChangeOfferFound;
  const bookings = timeSkippingBookings('booking-servicing', () => mocks);
  const { start, sentEvents } = bookings;

  beforeEach(async () => {
    ({ order: CONFIRMED_ORDER, offer: OFFER } = orderAndOffer(await bookings.env.currentTimeMs()));
    mocks = happyMocks();
    mocks.createOrder.mockImplementation(async () => ({ order: CONFIRMED_ORDER, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: CONFIRMED_ORDER,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    mocks.reshopChange.mockImplementation(async () => ({ offers: [OFFER], attempt: attempt() }));
  });

  const confirmed = async (options: BookingWorkflowOptions = SERVICING) => {
    const handle = await start(oneWayIntent(), options);
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'CONFIRMED',
    );
    return handle;
  };

  it('stays serviceable until its last flight has departed, continuing as new on the way', async () => {
    const handle = await confirmed({ servicing: { maxHistoryEvents: 100 } });
    for (let i = 0; i < 12; i += 1)
      await handle.executeUpdate(changeOffersUpdate, { args: [{ journey: OFFER.journey }] });
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    // The departure (local time) read as the latest instant it can be anywhere: UTC-12.
    const until = Date.parse(`${CONFIRMED_ORDER.flights![0]!.departure}:00Z`) + 12 * 3600_000;
    expect(result.state.serviceableUntil).toBe(new Date(until).toISOString());
    // (The search attributes carried into the later runs are checked on the real server,
    // test/workflows/saga-servicing.e2e-spec.ts: this test server drops them on continue-as-new.)
    const { runId, closeTime } = await handle.describe();
    expect(runId).not.toBe(handle.firstExecutionRunId);
    expect(closeTime!.getTime()).toBeGreaterThanOrEqual(until);
    expect(mocks.reshopChange).toHaveBeenCalledTimes(12);
    // The state carried into the later runs: the steps of the booking itself are still there.
    expect(result.state.steps.map((s) => s.name)).toContain('createOrder');
  });

  it('refuses a second servicing action while one runs: BOOKING_BUSY', async () => {
    const gate = activityGate();
    mocks.reshopChange.mockImplementationOnce(async () => {
      await gate.pass();
      return { offers: [OFFER], attempt: attempt() };
    });
    const handle = await confirmed();
    const first = handle.executeUpdate(changeOffersUpdate, { args: [{ journey: OFFER.journey }] });
    await gate.reached();
    const second = handle.executeUpdate(removePassengersUpdate, { args: [{ passengers: [0] }] });
    await expect(second).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    await second.catch((error: WorkflowUpdateFailedError) =>
      expect(error.cause).toMatchObject({ type: 'BOOKING_BUSY' }),
    );
    gate.release();
    expect((await first).offers.map((o) => o.id)).toEqual(['RESHOP-OFFER-1']);
    expect((await handle.query(stateQuery)).servicing).toBeUndefined();
    await handle.terminate();
  });

  it('settles an OrderChange whose answer was lost by reading the order back: changed once', async () => {
    const changed: OrderSummary = {
      ...CONFIRMED_ORDER,
      flights: OFFER.flights,
      total: { value: '120.00', currency: 'GBP' },
    };
    mocks.changeOrder.mockImplementationOnce(async () => {
      throw outcomeUnknown('create', 'timeout');
    });
    const handle = await confirmed();
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: changed,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    await handle.executeUpdate(changeOffersUpdate, { args: [{ journey: OFFER.journey }] });
    const state = await handle.executeUpdate(changeTripUpdate, {
      args: [{ offerId: OFFER.id, card: oneWayIntent().payment.card }],
    });
    expect(state.status).toBe('CONFIRMED');
    expect(mocks.changeOrder).toHaveBeenCalledTimes(1);
    expect(mocks.changeOrder.mock.calls[0]![0].change).toEqual({
      kind: 'acceptOffers',
      offers: [{ offerId: OFFER.id, owner: 'ZZ', responseId: 'RESHOP-1', offerItems: OFFER.offerItems }],
      payment: { tokenId: 'TOKEN-1', amount: OFFER.difference },
    });
    expect(state.changes).toEqual([
      expect.objectContaining({ kind: 'trip', difference: OFFER.difference, to: changed.flights }),
    ]);
    expect(state.flights).toEqual(changed.flights);
    expect(JSON.stringify(state)).not.toContain(TEST_CARD_NUMBER);
    expect(sentEvents.map((e) => e.event.type)).toContain('booking.changed');
    // Regression: the offers of the order as it was stayed on, so the same change could be taken twice.
    await expect(
      handle.executeUpdate(changeTripUpdate, { args: [{ offerId: OFFER.id, card: oneWayIntent().payment.card }] }),
    ).rejects.toMatchObject({ cause: { type: 'OFFER_UNKNOWN' } });
    expect(mocks.changeOrder).toHaveBeenCalledTimes(1);
    await handle.terminate();
  });

  it('a hold not paid by its deadline: booking.held, booking.payment_due, then EXPIRED when the airline cancelled it', async () => {
    const dueBy = new Date((await bookings.env.currentTimeMs()) + DAY_MS).toISOString();
    const held: OrderSummary = { ...CONFIRMED_ORDER, payment: { status: 'due', dueBy } };
    mocks.createOrder.mockImplementation(async () => ({ order: held, attempt: attempt() }));
    let reads = 0;
    mocks.retrieveOrder.mockImplementation(async () => {
      reads += 1;
      return {
        order: reads === 1 ? held : { ...held, status: 'CANCELLED' },
        orderViewXml: '<OrderViewRS/>',
        attempt: attempt(),
      };
    });
    const { card: _card, ...payment } = { ...oneWayIntent().payment, hold: true as const };
    const handle = await start({ ...oneWayIntent(), payment }, SERVICING);
    const result = await handle.result();
    expect(result.state.status).toBe('EXPIRED');
    expect(result.state.payment).toMatchObject({ status: 'expired', dueBy });
    expect(mocks.tokenise).not.toHaveBeenCalled();
    expect(mocks.repriceWithToken).not.toHaveBeenCalled();
    expect(mocks.createOrder.mock.calls[0]![0].tokenId).toBeUndefined();
    const mine = sentEvents.filter((e) => (e.event.data as { bookingId: string }).bookingId === handle.workflowId);
    expect(mine.map((e) => e.event.type)).toEqual(['booking.held', 'booking.payment_due', 'booking.expired']);
  });

  /** A booking held at the airline (intent `payment.hold`), its order due in `dueInMs`, once it is `HELD`. */
  async function heldBooking(dueInMs: number) {
    const dueBy = new Date((await bookings.env.currentTimeMs()) + dueInMs).toISOString();
    const held: OrderSummary = { ...CONFIRMED_ORDER, payment: { status: 'due', dueBy } };
    mocks.createOrder.mockImplementation(async () => ({ order: held, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: held,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    const { card: _card, ...payment } = { ...oneWayIntent().payment, hold: true as const };
    const handle = await start({ ...oneWayIntent(), payment }, SERVICING);
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'HELD',
    );
    return { handle, held, dueBy };
  }

  it("the airline's notice that it cancelled an unpaid hold: EXPIRED at once, not an airline change", async () => {
    const { handle, held, dueBy } = await heldBooking(3 * DAY_MS);
    const cancelled: OrderSummary = { ...held, status: 'CANCELLED' };
    await handle.signal(airlineChangeSignal, {
      detectedBy: 'notification',
      order: cancelled,
      sequence: 2,
      reason: 'Unpaid at the payment time limit',
      receivedAt: new Date().toISOString(),
    });
    const result = await handle.result();
    expect(result.state.status).toBe('EXPIRED');
    expect(result.state.payment).toMatchObject({ status: 'expired', dueBy });
    expect(result.state.airlineChange).toBeUndefined();
    expect(result.state.changes).toBeUndefined();
    // Ended by the notice, not by a read at the payment deadline.
    expect(result.state.steps.map((step) => step.reason)).not.toContain('payment deadline');
    const mine = sentEvents.filter((e) => (e.event.data as { bookingId: string }).bookingId === handle.workflowId);
    expect(mine.map((e) => e.event.type)).toEqual(['booking.held', 'booking.expired']);
  });

  it('pays a hold: repriced with the token, paid by OrderChange, CONFIRMED', async () => {
    mocks.repriceOrder.mockImplementation(async () => ({ total: ORDER.total, unchanged: true, attempt: attempt() }));
    mocks.changeOrder.mockImplementation(async () => ({ order: CONFIRMED_ORDER, attempt: attempt() }));
    const { handle } = await heldBooking(DAY_MS);
    const { card } = oneWayIntent().payment;
    const state = await handle.executeUpdate(payBookingUpdate, { args: [{ card }] });
    expect(state.status).toBe('CONFIRMED');
    expect(state.payment).toMatchObject({ status: 'paid', amount: ORDER.total });
    expect(mocks.changeOrder.mock.calls[0]![0].change).toEqual({
      kind: 'pay',
      tokenId: 'TOKEN-1',
      amount: ORDER.total,
    });
    await handle.terminate();
  });
});
