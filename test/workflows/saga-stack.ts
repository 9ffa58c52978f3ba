/**
 * The whole saga for real, as the saga specs run it: the production booking worker
 * (createBookingWorker: real activities, real NDC client, worker metrics) on the jest Temporal dev
 * server, against one embedded airline service (in-memory SQLite, port 0, its fault simulator).
 */
import 'reflect-metadata';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { createMetricsRegistry, type Registry } from '../../src/common/observability';
import { NdcHttpClient, type NdcClientConfig } from '../../src/ndc-client';
import { airlineWorker } from '../../src/worker/worker';
import { createWorkerMetrics } from '../../src/worker/worker.metrics';
import { embeddedProfile, ndcClientConfig, startAirline, type RunningAirline } from '../airline/airline-harness';
import { controlledBookingWorker, type ControlledWorker } from '../support/booking-worker';
import { createHarness, onHarness, type Harness } from './booking.fixtures';

export interface SagaStack<C extends NdcHttpClient> {
  harness: Harness;
  airline: RunningAirline;
  /** The airline's own store, to see what it sold and ordered. */
  store: AirlineStore;
  client: C;
  worker: ControlledWorker;
  /** The worker's metrics. */
  registry: Registry;
  close(): Promise<void>;
}

export interface SagaStackOptions<C extends NdcHttpClient> {
  /** The NDC client the worker calls the airline with (default a plain NdcHttpClient). */
  client?: (config: NdcClientConfig) => C;
  /** The client's timeout, ms (default the airline config's). */
  clientTimeoutMs?: number;
}

/** Starts the airline, the harness and the worker (bundling takes a while: give beforeAll 180 s). */
export async function startSagaStack<C extends NdcHttpClient = NdcHttpClient>(
  prefix: string,
  options: SagaStackOptions<C> = {},
): Promise<SagaStack<C>> {
  const harness = await createHarness(prefix);
  const airline = await startAirline();
  const config = ndcClientConfig(airline, options.clientTimeoutMs);
  const client = options.client?.(config) ?? (new NdcHttpClient(config) as C);
  const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
  const worker = controlledBookingWorker({
    ...onHarness(harness),
    metrics: createWorkerMetrics(registry),
    airlines: [airlineWorker(embeddedProfile(airline, { rateLimitRps: 100 }), client)],
  });
  await worker.start();
  return {
    harness,
    airline,
    store: airline.app.get(AirlineStore),
    client,
    worker,
    registry,
    async close() {
      await worker.stop();
      client.close();
      await airline.close();
      await harness.close();
    },
  };
}
