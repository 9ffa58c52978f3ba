/**
 * `npm run worker`: runs the booking worker against the cluster and airline of the environment
 * (docs/orchestrator.md, "Worker configuration"). SIGTERM / SIGINT shut it down gracefully:
 * polling stops, in-flight activities get the grace period, then the process exits.
 */
import * as fs from 'node:fs';
import { Runtime } from '@temporalio/worker';
import { NdcHttpClient, loadNdcClientConfig } from '../ndc-client';
import { loadPayloadKey } from '../temporal/payload-codec';
import { loadTemporalConfig } from '../temporal/temporal.config';
import { createWorkerConnection } from '../temporal/temporal.connection';
import { createBookingWorker, DEFAULT_AIRLINE_RATE_LIMIT_RPS, DEFAULT_SHUTDOWN_GRACE_MS } from './worker';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: must be a positive number, got "${raw}"`);
  return value;
}

/** WORKFLOW_BUNDLE_PATH: a prebuilt workflow bundle (scripts/bundle-workflows.ts); must exist when set. */
function workflowBundleFromEnv(): string | undefined {
  const raw = process.env.WORKFLOW_BUNDLE_PATH?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!fs.existsSync(raw)) throw new Error(`WORKFLOW_BUNDLE_PATH: no file at "${raw}"`);
  return raw;
}

async function main(): Promise<void> {
  const temporal = loadTemporalConfig();
  const ndcConfig = loadNdcClientConfig();
  const payloadKey = loadPayloadKey();
  const rateLimitRps = positiveNumber('AIRLINE_RATE_LIMIT_RPS', DEFAULT_AIRLINE_RATE_LIMIT_RPS);
  const shutdownGraceMs = positiveNumber('WORKER_SHUTDOWN_GRACE_MS', DEFAULT_SHUTDOWN_GRACE_MS);
  const workflowBundlePath = workflowBundleFromEnv();

  // The SDK stops the worker on SIGINT/SIGTERM (graceful shutdown with shutdownGraceTime).
  Runtime.install({ shutdownSignals: ['SIGINT', 'SIGTERM'] });
  const connection = await createWorkerConnection(temporal);
  const client = new NdcHttpClient(ndcConfig);
  try {
    const worker = await createBookingWorker({
      connection,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      activityDeps: { client },
      rateLimitRps,
      shutdownGraceMs,
      payloadKey,
      workflowBundlePath,
    });
    process.stdout.write(
      `worker: task queue ${temporal.taskQueue} on ${temporal.address}/${temporal.namespace}, ` +
        `airline ${ndcConfig.retailBaseUrl} (payment ${ndcConfig.paymentBaseUrl}), rate limit ${rateLimitRps}/s\n`,
    );
    await worker.run();
    process.stdout.write('worker: stopped\n');
  } finally {
    client.close();
    await connection.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`worker: ${(error as Error).message}\n`);
  process.exit(1);
});
