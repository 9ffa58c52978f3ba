/**
 * The stack of the failover spec, each part a process of its own as in production: the two
 * embedded airlines of `npm start` (ZZ plain NDC, YY SOAP 1.1: scripts/embedded-airlines.ts) and
 * `npm run worker` serving both through an airlines file, against the jest Temporal server.
 *
 * An airline can be frozen (SIGSTOP: the kernel still accepts its connections and takes in the
 * requests, nothing answers, as with a hung process or a paused VM) and thawed (SIGCONT: it then
 * handles what arrived meanwhile): test/support/airline-process.ts.
 */
import * as path from 'node:path';
import { embeddedAirlines, writeAirlinesFile, type EmbeddedAirline } from '../../scripts/embedded-airlines';
import { writeWorkflowBundle } from '../../scripts/bundle-workflows';
import { freePort } from '../../scripts/temporal-dev-server';
import type { AirlineRoute } from '../../src/booking/booking.model';
import { NdcHttpClient, type CircuitSnapshot } from '../../src/ndc-client';
import {
  airlineRoute,
  loadAirlineProfiles,
  type AirlineEntry,
  type AirlineProfile,
} from '../../src/ndc-client/airline-profile';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { startAirlineProcess, type AirlineProcess } from '../support/airline-process';

/** One embedded airline process, and its own lookup of the orders it holds. */
export interface FreezableAirline extends AirlineProcess {
  /** The ids of the orders it holds for a shopping response id of `agencyId` (its own GET lookup). */
  orderIds(shoppingResponseId: string, agencyId: string): Promise<string[]>;
}

/** What the worker's `/health/ready` shows of each airline. */
export interface WorkerHealth {
  status: string;
  airlines: Record<string, { credentials: { status: string }; circuit: CircuitSnapshot }>;
}

export interface OutageStack {
  airlines: Record<'ZZ' | 'YY', FreezableAirline>;
  worker: WorkerProcess;
  /** The airlines a booking may shop at, as the API passes them (`BookingWorkflowOptions.airlines`). */
  routes: AirlineRoute[];
  health(): Promise<WorkerHealth>;
  /** The worker's `/metrics` page. */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export interface OutageStackOptions {
  /** Where the airlines file, the workflow bundle and the logs go. */
  dir: string;
  namespace: string;
  taskQueue: string;
  /** Settings of each airline's entry in the airlines file (timeouts, circuit breaker, settle window). */
  entries: Record<'ZZ' | 'YY', Partial<AirlineEntry>>;
}

/** Starts both airlines, writes their airlines file, and starts the worker once they answer. */
export async function startOutageStack(options: OutageStackOptions): Promise<OutageStack> {
  const { dir } = options;
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  const bundled = writeWorkflowBundle(bundlePath);
  const ports = { zz: await freePort(), yy: await freePort(), zzMetrics: 'off', yyMetrics: 'off' };
  const embedded = embeddedAirlines(ports, dir).map((airline) => ({
    ...airline,
    entry: { ...airline.entry, ...options.entries[airline.code as 'ZZ' | 'YY'] },
  }));
  const airlinesFile = path.join(dir, 'airlines.json');
  writeAirlinesFile(airlinesFile, embedded);
  const secrets = Object.fromEntries(embedded.map(({ secret }) => [secret.name, secret.value]));
  const profiles = loadAirlineProfiles({ AIRLINES_FILE: airlinesFile, ...secrets });
  const started: FreezableAirline[] = [];
  const stopAll = async (): Promise<void> => {
    for (const airline of started) await airline.close();
  };
  try {
    for (const [i, airline] of embedded.entries()) started.push(await startAirline(airline, profiles[i]!, dir));
    await bundled;
    const worker = await startWorkerProcess(bundlePath, {
      TEMPORAL_NAMESPACE: options.namespace,
      TEMPORAL_TASK_QUEUE: options.taskQueue,
      AIRLINES_FILE: airlinesFile,
      ...secrets,
    });
    return {
      airlines: { ZZ: started[0]!, YY: started[1]! },
      worker,
      routes: profiles.map(airlineRoute),
      health: async () => (await (await fetch(`${worker.url}/health/ready`)).json()) as WorkerHealth,
      metrics: async () => (await fetch(`${worker.url}/metrics`)).text(),
      async close() {
        await worker.stop();
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** `npm run airline` of `airline` (in-memory database, no metrics), once its `/health` answers. */
async function startAirline(airline: EmbeddedAirline, profile: AirlineProfile, dir: string): Promise<FreezableAirline> {
  const started = await startAirlineProcess(airline, dir);
  // The test's own reads of its orders: the worker's settings without the circuit breaker.
  const { circuit: _circuit, ...clientConfig } = profile.client;
  const client = new NdcHttpClient(clientConfig);
  return {
    ...started,
    async orderIds(shoppingResponseId, agencyId) {
      const found = await client.ordersByShoppingResponse(shoppingResponseId, agencyId);
      return found?.rs.orders.map((order) => order.orderId) ?? [];
    },
    async close() {
      client.close();
      await started.close();
    },
  };
}
