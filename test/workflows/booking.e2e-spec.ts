/**
 * The booking and batch workflows on a real Temporal dev server (jest global setup) with a real
 * Worker; activities are jest mocks typed as the real ones.
 *
 * `RECORD_HISTORIES=1 npx jest test/workflows/booking.e2e-spec.ts` rewrites the histories replayed
 * by replay.e2e-spec.ts (commit them).
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { BatchProgress, BookingResult } from '../../src/booking/booking.model';
import { AgencyIdKey, BookingReferenceKey, BookingStatusKey, RouteKey } from '../../src/temporal/search-attributes';
import type { batchWorkflow as BatchWorkflowFn, bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import {
  approvePriceSignal,
  authenticationResultUpdate,
  cancelSignal,
  progressQuery,
  stateQuery,
} from '../../workflows/definitions';
import {
  activityGate,
  attempt,
  BOOKING_STEPS,
  createHarness,
  createTestWorker,
  delegatingActivities,
  FIRST_TIME_TRAIL,
  happyMocks,
  offer,
  oneWayIntent,
  ORDER,
  ORDER_VIEW_XML,
  outcomeUnknown,
  pollUntil,
  priced,
  recordHistory,
  refusedByAirline,
  RESHOP_AFTER_ORDER_REFUSED,
  shopped,
  stepOutcomes,
  stepTrail,
  type ActivityMocks,
  type Harness,
} from './booking.fixtures';

describe('bookingWorkflow and batchWorkflow (mocked activities, real Temporal)', () => {
  let harness: Harness;
  let worker: Worker;
  let running: Promise<void>;
  let mocks: ActivityMocks;

  beforeAll(async () => {
    harness = await createHarness('booking-wf');
    worker = await createTestWorker(
      harness,
      delegatingActivities(() => mocks),
    );
    running = worker.run();
  });

  afterAll(async () => {
    worker.shutdown();
    await running;
    await harness.close();
  });

  beforeEach(() => {
    mocks = happyMocks();
  });

  let sequence = 0;
  function startBooking(
    intent = oneWayIntent(),
    options?: Parameters<typeof BookingWorkflowFn>[1],
  ): Promise<WorkflowHandle<typeof BookingWorkflowFn>> {
    sequence += 1;
    return harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-booking-${sequence}`,
      args: options !== undefined ? [intent, options] : [intent],
    });
  }

  async function record(name: string, handle: WorkflowHandle): Promise<void> {
    await recordHistory(name, handle.workflowId, harness.namespace);
  }

  it('books a one-way journey: steps in order, cheapest offer, surcharge, order and search attributes', async () => {
    const handle = await startBooking();
    const result = await handle.result();

    expect(result.orderViewXml).toBe(ORDER_VIEW_XML);
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.currentStep).toBeUndefined();
    expect(stepTrail(result.state)).toEqual(FIRST_TIME_TRAIL);
    expect(result.state.chosenOffer).toEqual({
      offerIds: ['OF-ECO'],
      priceClass: 'ECONOMY',
      departureDate: '2027-03-10',
      shoppingResponseId: 'SHOP-1',
    });
    expect(result.state.pricedTotal).toEqual({ value: '103.02', currency: 'GBP' });
    expect(result.state.surcharge).toEqual({ value: '3.02', currency: 'GBP' });
    expect(result.state.order).toEqual({
      orderId: 'ORDER-1',
      bookingReference: 'ABC123',
      total: { value: '103.02', currency: 'GBP' },
      status: 'OK',
    });
    expect(result.state.error).toBeUndefined();
    for (const s of result.state.steps) expect(s.endedAt! >= s.startedAt).toBe(true);

    expect(mocks.calendar).not.toHaveBeenCalled();
    expect(mocks.reconcileOrder).not.toHaveBeenCalled();
    const ctx = mocks.shop.mock.calls[0]![0].ctx;
    expect(ctx.correlationId).toBe(handle.workflowId);
    expect(JSON.stringify(ctx)).not.toContain('4111111111111111');
    expect(mocks.shop.mock.calls[0]![0]).toMatchObject({
      origin: 'LGW',
      destination: 'OSL',
      departureDate: '2027-03-10',
    });
    expect(mocks.price.mock.calls[0]![0].offers).toEqual([
      {
        offerId: 'OF-ECO',
        owner: 'ZZ',
        responseId: 'SHOP-1',
        offerItems: [{ offerItemId: 'OF-ECO-ITEM1', passengerRefs: ['PAX__ADT01'] }],
      },
    ]);
    expect(mocks.tokenise.mock.calls[0]![0]).toEqual({
      card: oneWayIntent().payment.card,
      correlationId: handle.workflowId,
    });
    expect(mocks.repriceWithToken.mock.calls[0]![0].tokenId).toBe('TOKEN-1');
    const create = mocks.createOrder.mock.calls[0]![0];
    expect(create.tokenId).toBe('TOKEN-1');
    expect(create.priced.responseId).toBe('PRICE-2');
    expect(JSON.stringify(create)).not.toContain('4111111111111111');
    expect(mocks.retrieveOrder.mock.calls[0]![0]).toMatchObject({ orderId: 'ORDER-1', owner: 'ZZ' });

    const attributes = (await handle.describe()).typedSearchAttributes;
    expect(attributes.get(BookingStatusKey)).toBe('CONFIRMED');
    expect(attributes.get(AgencyIdKey)).toBe('AG001');
    expect(attributes.get(RouteKey)).toBe('LGW-OSL');
    expect(attributes.get(BookingReferenceKey)).toBe('ABC123');
    expect(await handle.query(stateQuery)).toEqual(result.state);
    await record('one-way', handle);
  });

  it('books a round trip on the cheapest calendar dates in the requested price class', async () => {
    mocks.calendar.mockImplementation(async () => ({
      prices: [
        { direction: 0, date: '2027-03-08', price: '95.00' },
        { direction: 0, date: '2027-03-09', price: '90.00' },
        { direction: 0, date: '2027-03-11', price: '90.00' },
        { direction: 1, date: '2027-03-08', price: '10.00' },
        { direction: 1, date: '2027-03-16', price: '80.00' },
        { direction: 1, date: '2027-03-18', price: '85.00' },
      ],
      attempt: attempt(),
    }));
    mocks.shop.mockImplementation(async () => ({
      shoppingResponseId: 'SHOP-RT',
      offers: [
        offer('OUT-ECO', 0, 'ECONOMY', '90.00'),
        offer('OUT-PLUS', 0, 'PLUS', '140.00'),
        offer('OUT-PLUS2', 0, 'PLUS', '130.00'),
        offer('RET-ECO', 1, 'ECONOMY', '80.00'),
        offer('RET-PLUS', 1, 'PLUS', '120.00'),
      ],
      attempt: attempt(),
    }));
    const intent = oneWayIntent({
      journey: {
        origin: 'LGW',
        destination: 'OSL',
        departureDate: '2027-03-10',
        returnDate: '2027-03-17',
        flexibleDays: 2,
      },
      selection: { priceClass: 'plus' },
    });
    const result = await (await startBooking(intent)).result();

    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state).map((s) => s.split(':')[0])).toEqual(['calendar', ...BOOKING_STEPS]);
    expect(mocks.calendar.mock.calls[0]![0]).toMatchObject({
      departureDate: '2027-03-10',
      returnDate: '2027-03-17',
      flexibleDays: 2,
    });
    expect(mocks.shop.mock.calls[0]![0]).toMatchObject({ departureDate: '2027-03-09', returnDate: '2027-03-16' });
    expect(mocks.price.mock.calls[0]![0].offers.map((o) => o.offerId)).toEqual(['OUT-PLUS2', 'RET-PLUS']);
    expect(result.state.chosenOffer).toEqual({
      offerIds: ['OUT-PLUS2', 'RET-PLUS'],
      priceClass: 'PLUS',
      departureDate: '2027-03-09',
      returnDate: '2027-03-16',
      shoppingResponseId: 'SHOP-RT',
    });
  });

  it('retries a transient activity failure and counts the attempts in the step', async () => {
    mocks.shop.mockImplementationOnce(async () => {
      throw ApplicationFailure.retryable('HTTP 500', 'AIRLINE_TRANSIENT');
    });
    const result = await (await startBooking()).result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state)[0]).toBe('shop:ok:2');
    expect(mocks.shop).toHaveBeenCalledTimes(2);
  });

  it('shops and prices again when the offer expired (bounded)', async () => {
    mocks.shop
      .mockImplementationOnce(async () => shopped('SHOP-OLD', offer('OF-OLD', 0, 'ECONOMY', '100.00')))
      .mockImplementationOnce(async () => shopped('SHOP-NEW', offer('OF-NEW', 0, 'ECONOMY', '101.00')));
    mocks.price.mockImplementationOnce(async () => {
      throw refusedByAirline('OFFER_EXPIRED', '721', 'offer expired');
    });
    const handle = await startBooking();
    const result = await handle.result();

    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state)).toEqual(['shop:ok:1', 'price:failed:1', ...FIRST_TIME_TRAIL]);
    expect(mocks.price.mock.calls[1]![0].offers[0]!.responseId).toBe('SHOP-NEW');
    expect(result.state.chosenOffer?.shoppingResponseId).toBe('SHOP-NEW');
    await record('expired-offer-reshop', handle);

    // Always expired: gives up after maxReshops fresh rounds.
    mocks = happyMocks();
    mocks.price.mockImplementation(async () => {
      throw refusedByAirline('OFFER_EXPIRED', '721', 'offer expired');
    });
    const failed = await (await startBooking(oneWayIntent(), { maxReshops: 1 })).result();
    expect(failed.state.status).toBe('FAILED');
    expect(failed.state.error).toEqual({ type: 'OFFER_EXPIRED', message: '721: offer expired', airlineCode: '721' });
    expect(mocks.shop).toHaveBeenCalledTimes(2);
    expect(mocks.createOrder).not.toHaveBeenCalled();
  });

  it('shops again when the order create says the pricing expired (e.g. after a long approval)', async () => {
    mocks.createOrder.mockImplementationOnce(async () => {
      throw refusedByAirline('OFFER_EXPIRED', '721', 'pricing expired');
    });
    const result = await (await startBooking()).result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepOutcomes(result.state)).toEqual(RESHOP_AFTER_ORDER_REFUSED);
    // The token is still valid: not created twice. No reconciliation: the airline said no.
    expect(mocks.tokenise).toHaveBeenCalledTimes(1);
    expect(mocks.reconcileOrder).not.toHaveBeenCalled();
  });

  it('shops again when the class sold out at order time (711); a dearer new offer waits for approval', async () => {
    mocks.createOrder.mockImplementationOnce(async () => {
      throw refusedByAirline('NO_SEATS', '711', 'Seats no longer available');
    });
    mocks.shop
      .mockImplementationOnce(async () => shopped('SHOP-1', offer('OF-ECO', 0, 'ECONOMY', '100.00')))
      .mockImplementationOnce(async () => shopped('SHOP-2', offer('OF-ECO-N', 0, 'ECONOMY', '120.00')));
    mocks.price
      .mockImplementationOnce(async () => ({ ...priced('PRICE-1', '100.00'), attempt: attempt() }))
      .mockImplementationOnce(async () => ({ ...priced('PRICE-3', '120.00'), attempt: attempt() }));
    mocks.repriceWithToken
      .mockImplementationOnce(async () => ({ ...priced('PRICE-2', '103.02', '3.02'), attempt: attempt() }))
      .mockImplementationOnce(async () => ({ ...priced('PRICE-4', '123.62', '3.62'), attempt: attempt() }));
    const handle = await startBooking();
    // Asked once, for the total the traveller pays (the new fare with its card fee).
    const waiting = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_APPROVAL',
    );
    expect(waiting.pricedTotal).toEqual({ value: '123.62', currency: 'GBP' });
    expect(waiting.chosenOffer?.shoppingResponseId).toBe('SHOP-2');
    await handle.signal(approvePriceSignal);
    const result = await handle.result();

    expect(result.state.status).toBe('CONFIRMED');
    expect(stepOutcomes(result.state)).toEqual(RESHOP_AFTER_ORDER_REFUSED);
    const failedCreate = result.state.steps[4]!;
    expect(failedCreate.failure).toBe('NO_SEATS');
    expect(result.state.steps[5]!.reason).toBe('reshop 1/2 after NO_SEATS (711)');
    expect(mocks.createOrder.mock.calls[1]![0].priced.responseId).toBe('PRICE-4');
    expect(mocks.reconcileOrder).not.toHaveBeenCalled();
    expect(mocks.tokenise).toHaveBeenCalledTimes(1);
  });

  it('books a re-shopped offer that is not dearer without asking', async () => {
    mocks.price.mockImplementationOnce(async () => {
      throw refusedByAirline('NO_SEATS', '711', 'Seats no longer available');
    });
    const result = await (await startBooking()).result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.steps.map((s) => s.reason ?? '-')).toEqual([
      '-',
      '-',
      'reshop 1/2 after NO_SEATS (711)',
      '-',
      '-',
      '-',
      '-',
      '-',
    ]);
  });

  it('waits for approval when the price exceeds maxTotal, then books on approvePrice', async () => {
    // A debit card: the token-bearing pricing adds no surcharge.
    mocks.repriceWithToken.mockImplementation(async () => ({ ...priced('PRICE-2', '100.00'), attempt: attempt() }));
    const handle = await startBooking(oneWayIntent({ selection: { maxTotal: '90.00' } }));
    const waiting = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_APPROVAL',
    );
    expect(waiting.pricedTotal).toEqual({ value: '100.00', currency: 'GBP' });
    // The guard asks for the total the traveller pays: after the token-bearing pricing.
    expect(stepTrail(waiting)).toEqual(['shop:ok:1', 'price:ok:1', 'tokenise:ok:1', 'repriceWithToken:ok:1']);
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('AWAITING_APPROVAL');
    expect(mocks.createOrder).not.toHaveBeenCalled();

    await handle.signal(approvePriceSignal);
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.surcharge).toBeUndefined();
    expect(mocks.createOrder.mock.calls[0]![0].priced.total).toEqual({ value: '100.00', currency: 'GBP' });
  });

  it('asks once, for the total with the card fee, when the fare is above maxTotal too', async () => {
    const handle = await startBooking(oneWayIntent({ selection: { maxTotal: '90.00' } }));
    const waiting = await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_APPROVAL',
    );
    expect(waiting.pricedTotal).toEqual({ value: '103.02', currency: 'GBP' });
    expect(waiting.steps.some((step) => step.name === 'repriceWithToken')).toBe(true);
    expect(mocks.createOrder).not.toHaveBeenCalled();
    await handle.signal(approvePriceSignal);
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
  });

  it('ends CANCELLED on cancel while awaiting approval, without ordering', async () => {
    const handle = await startBooking(oneWayIntent({ selection: { maxTotal: '90.00' } }));
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_APPROVAL',
    );
    await handle.signal(cancelSignal, { reason: 'too expensive' });
    const result = await handle.result();
    expect(result.state.status).toBe('CANCELLED');
    expect(result.state.error).toEqual({ type: 'CANCELLED', message: 'booking cancelled before order creation' });
    expect(result.orderViewXml).toBeUndefined();
    expect(mocks.createOrder).not.toHaveBeenCalled();
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('CANCELLED');
  });

  it('ends CANCELLED on cancel while an activity is running, without waiting for it', async () => {
    const gate = activityGate();
    mocks.price.mockImplementation(async () => {
      await gate.pass();
      return { ...priced('PRICE-1', '100.00'), attempt: attempt() };
    });
    const handle = await startBooking();
    await gate.reached();
    await handle.signal(cancelSignal);
    const result = await handle.result();
    gate.release();
    expect(result.state.status).toBe('CANCELLED');
    expect(stepTrail(result.state)).toEqual(['shop:ok:1', 'price:failed:1']);
    expect(mocks.tokenise).not.toHaveBeenCalled();
  });

  it('reconciles an order create with unknown outcome and adopts the order: exactly one create', async () => {
    mocks.createOrder.mockImplementationOnce(async () => {
      throw outcomeUnknown('create', 'timeout');
    });
    mocks.reconcileOrder.mockImplementationOnce(async () => ({ order: ORDER, attempt: attempt() }));
    const handle = await startBooking();
    const result = await handle.result();

    expect(result.state.status).toBe('CONFIRMED');
    expect(mocks.createOrder).toHaveBeenCalledTimes(1);
    expect(mocks.reconcileOrder).toHaveBeenCalledTimes(1);
    expect(mocks.reconcileOrder.mock.calls[0]![0].lookupIds).toEqual(['PRICE-2', 'SHOP-1']);
    expect(result.state.settling).toMatchObject({ lookupIds: ['PRICE-2', 'SHOP-1'], lookups: 1 });
    expect(stepTrail(result.state).slice(-3)).toEqual([
      'createOrder:failed:1',
      'reconcileOrder:ok:1',
      'retrieveOrder:ok:1',
    ]);
    expect(result.state.order?.bookingReference).toBe('ABC123');
    await record('order-outcome-unknown-adopted', handle);
  });

  it('creates again after a lookup made when the settle window ended finds no order', async () => {
    mocks.createOrder.mockImplementationOnce(async () => {
      throw outcomeUnknown('create', 'reset');
    });
    // A zero window: one lookup at once (the 120 s default is tested in booking-timers.e2e-spec.ts).
    const result = await (await startBooking(oneWayIntent(), { settleWindowMs: 0 })).result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(mocks.createOrder).toHaveBeenCalledTimes(2);
    expect(mocks.reconcileOrder).toHaveBeenCalledTimes(1);
    expect(mocks.reconcileOrder.mock.invocationCallOrder[0]!).toBeLessThan(
      mocks.createOrder.mock.invocationCallOrder[1]!,
    );
  });

  it('3-D Secure: a CustomerInputRS without an answer and no order after the settle window is sent again once: CONFIRMED', async () => {
    mocks.createOrder.mockImplementation(async () => ({
      kind: 'challenge',
      acsUrl: 'http://airline.test/acs/SPM-1',
      spmTxnReference: 'SPM-1',
      originalTransactionId: 'TX-1',
      attempt: attempt(),
    }));
    mocks.customerInput.mockImplementationOnce(async () => {
      throw outcomeUnknown('create', 'reset');
    });
    // A zero window: one lookup at once (the 120 s default: booking-authentication.e2e-spec.ts).
    const handle = await startBooking(oneWayIntent(), { settleWindowMs: 0 });
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.status === 'AWAITING_AUTHENTICATION',
    );
    await handle.executeUpdate(authenticationResultUpdate, { args: [{ outcome: 'approved', paRes: 'PARES-1' }] });
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepOutcomes(result.state).slice(-5)).toEqual([
      'createOrder:ok',
      'customerInput:failed',
      'reconcileOrder:ok',
      'customerInput:ok',
      'retrieveOrder:ok',
    ]);
    await record('authentication-customer-input-resent', handle);
  });

  it('stays CONFIRMED with the OrderViewRS of the create when the order exists but cannot be retrieved', async () => {
    const createdXml = '<OrderViewRS><!-- as OrderCreate answered --></OrderViewRS>';
    mocks.createOrder.mockImplementationOnce(async () => ({
      order: ORDER,
      orderViewXml: createdXml,
      attempt: attempt(),
    }));
    mocks.retrieveOrder.mockImplementation(async () => {
      throw ApplicationFailure.nonRetryable('airline error 799: retrieve unavailable', 'AIRLINE_ERROR', {
        attempt: 1,
        airlineCode: '799',
      });
    });
    const handle = await startBooking();
    const result = await handle.result();

    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.error).toBeUndefined();
    expect(result.state.retrieveError).toEqual({
      type: 'AIRLINE_ERROR',
      message: 'airline error 799: retrieve unavailable',
      airlineCode: '799',
    });
    expect(result.state.order?.bookingReference).toBe(ORDER.bookingReference);
    expect(result.orderViewXml).toBe(createdXml);
    expect(stepTrail(result.state).slice(-2)).toEqual(['createOrder:ok:1', 'retrieveOrder:failed:1']);
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('CONFIRMED');
  });

  it('fails with the airline code on a business error, and NO_OFFERS without a matching price class', async () => {
    mocks.repriceWithToken.mockImplementationOnce(async () => {
      throw refusedByAirline('INVALID_CARD', '750', 'card refused');
    });
    const failed = await (await startBooking()).result();
    expect(failed.state.status).toBe('FAILED');
    expect(failed.state.error).toEqual({ type: 'INVALID_CARD', message: '750: card refused', airlineCode: '750' });
    expect(mocks.createOrder).not.toHaveBeenCalled();

    mocks = happyMocks();
    const handle = await startBooking(oneWayIntent({ selection: { priceClass: 'FIRST' } }));
    const none = await handle.result();
    expect(none.state.status).toBe('FAILED');
    expect(none.state.error).toEqual({
      type: 'NO_OFFERS',
      message: 'no outbound offer in price class FIRST on 2027-03-10',
    });
    expect((await handle.describe()).typedSearchAttributes.get(BookingStatusKey)).toBe('FAILED');
  });

  it('runs a batch of 5 intents as children, at most 2 at once, with progress', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const release: (() => void)[] = [];
    mocks.shop.mockImplementation(async () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Hold the booking until the test has seen the concurrency.
      await new Promise<void>((resolve) => release.push(resolve));
      return { shoppingResponseId: 'SHOP-1', offers: [offer('OF-ECO', 0, 'ECONOMY', '100.00')], attempt: attempt() };
    });
    mocks.retrieveOrder.mockImplementation(async () => {
      inFlight -= 1;
      return { order: ORDER, orderViewXml: ORDER_VIEW_XML, attempt: attempt() };
    });
    const batchId = `${harness.taskQueue}-batch`;
    const handle = await harness.client.workflow.start<typeof BatchWorkflowFn>('batchWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: batchId,
      args: [{ intents: [1, 2, 3, 4, 5].map(() => oneWayIntent()), concurrency: 2 }],
    });
    const early = await pollUntil(
      () => handle.query(progressQuery),
      () => release.length === 2,
    );
    expect(early.total).toBe(5);
    expect(early.running).toBe(2);
    expect(early.pending).toBe(3);
    // Release bookings one at a time; never more than two shops are waiting.
    let released = 0;
    while (released < 5) {
      await pollUntil(
        async () => release.length,
        (n) => n > released,
      );
      expect(inFlight).toBeLessThanOrEqual(2);
      release[released]!();
      released += 1;
    }
    const final: BatchProgress = await handle.result();
    expect(maxInFlight).toBe(2);
    expect(final).toEqual({
      total: 5,
      pending: 0,
      running: 0,
      confirmed: 5,
      held: 0,
      failed: 0,
      cancelled: 0,
      escalated: 0,
      bookings: [0, 1, 2, 3, 4].map((i) => ({ id: `${batchId}-${i}`, status: 'CONFIRMED' })),
    });
    const child: BookingResult = await harness.client.workflow.getHandle(`${batchId}-3`).result();
    expect(child.state.status).toBe('CONFIRMED');
    await record('batch-of-5', handle);
  });
});
