/**
 * Every airline the agency sells (docs/orchestrator.md, "Airlines"): two real airline processes
 * (`npm run airline`) in different dialects, ZZ (plain, the development credentials) and YY (SOAP
 * 1.1, its own media vendor, extension namespace, credentials and world), declared in an
 * AIRLINES_FILE that the worker and the API read as `npm run worker` / `npm run api` do. The saga
 * shops at both, chooses across them, and books, settles and cancels at the owner only.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadApiConfig } from '../../src/api/config/api.config';
import { createApiApp } from '../../src/configure-app';
import { NdcHttpClient } from '../../src/ndc-client';
import {
  EMBEDDED_AIRLINE_ERROR_CODES,
  EMBEDDED_AIRLINE_TRANSIENT_CODES,
  loadAirlineProfiles,
  type AirlineEntry,
} from '../../src/ndc-client/airline-profile';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { airlineWorker } from '../../src/worker/worker';
import { startRole, waitForHttpOk, type RoleProcess } from '../topology/processes';
import { recordHistory } from '../workflows/booking.fixtures';
import { controlledBookingWorker, type ControlledWorker } from '../support/booking-worker';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from '../support/temporal-env';
import { call, listenLocally, pollUntil, waitForBooking } from './stack';
import { oneWayIntent } from './intent.fixture';
import { createTestKeys, type TestKeys } from './keys.fixture';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Airline {
  code: string;
  url: string;
  auth: string;
  process: RoleProcess;
  client: NdcHttpClient;
}

const YY_EXTENSION_NS = 'http://www.ypsilon.example/ndc/ext/17.2';

describe('every airline the agency sells: two airline processes in two dialects', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-airlines-'));
  const airlinesFile = path.join(dir, 'airlines.json');
  const secrets = { ZZ_AIRLINE_PASSWORD: 'agency-secret', YY_AIRLINE_PASSWORD: 'yy-secret-42' };
  const airlines: Record<string, Airline> = {};
  let worker: ControlledWorker;
  let keys: TestKeys;
  let stack: { apiUrl: string; defaultAuth: string };
  let closeAll: () => Promise<void>;
  let temporal: Client;
  let taskQueue: string;

  const startAirlineProcess = async (code: string, env: Record<string, string>, user: string, password: string) => {
    const port = await freePort();
    const role = startRole(
      `airline-${code}`,
      'airline',
      {
        AIRLINE_PORT: String(port),
        AIRLINE_CODE: code,
        AIRLINE_DB_PATH: ':memory:',
        AIRLINE_METRICS_PORT: 'off',
        AIRLINE_USERNAME: user,
        AIRLINE_PASSWORD: password,
        LOG_LEVEL: 'warn',
        ...env,
      },
      dir,
    );
    const url = `http://127.0.0.1:${port}`;
    await waitForHttpOk(`airline ${code}`, `${url}/health`, role);
    return { code, url, auth: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, process: role };
  };

  /** Arms a fault at one airline's simulator (with that airline's credentials). */
  const fault = async (code: string, body: Record<string, unknown>): Promise<void> => {
    const r = await fetch(`${airlines[code]!.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: airlines[code]!.auth },
      body: JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`arming a fault at ${code}: ${r.status} ${await r.text()}`);
  };
  const clearFaults = async (): Promise<void> => {
    for (const airline of Object.values(airlines))
      await fetch(`${airline.url}/_sim/faults`, { method: 'DELETE', headers: { authorization: airline.auth } });
  };

  /** The orders an airline holds for a response id (its own GET lookup). */
  const ordersAt = async (code: string, responseId: string, agencyId: string) =>
    airlines[code]!.client.ordersByShoppingResponse(responseId, agencyId, {});

  const book = async (intent: object): Promise<string> => {
    const r = await call(stack, 'POST', '/bookings', intent);
    expect(r.status).toBe(202);
    return r.body.id as string;
  };

  beforeAll(async () => {
    const zz = await startAirlineProcess('ZZ', {}, 'agency', secrets.ZZ_AIRLINE_PASSWORD);
    const yy = await startAirlineProcess(
      'YY',
      { AIRLINE_MEDIA_VENDOR: 'ypsilon', AIRLINE_EXTENSION_NAMESPACE: YY_EXTENSION_NS },
      'acme-travel',
      secrets.YY_AIRLINE_PASSWORD,
    );
    const entries: AirlineEntry[] = [
      {
        code: 'ZZ',
        name: 'Zeta Air',
        baseUrl: zz.url,
        username: 'agency',
        passwordEnv: 'ZZ_AIRLINE_PASSWORD',
        ...embeddedCodes(),
      },
      {
        code: 'YY',
        name: 'Ypsilon',
        baseUrl: yy.url,
        username: 'acme-travel',
        passwordEnv: 'YY_AIRLINE_PASSWORD',
        mediaVendor: 'ypsilon',
        extensionNamespace: YY_EXTENSION_NS,
        binding: 'soap11',
        timeoutMs: 3000,
        settleWindowMs: 4000,
        agencyIds: { AGENCY1: 'DYAPI00123' },
        ...embeddedCodes(),
      },
    ];
    fs.writeFileSync(airlinesFile, JSON.stringify({ airlines: entries }, null, 2));
    const env = { AIRLINES_FILE: airlinesFile, ...secrets };

    // The worker as `npm run worker` builds it: one client and one airline worker per profile.
    const profiles = loadAirlineProfiles(env);
    const address = temporalTestAddress();
    const namespace = temporalTestNamespace();
    taskQueue = uniqueTaskQueue('airlines');
    for (const [profile, started] of [
      [profiles[0]!, zz],
      [profiles[1]!, yy],
    ] as const)
      airlines[profile.code] = { ...started, client: new NdcHttpClient(profile.client) };
    const connection = await NativeConnection.connect({ address });
    worker = controlledBookingWorker({
      connection,
      namespace,
      taskQueue,
      airlines: profiles.map((profile) => airlineWorker(profile, airlines[profile.code]!.client)),
      shutdownGraceMs: 1000,
    });
    await worker.start();

    // The API as `npm run api` reads its configuration: no airline secret in its environment.
    keys = createTestKeys({ agency: { agencyId: 'AGENCY1' }, ops: { agencyId: 'OPS', role: 'ops' } });
    const client = (temporal = await createTemporalClient({
      config: loadTemporalConfig({ TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace }),
    }));
    const config = {
      ...loadApiConfig({
        AIRLINES_FILE: airlinesFile,
        TEMPORAL_ADDRESS: address,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_TASK_QUEUE: taskQueue,
        API_KEYS_FILE: keys.file,
        API_LOG: 'error',
        // Batch children one at a time: the atomic batch below confirms two before one fails.
        BATCH_CONCURRENCY: '1',
      }),
      port: 0,
      host: '127.0.0.1',
    };
    const api = await createApiApp({ config, temporalClient: client });
    stack = { apiUrl: await listenLocally(api), defaultAuth: `Bearer ${keys.secret('agency')}` };
    closeAll = async () => {
      await worker.stop();
      await api.close();
      await client.connection.close();
      await connection.close();
      for (const airline of Object.values(airlines)) {
        airline.client.close();
        await airline.process.stop();
      }
      keys.remove();
    };
  }, 240_000);

  afterAll(async () => {
    await closeAll?.();
  });

  afterEach(clearFaults);

  it('GET /airlines lists both, in file order, without a credential or an address', async () => {
    const r = await call(stack, 'GET', '/airlines');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      airlines: [
        { code: 'ZZ', name: 'Zeta Air', binding: 'plain', rateLimitRps: 20 },
        { code: 'YY', name: 'Ypsilon', binding: 'soap11', rateLimitRps: 20 },
      ],
    });
    expect(r.text).not.toMatch(/secret|127\.0\.0\.1|acme-travel/);
  });

  it('shops at both, books the cheaper offer at its owner only, and shows which won and why', async () => {
    const id = await book(oneWayIntent());
    const view = await waitForBooking(stack, id, 'CONFIRMED');
    // The YY world sells ECONOMY 5 % below ZZ's (docs/airline-world.md, "Other airlines").
    expect(view.airline).toBe('YY');
    const [zzTotal, yyTotal] = ['ZZ', 'YY'].map((code) => view.airlines.find((a: any) => a.airline === code));
    expect(yyTotal).toMatchObject({ chosen: true, why: 'lowest total' });
    expect(Number(yyTotal.total.value)).toBeLessThan(Number(zzTotal.total.value));
    const shops = view.steps.filter((s: any) => s.name === 'shop');
    expect(shops.map((s: any) => s.airline).sort()).toEqual(['YY', 'ZZ']);
    for (const step of view.steps.filter((s: any) => s.name !== 'shop'))
      expect([step.name, step.airline]).toEqual([step.name, 'YY']);
    // The order exists at YY (under the AgencyID YY knows the agency by), none at ZZ.
    const responseId = view.chosenOffer.shoppingResponseId as string;
    expect((await ordersAt('YY', responseId, 'DYAPI00123'))?.rs.orders[0]?.orderId).toBe(view.order.orderId);
    expect(await ordersAt('ZZ', responseId, 'AGENCY1')).toBeUndefined();
    // Ops can find it by airline (search attribute Airline).
    const listed = await pollUntil('the booking listed with its airline', async () => {
      const r = await call(stack, 'GET', '/bookings?status=CONFIRMED');
      return r.body.bookings.find((b: any) => b.id === id && b.airline === 'YY');
    });
    expect(listed.airline).toBe('YY');
  });

  it("schedules each step on its airline's queue; the first shop one priority key below the booking's, later steps at its own", async () => {
    const id = await book(oneWayIntent());
    await waitForBooking(stack, id, 'CONFIRMED');
    const history = await temporal.workflow.getHandle(id).fetchHistory();
    const scheduled = (history.events ?? [])
      .map((event) => event.activityTaskScheduledEventAttributes)
      .filter((attributes) => attributes?.taskQueue?.name?.startsWith(taskQueue) === true)
      .map((attributes) => ({
        activity: attributes!.activityType!.name,
        queue: attributes!.taskQueue!.name!.slice(taskQueue.length),
        priorityKey: attributes!.priority?.priorityKey ?? undefined,
      }));
    // The booking was started by POST /bookings: priority key 2 (interactive).
    expect(scheduled).toEqual([
      { activity: 'shop', queue: '-airline-ZZ', priorityKey: 3 },
      { activity: 'shop', queue: '-airline-YY', priorityKey: 3 },
      ...['price', 'tokenise', 'repriceWithToken', 'createOrder', 'retrieveOrder'].map((activity) => ({
        activity,
        queue: '-airline-YY',
        priorityKey: undefined,
      })),
    ]);
  });

  it('selects by the rules across airlines: PLUS is cheaper at ZZ', async () => {
    const id = await book({ ...oneWayIntent(), selection: { priceClass: 'PLUS' } });
    const view = await waitForBooking(stack, id, 'CONFIRMED');
    expect(view.airline).toBe('ZZ');
    expect(view.chosenOffer.priceClass).toBe('PLUS');
  });

  it('shops only at the airlines the intent names; an unconfigured one is refused naming airlines[i]', async () => {
    const id = await book({ ...oneWayIntent(), airlines: ['ZZ'] });
    const view = await waitForBooking(stack, id, 'CONFIRMED');
    expect(view.airline).toBe('ZZ');
    expect(view.steps.filter((s: any) => s.name === 'shop').map((s: any) => s.airline)).toEqual(['ZZ']);
    const refused = await call(stack, 'POST', '/bookings', { ...oneWayIntent(), airlines: ['ZZ', 'QQ'] });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([
      { path: 'airlines[1]', message: 'QQ is not a configured airline (configured: ZZ, YY)' },
    ]);
  });

  it('skips an airline that fails, saying which and why in the trail (YY is sent the agency as DYAPI00123)', async () => {
    // Only requests that carry the mapped AgencyID fail: the mapping reached the airline.
    await fault('YY', { operation: 'AirShopping', mode: 'http500', count: 10, agencyId: 'DYAPI00123' });
    const id = await book(oneWayIntent());
    const view = await waitForBooking(stack, id, 'CONFIRMED');
    expect(view.airline).toBe('ZZ');
    const failed = view.steps.find((s: any) => s.name === 'shop' && s.airline === 'YY');
    expect(failed).toMatchObject({ outcome: 'failed', failure: 'AIRLINE_TRANSIENT', attempts: 3 });
    expect(failed.message).toMatch(/HTTP 500/);
    expect(view.airlines.find((a: any) => a.airline === 'YY').skipped).toMatch(/^AIRLINE_UNAVAILABLE: /);
  });

  it("fails only when no airline has a usable offer, listing each one's reason", async () => {
    const intent = { ...oneWayIntent(), selection: { priceClass: 'NOSUCH' } };
    const id = await book(intent);
    const view = await waitForBooking(stack, id, 'FAILED');
    expect(view.error.type).toBe('NO_OFFERS');
    expect(view.error.airlines.map((a: any) => [a.airline, a.type])).toEqual([
      ['ZZ', 'NO_OFFERS'],
      ['YY', 'NO_OFFERS'],
    ]);
    expect(view.error.message).toMatch(
      /^no airline has a usable offer \(shop\): ZZ: NO_OFFERS \(no outbound offer in price class NOSUCH/,
    );
  });

  it('a slow airline never holds up bookings at the other: ZZ confirms while YY still waits on its shop', async () => {
    await fault('YY', { operation: 'AirShopping', mode: 'delay', count: 5, delayMs: 60_000 });
    const slow = await book({ ...oneWayIntent(), airlines: ['YY'] });
    await pollUntil('the YY booking waiting in its shop', async () => {
      const r = await call(stack, 'GET', `/bookings/${encodeURIComponent(slow)}`);
      return r.body.currentStep === 'shop' ? true : undefined;
    });
    const fast = await book({ ...oneWayIntent(), airlines: ['ZZ'] });
    await waitForBooking(stack, fast, 'CONFIRMED');
    const stuck = await call(stack, 'GET', `/bookings/${encodeURIComponent(slow)}`);
    expect([stuck.body.status, stuck.body.currentStep]).toEqual(['RUNNING', 'shop']);
    await call(stack, 'POST', `/bookings/${encodeURIComponent(slow)}/cancel`, {});
    await waitForBooking(stack, slow, 'CANCELLED');
  });

  it('settles an order create without an answer, and cancels, at the owner only', async () => {
    // YY's first order create commits and then times out (4 s settle window at YY).
    await fault('YY', { operation: 'OrderCreate', mode: 'commit-then-timeout', count: 1, delayMs: 10_000 });
    const id = await book(oneWayIntent());
    const view = await waitForBooking(stack, id, 'CONFIRMED');
    expect(view.airline).toBe('YY');
    const lookups = view.steps.filter((s: any) => s.name === 'reconcileOrder');
    expect(lookups.length).toBeGreaterThan(0);
    for (const lookup of lookups) expect(lookup.airline).toBe('YY');
    const responseId = view.chosenOffer.shoppingResponseId as string;
    expect((await ordersAt('YY', responseId, 'DYAPI00123'))?.rs.orders).toHaveLength(1);

    const cancelled = await call(stack, 'POST', `/bookings/${encodeURIComponent(id)}/cancel`, {});
    expect(cancelled.status).toBe(202);
    const after = await waitForBooking(stack, id, 'CANCELLED');
    expect(after.steps.find((s: any) => s.name === 'cancelOrder').airline).toBe('YY');
    expect(after.cancellation.refund).toBeDefined();
  });

  it('an atomic batch across both airlines cancels each confirmed booking at its own airline when one fails', async () => {
    const intents = [
      { ...oneWayIntent(), airlines: ['ZZ'] },
      { ...oneWayIntent(), airlines: ['YY'] },
      { ...oneWayIntent(), selection: { priceClass: 'NOSUCH' } },
    ];
    const r = await call(stack, 'POST', '/batches', { atomic: true, intents });
    expect(r.status).toBe(202);
    const batch = await pollUntil(
      'the batch compensated',
      async () => {
        const v = await call(stack, 'GET', `/batches/${encodeURIComponent(r.body.id)}`);
        return v.body.done === true ? v.body : undefined;
      },
      120_000,
    );
    expect(batch.status).toBe('COMPENSATED');
    expect(batch.bookings.map((b: any) => [b.status, b.compensation])).toEqual([
      ['CANCELLED', 'DONE'],
      ['CANCELLED', 'DONE'],
      ['FAILED', undefined],
    ]);
    for (const [index, code, agencyId] of [
      [0, 'ZZ', 'AGENCY1'],
      [1, 'YY', 'DYAPI00123'],
    ] as const) {
      const view = (await call(stack, 'GET', `/bookings/${encodeURIComponent(batch.bookings[index].id)}`)).body;
      expect([index, view.airline, view.steps.find((s: any) => s.name === 'cancelOrder')?.airline]).toEqual([
        index,
        code,
        code,
      ]);
      const held = await ordersAt(code, view.chosenOffer.shoppingResponseId, agencyId);
      expect(held?.rs.orders[0]?.statusCode).not.toBe('OK');
    }
  });

  it('shops again at both airlines when the chosen one sold out at order time', async () => {
    // YY answers its first order create with 711 (sold out): the booking shops again at ZZ and YY.
    await fault('YY', { operation: 'OrderCreate', mode: 'ndc-error', errorCode: '711', count: 1 });
    const id = await book(oneWayIntent());
    const view = await waitForBooking(stack, id, 'CONFIRMED');
    const shops = view.steps.filter((s: any) => s.name === 'shop');
    expect(shops.map((s: any) => [s.airline, s.reason])).toEqual([
      ['ZZ', undefined],
      ['YY', undefined],
      ['ZZ', 'reshop 1/2 after NO_SEATS (711)'],
      ['YY', 'reshop 1/2 after NO_SEATS (711)'],
    ]);
    expect(view.steps.find((s: any) => s.name === 'createOrder')).toMatchObject({ airline: 'YY', failure: 'NO_SEATS' });
    expect(view.airline).toBe('YY');
    // Kept for replay.e2e-spec.ts: a booking routed by airline (RECORD_HISTORIES=1 rewrites it).
    await recordHistory('two-airlines-reshop', id);
  });
});

/** The embedded airline's error codes, as `npm start` writes them into the airlines file. */
function embeddedCodes(): Pick<AirlineEntry, 'errorCodes' | 'transientCodes'> {
  return { errorCodes: { ...EMBEDDED_AIRLINE_ERROR_CODES }, transientCodes: [...EMBEDDED_AIRLINE_TRANSIENT_CODES] };
}
