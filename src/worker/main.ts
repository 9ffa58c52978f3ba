/**
 * `npm run worker`: runs the booking worker against the cluster and airline of the environment
 * (docs/orchestrator.md, "Worker configuration"; docs/operations.md, "Worker health, metrics,
 * logs, traces"). SIGTERM / SIGINT shut it down gracefully: polling stops, in-flight activities
 * get the grace period, then the process exits.
 *
 * Observability: JSON logs (pino, the SDK's runtime, core, workflow and activity logs forwarded),
 * an HTTP server on WORKER_HTTP_PORT with `/health/live`, `/health/ready` and `/metrics` (our
 * metrics plus the SDK core's), and OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { makeTelemetryFilterString, Runtime, type NativeConnection } from '@temporalio/worker';
import {
  createLoggerFromEnv,
  createMetricsRegistry,
  setupTracing,
  startOpsServer,
  temporalLogger,
  type Logger,
} from '../common/observability';
import { airlineSpan } from './airline-span';
import { NdcHttpClient } from '../ndc-client';
import { loadAirlineProfiles, type AirlineProfile } from '../ndc-client/airline-profile';
import { airlineTaskQueue } from '../booking/booking.model';
import { loadPayloadKey } from '../temporal/payload-codec';
import { createWorkerConnection } from '../temporal/temporal.connection';
import { type BookingWorker, airlineWorker, bundleHasWorkflowSpans, createBookingWorker } from './worker';
import { loadWorkerConfig, WorkerConfigError } from './worker.config';
import { prepareSearchAttributes } from './worker.search-attributes';
import { createWorkerMetrics, instrumentNdcClient } from './worker.metrics';
import { endWithParent } from '../common/end-with-parent';
import { AirlineCredentials } from './airline-credentials';
import { airlineHealth, liveness, readiness, type WorkerProbeSource } from './worker.health';

/** A loopback port that was free a moment ago (for the SDK core's Prometheus exporter). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** What the worker process runs with. */
interface WorkerSetup {
  config: ReturnType<typeof loadWorkerConfig>;
  profiles: AirlineProfile[];
  coreMetricsPort: number;
  tracing: ReturnType<typeof setupTracing>;
}

async function main(logger: Logger): Promise<void> {
  endWithParent();
  const setup = await loadSetup(logger);
  const registry = createMetricsRegistry({ service: 'worker' });
  installRuntime(logger, setup.coreMetricsPort);
  const { temporal } = setup.config;
  const connection = await createWorkerConnection(temporal);
  await prepareSearchAttributes(connection, temporal.namespace, setup.config.registerSearchAttributes, logger);
  const metrics = createWorkerMetrics(registry, {
    connection,
    namespace: temporal.namespace,
    overdueAfterMs: setup.config.overdueAfterMs,
  });
  const clients = setup.profiles.map((profile) =>
    instrumentNdcClient(
      new NdcHttpClient(profile.client),
      metrics,
      profile.code,
      airlineSpan(setup.tracing, profile.code),
    ),
  );
  clients.forEach((client, i) => {
    if (client.circuit !== undefined) metrics.watchCircuit(setup.profiles[i]!.code, client.circuit);
  });
  const credentials = setup.profiles.map((profile, i) => new AirlineCredentials(profile, clients[i]!, logger));
  const state: { worker?: BookingWorker } = {};
  const served = setup.profiles.map(({ code }, i) => ({
    code,
    credentials: credentials[i]!,
    circuit: clients[i]!.circuit,
  }));
  const ops = await startOps(setup, registry, connection, state, airlineHealth(served));
  try {
    state.worker = await createWorker(setup, connection, clients, metrics);
    logStarted(logger, setup, ops?.url);
    for (const check of credentials) void check.check();
    await state.worker.run();
    logger.info('worker: stopped');
  } finally {
    for (const client of clients) client.close();
    await ops?.close();
    await connection.close();
    // A collector that does not answer loses the last spans; the worker still stopped cleanly.
    await setup.tracing
      ?.shutdown()
      .catch((error: unknown) =>
        logger.warn({ err: error }, `worker: spans not exported: ${(error as Error).message}`),
      );
  }
}

/** The configuration, the airlines served, the port of the SDK's metrics, tracing. */
async function loadSetup(logger: Logger): Promise<WorkerSetup> {
  const config = loadWorkerConfig();
  const profiles = servedAirlines(loadAirlineProfiles(), config.airlines);
  const coreMetricsPort = config.sdkMetricsPort ?? (await freeLoopbackPort());
  const tracing = setupTracing({ service: 'worker' });
  if (config.workflowBundlePath !== undefined)
    warnOnBundleTracing(logger, config.workflowBundlePath, tracing !== undefined);
  return { config, profiles, coreMetricsPort, tracing };
}

