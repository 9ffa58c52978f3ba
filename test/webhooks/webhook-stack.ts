/**
 * The booking stack for the webhook specs: the real airline, a real worker and API instances on
 * the jest-managed Temporal dev server, like test/api/stack.ts, plus API instances that can be
 * added (several API instances share one registry) with their own webhook settings.
 *
 * Until the authentication guard lands, a test-only guard sets the principal from the
 * `x-test-agency` / `x-test-role` headers.
 */
import { UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Client } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { PRINCIPAL_KEY } from '../../src/api/auth/caller.decorator';
import type { Principal } from '../../src/api/auth/principal';
import { loadApiConfig } from '../../src/api/config/api.config';
import type { WebhookConfig } from '../../src/api/webhooks/webhook.config';
import { createApiApp } from '../../src/configure-app';
import { NdcHttpClient } from '../../src/ndc-client';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { createBookingWorker } from '../../src/worker/worker';
import { ndcClientConfig, startAirline, type RunningAirline } from '../airline/airline-harness';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from '../support/temporal-env';

/** Test-only authentication: the principal named by `x-test-agency` (and `x-test-role`). */
class TestPrincipalGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> } & Record<string, unknown>>();
    const agencyId = request.headers['x-test-agency'];
    if (agencyId === undefined) throw new UnauthorizedException('no test principal');
    const role = request.headers['x-test-role'] === 'ops' ? 'ops' : 'agency';
    const principal: Principal = { agencyId, role, method: 'api-key', id: `test-${agencyId}` };
    request[PRINCIPAL_KEY] = principal;
    return true;
  }
}

export interface ApiInstance {
  url: string;
  close(): Promise<void>;
}

export interface WebhookStack {
  api: ApiInstance;
  airline: RunningAirline;
  client: Client;
  taskQueue: string;
  /** Another API instance on the same cluster and task queue, with its own webhook settings. */
  startApi(webhooks: WebhookConfig): Promise<ApiInstance>;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookStack(prefix: string, webhooks: WebhookConfig): Promise<WebhookStack> {
  const address = temporalTestAddress();
  const namespace = temporalTestNamespace();
  const taskQueue = uniqueTaskQueue(prefix);
  const airline = await startAirline();
  const ndc = new NdcHttpClient(ndcClientConfig(airline));
  const connection = await NativeConnection.connect({ address });
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  const startWorker = async () => {
    worker = await createBookingWorker({ connection, namespace, taskQueue, activityDeps: { client: ndc }, rateLimitRps: 200, shutdownGraceMs: 1000 });
    running = worker.run();
  };
  const stopWorker = async () => {
    if (worker === undefined) return;
    worker.shutdown();
    await running;
    worker = undefined;
  };
  await startWorker();

  const env = { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace };
  const client = await createTemporalClient({ config: loadTemporalConfig(env) });
  const apis: ApiInstance[] = [];
  const startApi = async (settings: WebhookConfig): Promise<ApiInstance> => {
    const config = { ...loadApiConfig({ ...env, TEMPORAL_TASK_QUEUE: taskQueue, AIRLINE_BASE_URL: airline.url, API_LOG: 'error,warn' }), port: 0, host: '127.0.0.1' };
    const app: NestExpressApplication = await createApiApp({ config, temporalClient: client, webhooks: settings });
    app.useGlobalGuards(new TestPrincipalGuard());
    await app.listen(0, '127.0.0.1');
    const instance = { url: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`, close: () => app.close() };
    apis.push(instance);
    return instance;
  };
  const api = await startApi(webhooks);
  return {
    api,
    airline,
    client,
    taskQueue,
    startApi,
    startWorker,
    stopWorker,
    close: async () => {
      await stopWorker();
      for (const instance of apis) await instance.close();
      await client.connection.close();
      await connection.close();
      ndc.close();
      await airline.close();
    },
  };
}

/** JSON over HTTP to an API instance as agency `agencyId` (role `agency` unless `ops`). */
export async function as(
  api: Pick<ApiInstance, 'url'>,
  agencyId: string,
  method: string,
  path: string,
  body?: unknown,
  role: 'agency' | 'ops' = 'agency',
): Promise<{ status: number; body: any; text: string }> {
  const r = await fetch(`${api.url}${path}`, {
    method,
    headers: { 'x-test-agency': agencyId, 'x-test-role': role, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: r.status, body: parsed, text };
}
