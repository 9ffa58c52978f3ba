/**
 * The whole booking stack in-process for the API e2e specs: the real airline app (in-memory
 * SQLite) on a free port, a real worker (createBookingWorker) on a task queue of its own, and
 * the API app (createApiApp / configureApp) on a free port, against the jest-managed Temporal dev
 * server (TEMPORAL_TEST_ADDRESS). {@link startOrchestrator} starts the worker and the API alone,
 * against an airline running elsewhere (e.g. its own process: test/support/airline-process.ts).
 */
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { AirlineConfig } from '../../src/airline/airline.config';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { loadApiConfig, type ApiConfig } from '../../src/api/config/api.config';
import { createApiApp } from '../../src/configure-app';
import { uiPayloadCodec } from '../../src/main';
import { NdcHttpClient } from '../../src/ndc-client';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { createWorkerMetrics, instrumentNdcClient } from '../../src/worker/worker.metrics';
import { airlineSpan } from '../../src/worker/airline-span';
import { createApiMetrics } from '../../src/api/observability/api.metrics';
import { apiClientInterceptors } from '../../src/api/observability/api.tracing';
import { createAirlineMetrics } from '../../src/airline/observability/airline.observability';
import {
  createMetricsRegistry,
  startOpsServer,
  type Logger,
  type OpsServer,
  type Tracing,
} from '../../src/common/observability';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  armFault,
  embeddedProfile,
  ndcClientConfig,
  startAirline,
  type RunningAirline,
} from '../airline/airline-harness';
import { controlledBookingWorker } from '../support/booking-worker';
import { airlineWorker } from '../../src/worker/worker';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from '../support/temporal-env';
import { isBookingStatus, isFinalStatus } from '../../src/booking/booking.model';
import { createTestKeys, type TestKeys } from './keys.fixture';

