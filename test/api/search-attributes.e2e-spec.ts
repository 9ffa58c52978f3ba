/**
 * A namespace without the booking search attributes, as on any cluster but the embedded dev
 * server until an operator registers them (a fresh namespace of the jest dev server):
 * - the API's `/health/ready` is 503 and `POST /bookings` 503 problem+json, both naming every
 *   missing attribute and `npm run temporal:search-attributes`; that command then makes it ready;
 * - the worker process (src/worker/main.ts) is not ready, with the same message, until it runs
 *   with TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=true, which registers them.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Connection, type Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { writeWorkflowBundle } from '../../scripts/bundle-workflows';
import { createApiApp } from '../../src/configure-app';
import { uiPayloadCodec } from '../../src/main';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { missingSearchAttributesMessage } from '../../src/temporal/search-attributes.check';
import { runSearchAttributesCommand } from '../../src/temporal/search-attributes.command';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from '../../src/temporal/search-attributes';
import { temporalTestAddress, uniqueTaskQueue } from '../support/temporal-env';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { pollUntil } from '../workflows/booking.fixtures';
import { oneWayIntent } from './intent.fixture';
import { createTestKeys, type TestKeys } from './keys.fixture';
import { listenLocally, testApiConfig } from './stack';

const ALL = BOOKING_SEARCH_ATTRIBUTE_KEYS.map((key) => key.name);

/** A new namespace of the test server, without any custom search attribute. */
async function freshNamespace(connection: Connection): Promise<string> {
  const namespace = `bare-${randomUUID().slice(0, 8)}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  // Registration is asynchronous: wait until the namespace answers.
  await pollUntil(
    () =>
      connection.operatorService.listSearchAttributes({ namespace }).then(
        () => true,
        () => false,
      ),
    (ok) => ok,
    30_000,
  );
  return namespace;
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; type: string; body: any }> {
  const r = await fetch(url, init);
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.json() };
}

describe('a namespace without the booking search attributes', () => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await Connection.connect({ address: temporalTestAddress() });
  });

  afterAll(async () => {
    await connection.close();
  });

  describe('API', () => {
    let namespace: string;
    let client: Client;
    let api: NestExpressApplication;
    let apiUrl: string;
    let keys: TestKeys;

    beforeAll(async () => {
      namespace = await freshNamespace(connection);
      const env = { TEMPORAL_ADDRESS: temporalTestAddress(), TEMPORAL_NAMESPACE: namespace };
      keys = createTestKeys({ agency: { agencyId: 'AGENCY1' } });
      client = await createTemporalClient({ config: loadTemporalConfig(env) });
      const config = testApiConfig({
        ...env,
        TEMPORAL_TASK_QUEUE: uniqueTaskQueue('bare'),
        AIRLINE_BASE_URL: 'http://127.0.0.1:9',
        API_KEYS_FILE: keys.file,
      });
      api = await createApiApp({ config, temporalClient: client, codec: uiPayloadCodec() });
      apiUrl = await listenLocally(api);
    });

    afterAll(async () => {
      await api.close();
      await client.connection.close();
      keys.remove();
    });

    it('is not ready, and POST /bookings is 503 with the same message, until the command registers them', async () => {
      const message = missingSearchAttributesMessage(ALL, namespace);
      expect(message).toContain('BookingStatus, AgencyId, Route, BookingReference, Airline');
      expect(message).toContain('npm run temporal:search-attributes');

      const ready = await json(`${apiUrl}/health/ready`);
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('unavailable');
      expect(ready.body.temporal).toMatchObject({ status: 'down', error: message, missingSearchAttributes: ALL });

      const booked = await json(`${apiUrl}/bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.secret('agency')}`, 'content-type': 'application/json' },
        body: JSON.stringify(oneWayIntent()),
      });
      expect(booked.status).toBe(503);
      expect(booked.type).toContain('application/problem+json');
      expect(booked.body).toMatchObject({
        status: 503,
        code: 'SEARCH_ATTRIBUTES_MISSING',
        detail: message,
        missingSearchAttributes: ALL,
      });

      const line = await runSearchAttributesCommand({
        TEMPORAL_ADDRESS: temporalTestAddress(),
        TEMPORAL_NAMESPACE: namespace,
      });
      expect(line).toBe(`namespace ${namespace} on ${temporalTestAddress()}: registered ${ALL.join(', ')} (Keyword)`);
      const after = await pollUntil(
        () => json(`${apiUrl}/health/ready`),
        (r) => r.status !== 503,
        30_000,
      );
      // The airline of this API does not exist: ready, degraded.
      expect([after.status, after.body.status, after.body.temporal.searchAttributes]).toEqual([200, 'degraded', 'up']);
    });
  });

  describe('worker process', () => {
    const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-bundle-'));
    const bundlePath = path.join(bundleDir, 'workflow-bundle.js');

    beforeAll(async () => {
      await writeWorkflowBundle(bundlePath);
    }, 300_000);

    afterAll(async () => {
      for (const worker of workers) await worker.stop();
      fs.rmSync(bundleDir, { recursive: true, force: true });
    });

    const workers: WorkerProcess[] = [];
    async function startWorker(namespace: string, env: NodeJS.ProcessEnv = {}) {
      const worker = await startWorkerProcess(bundlePath, {
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_TASK_QUEUE: uniqueTaskQueue('bare-worker'),
        ...env,
      });
      workers.push(worker);
      return { ready: `${worker.url}/health/ready`, output: worker.output, stop: worker.stop };
    }

    it('is not ready and logs what to run; with TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=true it registers them', async () => {
      const namespace = await freshNamespace(connection);
      const message = missingSearchAttributesMessage(ALL, namespace);
      const plain = await startWorker(namespace);
      const report = await json(plain.ready);
      expect(report.status).toBe(503);
      expect(report.body.temporal).toEqual({ status: 'down', missing: ALL, error: message });
      expect(plain.output()).toContain(JSON.stringify(message).slice(1, -1));
      expect((await connection.operatorService.listSearchAttributes({ namespace })).customAttributes).toEqual({});
      await plain.stop();

      const registering = await startWorker(namespace, { TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'true' });
      expect(registering.output()).toContain(`registered search attributes ${ALL.join(', ')}`);
      const ready = await pollUntil(
        () => json(registering.ready),
        (r) => r.status === 200,
        60_000,
      );
      expect(ready.body.temporal).toEqual({ status: 'up', searchAttributes: 'up' });
    });
  });
});
