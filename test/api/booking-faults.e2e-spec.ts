/**
 * End to end through the API, when things go wrong: transient airline faults retried to success,
 * commit-then-timeout on OrderCreate giving exactly one order, the price guard (approve and
 * cancel through the API), and a worker stopped and restarted mid-saga. Real Temporal dev
 * server (temporal-env), real airline, real worker.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { DEBIT_CARD, oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';
import '../support/temporal-env';

// Retried activity failures are expected here: keep the SDK's log to errors.
Runtime.install({ logger: new DefaultLogger('ERROR') });

describe('booking API end to end: faults, price guard, worker restart', () => {
  let stack: Stack;

  beforeAll(async () => {
    // A short airline timeout so that commit-then-timeout times out quickly.
    stack = await startStack({
      prefix: 'api-faults',
      airlineTimeoutMs: 4000,
      shutdownGraceMs: 500,
      queryTimeoutMs: 1500,
      keys: { agfault: { agencyId: 'AGFAULT' } },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('transient faults (http500 on AirShopping, reset on OfferPrice) are retried to CONFIRMED', async () => {
    await stack.fault('AirShopping', 'http500', 2);
    await stack.fault('OfferPrice', 'reset', 1);
    const posted = await call(stack, 'POST', '/bookings', oneWayIntent({ agencyId: 'AGFAULT', card: DEBIT_CARD }), {
      'Idempotency-Key': 'transient-1',
    });
    expect(posted.status).toBe(202);
    const view = await waitForBooking(stack, posted.body.id, 'CONFIRMED');
    const attempts = Object.fromEntries(
      view.steps.map((s: { name: string; attempts: number }) => [s.name, s.attempts]),
    );
    expect(attempts).toEqual({ shop: 3, price: 2, tokenise: 1, repriceWithToken: 1, createOrder: 1, retrieveOrder: 1 });
  });

  it('commit-then-timeout on OrderCreate: reconciled, exactly one order', async () => {
    await stack.fault('OrderCreate', 'commit-then-timeout', 1, 8000);
    const posted = await call(stack, 'POST', '/bookings', oneWayIntent({ agencyId: 'AGFAULT', card: DEBIT_CARD }), {
      'Idempotency-Key': 'commit-timeout-1',
    });
    expect(posted.status).toBe(202);
    const view = await waitForBooking(stack, posted.body.id, 'CONFIRMED');
    expect(view.steps.map((s: { name: string }) => s.name)).toContain('reconcileOrder');
    const orders = stack.ordersFor(view.chosenOffer.shoppingResponseId);
    expect(orders.map((o) => o.orderId)).toEqual([view.order.orderId]);
  });

  it('price guard: waits in AWAITING_APPROVAL, approve-price through the API books it', async () => {
    const intent = { ...oneWayIntent({ agencyId: 'AGFAULT', card: DEBIT_CARD }), selection: { maxTotal: '1.00' } };
    const posted = await call(stack, 'POST', '/bookings', intent, { 'Idempotency-Key': 'guard-approve-1' });
    expect(posted.status).toBe(202);
    const id = posted.body.id as string;
    const cancelBefore = await call(stack, 'POST', `/bookings/${id}/approve-price`);
    // Either still RUNNING (409) or already waiting (202): only the former is checked here.
    if (cancelBefore.status === 409) expect(cancelBefore.body.code).toBe('NOT_AWAITING_APPROVAL');
    const waiting = await waitForBooking(stack, id, 'AWAITING_APPROVAL');
    expect(Number(waiting.pricedTotal.value)).toBeGreaterThan(1);
    const approved = await call(stack, 'POST', `/bookings/${id}/approve-price`);
    expect(approved.status).toBe(202);
    expect(approved.body).toMatchObject({ id, status: 'AWAITING_APPROVAL', signal: 'approvePrice' });
    const done = await waitForBooking(stack, id, 'CONFIRMED');
    expect(done.order.total).toEqual(waiting.pricedTotal);
    const late = await call(stack, 'POST', `/bookings/${id}/approve-price`);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      status: 409,
      code: 'NOT_AWAITING_APPROVAL',
      detail: 'The booking is not waiting for a price approval',
      bookingStatus: 'CONFIRMED',
    });
    // Confirmed and serviceable until departure: the cancel goes to the airline (OrderCancel).
    const cancelLate = await call(stack, 'POST', `/bookings/${id}/cancel`);
    expect(cancelLate.status).toBe(202);
    expect(cancelLate.body).toMatchObject({
      id,
      status: 'CANCELLED',
      signal: 'cancelBooking',
      cancellation: { status: 'cancelled' },
    });
  });

  it('price guard: cancel through the API ends CANCELLED without an order; order is 409', async () => {
    const intent = { ...oneWayIntent({ agencyId: 'AGFAULT', card: DEBIT_CARD }), selection: { maxTotal: '1.00' } };
    const posted = await call(stack, 'POST', '/bookings', intent, { 'Idempotency-Key': 'guard-cancel-1' });
    const id = posted.body.id as string;
    const waiting = await waitForBooking(stack, id, 'AWAITING_APPROVAL');
    const cancelled = await call(stack, 'POST', `/bookings/${id}/cancel`);
    expect(cancelled.status).toBe(202);
    const done = await waitForBooking(stack, id, 'CANCELLED');
    expect(done.order).toBeUndefined();
    expect(stack.ordersFor(waiting.chosenOffer.shoppingResponseId)).toEqual([]);
    const order = await call(stack, 'GET', `/bookings/${id}/order`);
    expect(order.status).toBe(409);
    expect(order.body).toMatchObject({
      status: 409,
      code: 'ORDER_NOT_READY',
      detail: 'The booking has no order (yet)',
      bookingStatus: 'CANCELLED',
    });
  });

  it('a worker stopped mid-saga and started again finishes the booking', async () => {
    // Hold the OfferPrice answer so the saga is surely in flight when the worker stops.
    await stack.fault('OfferPrice', 'delay', 1, 3000);
    const posted = await call(stack, 'POST', '/bookings', oneWayIntent({ agencyId: 'AGFAULT', card: DEBIT_CARD }), {
      'Idempotency-Key': 'restart-1',
    });
    const id = posted.body.id as string;
    await pollUntil('the saga to reach price', async () => {
      const r = await call(stack, 'GET', `/bookings/${id}`);
      return r.body?.currentStep === 'price' ? true : undefined;
    });
    await stack.stopWorker();
    const describe = await stack.client.workflow.getHandle(id).describe();
    expect(describe.status.name).toBe('RUNNING');
    // No worker answers the state query: the status comes from the search attributes, marked stale.
    const stale = await call(stack, 'GET', `/bookings/${id}`);
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ id, status: 'RUNNING', steps: [] });
    expect(stale.body.stale).toMatch(/^no worker answered the state query within 1500 ms/);
    await stack.startWorker();
    const done = await waitForBooking(stack, id, 'CONFIRMED', 120_000);
    expect(done.order.bookingReference).toMatch(/^[A-Z0-9]{6}$/);
    expect(stack.ordersFor(done.chosenOffer.shoppingResponseId)).toHaveLength(1);
  });

  it('regression: with no worker, GET /batches/:id answers from visibility (200, stale), not 500', async () => {
    const intent = { ...oneWayIntent({ agencyId: 'AGFAULT', card: DEBIT_CARD }), selection: { maxTotal: '1.00' } };
    const posted = await call(stack, 'POST', '/batches', [intent], { 'Idempotency-Key': 'stale-batch-1' });
    expect(posted.status).toBe(202);
    const batchId = posted.body.id as string;
    const child = `${batchId}-0`;
    await waitForBooking(stack, child, 'AWAITING_APPROVAL');
    await stack.stopWorker();
    try {
      const stale = await pollUntil('the batch child in visibility', async () => {
        const r = await call(stack, 'GET', `/batches/${encodeURIComponent(batchId)}`);
        expect(r.status).toBe(200);
        return r.body.bookings.length === 1 ? r.body : undefined;
      });
      expect(stale).toMatchObject({
        id: batchId,
        done: false,
        total: 1,
        pending: 0,
        running: 1,
        bookings: [{ id: child, status: 'AWAITING_APPROVAL' }],
      });
      expect(stale.stale).toMatch(/^no worker answered the progress query within 1500 ms; counts from visibility/);
      // The child's own state is stale too, and cancel still goes through (delivered once a worker runs).
      expect((await call(stack, 'GET', `/bookings/${encodeURIComponent(child)}`)).body.stale).toBeDefined();
      expect((await call(stack, 'POST', `/bookings/${encodeURIComponent(child)}/cancel`)).status).toBe(202);
    } finally {
      await stack.startWorker();
    }
    const done = await pollUntil(
      'the batch to finish',
      async () => {
        const r = await call(stack, 'GET', `/batches/${encodeURIComponent(batchId)}`);
        return r.body?.done === true && r.body.stale === undefined ? r.body : undefined;
      },
      120_000,
    );
    expect(done).toMatchObject({ total: 1, cancelled: 1, running: 0, pending: 0 });
  });
});
