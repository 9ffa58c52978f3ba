/**
 * The whole saga for real: the booking worker built by createBookingWorker (real activities, real
 * NDC client) on the jest Temporal dev server, against the real airline service (in-memory
 * SQLite, port 0) with its fault simulator.
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { Worker } from '@temporalio/worker';
import { AirlineStore } from '../../src/airline/store/airline.store';
import type { BookingIntent } from '../../src/booking/booking.model';
import { NdcHttpClient } from '../../src/ndc-client';
import { createBookingWorker } from '../../src/worker/worker';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { armFault, clearFaults, ndcClientConfig, startAirline } from '../airline/airline-harness';
import { createHarness, oneWayIntent, stepTrail, type Harness } from './booking.fixtures';

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('booking saga against the real airline service', () => {
  let harness: Harness;
  let airline: INestApplication;
  let baseUrl: string;
  let client: NdcHttpClient;
  let worker: Worker;
  let running: Promise<void>;
  let store: AirlineStore;
  let sequence = 0;

  beforeAll(async () => {
    harness = await createHarness('saga-airline');
    const started = await startAirline();
    airline = started.app;
    baseUrl = started.url;
    store = airline.get(AirlineStore);
    // A short timeout so that commit-then-timeout is noticed quickly.
    client = new NdcHttpClient(ndcClientConfig(started, 1500));
    worker = await createBookingWorker({
      connection: harness.nativeConnection,
      namespace: harness.namespace,
      taskQueue: harness.taskQueue,
      activityDeps: { client },
      rateLimitRps: 100,
    });
    running = worker.run();
  });

  afterAll(async () => {
    worker.shutdown();
    await running;
    client.close();
    await airline.close();
    await harness.close();
  });

  afterEach(async () => {
    await clearFaults(baseUrl);
  });

  async function fault(operation: string, mode: string, count = 1, delayMs = 0): Promise<void> {
    expect((await armFault(baseUrl, operation, mode, count, delayMs)).status).toBeLessThan(300);
  }

  function intent(overrides: Partial<BookingIntent> = {}): BookingIntent {
    sequence += 1;
    return oneWayIntent({
      agency: { id: `AG-SAGA-${sequence}`, name: 'Saga Agency' },
      journey: { origin: 'LGW', destination: 'OSL', departureDate: inDays(20 + sequence) },
      ...overrides,
    });
  }

  async function book(value: BookingIntent) {
    return harness.client.workflow.execute<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-${sequence}`,
      args: [value],
    });
  }

  it('books a round trip for ADT + CHD + INF from LGW with a credit card (CCF2), exactly one order', async () => {
    const base = oneWayIntent();
    const result = await book(
      intent({
        journey: { origin: 'LGW', destination: 'OSL', departureDate: inDays(40), returnDate: inDays(47) },
        passengers: [
          base.passengers[0]!,
          { type: 'CHD', title: 'MISS', givenName: 'Ada', surname: 'Byron', birthdate: inDays(-8 * 365), contactId: 'CTC1' },
          { type: 'INF', title: 'MSTR', givenName: 'Tom', surname: 'Byron', birthdate: inDays(-300), contactId: 'CTC1' },
        ],
      }),
    );
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state)).toEqual([
      'shop:ok:1', 'price:ok:1', 'tokenise:ok:1', 'repriceWithToken:ok:1', 'createOrder:ok:1', 'retrieveOrder:ok:1',
    ]);
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
    expect(stepTrail(result.state).slice(-3)).toEqual(['createOrder:failed:1', 'reconcileOrder:ok:1', 'retrieveOrder:ok:1']);
    const orders = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.orderId).toBe(result.state.order!.orderId);
  });

  it('commit-then-500 on OrderCreate: same, never a second order', async () => {
    await fault('OrderCreate', 'commit-then-500', 1);
    const result = await book(intent());
    expect(result.state.status).toBe('CONFIRMED');
    expect(store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)).toHaveLength(1);
  });

  it('fails with a stable type when the airline has nothing to sell', async () => {
    const result = await book(intent({ journey: { origin: 'LGW', destination: 'BCN', departureDate: inDays(500) } }));
    expect(result.state.status).toBe('FAILED');
    console.log('ERR', JSON.stringify(result.state.error));
    expect(result.state.error?.type).toMatch(/^(NO_OFFERS|INVALID_REQUEST)$/);
    expect(result.state.error?.airlineCode).toMatch(/^7\d\d$/);
  });
});