/** The orchestrator side of a stack: the worker and the API, and the airline they talk to. */
export interface OrchestratorStack {
  apiUrl: string;
  /** The API keys of this stack (`StackOptions.keys`), in a keys file of their own. */
  keys: TestKeys;
  /** `Bearer <key>` sent by {@link call} when no Authorization header is given: the first key of `StackOptions.keys`. */
  defaultAuth: string;
  airlineUrl: string;
  taskQueue: string;
  client: Client;
  api: NestExpressApplication;
  airlineConfig: AirlineConfig;
  /** Arms an airline fault (`POST /_sim/faults`). */
  fault(operation: string, mode: string, count?: number, delayMs?: number): Promise<void>;
  /** `/metrics` URLs of the API and the worker (`StackOptions.metrics`). */
  metricsUrls?: { api: string; worker: string };
  startWorker(): Promise<void>;
  /** Shuts the worker down (graceful: in-flight activities get `shutdownGraceMs`). */
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/** The whole stack: the orchestrator side and the embedded airline in this process. */
export interface Stack extends Omit<OrchestratorStack, 'metricsUrls'> {
  airline: INestApplication;
  /** Orders the airline holds for a shopping response id. */
  ordersFor(
    shoppingResponseId: string,
  ): { orderId: string; cancellation?: { kind: 'void' | 'cancel'; refund: { value: string; currency: string } } }[];
  /** `/metrics` URLs of the API, worker and airline (`StackOptions.metrics`). */
  metricsUrls?: { api: string; worker: string; airline: string };
}

export interface StackOptions {
  prefix: string;
  /** Price-guard wait of each booking (ms). Default: the workflow's. */
  approvalTimeoutMs?: number;
  /** Airline request timeout of the worker's NDC client (ms). Default 20000. */
  airlineTimeoutMs?: number;
  /** Worker shutdown grace (ms). Default 1000. */
  shutdownGraceMs?: number;
  /** API_QUERY_TIMEOUT_MS of the API. Default: the API's. */
  queryTimeoutMs?: number;
  /** API keys to create, by name; the first is the default credential of {@link call}. Default: one agency key for AGENCY1. */
  keys?: Record<string, { agencyId: string; role?: 'agency' | 'ops' }>;
  /** More API environment (OIDC_*, RATE_LIMIT_*, ...). */
  apiEnv?: Record<string, string>;
  /**
   * Serve each role's Prometheus metrics as its `main.ts` does (API and airline metrics, worker
   * metrics with the booking sink and the instrumented NDC client), each on a free port. Default false.
   */
  metrics?: boolean;
  /**
   * Tracing as the roles' `main.ts` wire it: the worker's OpenTelemetry interceptors and sinks and
   * its `NDC <operation>` spans, the API client's OpenTelemetry interceptor. Default: off.
   */
  tracing?: Tracing;
  /** The API's process logger. Default: createApiApp's (JSON on stdout at API_LOG's level). */
  apiLogger?: Logger;
  /** The airline's process logger. Default: createAirlineApp's (silent in tests). */
  airlineLogger?: Logger;
  /** The worker's airline rate limit (`maxTaskQueueActivitiesPerSecond`). Default 200. */
  rateLimitRps?: number;
  /** Settings of the embedded airline (e.g. `authenticationHoldMs`). Default: testAirlineConfig's. */
  airline?: Partial<AirlineConfig>;
  /**
   * The airline pushes OrderChangeNotif to the API (`POST /airlines/ZZ/notifications`, plain
   * binding) with this password, and the API's profile of it says so (an airlines file with
   * `pushesNotifications` and `notifications.passwordEnv`), as `npm start` wires them. Default: no push.
   */
  airlinePushPassword?: string;
}

/** What {@link startOrchestrator} reads of the stack's options (the airline's own are left out). */
export type OrchestratorOptions = Omit<StackOptions, 'airline' | 'airlineLogger' | 'airlinePushPassword'> & {
  /** Port of the API on 127.0.0.1. Default: a free one. */
  apiPort?: number;
};

/** The API configuration of a test stack: `env` read as the API reads it, quiet logs, a free local port. */
export function testApiConfig(env: Record<string, string>): ApiConfig {
  return { ...loadApiConfig({ API_LOG: 'error,warn', ...env }), port: 0, host: '127.0.0.1' };
}

/** Listens on a free port of 127.0.0.1; returns the app's base URL. */
export async function listenLocally(app: NestExpressApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
}

/** A metrics server of a stack's role: a free port of 127.0.0.1, no health routes. */
const METRICS_SERVER = { port: 0, host: '127.0.0.1', health: false } as const;

export async function startStack(options: StackOptions): Promise<Stack> {
  const airlineMetrics = observed(options) ? createAirlineMetrics() : undefined;
  // A pushing airline must know the API's address before the API starts: its port is taken first.
  const apiPort = options.airlinePushPassword !== undefined ? await freePort() : 0;
  const push =
    options.airlinePushPassword !== undefined
      ? {
          notify: {
            url: `http://127.0.0.1:${apiPort}/airlines/ZZ/notifications`,
            username: 'ZZ',
            password: options.airlinePushPassword,
            binding: 'plain' as const,
            retryMs: 100,
          },
        }
      : {};
  const started = await startAirline(
    { ...options.airline, ...push },
    {
      ...(airlineMetrics !== undefined ? { metrics: airlineMetrics } : {}),
      ...(options.airlineLogger !== undefined ? { logger: options.airlineLogger } : {}),
    },
  );
  const airlinesFile = options.airlinePushPassword !== undefined ? pushingAirlinesFile(started) : undefined;
  const pushEnv: Record<string, string> =
    airlinesFile !== undefined ? { AIRLINES_FILE: airlinesFile, ZZ_NOTIFY_PASSWORD: options.airlinePushPassword! } : {};
  const orchestrator = await startOrchestrator(
    { ...options, apiPort, apiEnv: { ...pushEnv, ...options.apiEnv } },
    started,
  );
  const airlineOps =
    options.metrics === true
      ? await startOpsServer({ ...METRICS_SERVER, registry: airlineMetrics!.registry })
      : undefined;
  const store = started.app.get(AirlineStore);
  const { metricsUrls, ...sides } = orchestrator;
  return {
    ...sides,
    airline: started.app,
    ...(metricsUrls !== undefined ? { metricsUrls: { ...metricsUrls, airline: `${airlineOps!.url}/metrics` } } : {}),
    ordersFor: (id) => store.ordersByShoppingResponse(id),
    close: async () => {
      await orchestrator.close();
      await airlineOps?.close();
      await started.app.close();
      if (airlinesFile !== undefined) rmSync(dirname(airlinesFile), { recursive: true, force: true });
    },
  };
}

/**
 * The orchestrator side alone (the worker and the API, as {@link startStack} starts them) against
 * `airline`, already running at its `url` with its `config` (credentials, designator, media vendor).
 */
export async function startOrchestrator(
  options: OrchestratorOptions,
  airline: Pick<RunningAirline, 'config' | 'url'>,
): Promise<OrchestratorStack> {
  const taskQueue = uniqueTaskQueue(options.prefix);
  const worker = await startStackWorker(options, airline, taskQueue);
  const { api, apiUrl, client, keys, defaultAuth, registry } = await startStackApi(options, airline, taskQueue);
  const opsServers: OpsServer[] = [];
  if (options.metrics === true) {
    for (const served of [registry!, worker.registry])
      opsServers.push(await startOpsServer({ ...METRICS_SERVER, registry: served }));
  }
  return {
    apiUrl,
    keys,
    defaultAuth,
    airlineUrl: airline.url,
    taskQueue,
    client,
    api,
    airlineConfig: airline.config,
    ...(options.metrics === true
      ? { metricsUrls: { api: `${opsServers[0]!.url}/metrics`, worker: `${opsServers[1]!.url}/metrics` } }
      : {}),
    fault: async (operation, mode, count = 1, delayMs = 0) => {
      const r = await armFault(airline.url, operation, mode, count, delayMs);
      if (r.status >= 300) throw new Error(`arming ${operation} ${mode} failed: ${r.status} ${await r.text()}`);
    },
    startWorker: worker.start,
    stopWorker: worker.stop,
    close: async () => {
      await worker.stop();
      for (const ops of opsServers) await ops.close();
      await api.close();
      await client.connection.close();
      await worker.close();
      keys.remove();
    },
  };
}

/** Whether a stack's roles record metrics (`StackOptions.metrics` or `tracing`). */
function observed(options: OrchestratorOptions): boolean {
  return options.metrics === true || options.tracing !== undefined;
}

/**
 * The stack's worker on `taskQueue` (real activities, `airline` through a real NDC client), started;
 * `close` frees its connection and client once it is stopped.
 */
async function startStackWorker(
  options: OrchestratorOptions,
  airline: Pick<RunningAirline, 'config' | 'url'>,
  taskQueue: string,
) {
  const namespace = temporalTestNamespace();
  const connection = await NativeConnection.connect({ address: temporalTestAddress() });
  const registry = createMetricsRegistry({ service: 'worker' });
  const metrics = observed(options) ? createWorkerMetrics(registry, { connection, namespace }) : undefined;
  const plainNdc = new NdcHttpClient(ndcClientConfig(airline, options.airlineTimeoutMs ?? 20_000));
  const code = airline.config.airlineCode;
  const ndc =
    metrics !== undefined ? instrumentNdcClient(plainNdc, metrics, code, airlineSpan(options.tracing, code)) : plainNdc;
  const worker = controlledBookingWorker({
    connection,
    namespace,
    taskQueue,
    airlines: [airlineWorker(embeddedProfile(airline, { rateLimitRps: options.rateLimitRps ?? 200 }), ndc)],
    shutdownGraceMs: options.shutdownGraceMs ?? 1000,
    ...(metrics !== undefined ? { metrics } : {}),
    ...(options.tracing !== undefined ? { tracing: options.tracing } : {}),
  });
  await worker.start();
  return {
    ...worker,
    registry,
    close: async () => {
      await connection.close();
      plainNdc.close();
    },
  };
}

/** The stack's API keys, its Temporal client and the API app listening on `options.apiPort`. */
async function startStackApi(options: OrchestratorOptions, airline: Pick<RunningAirline, 'url'>, taskQueue: string) {
  const keySpec = options.keys ?? { agency: { agencyId: 'AGENCY1' } };
  const keys = createTestKeys(keySpec);
  const defaultAuth = `Bearer ${keys.secret(Object.keys(keySpec)[0]!)}`;
  const env = { TEMPORAL_ADDRESS: temporalTestAddress(), TEMPORAL_NAMESPACE: temporalTestNamespace() };
  const client = await createTemporalClient({
    config: loadTemporalConfig(env),
    ...(options.tracing !== undefined ? { interceptors: apiClientInterceptors() } : {}),
  });
  const config = testApiConfig({
    ...env,
    TEMPORAL_TASK_QUEUE: taskQueue,
    AIRLINE_BASE_URL: airline.url,
    ...(options.approvalTimeoutMs !== undefined
      ? { BOOKING_APPROVAL_TIMEOUT_MS: String(options.approvalTimeoutMs) }
      : {}),
    ...(options.queryTimeoutMs !== undefined ? { API_QUERY_TIMEOUT_MS: String(options.queryTimeoutMs) } : {}),
    API_KEYS_FILE: keys.file,
    ...options.apiEnv,
  });
  const metrics = observed(options) ? createApiMetrics() : undefined;
  const api = await createApiApp({
    config,
    temporalClient: client,
    codec: uiPayloadCodec(),
    ...(metrics !== undefined ? { metrics } : {}),
    ...(options.apiLogger !== undefined ? { logger: options.apiLogger } : {}),
  });
  await api.listen(options.apiPort ?? 0, '127.0.0.1');
  const apiUrl = `http://127.0.0.1:${(api.getHttpServer().address() as { port: number }).port}`;
  return { api, apiUrl, client, keys, defaultAuth, registry: metrics?.registry };
}

/** A TCP port of 127.0.0.1 free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** An airlines file (in a folder of its own) naming the embedded `airline` as a pushing one, its push password in ZZ_NOTIFY_PASSWORD. */
function pushingAirlinesFile(airline: Pick<RunningAirline, 'config' | 'url'>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'stack-airlines-')), 'airlines.json');
  const entry = {
    code: airline.config.airlineCode,
    name: `Embedded ${airline.config.airlineCode}`,
    baseUrl: airline.url,
    username: airline.config.username,
    passwordEnv: 'ZZ_AIRLINE_PASSWORD',
    extensionNamespace: airline.config.extensionNamespace,
    pushesNotifications: true,
    notifications: { passwordEnv: 'ZZ_NOTIFY_PASSWORD' },
  };
  writeFileSync(file, JSON.stringify({ airlines: [entry] }));
  return file;
}

