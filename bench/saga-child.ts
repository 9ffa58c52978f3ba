/**
 * Child processes of `bench/saga.bench.ts`, so that each one's CPU time and memory are its own:
 *
 * - `airline [<json>]`: the airline app (in-memory SQLite) on a free port, designator ZZ or the
 *   one given as `{ "airlineCode": "YY" }` (its world seeded by the designator); sends `{ port }`.
 * - `worker <json>`: a booking worker (`createBookingWorker`, real activities over the NDC HTTP
 *   client) for the given Temporal address and task queue, serving each airline of
 *   {@link WorkerChildOptions.airlines} on its own queue at its rate limit (the routed path) and
 *   the first one on the workflows' own queue too (bookings started without `airlines`), with
 *   the worker levers of {@link WorkerChildOptions}; sends `{ ready: true }` once it runs.
 * - `floor-worker <json>`: a bare worker ({@link FloorWorkerOptions}) of `bench/floor.workflow.ts`
 *   (Temporal's floor: six no-op activities), default data converter, no interceptors; sends
 *   `{ ready: true }` once it runs.
 * - `callers`: the agencies of the intake; runs a {@link CallersJob} (concurrent `POST /bookings`)
 *   when sent one, and answers with its {@link CallersResult}.
 *
 * The airline and the workers answer the message `'stats'` with their {@link ChildStats}, a booking
 * worker `'cache'` with its {@link WorkerCache}; they stop when the parent disconnects.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { testAirlineConfig } from '../src/airline/airline.config';

/** An embedded airline a bench worker serves. */
export interface BenchAirline {
  /** Designator (the airline child's `airlineCode`). */
  code: string;
  url: string;
  /** Its queue's activity rate limit (`<taskQueue>-airline-<code>`). */
  rateLimitRps: number;
}

export interface WorkerChildOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** The airlines served, each on its own queue; the first also on the workflows' queue. */
  airlines: BenchAirline[];
  /** Activity rate limit of the workflows' own queue (bookings started without `airlines`). */
  rateLimitRps: number;
  /** `maxCachedWorkflows` (default: the SDK's). */
  maxCachedWorkflows?: number;
  /** `reuseV8Context` (default: the SDK's). */
  reuseV8Context?: boolean;
  /**
   * false: no `maxTaskQueueActivitiesPerSecond` at all (it turns eager activity dispatch off);
   * default true (`rateLimitRps`).
   */
  taskQueueLimit?: boolean;
  /** `maxActivitiesPerSecond`: a per-worker activity rate limit (default none). */
  workerActivitiesPerSecond?: number;
  /** `maxConcurrentWorkflowTaskExecutions` (default: the SDK's). */
  workflowTaskSlots?: number;
  /** A bundle prebuilt by scripts/bundle-workflows.ts instead of bundling at start. */
  workflowBundlePath?: string;
  /** Tracing on (workflow span interceptor, activity and airline spans), spans dropped on export. */
  tracing?: boolean;
}

/** Settings of the floor worker child (`--floor-worker <json>`). */
export interface FloorWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
}

export interface ChildStats {
  cpu: NodeJS.CpuUsage;
  rss: number;
  /** V8 heap in use, bytes. */
  heapUsed: number;
}

/** A worker child's workflow cache (the message `'cache'`): workflows cached now, and its `maxCachedWorkflows`. */
export interface WorkerCache {
  cached: number;
  max: number;
}

/** Settings of an airline child (`--airline <json>`). */
export interface AirlineChildOptions {
  /** Designator, and seed of its world. Default ZZ (the test configuration's). */
  airlineCode?: string;
}

/** The embedded airline's configuration for `code` (its world seeded by the designator). */
export function benchAirlineConfig(code?: string): ReturnType<typeof testAirlineConfig> {
  return code === undefined ? testAirlineConfig() : testAirlineConfig({ airlineCode: code, worldSeed: code });
}

async function airlineMain(options: AirlineChildOptions): Promise<void> {
  const { createAirlineApp } = await import('../src/airline/airline.module');
  const app = await createAirlineApp(benchAirlineConfig(options.airlineCode));
  await app.listen(0, '127.0.0.1');
  process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
  process.send?.({ port: (app.getHttpServer().address() as { port: number }).port });
}

async function workerMain(options: WorkerChildOptions): Promise<void> {
  const { DefaultLogger, NativeConnection, Runtime } = await import('@temporalio/worker');
  const { airlineWorker, createBookingWorker } = await import('../src/worker/worker');
  const { NdcHttpClient } = await import('../src/ndc-client');
  const { embeddedProfile } = await import('../test/airline/airline-harness');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const served = options.airlines.map((airline) => {
    const profile = embeddedProfile(
      { config: benchAirlineConfig(airline.code), url: airline.url },
      { rateLimitRps: airline.rateLimitRps },
    );
    const client = new NdcHttpClient(profile.client);
    return { client, worker: airlineWorker(profile, client) };
  });
  const connection = await NativeConnection.connect({ address: options.address });
  const { setupTracing } = await import('../src/common/observability');
  const tracing = options.tracing
    ? setupTracing({
        service: 'worker',
        register: false,
        exporter: { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined },
      })
    : undefined;
  const worker = await createBookingWorker({
    ...(tracing !== undefined ? { tracing } : {}),
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    airlines: served.map((airline) => airline.worker),
    rateLimitRps: options.rateLimitRps,
    ...(options.workflowBundlePath !== undefined ? { workflowBundlePath: options.workflowBundlePath } : {}),
    extra: {
      ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
      ...(options.reuseV8Context !== undefined ? { reuseV8Context: options.reuseV8Context } : {}),
      ...(options.taskQueueLimit === false ? { maxTaskQueueActivitiesPerSecond: undefined } : {}),
      ...(options.workerActivitiesPerSecond !== undefined
        ? { maxActivitiesPerSecond: options.workerActivitiesPerSecond }
        : {}),
      ...(options.workflowTaskSlots !== undefined
        ? { maxConcurrentWorkflowTaskExecutions: options.workflowTaskSlots }
        : {}),
    },
  });
  process.on('message', (m) => {
    if (m !== 'cache') return;
    const cache: WorkerCache = {
      cached: worker.booking.getStatus().numCachedWorkflows,
      max: worker.booking.options.maxCachedWorkflows,
    };
    process.send?.({ cache });
  });
  const running = worker.run();
  process.on('disconnect', () => {
    worker.shutdown();
    void running.finally(async () => {
      await connection.close();
      for (const airline of served) airline.client.close();
      process.exit(0);
    });
  });
  process.send?.({ ready: true });
}

