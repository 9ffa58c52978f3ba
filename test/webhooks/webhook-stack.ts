/**
 * The booking stack for the webhook specs: the real airline, a real worker and API instances on
 * the jest-managed Temporal dev server, like test/api/stack.ts, plus API instances that can be
 * added (several API instances share one registry) with their own webhook settings.
 *
 * Callers authenticate with real API keys (the API's keys file): one agency key per agency named
 * in `agencies`, and one ops key.
 */
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { WebhookConfig } from '../../src/api/webhooks/webhook.config';
import { createApiApp } from '../../src/configure-app';
import { NdcHttpClient } from '../../src/ndc-client';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { embeddedProfile, ndcClientConfig, startAirline, type RunningAirline } from '../airline/airline-harness';
import { airlineWorker } from '../../src/worker/worker';
import { createTestKeys, type TestKeys } from '../api/keys.fixture';
import { call, listenLocally, testApiConfig } from '../api/stack';
import { controlledBookingWorker } from '../support/booking-worker';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from '../support/temporal-env';

export interface ApiInstance {
  url: string;
  /** `Bearer <key>` of the agency key of `agencyId`, or of the ops key. */
  auth(agencyId: string, role: 'agency' | 'ops'): string;
  close(): Promise<void>;
}

export interface WebhookStack {
  api: ApiInstance;
  airline: RunningAirline;
  client: Client;
  taskQueue: string;
  /** The API keys (secrets included, for the log leak scan). */
  keys: TestKeys;
  /** Another API instance on the same cluster and task queue, with its own webhook settings. */
  startApi(webhooks: WebhookConfig): Promise<ApiInstance>;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Webhook settings for tests: retries 200 ms apart, doubling up to 1 s, each request given 2 s,
 * given up after `maxAgeMs` (default 60 s); http receivers accepted.
 */
export function fastWebhooks(maxAgeMs = 60_000): WebhookConfig {
  return {
    retry: { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 1000, maxAgeMs, requestTimeoutMs: 2000 },
    requireHttps: false,
  };
}

/** Name of the test key of `agencyId` (or of the ops key). */
function keyName(agencyId: string, role: 'agency' | 'ops'): string {
  return role === 'ops' ? 'ops' : `agency:${agencyId}`;
}

export async function startWebhookStack(
  prefix: string,
  webhooks: WebhookConfig,
  agencies: string[],
  /** Further API environment (e.g. BATCH_CONCURRENCY). */
  apiEnv: Record<string, string> = {},
): Promise<WebhookStack> {
  const keys = createTestKeys({
    ops: { agencyId: 'OPS', role: 'ops' },
    ...Object.fromEntries(agencies.map((agencyId) => [keyName(agencyId, 'agency'), { agencyId }])),
  });
  const address = temporalTestAddress();
  const namespace = temporalTestNamespace();
  const taskQueue = uniqueTaskQueue(prefix);
  const airline = await startAirline();
  const ndc = new NdcHttpClient(ndcClientConfig(airline));
  const connection = await NativeConnection.connect({ address });
  const worker = controlledBookingWorker({
    connection,
    namespace,
    taskQueue,
    airlines: [airlineWorker(embeddedProfile(airline), ndc)],
    shutdownGraceMs: 1000,
  });
  await worker.start();

  const env = { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace };
  const client = await createTemporalClient({ config: loadTemporalConfig(env) });
  const apis: ApiInstance[] = [];
  const startApi = async (settings: WebhookConfig): Promise<ApiInstance> => {
    const config = testApiConfig({
      ...env,
      TEMPORAL_TASK_QUEUE: taskQueue,
      AIRLINE_BASE_URL: airline.url,
      API_KEYS_FILE: keys.file,
      ...apiEnv,
    });
    const app = await createApiApp({ config, temporalClient: client, webhooks: settings });
    const instance: ApiInstance = {
      url: await listenLocally(app),
      auth: (agencyId, role) => `Bearer ${keys.secret(keyName(agencyId, role))}`,
      close: () => app.close(),
    };
    apis.push(instance);
    return instance;
  };
  const api = await startApi(webhooks);
  return {
    api,
    airline,
    client,
    taskQueue,
    keys,
    startApi,
    startWorker: worker.start,
    stopWorker: worker.stop,
    close: async () => {
      await worker.stop();
      for (const instance of apis) await instance.close();
      await client.connection.close();
      await connection.close();
      ndc.close();
      await airline.close();
      keys.remove();
    },
  };
}

/** JSON over HTTP to an API instance with the key of agency `agencyId` (or the ops key). */
export async function as(
  api: Pick<ApiInstance, 'url' | 'auth'>,
  agencyId: string,
  method: string,
  path: string,
  body?: unknown,
  role: 'agency' | 'ops' = 'agency',
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: any; text: string }> {
  const {
    status,
    body: parsed,
    text,
  } = await call({ apiUrl: api.url }, method, path, body, {
    authorization: api.auth(agencyId, role),
    ...extraHeaders,
  });
  return { status, body: parsed, text };
}