/**
 * JSON over HTTP to the API, authenticated with `stack.defaultAuth` unless `headers` has an
 * `authorization` of its own (an empty one: none is sent).
 */
export async function call(
  stack: Pick<Stack, 'apiUrl'> & Partial<Pick<Stack, 'defaultAuth'>>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; text: string; contentType: string | null; headers: Headers }> {
  const { authorization = stack.defaultAuth, ...rest } = headers;
  const r = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(authorization !== undefined && authorization !== '' ? { authorization } : {}),
      ...rest,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: r.status, body: parsed, text, contentType: r.headers.get('content-type'), headers: r.headers };
}

/** Polls `probe` until it returns a value (not undefined) or the deadline passes. */
export async function pollUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Polls GET /bookings/:id until the status is final (or `until`), returns the last view. */
export async function waitForBooking(
  stack: Pick<Stack, 'apiUrl' | 'defaultAuth'>,
  id: string,
  until?: string,
  timeoutMs = 90_000,
  headers: Record<string, string> = {},
): Promise<any> {
  const view = await pollUntil(
    `booking ${id} to reach ${until ?? 'a final status'}`,
    async () => {
      const r = await call(stack, 'GET', `/bookings/${encodeURIComponent(id)}`, undefined, headers);
      if (r.status !== 200) return undefined;
      return r.body.status === until || (isBookingStatus(r.body.status) && isFinalStatus(r.body.status))
        ? r.body
        : undefined;
    },
    timeoutMs,
  );
  if (until !== undefined && view.status !== until) {
    throw new Error(`booking ${id} ended ${view.status} (${JSON.stringify(view.error)}) instead of ${until}`);
  }
  return view;
}