async function floorWorkerMain(options: FloorWorkerOptions): Promise<void> {
  const { DefaultLogger, NativeConnection, Runtime, Worker } = await import('@temporalio/worker');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowsPath: require.resolve('./floor.workflow'),
    activities: { echo: (payload: string) => Promise.resolve(payload) },
  });
  const running = worker.run();
  process.on('disconnect', () => {
    worker.shutdown();
    void running.finally(async () => {
      await connection.close();
      process.exit(0);
    });
  });
  process.send?.({ ready: true });
}

/** What the callers child is asked to post: `intents` to `url`, `callers` at a time. */
export interface CallersJob {
  url: string;
  headers: Record<string, string>;
  intents: unknown[];
  callers: number;
}

/** What it answers: the wall time of the whole job, each request's latency, the ids started. */
export interface CallersResult {
  wallMs: number;
  latencies: number[];
  started: string[];
}

/** The agencies' side of the intake: `callers` concurrent loops of `POST /bookings`. */
async function postAll(job: CallersJob): Promise<CallersResult> {
  const queue = [...job.intents];
  const latencies: number[] = [];
  const started: string[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: job.callers }, async () => {
      for (let intent = queue.shift(); intent !== undefined; intent = queue.shift()) {
        const s = performance.now();
        const res = await fetch(job.url, {
          method: 'POST',
          headers: { ...job.headers, 'idempotency-key': randomUUID() },
          body: JSON.stringify(intent),
        });
        if (res.status !== 202) throw new Error(`POST /bookings: ${res.status} ${await res.text()}`);
        started.push(((await res.json()) as { id: string }).id);
        latencies.push(performance.now() - s);
      }
    }),
  );
  return { wallMs: performance.now() - t0, latencies, started };
}

function callersMain(): Promise<void> {
  process.on('message', (m) => {
    const job = (m as { job?: CallersJob }).job;
    if (job === undefined) return;
    postAll(job).then(
      (result) => process.send?.({ result }),
      (error: unknown) => process.send?.({ error: String((error as Error).message ?? error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true });
  return Promise.resolve();
}

/** Runs `job` in a callers child (`startChild(['--callers'])`). */
export function runCallers(child: ChildProcess, job: CallersJob): Promise<CallersResult> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const { result, error } = m as { result?: CallersResult; error?: string };
      if (result === undefined && error === undefined) return;
      child.off('message', onMessage);
      if (error !== undefined) reject(new Error(error));
      else resolve(result!);
    };
    child.on('message', onMessage);
    child.send({ job });
  });
}

if (process.argv[2] === '--callers') {
  void callersMain();
}

const ROLES: Record<string, (json: string) => Promise<void>> = {
  '--airline': (json) => airlineMain(JSON.parse(json) as AirlineChildOptions),
  '--worker': (json) => workerMain(JSON.parse(json) as WorkerChildOptions),
  '--floor-worker': (json) => floorWorkerMain(JSON.parse(json) as FloorWorkerOptions),
};

const role = ROLES[process.argv[2] ?? ''];
if (role !== undefined) {
  process.on('message', (m) => {
    if (m !== 'stats') return;
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ stats: { cpu: process.cpuUsage(), rss, heapUsed } satisfies ChildStats });
  });
  role(process.argv[3] ?? '{}').catch((err: unknown) => {
    process.stderr.write(`saga bench child ${process.argv[2]}: ${String((err as Error).stack ?? err)}\n`);
    process.exit(1);
  });
}

/**
 * Forks this file in the given role and resolves with the child and its first message.
 * `SAGA_BENCH_CHILD_NODE_FLAGS` adds `node` flags to every child (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS does not accept).
 */
export function startChild<M>(args: string[]): Promise<{ child: ChildProcess; first: M }> {
  const flags = (process.env.SAGA_BENCH_CHILD_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  return new Promise((resolve, reject) => {
    const child = fork(__filename, args, { execArgv: ['-r', '@swc-node/register', ...flags], stdio: 'inherit' });
    child.once('message', (m) => resolve({ child, first: m as M }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`saga bench child ${args[0]} exited with ${code}`)));
  });
}

/** Sends `request` to `child` and resolves with the `request` field of its answer. */
function ask<T>(child: ChildProcess, request: 'stats' | 'cache'): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const answer = (m as Record<string, T | undefined>)[request];
      if (answer === undefined) return;
      child.off('message', onMessage);
      resolve(answer);
    };
    child.on('message', onMessage);
    child.send(request);
  });
}

/** A child's CPU time and memory now. */
export function childStats(child: ChildProcess): Promise<ChildStats> {
  return ask<ChildStats>(child, 'stats');
}

/** A worker child's workflow cache now. */
export function workerCache(child: ChildProcess): Promise<WorkerCache> {
  return ask<WorkerCache>(child, 'cache');
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.disconnect();
  });
}
