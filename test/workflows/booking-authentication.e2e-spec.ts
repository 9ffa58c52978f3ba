/**
 * 3-D Secure in the saga (time-skipping test server, activities are jest mocks): the wait in
 * `AWAITING_AUTHENTICATION` (state, search attribute, webhook event), the result by update (the
 * first wins), the CustomerInputRS exactly once (a lost answer settled by lookup), declined,
 * timed out and cancelled bookings. The real airline and browser: test/api/authentication-browser.e2e-spec.ts.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { AuthenticationChallenge } from '../../activities/booking.activities.types';
import type { BookingIntent, BookingWorkflowOptions } from '../../src/booking/booking.model';
import { BookingStatusKey } from '../../src/temporal/search-attributes';
import type { BookingEventData } from '../../src/webhooks/webhook.model';
import { authenticationResultUpdate, cancelSignal, stateQuery } from '../../workflows/definitions';
import {
  attempt,
  happyMocks,
  oneWayIntent,
  ORDER,
  outcomeUnknown,
  pollUntil,
  stepOutcomes,
  type ActivityMocks,
} from './booking.fixtures';
import { timeSkippingBookings } from './time-skipping-server';

jest.setTimeout(180_000);

const RETURN = {
  termUrl: 'http://api.test/bookings/b/authentication/return?token=T&result=approved',
  failUrl: 'http://api.test/bookings/b/authentication/return?token=T&result=declined',
};
const CHALLENGE: AuthenticationChallenge = {
  kind: 'challenge',
  acsUrl: 'http://airline.test/acs/SPM-1',
  spmTxnReference: 'SPM-1',
  originalTransactionId: 'TX-1',
  attempt: 1,
};

describe('3-D Secure in the booking saga (time-skipping test server)', () => {
  let mocks: ActivityMocks;
  const bookings = timeSkippingBookings('booking-authentication', () => mocks);
  const { sentEvents } = bookings;

  beforeEach(() => {
    mocks = happyMocks();
    mocks.createOrder.mockImplementation(async () => ({ ...CHALLENGE, attempt: attempt() }));
  });

  /** A booking whose TermURL/FailURL are the API's return URLs. */
  const start = (options: BookingWorkflowOptions = {}, intent: BookingIntent = oneWayIntent()) =>
    bookings.start(intent, { authenticationReturn: RETURN, ...options });

  const awaiting = (handle: Awaited<ReturnType<typeof start>>) =>
    pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_AUTHENTICATION',
    );

  it('waits in AWAITING_AUTHENTICATION, takes the first result, sends CustomerInputRS once: CONFIRMED', async () => {
    const handle = await start({ cancelWindowMs: 3_600_000 });
    const waiting = await awaiting(handle);
    expect(waiting.authentication).toEqual({ redirectUrl: CHALLENGE.acsUrl, expiresAt: expect.any(String) });
    const started = waiting.steps.find((s) => s.name === 'createOrder')!;
    expect(Date.parse(waiting.authentication!.expiresAt) - Date.parse(started.endedAt!)).toBe(600_000);
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('AWAITING_AUTHENTICATION');
    // The airline was given the API's return URLs, not the intent's.
    expect(mocks.createOrder.mock.calls[0]![0].securePayment).toMatchObject(RETURN);
    const event = sentEvents.find(
      (e) =>
        (e.event.data as BookingEventData).bookingId === handle.workflowId &&
        e.event.type === 'booking.authentication_required',
    );
    expect((event?.event.data as BookingEventData).authentication).toEqual(waiting.authentication);

    const first = await handle.executeUpdate(authenticationResultUpdate, {
      args: [{ outcome: 'approved', paRes: 'PARES-1' }],
    });
    expect(first).toEqual({ outcome: 'approved', first: true, redirectUrl: oneWayIntent().securePayment.termUrl });
    const confirmed = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'CONFIRMED',
    );
    // A reload of the return page, even claiming the other outcome: nothing changes.
    const second = await handle.executeUpdate(authenticationResultUpdate, {
      args: [{ outcome: 'declined', paRes: 'PARES-2' }],
    });
    expect(second).toEqual({ outcome: 'approved', first: false, redirectUrl: oneWayIntent().securePayment.termUrl });
    expect(mocks.customerInput).toHaveBeenCalledTimes(1);
    expect(mocks.customerInput.mock.calls[0]![0]).toMatchObject({
      spmTxnReference: 'SPM-1',
      originalTransactionId: 'TX-1',
      paRes: 'PARES-1',
      status: 'Y',
    });
    expect(stepOutcomes(confirmed)).toEqual(
      expect.arrayContaining(['createOrder:ok', 'customerInput:ok', 'retrieveOrder:ok']),
    );
    expect(confirmed.authentication).toMatchObject({ returned: 'approved' });
    expect(JSON.stringify(confirmed)).not.toContain('PARES');
    await handle.signal(cancelSignal);
    expect((await handle.result()).state.status).toBe('CANCELLED');
  });

  it('declined: the issuer result goes to the airline (781) and the booking FAILS AUTHENTICATION_FAILED', async () => {
    mocks.customerInput.mockImplementation(async () => {
      throw ApplicationFailure.create({
        message: 'declined',
        type: 'AUTHENTICATION_FAILED',
        nonRetryable: true,
        details: [{ attempt: 1, airlineCode: '781' }],
      });
    });
    const handle = await start();
    await awaiting(handle);
    await handle.executeUpdate(authenticationResultUpdate, { args: [{ outcome: 'declined', paRes: 'PARES-N' }] });
    const { state } = await handle.result();
    expect([state.status, state.error?.type, state.error?.airlineCode]).toEqual([
      'FAILED',
      'AUTHENTICATION_FAILED',
      '781',
    ]);
    expect(mocks.customerInput.mock.calls[0]![0].status).toBe('N');
    expect(mocks.retrieveOrder).not.toHaveBeenCalled();
  });

  it('declined without an issuer result: FAILED AUTHENTICATION_FAILED, nothing sent', async () => {
    const handle = await start();
    await awaiting(handle);
    await handle.executeUpdate(authenticationResultUpdate, { args: [{ outcome: 'declined' }] });
    const { state } = await handle.result();
    expect([state.status, state.error?.type]).toEqual(['FAILED', 'AUTHENTICATION_FAILED']);
    expect(mocks.customerInput).not.toHaveBeenCalled();
  });

  it('no result in the window: FAILED AUTHENTICATION_TIMEOUT after authenticationTimeoutMs; a late return changes nothing', async () => {
    const handle = await start({ authenticationTimeoutMs: 90_000 });
    const { state } = await handle.result();
    expect([state.status, state.error?.type]).toEqual(['FAILED', 'AUTHENTICATION_TIMEOUT']);
    expect(state.error?.message).toContain('90000 ms');
    const { startTime, closeTime } = await handle.describe();
    expect(closeTime!.getTime() - startTime.getTime()).toBeGreaterThanOrEqual(90_000);
    expect(mocks.customerInput).not.toHaveBeenCalled();
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('FAILED');
  });

  it('the default window is 10 minutes', async () => {
    const handle = await start();
    const { state } = await handle.result();
    expect(state.error?.message).toContain('600000 ms');
  });

  it('cancel while waiting: CANCELLED, nothing sent to the airline', async () => {
    const handle = await start();
    await awaiting(handle);
    await handle.signal(cancelSignal, { reason: 'traveller left' });
    const { state } = await handle.result();
    expect([state.status, state.error?.type]).toEqual(['CANCELLED', 'CANCELLED']);
    expect(mocks.customerInput).not.toHaveBeenCalled();
    expect(mocks.cancelOrder).not.toHaveBeenCalled();
  });

  it('a CustomerInputRS without an answer is settled by lookup, never sent twice', async () => {
    mocks.customerInput.mockImplementation(async () => {
      throw outcomeUnknown('create', 'timeout');
    });
    let lookups = 0;
    mocks.reconcileOrder.mockImplementation(async () => {
      lookups += 1;
      return lookups < 3 ? { attempt: attempt() } : { order: ORDER, foundBy: 'PRICE-2', attempt: attempt() };
    });
    const handle = await start();
    await awaiting(handle);
    await handle.executeUpdate(authenticationResultUpdate, { args: [{ outcome: 'approved', paRes: 'PARES-1' }] });
    const { state } = await handle.result();
    expect(state.status).toBe('CONFIRMED');
    expect(mocks.customerInput).toHaveBeenCalledTimes(1);
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
    expect(lookups).toBe(3);
  });

  /** Starts a booking whose CustomerInputRS gets no answer, and approves it; `found` decides the lookups. */
  async function lostCustomerInput(options: BookingWorkflowOptions, sendsLost: number) {
    let sends = 0;
    mocks.customerInput.mockImplementation(async () => {
      sends += 1;
      if (sends <= sendsLost) throw outcomeUnknown('create', 'timeout');
      return { order: ORDER, attempt: attempt() };
    });
    const handle = await start(options);
    await awaiting(handle);
    await handle.executeUpdate(authenticationResultUpdate, { args: [{ outcome: 'approved', paRes: 'PARES-1' }] });
    return (await handle.result()).state;
  }

  const customerInputSteps = (state: { steps: { name: string; startedAt: string }[] }) =>
    state.steps.filter((s) => s.name === 'customerInput');

  it('a CustomerInputRS without an answer and no order after the settle window is sent again (recreate): CONFIRMED', async () => {
    const state = await lostCustomerInput({}, 1);
    expect(state.status).toBe('CONFIRMED');
    expect(mocks.customerInput).toHaveBeenCalledTimes(2);
    // The same result, never a new OrderCreate.
    expect(mocks.customerInput.mock.calls.map(([input]) => input.paRes)).toEqual(['PARES-1', 'PARES-1']);
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
    // Sent again only after the lookups of the 120 s settle window found no order.
    const [first, second] = customerInputSteps(state);
    expect(Date.parse(second!.startedAt) - Date.parse(first!.startedAt)).toBeGreaterThanOrEqual(120_000);
    expect(mocks.reconcileOrder.mock.calls.length).toBeGreaterThan(0);
    expect(stepOutcomes(state)).toEqual(
      expect.arrayContaining(['customerInput:failed', 'reconcileOrder:ok', 'customerInput:ok', 'retrieveOrder:ok']),
    );
  });

  it('always without an answer: sent maxCreateAttempts times, then FAILED ORDER_NOT_CREATED', async () => {
    const state = await lostCustomerInput({ maxCreateAttempts: 3 }, Number.MAX_SAFE_INTEGER);
    expect([state.status, state.error?.type]).toEqual(['FAILED', 'ORDER_NOT_CREATED']);
    expect(state.error?.message).toContain('sent 3 time(s)');
    expect(mocks.customerInput).toHaveBeenCalledTimes(3);
  });

  it('no order after the settle window but the authentication window has passed: FAILED ORDER_NOT_CREATED, sent once', async () => {
    // The 120 s settle window outlasts the 90 s authentication window.
    const state = await lostCustomerInput({ authenticationTimeoutMs: 90_000 }, 1);
    expect([state.status, state.error?.type]).toEqual(['FAILED', 'ORDER_NOT_CREATED']);
    expect(mocks.customerInput).toHaveBeenCalledTimes(1);
  });

  it('policy escalate: no order after the settle window fails ORDER_NOT_CREATED, sent once', async () => {
    const state = await lostCustomerInput({ unsettledPolicy: 'escalate' }, 1);
    expect([state.status, state.error?.type]).toEqual(['FAILED', 'ORDER_NOT_CREATED']);
    expect(mocks.customerInput).toHaveBeenCalledTimes(1);
  });

  it('refuses a result while the booking was not asked for authentication', async () => {
    mocks.createOrder.mockImplementation(async () => {
      throw ApplicationFailure.nonRetryable('no seats', 'NO_SEATS', { attempt: 1 });
    });
    const handle = await start({}, oneWayIntent({ selection: { maxTotal: '90.00' } }));
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_APPROVAL',
    );
    await expect(
      handle.executeUpdate(authenticationResultUpdate, { args: [{ outcome: 'approved', paRes: 'X' }] }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/not asked for 3-D Secure/) } });
    await handle.signal(cancelSignal);
    expect((await handle.result()).state.status).toBe('CANCELLED');
  });
});