/** A prebuilt bundle whose workflow spans do not match the tracing setting is said so. */
function warnOnBundleTracing(logger: Logger, workflowBundlePath: string, tracing: boolean): void {
  const spans = bundleHasWorkflowSpans(fs.readFileSync(workflowBundlePath, 'utf8'));
  if (spans === tracing) return;
  logger.warn(
    { workflowBundlePath, tracing: tracing ? 'otlp' : 'off', bundleWorkflowSpans: spans },
    tracing
      ? 'worker: tracing is on but the workflow bundle has no span interceptor: no workflow spans (build it with scripts/bundle-workflows.ts --tracing)'
      : 'worker: tracing is off but the workflow bundle has the span interceptor: it builds spans nobody exports (build it without --tracing)',
  );
}

/**
 * The SDK stops the worker on SIGINT/SIGTERM (graceful shutdown with shutdownGraceTime). Its own
 * logs, the Rust core's (WARN and up) and workflow/activity `log.*` go to our logger; its core
 * metrics to a Prometheus exporter on loopback that /metrics appends to ours.
 */
function installRuntime(logger: Logger, coreMetricsPort: number): void {
  Runtime.install({
    logger: temporalLogger(logger.child({ component: 'temporal-sdk' })),
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    telemetryOptions: {
      logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }) },
      metrics: { prometheus: { bindAddress: `127.0.0.1:${coreMetricsPort}` } },
    },
  });
}

/** `/health/live`, `/health/ready` and `/metrics` on WORKER_HTTP_PORT (none when `off`). */
async function startOps(
  setup: WorkerSetup,
  registry: ReturnType<typeof createMetricsRegistry>,
  connection: NativeConnection,
  state: { worker?: BookingWorker },
  airlines: WorkerProbeSource['airlines'],
) {
  const { httpPort, httpHost, temporal } = setup.config;
  if (httpPort === undefined) return undefined;
  const source = { state: () => state.worker?.getState(), connection, namespace: temporal.namespace, airlines };
  return startOpsServer({
    port: httpPort,
    host: httpHost,
    registry,
    extraMetrics: async () =>
      (await fetch(`http://127.0.0.1:${setup.coreMetricsPort}/metrics`, { signal: AbortSignal.timeout(2000) })).text(),
    live: () => liveness(source),
    ready: () => readiness(source),
  });
}

function createWorker(
  setup: WorkerSetup,
  connection: NativeConnection,
  clients: NdcHttpClient[],
  metrics: ReturnType<typeof createWorkerMetrics>,
): Promise<BookingWorker> {
  const { temporal, shutdownGraceMs, workflowBundlePath, maxCachedWorkflows } = setup.config;
  return createBookingWorker({
    connection,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    airlines: setup.profiles.map((profile, i) => airlineWorker(profile, clients[i]!)),
    shutdownGraceMs,
    payloadKey: loadPayloadKey(),
    workflowBundlePath,
    metrics,
    tracing: setup.tracing,
    ...(maxCachedWorkflows !== undefined ? { extra: { maxCachedWorkflows } } : {}),
  });
}

function logStarted(logger: Logger, setup: WorkerSetup, opsUrl: string | undefined): void {
  const { temporal } = setup.config;
  const { profiles, tracing } = setup;
  logger.info(
    {
      taskQueue: temporal.taskQueue,
      temporalAddress: temporal.address,
      namespace: temporal.namespace,
      airlines: profiles.map((p) => ({
        airline: p.code,
        taskQueue: airlineTaskQueue(temporal.taskQueue, p.code),
        retail: p.client.retailBaseUrl,
        payment: p.client.paymentBaseUrl,
        binding: p.client.binding ?? 'plain',
        rateLimitRps: p.rateLimitRps,
      })),
      health: opsUrl !== undefined ? `${opsUrl}/health/ready` : 'off',
      metrics: opsUrl !== undefined ? `${opsUrl}/metrics` : 'off',
      tracing: tracing !== undefined ? 'otlp' : 'off',
    },
    `worker: task queue ${temporal.taskQueue} on ${temporal.address}/${temporal.namespace}, airlines ` +
      profiles.map((p) => `${p.code} ${p.client.retailBaseUrl} at ${p.rateLimitRps}/s`).join(', ') +
      ', ' +
      (opsUrl !== undefined ? `health ${opsUrl}/health/ready, metrics ${opsUrl}/metrics` : 'health and metrics off'),
  );
}

/** The configured airlines this process serves (WORKER_AIRLINES, default all). */
function servedAirlines(profiles: AirlineProfile[], codes: string[] | undefined): AirlineProfile[] {
  if (codes === undefined) return profiles;
  const unknown = codes.find((code) => !profiles.some((profile) => profile.code === code));
  if (unknown !== undefined)
    throw new WorkerConfigError(
      'WORKER_AIRLINES',
      `${unknown} is not a configured airline (configured: ${profiles.map((p) => p.code).join(', ')})`,
    );
  return profiles.filter((profile) => codes.includes(profile.code));
}

const rootLogger = createLoggerFromEnv('worker');
main(rootLogger).catch((error: unknown) => {
  rootLogger.fatal({ err: error }, `worker: ${(error as Error).message}`);
  rootLogger.flush();
  process.exitCode = 1;
  setImmediate(() => process.exit(1));
});
