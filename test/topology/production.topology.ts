/**
 * The production topology, tested (`npm run test:topology`, docs/operations.md "Production
 * topology"): the real Temporal server v1.32.2 on a throw-away PostgreSQL 15, set up with the
 * schema and namespace scripts docker-compose.yml runs, then the airline, two API processes and
 * two workers, each started as `npm run <role>` starts it, with NODE_ENV=production for the API
 * and the workers.
 *
 * Bookings go through both APIs. A worker that holds an in-flight OrderCreate is killed with
 * SIGKILL, then the Temporal server is restarted; more bookings follow, and a replacement worker
 * joins. Every booking must end CONFIRMED with exactly one order in the airline's database.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { AirlineStore } from '../../src/airline/store/airline.store';
import type { BookingView } from '../../src/api/bookings/booking.service';
import { writeWorkflowBundle } from '../../scripts/bundle-workflows';
import { freePort } from '../../scripts/temporal-dev-server';
import { setupSchema, type RunningTemporalServer } from '../../scripts/temporal-server';
import { createApiKey, pollUntil, ROOT, startRole, waitForHttpOk, type RoleProcess } from './processes';
import { startTemporalOnPostgres, type TemporalOnPostgres } from '../../scripts/temporal-on-postgres';

const NAMESPACE = 'default';
const TASK_QUEUE = 'ndc-saga-topology';
const TERMINAL = new Set(['CONFIRMED', 'FAILED', 'CANCELLED']);
const LOG_DIR = path.join(ROOT, 'test', '.tmp', 'topology');
const EXAMPLE_INTENT = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'one-way.json'), 'utf8')) as {
  journey: { departureDate: string };
};

function isoDaysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('production topology: Temporal server on PostgreSQL, 2 APIs, 2 workers', () => {
  let temporal: TemporalOnPostgres;
  let server: RunningTemporalServer;
  let airline: RoleProcess;
  let airlineUrl: string;
  /** `/metrics` of the airline and of each API (their own ports). */
  let airlineMetricsUrl: string;
  const apiMetricsUrls: string[] = [];
  let airlineDb: string;
  const apis: { role: RoleProcess; url: string }[] = [];
  const workers: RoleProcess[] = [];
  /** Health/metrics URL of each worker, by name. */
  const workerUrls = new Map<string, string>();
  let workerEnv: NodeJS.ProcessEnv;
  let connection: Connection | undefined;
  /** `Authorization` header value of the agency's API key (created with `npm run keys`). */
  let authorization: string;

  const secrets = {
    PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    AIRLINE_USERNAME: 'topology-agent',
    AIRLINE_PASSWORD: randomBytes(12).toString('hex'),
  };

  /** Resolves once Temporal lists `worker` among the workflow and activity pollers of the task queue. */
  async function waitUntilPolling(worker: RoleProcess): Promise<void> {
    const identity = `${worker.pid}@${os.hostname()}`;
    for (const taskQueueType of [
      proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    ]) {
      await pollUntil(
        `${worker.name} polling`,
        async () => {
          connection ??= await Connection.connect({ address: server.address });
          const response = await connection.workflowService.describeTaskQueue({
            namespace: NAMESPACE,
            taskQueue: { name: TASK_QUEUE },
            taskQueueType,
          });
          return (response.pollers ?? []).map((poller) => poller.identity);
        },
        (identities) => identities.includes(identity),
        { failed: () => (worker.isRunning() ? undefined : `exited:\n${worker.output().slice(-3000)}`) },
      );
    }
  }

  async function startWorker(name: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<RoleProcess> {
    const port = await freePort();
    const worker = startRole(name, 'worker', { ...workerEnv, WORKER_HTTP_PORT: String(port), ...extraEnv }, LOG_DIR);
    workers.push(worker);
    workerUrls.set(name, `http://127.0.0.1:${port}`);
    return worker;
  }

  async function workerReadiness(name: string): Promise<number> {
    return (await fetch(`${workerUrls.get(name)}/health/ready`, { signal: AbortSignal.timeout(10_000) })).status;
  }

  beforeAll(async () => {
    fs.rmSync(LOG_DIR, { recursive: true, force: true });
    temporal = await startTemporalOnPostgres(LOG_DIR, NAMESPACE);
    server = temporal.server;
    // A second run of the schema steps changes nothing and fails on nothing (compose re-runs it).
    await setupSchema(temporal.tools.sqlTool, temporal.postgres);

    airlineDb = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-topology-')), 'airline.db');
    const airlinePort = await freePort();
    airlineUrl = `http://127.0.0.1:${airlinePort}`;
    const airlineMetricsPort = await freePort();
    airlineMetricsUrl = `http://127.0.0.1:${airlineMetricsPort}/metrics`;
    // Development mode for the airline only: its fault injection (POST /_sim/faults) is off in production.
    airline = startRole(
      'airline',
      'airline',
      {
        NODE_ENV: 'development',
        AIRLINE_PORT: String(airlinePort),
        AIRLINE_METRICS_PORT: String(airlineMetricsPort),
        AIRLINE_DB_PATH: airlineDb,
        AIRLINE_USERNAME: secrets.AIRLINE_USERNAME,
        AIRLINE_PASSWORD: secrets.AIRLINE_PASSWORD,
        AIRLINE_VAULT_KEY: randomBytes(32).toString('hex'),
      },
      LOG_DIR,
    );
    await waitForHttpOk('airline ready', `${airlineUrl}/health`, airline);

    // One keys file for both API instances, and a key for the example's agency, made as an
    // operator makes it (`npm run keys -- create`).
    const keysFile = path.join(path.dirname(airlineDb), 'api-keys.json');
    authorization = `Bearer ${createApiKey(keysFile, 'AGENCY1', 'topology')}`;

    const temporalEnv = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    };
    workerEnv = {
      ...temporalEnv,
      ...secrets,
      NODE_ENV: 'production',
      AIRLINE_BASE_URL: airlineUrl,
      PAYMENT_BASE_URL: airlineUrl,
      WORKER_SHUTDOWN_GRACE_MS: '1000',
    };
    for (const name of ['worker-1', 'worker-2']) await startWorker(name);
    for (const name of ['api-1', 'api-2']) {
      const port = await freePort();
      const metricsPort = await freePort();
      apiMetricsUrls.push(`http://127.0.0.1:${metricsPort}/metrics`);
      const role = startRole(
        name,
        'api',
        {
          ...temporalEnv,
          NODE_ENV: 'production',
          API_PORT: String(port),
          API_HOST: '127.0.0.1',
          API_METRICS_PORT: String(metricsPort),
          API_METRICS_HOST: '127.0.0.1',
          AIRLINE_BASE_URL: airlineUrl,
          PAYLOAD_ENCRYPTION_KEY: secrets.PAYLOAD_ENCRYPTION_KEY,
          API_KEYS_FILE: keysFile,
        },
        LOG_DIR,
      );
      apis.push({ role, url: `http://127.0.0.1:${port}` });
    }
    for (const api of apis) await waitForHttpOk(`${api.role.name} ready`, `${api.url}/health`, api.role);
    for (const worker of workers) await waitUntilPolling(worker);
    for (const worker of workers)
      await waitForHttpOk(`${worker.name} ready`, `${workerUrls.get(worker.name)}/health/ready`, worker);
  });

  afterAll(async () => {
    await connection?.close();
    for (const role of [...apis.map((api) => api.role), ...workers]) await role.stop(5000);
    await airline?.stop(5000);
    await temporal?.stop();
    if (airlineDb !== undefined) fs.rmSync(path.dirname(airlineDb), { recursive: true, force: true });
  });

  async function book(api: { url: string }, index: number): Promise<string> {
    const intent = structuredClone(EXAMPLE_INTENT);
    intent.journey.departureDate = isoDaysAhead(30 + index);
    const response = await fetch(`${api.url}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `topology-${index}`, authorization },
      body: JSON.stringify(intent),
    });
    const body = (await response.json()) as { id: string };
    expect([index, response.status]).toEqual([index, 202]);
    return body.id;
  }

  async function view(api: { url: string }, id: string): Promise<BookingView> {
    const response = await fetch(`${api.url}/bookings/${encodeURIComponent(id)}`, {
      headers: { authorization },
      signal: AbortSignal.timeout(15_000),
    });
    if (response.status !== 200)
      throw new Error(`GET /bookings/${id}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as BookingView;
  }

  /** The worker process running `activityType` of `workflowId` right now (from its pending activity). */
  async function workerRunning(workflowId: string, activityType: string): Promise<RoleProcess> {
    const identity = await pollUntil(
      `${workflowId} ${activityType} started`,
      async () => {
        const description = await connection!.workflowService.describeWorkflowExecution({
          namespace: NAMESPACE,
          execution: { workflowId },
        });
        const pending = (description.pendingActivities ?? []).find(
          (activity) =>
            activity.activityType?.name === activityType &&
            activity.state === proto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
        );
        return pending?.lastWorkerIdentity ?? '';
      },
      (found) => found !== '',
    );
    const worker = workers.find((candidate) => `${candidate.pid}@${os.hostname()}` === identity);
    if (worker === undefined) throw new Error(`no worker of ours has identity ${identity}`);
    return worker;
  }

  it('books through both APIs across a worker SIGKILL and a Temporal server restart; one order per booking', async () => {
    // The first OrderCreate hangs for 8 s at the airline: the saga is inside createOrder when
    // its worker is killed.
    const armed = await fetch(`${airlineUrl}/_sim/faults`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${secrets.AIRLINE_USERNAME}:${secrets.AIRLINE_PASSWORD}`).toString('base64')}`,
      },
      body: JSON.stringify({ operation: 'OrderCreate', mode: 'delay', count: 1, delayMs: 8000 }),
    });
    expect(armed.status).toBeLessThan(300);

    // The first booking alone until its OrderCreate is held, so the delayed call is surely its own
    // (with four bookings in flight the first OrderCreate to arrive may be any of them); then
    // three more, in flight when the worker dies.
    const ids: { id: string; api: number }[] = [{ id: await book(apis[0], 0), api: 0 }];
    const victim = await workerRunning(ids[0].id, 'createOrder');
    for (let i = 1; i < 4; i += 1) ids.push({ id: await book(apis[i % 2], i), api: i % 2 });
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The server goes away under running sagas and comes back on the same database. Meanwhile
    // the surviving worker reports itself unready (it cannot reach Temporal) but alive.
    await connection?.close();
    connection = undefined;
    await server.stop();
    const survivor = workers.find((worker) => worker !== victim)!.name;
    await pollUntil(
      `${survivor} unready without Temporal`,
      () => workerReadiness(survivor),
      (status) => status === 503,
    );
    expect((await fetch(`${workerUrls.get(survivor)}/health/live`)).status).toBe(200);
    server = await temporal.startServer();
    await pollUntil(
      `${survivor} ready again`,
      () => workerReadiness(survivor),
      (status) => status === 200,
    );

    for (let i = 4; i < 8; i += 1) ids.push({ id: await book(apis[i % 2], i), api: i % 2 });
    // The replacement worker loads a prebuilt workflow bundle, as workers in the image do.
    const bundle = path.join(path.dirname(airlineDb), 'workflow-bundle.js');
    await writeWorkflowBundle(bundle);
    const replacement = await startWorker('worker-3', { WORKFLOW_BUNDLE_PATH: bundle });
    await waitUntilPolling(replacement);

    const views: BookingView[] = [];
    for (const { id, api } of ids) {
      // Read through the other API than the one that started it.
      views.push(
        await pollUntil(
          `booking ${id} finished`,
          () => view(apis[1 - api], id),
          (v) => TERMINAL.has(v.status),
          { intervalMs: 500 },
        ),
      );
    }
    expect(views.map((v) => [v.id, v.status, v.error])).toEqual(views.map((v) => [v.id, 'CONFIRMED', undefined]));
    // The killed attempt's outcome was unknown: the saga reconciled before any retry.
    expect(views[0].steps.map((step) => step.name)).toContain('reconcileOrder');
    const orderIds = views.map((v) => v.order!.orderId);
    expect(new Set(orderIds).size).toBe(ids.length);

    // Worker metrics moved: bookings that reached their outcome, steps timed, airline calls by operation, and the SDK
    // core's own metrics on the same endpoint.
    const scrapes = await Promise.all(
      workers
        .filter((worker) => worker.isRunning())
        .map(async (worker) => (await fetch(`${workerUrls.get(worker.name)}/metrics`)).text()),
    );
    expect(scrapes).toHaveLength(2);
    const sum = (pattern: RegExp): number =>
      scrapes.flatMap((text) => [...text.matchAll(pattern)].map((m) => Number(m[1]))).reduce((a, b) => a + b, 0);
    expect(sum(/^ndc_saga_bookings_ended_total\{[^}]*status="CONFIRMED"[^}]*\} (\d+)$/gm)).toBeGreaterThan(0);
    expect(sum(/^ndc_saga_saga_step_duration_seconds_count\{[^}]*step="createOrder"[^}]*\} (\d+)$/gm)).toBeGreaterThan(
      0,
    );
    expect(
      sum(/^ndc_saga_airline_call_duration_seconds_count\{[^}]*operation="OrderCreate"[^}]*\} (\d+)$/gm),
    ).toBeGreaterThan(0);
    expect(sum(/^ndc_saga_bookings_awaiting_approval\{[^}]*\} (\d+)$/gm)).toBe(0);
    for (const text of scrapes)
      expect(text).toMatch(/^temporal_worker_start\{[^}]*task_queue="ndc-saga-topology"[^}]*\} 1$/m);
    // Bookings stay open for their cancel window (7 days by default), so no booking workflow has
    // completed; the SDK core's activity metrics have moved.
    expect(sum(/^temporal_activity_execution_latency(?:_seconds)?_count\{[^}]*\} (\d+)$/gm)).toBeGreaterThan(0);

    // API and airline metrics on their own ports: every booking accepted through one of the APIs,
    // and at least one OrderCreate per booking at the airline.
    const apiScrapes = await Promise.all(apiMetricsUrls.map(async (url) => (await fetch(url)).text()));
    const acceptedPerApi = apiScrapes.map((text) =>
      [...text.matchAll(/^ndc_saga_intake_total\{[^}]*outcome="accepted"[^}]*\} (\d+)$/gm)]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0),
    );
    expect(acceptedPerApi.reduce((a, b) => a + b, 0)).toBe(ids.length);
    for (const text of apiScrapes)
      expect(text).toMatch(/^ndc_saga_http_requests_total\{[^}]*route="\/bookings\/:id"[^}]*status="200"[^}]*\} \d+$/m);
    const airlineScrape = await (await fetch(airlineMetricsUrl)).text();
    // Every outcome: the killed worker's OrderCreate was cut off (`aborted`), not answered.
    const airlineOrderCreates = [
      ...airlineScrape.matchAll(/^ndc_saga_airline_requests_total\{[^}]*operation="OrderCreate"[^}]*\} (\d+)$/gm),
    ].reduce((a, m) => a + Number(m[1]), 0);
    expect(airlineOrderCreates).toBeGreaterThanOrEqual(ids.length);
    // The API's access lines are JSON with the request id and the booking's workflow id.
    const apiLines = apis.flatMap((api) =>
      api.role
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { requestId?: string; workflowId?: string; route?: string }),
    );
    for (const { id } of ids)
      expect(apiLines.some((line) => line.route === '/bookings' && line.workflowId === id && line.requestId)).toBe(
        true,
      );

    // Logs are JSON lines carrying the booking's ids, and no card data.
    const card = (EXAMPLE_INTENT as unknown as { payment: { card: { number: string; verificationCode: string } } })
      .payment.card;
    const workerLines = workers.flatMap((worker) =>
      worker
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{')),
    );
    expect(workerLines.length).toBeGreaterThan(0);
    expect(
      workerLines
        .map((line) => JSON.parse(line) as { workflowId?: string })
        .some((line) => ids.some(({ id }) => line.workflowId === id)),
    ).toBe(true);
    for (const role of [...workers, ...apis.map((api) => api.role), airline]) {
      expect([role.name, role.output().includes(card.number), role.output().includes(authorization.slice(7))]).toEqual([
        role.name,
        false,
        false,
      ]);
    }

    await airline.stop();
    const store = new AirlineStore(airlineDb);
    try {
      for (const v of views) {
        const orders = store.ordersByShoppingResponse(v.chosenOffer!.shoppingResponseId);
        expect([v.id, orders.map((order) => order.orderId)]).toEqual([v.id, [v.order!.orderId]]);
      }
    } finally {
      store.close();
    }
  });
});
