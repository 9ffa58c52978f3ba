/**
 * `POST /airlines/{code}/notifications` through the real API, the real worker and its workflows on
 * the Temporal dev server (the airline's activities mocked): an OrderChangeNotif pushed in the
 * plain or SOAP binding reaches the booking holding the order and puts it in ACTION_REQUIRED;
 * the same one again is a duplicate; a forged, malformed, oversized one or one for an order of no
 * booking changes nothing; every outcome is counted. The same flows with the embedded airline
 * pushing are in test/api/airline-changes.e2e-spec.ts.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { OrderSummary } from '../../activities/booking.activities.types';
import { summaryOfOrder } from '../../src/booking/order-from-ndc';
import { createApiApp } from '../../src/configure-app';
import { uiPayloadCodec } from '../../src/main';
import { encodeOrderChangeNotif, wrapInBinding, type OrderChangeNotif } from '../../src/ndc';
import { retimeNotif } from '../../src/ndc/fixtures/order-change-notif.fixtures';
import { createApiMetrics, type ApiMetrics } from '../../src/api/observability/api.metrics';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { expectValidXsd } from '../support/xsd';
import { controlledBookingWorker, type ControlledWorker } from '../support/booking-worker';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from '../support/temporal-env';
import {
  attempt,
  delegatingActivities,
  happyMocks,
  ORDER,
  quietRuntime,
  type ActivityMocks,
} from '../workflows/booking.fixtures';
import { addDays, oneWayIntent } from './intent.fixture';
import { createTestKeys, type TestKeys } from './keys.fixture';
import { call, listenLocally, pollUntil, testApiConfig, waitForBooking } from './stack';

jest.setTimeout(120_000);

const NOTIFY_PASSWORD = randomBytes(18).toString('base64url');
const AIRLINE_AUTH = `Basic ${Buffer.from(`ZZ:${NOTIFY_PASSWORD}`).toString('base64')}`;
const DEPARTURE = `${addDays(new Date(), 30)}T08:30`;

describe('airline notifications through the API, the worker and its workflows (airline activities mocked)', () => {
  let mocks: ActivityMocks;
  let connection: NativeConnection;
  let worker: ControlledWorker;
  let client: Client;
  let api: NestExpressApplication;
  let keys: TestKeys;
  let metrics: ApiMetrics;
  let dir: string;
  let stack: { apiUrl: string; defaultAuth: string };
  let order: OrderSummary;

  beforeAll(async () => {
    quietRuntime();
    const address = temporalTestAddress();
    const namespace = temporalTestNamespace();
    const taskQueue = uniqueTaskQueue('notifications');
    connection = await NativeConnection.connect({ address });
    worker = controlledBookingWorker({
      connection,
      namespace,
      taskQueue,
      airlines: [{ code: 'ZZ', rateLimitRps: 200, activities: delegatingActivities(() => mocks) }],
      shutdownGraceMs: 1000,
    });
    await worker.start();
    const env = { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace };
    client = await createTemporalClient({ config: loadTemporalConfig(env) });
    keys = createTestKeys({ agency: { agencyId: 'AGENCY1' } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notifications-'));
    const airlinesFile = path.join(dir, 'airlines.json');
    fs.writeFileSync(
      airlinesFile,
      JSON.stringify({
        airlines: [
          {
            code: 'ZZ',
            name: 'Zeta Air',
            baseUrl: 'http://127.0.0.1:9',
            username: 'agency',
            passwordEnv: 'ZZ_AIRLINE_PASSWORD',
            pushesNotifications: true,
            notifications: { passwordEnv: 'ZZ_NOTIFY_PASSWORD' },
          },
        ],
      }),
    );
    metrics = createApiMetrics();
    api = await createApiApp({
      config: testApiConfig({
        ...env,
        TEMPORAL_TASK_QUEUE: taskQueue,
        AIRLINES_FILE: airlinesFile,
        ZZ_NOTIFY_PASSWORD: NOTIFY_PASSWORD,
        API_KEYS_FILE: keys.file,
        API_LOG: 'error',
      }),
      temporalClient: client,
      codec: uiPayloadCodec(),
      metrics,
    });
    stack = { apiUrl: await listenLocally(api), defaultAuth: `Bearer ${keys.secret('agency')}` };
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await client?.connection.close();
    await connection?.close();
    keys?.remove();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    // Each booking its own order (the namespace is shared with other suites).
    const reference = randomBytes(4).toString('hex').toUpperCase();
    order = {
      ...ORDER,
      orderId: `ORDER-${reference}`,
      bookingReference: reference,
      flights: [{ segmentKey: 'SEG1', flight: 'ZZ1234', origin: 'LGW', destination: 'OSL', departure: DEPARTURE }],
      payment: { status: 'paid' },
    };
    mocks = happyMocks();
    mocks.createOrder.mockImplementation(async () => ({ order, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({ order, orderViewXml: '<OrderViewRS/>', attempt: attempt() }));
  });

  /** A confirmed booking, once visibility finds it by its reference (as the endpoint does); its id. */
  async function confirmed(key: string): Promise<string> {
    const accepted = await call(stack, 'POST', '/bookings', oneWayIntent(), { 'idempotency-key': key });
    expect(accepted.status).toBe(202);
    await waitForBooking(stack, accepted.body.id, 'CONFIRMED');
    const query = `Airline = 'ZZ' AND BookingReference = '${order.bookingReference}'`;
    await pollUntil('the booking in visibility', async () =>
      (await client.workflow.count({ query } as never)).count > 0 ? true : undefined,
    );
    return accepted.body.id;
  }

  /** The fixture's retime, about this test's order. */
  function notifOf(over: Partial<OrderChangeNotif> = {}): OrderChangeNotif {
    return {
      ...retimeNotif,
      order: {
        ...retimeNotif.order,
        orderId: order.orderId,
        owner: 'ZZ',
        bookingReferences: [{ id: order.bookingReference, airlineId: 'ZZ' }],
      },
      ...over,
    };
  }

  async function push(body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${stack.apiUrl}/airlines/ZZ/notifications`, {
      method: 'POST',
      headers: { authorization: AIRLINE_AUTH, 'content-type': 'application/xml', ...headers },
      body,
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  const counted = async (outcome: string) =>
    (await metrics.airlineNotifications.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

  it('hands a pushed notification to its booking once; a repeat is acknowledged as a duplicate', async () => {
    const id = await confirmed(`ntf-${order.bookingReference}`);
    const xml = encodeOrderChangeNotif(notifOf());
    const first = await push(xml);
    expect([first.status, JSON.parse(first.text)]).toEqual([200, { outcome: 'delivered' }]);
    const view = await waitForBooking(stack, id, 'ACTION_REQUIRED');
    expect(view.airlineChange).toMatchObject({
      detectedBy: 'notification',
      reason: 'XS101 on 2027-03-10 departs 11:25 instead of 10:40 (+45 min)',
      before: order.flights,
      actions: ['accept', 'rebook', 'cancel'],
    });
    // The agency accepts: OrderChange accepting the changed order, then CONFIRMED on the new flights.
    const changed = summaryOfOrder(notifOf().order, notifOf().dataLists, 'GBP');
    mocks.changeOrder.mockImplementation(async () => ({
      order: changed,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    const path = `/bookings/${encodeURIComponent(id)}/airline-change`;
    const badAnswer = await call(stack, 'POST', path, { action: 'rebook' });
    expect([badAnswer.status, badAnswer.body.fields]).toEqual([
      400,
      [{ path: 'offerId', message: 'is needed to rebook: an offer of change-offers' }],
    ]);
    const accepted = await call(stack, 'POST', path, { action: 'accept' }, { 'idempotency-key': 'acc-1' });
    expect([accepted.status, accepted.body.status, accepted.body.flights]).toEqual([200, 'CONFIRMED', changed.flights]);
    expect(accepted.body.airlineChange.action).toEqual({ taken: 'accept', by: 'agency', at: expect.any(String) });
    expect(mocks.changeOrder.mock.calls[0]![0].change).toMatchObject({ kind: 'acceptAirlineChange' });
    // The same notification again (a lost acknowledgement), in a SOAP 1.1 envelope this time.
    const again = await push(wrapInBinding(xml, 'soap11'), {
      'content-type': 'text/xml',
      soapaction: '"OrderChangeNotif"',
    });
    expect([again.status, JSON.parse(again.text)]).toEqual([200, { outcome: 'duplicate' }]);
    const history = await client.workflow.getHandle(id).fetchHistory();
    const signals = history.events!.filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'airlineChange',
    );
    expect(signals).toHaveLength(1);
    expect(await counted('duplicate')).toBeGreaterThanOrEqual(1);
  });

  it('acknowledges a notification for an order of no booking here, changing nothing', async () => {
    const unknown = notifOf();
    unknown.order = { ...unknown.order, orderId: 'ORDER-NONE', bookingReferences: [{ id: 'NOSUCH', airlineId: 'ZZ' }] };
    const res = await push(encodeOrderChangeNotif(unknown));
    expect([res.status, JSON.parse(res.text)]).toEqual([200, { outcome: 'unknown-order' }]);
    expect(await counted('unknown-order')).toBeGreaterThanOrEqual(1);
  });

  it('refuses a forged, malformed or oversized notification with an NDC error, before reading a forged body', async () => {
    const id = await confirmed(`ntf-bad-${order.bookingReference}`);
    const refusedBefore = await counted('refused');
    const forged = await push(encodeOrderChangeNotif(notifOf()), {
      authorization: `Basic ${Buffer.from('ZZ:guess').toString('base64')}`,
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(forged.text).toContain('<Error ShortText="UNAUTHORIZED" Code="401">missing or wrong credentials</Error>');
    expectValidXsd(forged.text, 'OrderViewRS');
    // A forged push is answered without its body: this one never ends.
    const endless = new AbortController();
    const unread = await fetch(`${stack.apiUrl}/airlines/ZZ/notifications`, {
      method: 'POST',
      headers: { authorization: 'Basic Wlo6Z3Vlc3M=', 'content-type': 'application/xml' },
      body: new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('<OrderChangeNotif')) }),
      duplex: 'half',
      signal: endless.signal,
    } as RequestInit);
    expect(unread.status).toBe(401);
    endless.abort();
    const broken = encodeOrderChangeNotif(notifOf()).replace(/<Query>[\s\S]*<\/Query>/, '<Query/>');
    const malformed = await push(broken);
    expect(malformed.status).toBe(400);
    expect(malformed.text).toMatch(/<Error ShortText="INVALID_NOTIFICATION" Code="400">[^<]*\/OrderChangeNotif\/Query/);
    expectValidXsd(malformed.text, 'OrderViewRS');
    const huge = await push(`<OrderChangeNotif>${'x'.repeat(1024 * 1024)}</OrderChangeNotif>`);
    expect(huge.status).toBe(413);
    const noSuchRoute = await fetch(`${stack.apiUrl}/airlines/YY/notifications`, { method: 'POST', body: '<x/>' });
    expect(noSuchRoute.status).toBe(404);
    expect(await counted('refused')).toBe(refusedBefore + 4);
    expect((await call(stack, 'GET', `/bookings/${encodeURIComponent(id)}`)).body.status).toBe('CONFIRMED');
  });
});
