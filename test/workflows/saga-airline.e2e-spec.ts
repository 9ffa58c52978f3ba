/**
 * The whole saga for real: the booking worker built by createBookingWorker (real activities, real
 * NDC client) on the jest Temporal dev server, against the real airline service (in-memory
 * SQLite, port 0) with its fault simulator.
 */
import 'reflect-metadata';
import type { AirlineStore } from '../../src/airline/store/airline.store';
import type { BookingIntent, BookingWorkflowOptions } from '../../src/booking/booking.model';
import type { NdcHttpClient } from '../../src/ndc-client';
import type { Registry } from '../../src/common/observability';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { approvePriceSignal, cancelBookingUpdate, stateQuery } from '../../workflows/definitions';
import { armFault, clearFaults } from '../airline/airline-harness';
import { startSagaStack, type SagaStack } from './saga-stack';
import { inDays } from '../airline/ndc-client';
import {
  FIRST_TIME_TRAIL,
  oneWayIntent,
  pollUntil,
  RESHOP_AFTER_ORDER_REFUSED,
  stepOutcomes,
  stepTrail,
  type Harness,
} from './booking.fixtures';

describe('booking saga against the real airline service', () => {
  let stack: SagaStack<NdcHttpClient>;
  let harness: Harness;
  let baseUrl: string;
  let store: AirlineStore;
  let registry: Registry;
  let sequence = 0;

  beforeAll(async () => {
    // A short client timeout so that commit-then-timeout is noticed quickly.
    stack = await startSagaStack('saga-airline', { clientTimeoutMs: 1500 });
    ({ harness, store, registry } = stack);
    baseUrl = stack.airline.url;
    // Bundling the workflows and starting the airline take a while when the whole suite runs.
  }, 180_000);

  afterAll(async () => {
    await stack.close();
  });

  afterEach(async () => {
    await clearFaults(baseUrl);
  });

  async function fault(operation: string, mode: string, count = 1, delayMs = 0): Promise<void> {
    expect((await armFault(baseUrl, operation, mode, count, delayMs)).status).toBeLessThan(300);
  }

  function intent(overrides: Parameters<typeof oneWayIntent>[0] = {}): BookingIntent {
    sequence += 1;
    return oneWayIntent({
      agency: { id: `AG-SAGA-${sequence}`, name: 'Saga Agency' },
      journey: { origin: 'LGW', destination: 'OSL', departureDate: inDays(20 + sequence) },
      ...overrides,
    });
  }

  let started = 0;
  function startBooking(value: BookingIntent, options?: BookingWorkflowOptions) {
    started += 1;
    return harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-${started}`,
      args: options !== undefined ? [value, options] : [value],
    });
  }

  async function book(value: BookingIntent, options?: BookingWorkflowOptions) {
    return (await startBooking(value, options)).result();
  }

  /** Seats sold on ZZ101 (LGW-OSL) on `date` per Economy booking class. */
  function soldEconomy(date: string): Record<string, number> {
    return Object.fromEntries(['O', 'N', 'M', 'L'].map((rbd) => [rbd, store.sold(`ZZ101/${date}`, rbd)]));
  }

  /** Sells `seats` of booking class `rbd` on ZZ101 on `date`, as other agencies' orders would. */
  function sellOut(date: string, rbd: string, seats: number): void {
    expect(store.sellAll([{ inventoryKey: `ZZ101/${date}`, rbd, seats }], () => 1000)).toBe(true);
  }

  it('books a round trip for ADT + CHD + INF from LGW with a credit card (CCF2), exactly one order', async () => {
    const base = oneWayIntent();
    const result = await book(
      intent({
        journey: { origin: 'LGW', destination: 'OSL', departureDate: inDays(40), returnDate: inDays(47) },
        passengers: [
          base.passengers[0]!,
          {
            type: 'CHD',
            title: 'MISS',
            givenName: 'Ada',
            surname: 'Byron',
            birthdate: inDays(-8 * 365),
            contactId: 'CTC1',
          },
          {
            type: 'INF',
            title: 'MSTR',
            givenName: 'Tom',
            surname: 'Byron',
            birthdate: inDays(-300),
            contactId: 'CTC1',
          },
        ],
      }),
    );
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state)).toEqual(FIRST_TIME_TRAIL);
    expect(result.state.chosenOffer?.offerIds).toHaveLength(2);
    expect(result.state.surcharge?.currency).toBe('GBP');
    expect(result.state.order?.total).toEqual(result.state.pricedTotal);
    expect(result.orderViewXml).toContain(result.state.order!.bookingReference);
    expect(result.orderViewXml).not.toContain('4111111111111111');
    expect(store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)).toHaveLength(1);
  });

  it('retries http500 and reset with backoff and books', async () => {
    await fault('OfferPrice', 'http500', 2);
    await fault('AirShopping', 'reset', 1);
    const result = await book(intent());
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state).slice(0, 2)).toEqual(['shop:ok:2', 'price:ok:3']);
  });

  it('commit-then-timeout on OrderCreate: reconciles, adopts the order, exactly one order exists', async () => {
    await fault('OrderCreate', 'commit-then-timeout', 1, 4000);
    const result = await book(intent());
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state).slice(-3)).toEqual([
      'createOrder:failed:1',
      'reconcileOrder:ok:1',
      'retrieveOrder:ok:1',
    ]);
    const orders = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.orderId).toBe(result.state.order!.orderId);
  });

  it('regression: a cancel whose OrderCancel answer is lost takes the refund from the reconciled cancelled order', async () => {
    const handle = await startBooking(intent(), { cancelWindowMs: 3_600_000 });
    await pollUntil(
      () => handle.query(stateQuery),
      (state) => state.status === 'CONFIRMED',
    );
    await fault('OrderCancel', 'commit-then-timeout', 1, 4000);
    const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'answer lost' }] });
    expect(state.status).toBe('CANCELLED');
    expect(state.cancellation).toMatchObject({ status: 'cancelled', settledBy: 'retrieve' });
    // Within 24 hours a void: everything comes back and the fee is zero, as the airline recorded.
    const recorded = store.getOrder(state.order!.orderId)!.cancellation!;
    expect(state.cancellation!.refund).toEqual(recorded.refund);
    expect(state.cancellation!.refund).toEqual(state.order!.total);
    expect(state.cancellation!.fee).toEqual({ value: '0.00', currency: recorded.refund.currency });
    await handle.result();
  });

  it('late-commit below the client timeout: the answer arrives, no lookup, one order', async () => {
    await fault('OrderCreate', 'late-commit', 1, 500);
    const result = await book(intent());
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state).slice(-2)).toEqual(['createOrder:ok:1', 'retrieveOrder:ok:1']);
    expect(store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)).toHaveLength(1);
  });

  it('late-commit above the client timeout: keeps looking until the late order appears, adopts it, one order', async () => {
    // The client gives up at 1.5 s; the airline commits at 6 s; the first lookups find nothing.
    await fault('OrderCreate', 'late-commit', 1, 6000);
    const result = await book(intent());
    expect(result.state.status).toBe('CONFIRMED');
    const trail = stepTrail(result.state);
    expect(trail.filter((s) => s.startsWith('createOrder'))).toEqual(['createOrder:failed:1']);
    const lookups = result.state.steps.filter((s) => s.name === 'reconcileOrder');
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    const createdAt = Date.parse(result.state.steps.find((s) => s.name === 'createOrder')!.startedAt);
    // The order was adopted by a lookup made after the airline's commit, not before.
    expect(Date.parse(lookups.at(-1)!.startedAt) - createdAt).toBeGreaterThanOrEqual(6000);
    const orders = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId);
    expect(orders.map((o) => o.orderId)).toEqual([result.state.order!.orderId]);
  });

  it('an airline that finds orders only by the pricing response id (commit-then-timeout): found by that id, one order', async () => {
    await fault('OrderRetrieve', 'lookup-by-pricing-id-only', 20);
    await fault('OrderCreate', 'commit-then-timeout', 1, 4000);
    // A short window: a saga that looked up by the shopping id only would create again within the test.
    const result = await book(intent(), { settleWindowMs: 5000 });
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state).slice(-3)).toEqual([
      'createOrder:failed:1',
      'reconcileOrder:ok:1',
      'retrieveOrder:ok:1',
    ]);
    expect(result.state.settling?.lookupIds).toHaveLength(2);
    const orders = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId);
    expect(orders.map((o) => o.orderId)).toEqual([result.state.order!.orderId]);
    expect(orders[0]!.pricingResponseId).toBe(result.state.settling!.lookupIds[0]);
  });

  it('commit-then-500 on OrderCreate: same, never a second order', async () => {
    await fault('OrderCreate', 'commit-then-500', 1);
    const result = await book(intent());
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    expect(store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)).toHaveLength(1);
  });

  it('sold out at order time (711): re-shops into the next class, the dearer total waits for approval, one order', async () => {
    const value = intent({ selection: { maxTotal: '0.01' } });
    const date = value.journey.departureDate;
    const handle = await startBooking(value);
    // Approve every wait (one per round: the guard asks once, for the total with the card fee);
    // during the first, the last Economy O seats go.
    let approvals = 0;
    for (;;) {
      const state = await pollUntil(
        () => handle.query(stateQuery),
        (s) => s.status === 'AWAITING_APPROVAL' || s.status === 'CONFIRMED' || s.status === 'FAILED',
      );
      if (state.status !== 'AWAITING_APPROVAL') break;
      if (approvals === 0) sellOut(date, 'O', 4 - store.sold(`ZZ101/${date}`, 'O'));
      await handle.signal(approvePriceSignal);
      approvals += 1;
      await pollUntil(
        () => handle.query(stateQuery),
        (s) => s.status !== 'AWAITING_APPROVAL' || s.steps.length > state.steps.length,
      );
    }
    const result = await handle.result();
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepOutcomes(result.state)).toEqual(RESHOP_AFTER_ORDER_REFUSED);
    expect(result.state.steps[4]!.failure).toBe('NO_SEATS');
    expect(result.state.steps[5]!.reason).toBe('reshop 1/2 after NO_SEATS (711)');
    expect(approvals).toBe(2);
    expect(result.orderViewXml).toMatch(/<Code>N<\/Code>/);
    expect(soldEconomy(date)).toEqual({ O: 4, N: 1, M: 0, L: 0 });
    expect(store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)).toHaveLength(1);
  });

  it('many concurrent bookings of the last seats of a class: all CONFIRMED in some class, one order each, none fails with 711', async () => {
    const date = inDays(120);
    // One O seat and two N seats left: the first orders win them, the others re-shop.
    sellOut(date, 'O', 3);
    sellOut(date, 'N', 6);
    const bookings = 8;
    const values = Array.from({ length: bookings }, () =>
      intent({
        journey: { origin: 'LGW', destination: 'OSL', departureDate: date },
        selection: { maxTotal: '10000.00' },
      }),
    );
    const handles = await Promise.all(values.map((value) => startBooking(value)));
    const results = await Promise.all(handles.map((handle) => handle.result()));

    const reshops = results.map((r) => r.state.steps.filter((step) => step.reason?.startsWith('reshop')).length);
    console.log(
      `concurrent last seats: statuses ${results.map((r) => r.state.status).join(',')}; reshops per booking ${reshops.join(',')}`,
    );
    for (const result of results) {
      expect(result.state.error?.airlineCode).not.toBe('711');
      expect(
        result.state.status === 'CONFIRMED' ||
          (result.state.status === 'FAILED' && result.state.error?.type !== 'NO_SEATS'),
      ).toBe(true);
      const orders = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId);
      if (result.state.status === 'CONFIRMED') {
        expect(orders.map((o) => o.orderId)).toEqual([result.state.order!.orderId]);
      } else {
        expect(orders).toEqual([]);
      }
    }
    const confirmed = results.filter((r) => r.state.status === 'CONFIRMED').length;
    const sold = soldEconomy(date);
    // The airline holds exactly one seat per confirmed booking beyond what was sold before.
    expect(sold.O! + sold.N! + sold.M! + sold.L! - 9).toBe(confirmed);
    expect(confirmed).toBe(bookings);
    expect(sold).toMatchObject({ O: 4, N: 8 });
  });

  it('counts a booking in the metrics when it is confirmed, while its cancel window keeps the workflow open, and its later cancel', async () => {
    const value = (name: string, labels: string): number => {
      const line = new RegExp(`^ndc_saga_${name}\\{${labels},service="worker"\\} (\\d+)$`, 'm');
      return Number(line.exec(text)?.[1] ?? 0);
    };
    let text = await registry.metrics();
    const confirmedBefore = value('bookings_ended_total', 'status="CONFIRMED",failure_type="none",airline="none"');
    const cancelsBefore = value('order_cancels_total', 'outcome="cancelled"');

    const handle = await startBooking(intent(), { cancelWindowMs: 3_600_000 });
    await pollUntil(
      () => handle.query(stateQuery),
      (state) => state.status === 'CONFIRMED',
    );
    // The metric is recorded by a sink call the worker makes after the workflow task completes.
    await pollUntil(
      async () => {
        text = await registry.metrics();
        return value('bookings_ended_total', 'status="CONFIRMED",failure_type="none",airline="none"');
      },
      (count) => count === confirmedBefore + 1,
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');

    const state = await handle.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'metrics' }] });
    expect(state.status).toBe('CANCELLED');
    await handle.result();
    await pollUntil(
      async () => {
        text = await registry.metrics();
        return value('order_cancels_total', 'outcome="cancelled"');
      },
      (count) => count === cancelsBefore + 1,
    );
    // Counted once: the workflow's close does not count the booking again.
    expect(value('bookings_ended_total', 'status="CONFIRMED",failure_type="none",airline="none"')).toBe(
      confirmedBefore + 1,
    );
    expect(value('bookings_ended_total', 'status="CANCELLED",failure_type="none",airline="none"')).toBe(0);
  });

  it('fails with a stable type when the airline has nothing to sell', async () => {
    const result = await book(intent({ journey: { origin: 'LGW', destination: 'BCN', departureDate: inDays(500) } }));
    expect(result.state.status).toBe('FAILED');
    expect(result.state.error?.type).toMatch(/^(NO_OFFERS|INVALID_REQUEST)$/);
    expect(result.state.error?.airlineCode).toMatch(/^7\d\d$/);
  });
});
