/**
 * The saga's timer paths on Temporal's time-skipping test server (`TestWorkflowEnvironment
 * .createTimeSkipping`): workflow time jumps over the 24 h approval timeout and the 120 s settle
 * window, so no test waits for them on the wall clock. Activities are jest mocks.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { approvePriceSignal, cancelBookingUpdate, cancelSignal, stateQuery } from '../../workflows/definitions';
import { BookingStatusKey } from '../../src/temporal/search-attributes';
import type { BookingEventData } from '../../src/webhooks/webhook.model';
import {
  activityGate,
  attempt,
  happyMocks,
  oneWayIntent,
  ORDER,
  outcomeUnknown,
  pollUntil,
  stepTrail,
  type ActivityMocks,
} from './booking.fixtures';
import { timeSkippingBookings } from './time-skipping-server';

jest.setTimeout(180_000);

const createOutcomeUnknown = async (): Promise<never> => {
  throw outcomeUnknown('create', 'timeout');
};

describe('booking saga timers (time-skipping test server)', () => {
  let mocks: ActivityMocks;
  const bookings = timeSkippingBookings('booking-timers', () => mocks);
  const { start, sentEvents } = bookings;

  beforeEach(() => {
    mocks = happyMocks();
  });

  /** Workflow-time milliseconds between two ISO times of a state. */
  const between = (from: string, to: string): number => Date.parse(to) - Date.parse(from);

  it('fails with PRICE_NOT_APPROVED after the default 24 h approval timeout', async () => {
    const handle = await start(oneWayIntent({ selection: { maxTotal: '90.00' } }));
    const result = await handle.result();
    expect(result.state.status).toBe('FAILED');
    expect(result.state.error).toEqual({
      type: 'PRICE_NOT_APPROVED',
      message: 'priced total 103.02 GBP exceeds maxTotal 90.00 and was not approved within 86400000 ms',
    });
    // The guard waited the whole 24 h of workflow time.
    const { startTime, closeTime } = await handle.describe();
    expect(closeTime!.getTime() - startTime.getTime()).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(mocks.createOrder).not.toHaveBeenCalled();
  });

  it('books when approved 23 h into the 24 h wait', async () => {
    mocks.repriceWithToken.mockImplementation(async () => ({
      responseId: 'PRICE-2',
      offerId: 'PRICED-1',
      owner: 'ZZ',
      total: { value: '100.00', currency: 'GBP' },
      offerItems: [{ offerItemId: 'PRICED-1-ITEM1', passengerRefs: ['PAX__ADT01'] }],
      attempt: attempt(),
    }));
    const handle = await start(oneWayIntent({ selection: { maxTotal: '90.00' } }));
    // The 23 h count from the guard's start (the token-bearing pricing ended), not from the workflow's start.
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_APPROVAL',
    );
    await bookings.env.sleep('23h');
    expect((await handle.query(stateQuery)).status).toBe('AWAITING_APPROVAL');
    await handle.signal(approvePriceSignal);
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    const priced = result.state.steps.find((s) => s.name === 'repriceWithToken')!;
    const create = result.state.steps.find((s) => s.name === 'createOrder')!;
    // Workflow times of two tasks: within a second of the 23 h the test skipped.
    expect(between(priced.endedAt!, create.startedAt)).toBeGreaterThan(23 * 3600_000 - 1000);
  });

  it('settles an ambiguous create: looks up with backoff and adopts an order that appears 35 s later', async () => {
    mocks.createOrder.mockImplementationOnce(createOutcomeUnknown);
    let lookups = 0;
    mocks.reconcileOrder.mockImplementation(async () => {
      lookups += 1;
      return lookups < 6 ? { attempt: attempt() } : { order: ORDER, foundBy: 'PRICE-2', attempt: attempt() };
    });
    const handle = await start();
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
    expect(stepTrail(result.state).filter((s) => s.startsWith('reconcileOrder'))).toHaveLength(6);
    const create = result.state.steps.find((s) => s.name === 'createOrder')!;
    // 1 s after the create, then +2, +4, +8, +10, +10 s (workflow time). Each wait is measured from
    // the end of the step before it: the timers are skipped exactly, task latency adds only to
    // the steps themselves, so the bounds hold however busy the machine is.
    const lookupSteps = result.state.steps.filter((s) => s.name === 'reconcileOrder');
    const waits = lookupSteps.map((s, i) => between((i === 0 ? create : lookupSteps[i - 1]!).endedAt!, s.startedAt));
    [1000, 2000, 4000, 8000, 10_000, 10_000].forEach((backoff, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(backoff);
      expect(waits[i]).toBeLessThan(backoff + 1000);
    });
    expect(result.state.settling).toMatchObject({ lookupIds: ['PRICE-2', 'SHOP-1'], lookups: 6 });
    expect(between(result.state.settling!.since, result.state.settling!.until)).toBe(120_000);
  });

  it('shows SETTLING (state and search attribute) while it looks the order up', async () => {
    mocks.createOrder.mockImplementationOnce(createOutcomeUnknown);
    const gate = activityGate();
    mocks.reconcileOrder
      .mockImplementationOnce(async () => ({ attempt: attempt() }))
      .mockImplementationOnce(async () => {
        await gate.pass();
        return { order: ORDER, attempt: attempt() };
      });
    const handle = await start();
    const outcome = handle.result(); // lets the server skip the 1 s and 2 s backoffs
    const during = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.steps.filter((step) => step.name === 'reconcileOrder').length === 2,
    );
    expect(during.status).toBe('SETTLING');
    expect(during.currentStep).toBe('reconcileOrder');
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('SETTLING');
    gate.release();
    const result = await outcome;
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.steps.filter((s) => s.name === 'reconcileOrder').map((s) => s.reason)).toEqual([
      'settling, lookup 1',
      'settling, lookup 2',
    ]);
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('CONFIRMED');
  });

  it('recreates only after a lookup made when the 120 s window ended found nothing', async () => {
    mocks.createOrder.mockImplementationOnce(createOutcomeUnknown);
    const handle = await start();
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(mocks.createOrder).toHaveBeenCalledTimes(2);
    const steps = result.state.steps;
    const firstCreate = steps.find((s) => s.name === 'createOrder')!;
    const lastLookup = steps.filter((s) => s.name === 'reconcileOrder').at(-1)!;
    const secondCreate = steps.filter((s) => s.name === 'createOrder')[1]!;
    expect(between(firstCreate.endedAt!, lastLookup.startedAt)).toBeGreaterThanOrEqual(120_000);
    expect(lastLookup.startedAt <= secondCreate.startedAt).toBe(true);
    // At about 1, 3, 7, 15, 25 ... 115 s (14 lookups; fewer when task latency adds up on a busy
    // machine), then the last one when the window ends: the one before it was inside the window.
    const lookups = steps.filter((s) => s.name === 'reconcileOrder');
    expect(lookups.length).toBeGreaterThanOrEqual(12);
    expect(lookups.length).toBeLessThanOrEqual(15);
    expect(between(firstCreate.endedAt!, lookups.at(-2)!.startedAt)).toBeLessThan(120_000);
  });

  it('escalates instead with ORDER_UNSETTLED_POLICY=escalate: status ESCALATED with the lookup ids', async () => {
    mocks.createOrder.mockImplementation(createOutcomeUnknown);
    const handle = await start(oneWayIntent(), { unsettledPolicy: 'escalate', settleWindowMs: 30_000 });
    const result = await handle.result();
    expect(result.state.status).toBe('ESCALATED');
    expect(result.state.error).toEqual({
      type: 'ORDER_UNSETTLED',
      message: 'no order found within the settle window of 30000 ms; check by hand with the lookup ids PRICE-2, SHOP-1',
    });
    expect(result.state.settling?.lookupIds).toEqual(['PRICE-2', 'SHOP-1']);
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
    expect(result.state.order).toBeUndefined();
    // The agency's webhook registry is told (booking.escalated, with the ids to check): the one event sent.
    const sent = sentEvents.filter((input) => (input.event.data as BookingEventData).bookingId === handle.workflowId);
    expect(
      sent.map((input) => [input.agencyId, input.event.type, (input.event.data as BookingEventData).lookupIds]),
    ).toEqual([[oneWayIntent().agency.id, 'booking.escalated', ['PRICE-2', 'SHOP-1']]]);
  });

  it('never fails while the lookups fail: escalates when no lookup answered after the window', async () => {
    mocks.createOrder.mockImplementation(createOutcomeUnknown);
    mocks.reconcileOrder.mockImplementation(async () => {
      throw ApplicationFailure.nonRetryable('HTTP 401', 'AIRLINE_CREDENTIALS_REJECTED', {
        attempt: 1,
        httpStatus: 401,
      });
    });
    const handle = await start(oneWayIntent(), { settleWindowMs: 10_000 });
    const result = await handle.result();
    expect(result.state.status).toBe('ESCALATED');
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('ESCALATED');
    expect(result.state.error?.type).toBe('ORDER_UNSETTLED');
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
  });

  describe('cancelling a confirmed booking (cancel window)', () => {
    const DAY = 24 * 3600_000;
    const confirmed = (handle: {
      query: (q: typeof stateQuery) => Promise<import('../../src/booking/booking.model').BookingState>;
    }) =>
      pollUntil(
        () => handle.query(stateQuery),
        (s) => s.status === 'CONFIRMED',
      );

    it('cancels the order once on cancel within the window: CANCELLED with the refund, search attribute follows, twice = same', async () => {
      const handle = await start(oneWayIntent(), { cancelWindowMs: DAY });
      await confirmed(handle);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await handle.signal(cancelSignal, { reason: 'customer request' });
      const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'again' }] });
      expect(state.status).toBe('CANCELLED');
      expect(state.cancellation).toMatchObject({
        status: 'cancelled',
        reason: 'customer request',
        refund: { value: '103.02', currency: 'GBP' },
        settledBy: 'answer',
      });
      const result = await handle.result();
      expect(result.state).toEqual(state);
      expect(stepTrail(result.state).slice(-2)).toEqual(['retrieveOrder:ok:1', 'cancelOrder:ok:1']);
      expect(mocks.cancelOrder).toHaveBeenCalledTimes(1);
      expect(mocks.cancelOrder.mock.calls[0]![0]).toMatchObject({ orderId: 'ORDER-1', owner: 'ZZ' });
      expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('CANCELLED');
    });

    it('answers the cancelBooking update with the final state', async () => {
      const handle = await start(oneWayIntent(), { cancelWindowMs: DAY });
      await confirmed(handle);
      const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'duplicate booking' }] });
      expect(state.status).toBe('CANCELLED');
      expect(state.cancellation?.reason).toBe('duplicate booking');
      // Cancelled, the workflow completes: a second cancel is refused by the server and the
      // result holds the same state.
      // (While the workflow still hands its status events over before completing, the update is
      // answered instead, with the same state.)
      const second = await handle.executeUpdate(cancelBookingUpdate, { args: [{}] }).then(
        (s) => s,
        () => undefined,
      );
      if (second !== undefined) expect(second).toEqual(state);
      expect((await handle.result()).state).toEqual(state);
      expect(mocks.cancelOrder).toHaveBeenCalledTimes(1);
    });

    it('before the order exists, the update cancels the booking as the signal always did', async () => {
      const handle = await start(oneWayIntent({ selection: { maxTotal: '90.00' } }), { cancelWindowMs: DAY });
      await pollUntil(
        () => handle.query(stateQuery),
        (s) => s.status === 'AWAITING_APPROVAL',
      );
      const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{}] });
      expect(state.status).toBe('CANCELLED');
      expect(state.error).toEqual({ type: 'CANCELLED', message: 'booking cancelled before order creation' });
      expect(state.cancellation).toBeUndefined();
      expect(mocks.createOrder).not.toHaveBeenCalled();
      expect(mocks.cancelOrder).not.toHaveBeenCalled();
    });

    it('completes CONFIRMED when the window passes without a cancel', async () => {
      const handle = await start(oneWayIntent(), { cancelWindowMs: DAY });
      const result = await handle.result();
      expect(result.state.status).toBe('CONFIRMED');
      const { startTime, closeTime } = await handle.describe();
      expect(closeTime!.getTime() - startTime.getTime()).toBeGreaterThanOrEqual(DAY);
      expect(mocks.cancelOrder).not.toHaveBeenCalled();
    });

    it('settles a cancel without an answer by reading the order back, never by cancelling again', async () => {
      mocks.cancelOrder.mockImplementation(async () => {
        throw outcomeUnknown('cancel', 'timeout');
      });
      let reads = 0;
      mocks.retrieveOrder.mockImplementation(async () => {
        reads += 1;
        // The confirmation read, then two "still OK" while the airline commits, then cancelled.
        return {
          order: { ...ORDER, status: reads <= 3 ? 'OK' : 'CANCELLED' },
          orderViewXml: '<OrderViewRS/>',
          attempt: attempt(),
        };
      });
      const handle = await start(oneWayIntent(), { cancelWindowMs: DAY });
      await confirmed(handle);
      const outcome = handle.result(); // lets the server skip the settle backoff
      const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{}] });
      expect((await outcome).state).toEqual(state);
      expect(state.status).toBe('CANCELLED');
      expect(state.cancellation).toMatchObject({ status: 'cancelled', settledBy: 'retrieve' });
      expect(state.cancellation?.refund).toBeUndefined();
      expect(state.order?.status).toBe('CANCELLED');
      expect(mocks.cancelOrder).toHaveBeenCalledTimes(1);
      expect(stepTrail(state).slice(-4)).toEqual([
        'cancelOrder:failed:1',
        'retrieveOrder:ok:1',
        'retrieveOrder:ok:1',
        'retrieveOrder:ok:1',
      ]);
      expect(state.steps.at(-1)!.reason).toBe('cancel check 3');
    });

    it('keeps the booking CONFIRMED when the airline refuses the cancel and the order is still live', async () => {
      mocks.cancelOrder.mockImplementation(async () => {
        throw ApplicationFailure.nonRetryable('715: refund below expected', 'AIRLINE_ERROR', {
          airlineCode: '715',
          attempt: 1,
        });
      });
      const handle = await start(oneWayIntent(), { cancelWindowMs: DAY });
      await confirmed(handle);
      const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{}] });
      expect(state.status).toBe('CONFIRMED');
      expect(state.cancellation).toMatchObject({
        status: 'failed',
        error: { type: 'AIRLINE_ERROR', message: '715: refund below expected', airlineCode: '715' },
      });
      expect(stepTrail(state).slice(-2)).toEqual(['cancelOrder:failed:1', 'retrieveOrder:ok:1']);
      expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('CONFIRMED');
      await handle.result();
    });

    it('carries out a cancel asked for while the order was being placed, once it is confirmed', async () => {
      const gate = activityGate();
      mocks.createOrder.mockImplementation(async () => {
        await gate.pass();
        return { order: ORDER, attempt: attempt() };
      });
      const handle = await start(oneWayIntent(), { cancelWindowMs: DAY });
      await gate.reached();
      await handle.signal(cancelSignal);
      gate.release();
      const result = await handle.result();
      expect(result.state.status).toBe('CANCELLED');
      expect(stepTrail(result.state).slice(-3)).toEqual(['createOrder:ok:1', 'retrieveOrder:ok:1', 'cancelOrder:ok:1']);
    });
  });

  describe('an airline that stops answering before an order exists', () => {
    const unreachable = async (): Promise<never> => {
      throw ApplicationFailure.retryable('connect ECONNREFUSED', 'AIRLINE_TRANSIENT', { attempt: attempt() });
    };

    it('tries again within the budget, and books once the airline answers', async () => {
      let shops = 0;
      mocks.shop.mockImplementation(async (input) => {
        shops += 1;
        if (shops <= 8) return unreachable();
        return happyMocks().shop(input);
      });
      const result = await (await start()).result();
      expect(result.state.status).toBe('CONFIRMED');
      expect(stepTrail(result.state).slice(0, 2)).toEqual(['shop:failed:8', 'shop:ok:1']);
      expect(result.state.steps[1]!.reason).toMatch(/^no airline answering \(\d+ s of 600 s\): trying again$/);
    });

    it('fails AIRLINE_UNAVAILABLE once its budget is spent, never having ordered', async () => {
      mocks.shop.mockImplementation(unreachable);
      const handle = await start(oneWayIntent(), { unavailableBudgetMs: 120_000 });
      const result = await handle.result();
      expect(result.state.status).toBe('FAILED');
      expect(result.state.error?.type).toBe('AIRLINE_UNAVAILABLE');
      const { startTime, closeTime } = await handle.describe();
      expect(closeTime!.getTime() - startTime.getTime()).toBeLessThanOrEqual(120_000 + 60_000);
      expect(result.state.steps.filter((s) => s.name === 'shop').length).toBeGreaterThan(2);
      expect(mocks.createOrder).not.toHaveBeenCalled();
    });
  });
});
