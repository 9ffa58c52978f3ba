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
  type ProbeResult,
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
import { probeSearchAttributes, type SearchAttributeHealth } from '../temporal/search-attributes.check';
import { createWorkerMetrics, instrumentNdcClient } from './worker.metrics';
import { endWithParent } from '../common/end-with-parent';

/** How long the readiness probe waits for Temporal, ms. */
const READY_PROBE_TIMEOUT_MS = 2000;

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

async function readiness(
  worker: BookingWorker | undefined,
  connection: NativeConnection,
  namespace: string,
): Promise<ProbeResult> {
  const state = worker?.getState() ?? 'STARTING';
  let attributes: SearchAttributeHealth;
  try {
    const deadline = Date.now() + READY_PROBE_TIMEOUT_MS;
    await connection.withDeadline(deadline, () => connection.workflowService.getSystemInfo({}));
    attributes = await connection.withDeadline(deadline, () => probeSearchAttributes(connection, namespace));
  } catch (error) {
    return {
      ok: false,
      status: 'unavailable',
      details: { worker: state, temporal: { status: 'down', error: (error as Error).message } },
    };
  }
  if (attributes.status === 'down')
    return { ok: false, status: 'unavailable', details: { worker: state, temporal: attributes } };
  const ok = state === 'RUNNING';
  const temporalUp = { status: 'up', searchAttributes: attributes.status };
  return { ok, status: ok ? 'ok' : 'unavailable', details: { worker: state, temporal: temporalUp } };
}

async function main(logger: Logger): Promise<void> {
  endWithParent();
  const {
    temporal,
    airlines: servedCodes,
    shutdownGraceMs,
    workflowBundlePath,
    httpPort,
    httpHost,
    sdkMetricsPort,
    maxCachedWorkflows,
    registerSearchAttributes,
    overdueAfterMs,
  } = loadWorkerConfig();
  const profiles = servedAirlines(loadAirlineProfiles(), servedCodes);
  const payloadKey = loadPayloadKey();
  const coreMetricsPort = sdkMetricsPort ?? (await freeLoopbackPort());

  const tracing = setupTracing({ service: 'worker' });
  if (workflowBundlePath !== undefined) {
    const spans = bundleHasWorkflowSpans(fs.readFileSync(workflowBundlePath, 'utf8'));
    if (spans !== (tracing !== undefined))
      logger.warn(
        { workflowBundlePath, tracing: tracing !== undefined ? 'otlp' : 'off', bundleWorkflowSpans: spans },
        tracing !== undefined
          ? 'worker: tracing is on but the workflow bundle has no span interceptor: no workflow spans (build it with scripts/bundle-workflows.ts --tracing)'
          : 'worker: tracing is off but the workflow bundle has the span interceptor: it builds spans nobody exports (build it without --tracing)',
      );
  }
  const registry = createMetricsRegistry({ service: 'worker' });

  // The SDK stops the worker on SIGINT/SIGTERM (graceful shutdown with shutdownGraceTime). Its
  // own logs, the Rust core's (WARN and up) and workflow/activity `log.*` go to our logger; its
  // core metrics to a Prometheus exporter on loopback that /metrics appends to ours.
  Runtime.install({
    logger: temporalLogger(logger.child({ component: 'temporal-sdk' })),
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    telemetryOptions: {
      logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }) },
      metrics: { prometheus: { bindAddress: `127.0.0.1:${coreMetricsPort}` } },
    },
  });
  const connection = await createWorkerConnection(temporal);
  await prepareSearchAttributes(connection, temporal.namespace, registerSearchAttributes, logger);
  const metrics = createWorkerMetrics(registry, { connection, namespace: temporal.namespace, overdueAfterMs });
  const clients = profiles.map((profile) =>
    instrumentNdcClient(new NdcHttpClient(profile.client), metrics, profile.code, airlineSpan(tracing, profile.code)),
  );
  let worker: BookingWorker | undefined;
  const ops =
    httpPort === undefined
      ? undefined
      : await startOpsServer({
          port: httpPort,
          host: httpHost,
          registry,
          extraMetrics: async () =>
            (await fetch(`http://127.0.0.1:${coreMetricsPort}/metrics`, { signal: AbortSignal.timeout(2000) })).text(),
          live: () => {
            const state = worker?.getState() ?? 'STARTING';
            const ok = state !== 'FAILED' && state !== 'STOPPED';
            return { ok, status: ok ? 'ok' : 'unavailable', details: { worker: state } };
          },
          ready: () => readiness(worker, connection, temporal.namespace),
        });
  try {
    worker = await createBookingWorker({
      connection,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      airlines: profiles.map((profile, i) => airlineWorker(profile, clients[i]!)),
      shutdownGraceMs,
      payloadKey,
      workflowBundlePath,
      metrics,
      tracing,
      ...(maxCachedWorkflows !== undefined ? { extra: { maxCachedWorkflows } } : {}),
    });
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
        health: ops !== undefined ? `${ops.url}/health/ready` : 'off',
        metrics: ops !== undefined ? `${ops.url}/metrics` : 'off',
        tracing: tracing !== undefined ? 'otlp' : 'off',
      },
      `worker: task queue ${temporal.taskQueue} on ${temporal.address}/${temporal.namespace}, airlines ` +
        profiles.map((p) => `${p.code} ${p.client.retailBaseUrl} at ${p.rateLimitRps}/s`).join(', ') +
        ', ' +
        (ops !== undefined ? `health ${ops.url}/health/ready, metrics ${ops.url}/metrics` : 'health and metrics off'),
    );
    await worker.run();
    logger.info('worker: stopped');
  } finally {
    for (const client of clients) client.close();
    await ops?.close();
    await connection.close();
    await tracing?.shutdown();
  }
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
