/**
 * `npm run worker` as a real process (src/worker/main.ts), killed outright (SIGKILL) in the
 * middle of a saga: a second worker process finishes the booking once the activity heartbeat
 * timeout reveals the lost attempt, and the airline holds exactly one order. Then SIGTERM stops
 * a worker gracefully. And a worker whose airline does not answer: its circuit opens, shown in
 * health (still ready) and metrics, and the airline's reads queue is polled at its share.
 *
 * Robust to a loaded machine: the worker processes load a workflow bundle built once here
 * (WORKFLOW_BUNDLE_PATH, as in the Docker image) instead of each running webpack, every wait
 * polls a readiness signal, and nothing asserts on elapsed time.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { temporal } from '@temporalio/proto';
import { writeWorkflowBundle } from '../../scripts/bundle-workflows';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { airlineReadsTaskQueue } from '../../src/booking/booking.model';
import { bundleHasWorkflowSpans } from '../../src/worker/worker';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { stateQuery } from '../../workflows/definitions';
import { armFault, startAirline } from '../airline/airline-harness';
import { sampleSum, scrape } from '../support/prometheus';
import { temporalTestAddress } from '../support/temporal-env';
import { startWorkerProcess as startOpsWorker } from '../support/worker-process';
import { createHarness, oneWayIntent, pollUntil, stepTrail, type Harness } from './booking.fixtures';

const ROOT = path.resolve(__dirname, '..', '..');

describe('worker process killed mid-saga', () => {
  let harness: Harness;
  let airline: INestApplication;
  let baseUrl: string;
  const children: ChildProcess[] = [];
  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-bundle-'));
  const bundlePath = path.join(bundleDir, 'workflow-bundle.js');

  beforeAll(async () => {
    harness = await createHarness('worker-proc');
    const started = await startAirline();
    airline = started.app;
    baseUrl = started.url;
    await writeWorkflowBundle(bundlePath);
  }, 300_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await airline.close();
    await harness.close();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  /** Starts `src/worker/main.ts` and resolves once it polls (its start-up line). */
  async function startWorkerProcess(
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ child: ChildProcess; output: () => string }> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/worker/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        TEMPORAL_ADDRESS: temporalTestAddress(),
        TEMPORAL_NAMESPACE: harness.namespace,
        TEMPORAL_TASK_QUEUE: harness.taskQueue,
        AIRLINE_BASE_URL: baseUrl,
        AIRLINE_TIMEOUT_MS: '60000',
        WORKER_SHUTDOWN_GRACE_MS: '500',
        WORKFLOW_BUNDLE_PATH: bundlePath,
        WORKER_HTTP_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // The deadline is a safety net for a hung start; the start-up line is the signal.
    await pollUntil(
      async () => output,
      (text) => text.includes('worker: task queue') || child.exitCode !== null,
      240_000,
    );
    if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
    return { child, output: () => output };
  }

  function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (child.exitCode !== null || child.signalCode !== null) {
      return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
    }
    return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  it('SIGKILL during OfferPrice: a new worker process completes the booking, one order', async () => {
    // OfferPrice hangs for a minute: the saga is stuck inside the price activity.
    const armed = await armFault(baseUrl, 'OfferPrice', 'delay', 1, 60_000);
    expect(armed.status).toBeLessThan(300);

    const first = await startWorkerProcess();
    const departureDate = new Date(Date.now() + 33 * 86_400_000).toISOString().slice(0, 10);
    const handle = await harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-killed`,
      args: [oneWayIntent({ journey: { origin: 'LGW', destination: 'OSL', departureDate } })],
    });
    await pollUntil(
      () => handle.query(stateQuery),
      (s) => s.currentStep === 'price',
      120_000,
    );

    // The bundle has no workflow span interceptor, as a worker without tracing wants.
    expect(bundleHasWorkflowSpans(fs.readFileSync(bundlePath, 'utf8'))).toBe(false);
    expect(first.output()).not.toContain('span interceptor');
    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toEqual({ code: null, signal: 'SIGKILL' });

    await startWorkerProcess();
    // The lost attempt is noticed by its heartbeat timeout (5 s), then retried on the new worker.
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    // At least one retry of the killed attempt; on a loaded machine the new worker's own attempt
    // may also miss a heartbeat while it starts up, hence not exactly 2.
    const [shop, price] = stepTrail(result.state);
    expect(shop).toBe('shop:ok:1');
    expect(price).toMatch(/^price:ok:([2-8])$/);
    const orders = airline.get(AirlineStore).ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId);
    expect(orders).toHaveLength(1);
  }, 600_000);

  it('SIGTERM stops a worker process gracefully (exit code 0)', async () => {
    // With tracing on, the bundle without the span interceptor is named at start-up.
    const worker = await startWorkerProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(worker.output()).toContain('tracing is on but the workflow bundle has no span interceptor');
    worker.child.kill('SIGTERM');
    expect(await exited(worker.child)).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('worker: stopped');
  }, 300_000);

  /** A loopback port nothing listens on (was free a moment ago): calls to it are refused at once. */
  function closedPort(): Promise<number> {
    return new Promise((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
  }

  it('an airline that does not answer: its circuit opens after a few shop attempts, in health (still ready) and metrics; its reads queue polled at its share', async () => {
    const file = path.join(bundleDir, 'airlines-down.json');
    const down = {
      code: 'QQ',
      name: 'Down Air',
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      username: 'agency',
      passwordEnv: 'QQ_AIRLINE_PASSWORD',
      rateLimitRps: 8,
      orderReads: { share: 0.25 },
      circuitBreaker: { failureThreshold: 3, openMs: 600_000 },
    };
    fs.writeFileSync(file, JSON.stringify({ airlines: [down] }));
    // Its own queue: the workers of the tests above still serve the harness's.
    const taskQueue = `${harness.taskQueue}-down`;
    const worker = await startOpsWorker(bundlePath, {
      TEMPORAL_NAMESPACE: harness.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      AIRLINES_FILE: file,
      QQ_AIRLINE_PASSWORD: 'agency-secret',
    });
    try {
      const departureDate = new Date(Date.now() + 35 * 86_400_000).toISOString().slice(0, 10);
      const handle = await harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
        taskQueue,
        workflowId: `${taskQueue}-booking`,
        args: [oneWayIntent({ journey: { origin: 'LGW', destination: 'OSL', departureDate } })],
      });
      type Ready = {
        status: string;
        airlines: { QQ: { credentials: { status: string }; circuit: { state: string; consecutiveFailures: number } } };
      };
      const ready = await pollUntil(
        async () => {
          const response = await fetch(`${worker.url}/health/ready`);
          return { http: response.status, body: (await response.json()) as Ready };
        },
        ({ body }) => body.airlines.QQ.circuit.state === 'open',
        120_000,
      );
      expect([ready.http, ready.body.status]).toEqual([200, 'ok']);
      expect(ready.body.airlines.QQ.circuit).toMatchObject({ state: 'open', opens: 1 });
      expect(ready.body.airlines.QQ.credentials.status).toMatch(/^(unreachable|unchecked)$/);

      // Every call that got no answer counted in the breaker's run of failures (the credentials
      // check's OrderList at start, then the shop attempts), none since it opened.
      const metrics = await scrape(`${worker.url}/metrics`);
      const calls = (labels: Record<string, string>) =>
        sampleSum(metrics, 'ndc_saga_airline_call_duration_seconds_count', { airline: 'QQ', ...labels });
      expect(sampleSum(metrics, 'ndc_saga_airline_circuit_state', { airline: 'QQ' })).toBe(2);
      expect(sampleSum(metrics, 'ndc_saga_airline_circuit_opens_total', { airline: 'QQ' })).toBe(1);
      expect(calls({ outcome: 'transport_error' })).toBe(ready.body.airlines.QQ.circuit.consecutiveFailures);
      expect(calls({ operation: 'AirShopping', outcome: 'transport_error' })).toBeGreaterThanOrEqual(2);

      // The reads queue's poller carries the rate limit the server enforces: 0.25 x 8 = 2 per second.
      const pollers = await pollUntil(
        async () =>
          (
            await harness.client.workflowService.describeTaskQueue({
              namespace: harness.namespace,
              taskQueue: { name: airlineReadsTaskQueue(taskQueue, 'QQ') },
              taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
            })
          ).pollers ?? [],
        (list) => list.length > 0,
        60_000,
      );
      expect(pollers.map((poller) => poller.ratePerSecond)).toEqual([2]);
      await handle.terminate('test done');
    } finally {
      await worker.stop();
    }
  }, 300_000);
});
