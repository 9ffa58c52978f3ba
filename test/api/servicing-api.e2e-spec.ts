/**
 * The servicing routes through the real API, the real worker and its workflows on the Temporal dev
 * server, with the airline's activities mocked (test/workflows/booking.fixtures.ts): what the
 * HTTP answers are when the booking's own updates refuse, run long or finish, and the list and
 * lookups of a booking that has continued as new. The same flows against the real airline (its
 * servicing messages) are in test/workflows/saga-servicing.e2e-spec.ts.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { ApplicationFailure } from '@temporalio/common';
import type { OrderSummary } from '../../activities/booking.activities.types';
import { BOOKING_WORKFLOW } from '../../src/booking/booking.model';
import type { ChangeOfferFound } from '../../src/booking/servicing.model';
import { createApiApp } from '../../src/configure-app';
import { uiPayloadCodec } from '../../src/main';
import { createTemporalClient, loadTemporalConfig } from '../../src/temporal';
import { controlledBookingWorker, type ControlledWorker } from '../support/booking-worker';
import { temporalTestAddress, temporalTestNamespace, uniqueTaskQueue } from '../support/temporal-env';
import {
  activityGate,
  attempt,
  delegatingActivities,
  happyMocks,
  ORDER,
  quietRuntime,
  type ActivityMocks,
} from '../workflows/booking.fixtures';
import { addDays, CREDIT_CARD, oneWayIntent } from './intent.fixture';
import { createTestKeys, type TestKeys } from './keys.fixture';
import { call, listenLocally, pollUntil, testApiConfig, waitForBooking } from './stack';

jest.setTimeout(120_000);

const GBP = (value: string) => ({ value, currency: 'GBP' });
const NOW = new Date();
const DEPARTURE = `${addDays(NOW, 30)}T08:30`;
const FLIGHT = { segmentKey: 'SEG1', flight: 'ZZ1234', origin: 'LGW', destination: 'OSL', departure: DEPARTURE };
const ORDER_NOW: OrderSummary = {
  ...ORDER,
  flights: [FLIGHT],
  passengerIds: ['PAX__ADT01', 'PAX__ADT02'],
  itemCount: 2,
  payment: { status: 'paid' },
};
const OFFER: ChangeOfferFound = {
  id: 'RESHOP-OFFER-1',
  owner: 'ZZ',
  responseId: 'RESHOP-1',
  offerItems: [{ offerItemId: 'RESHOP-OFFER-1-1', passengerRefs: ['PAX__ADT01'] }],
  journey: { departureDate: addDays(NOW, 32) },
  flights: [{ ...FLIGHT, segmentKey: 'SEG9', departure: `${addDays(NOW, 32)}T08:30` }],
  priceClass: 'ECONOMY',
  total: GBP('120.00'),
  difference: GBP('16.98'),
  penalty: GBP('0.00'),
  expiresAt: new Date(NOW.getTime() + 3_600_000).toISOString(),
};
const PUBLIC_OFFER = (({ owner: _owner, responseId: _responseId, offerItems: _offerItems, ...rest }) => rest)(OFFER);

/** Two adults travelling together (one can be removed). */
function twoAdults(key: string) {
  const intent = oneWayIntent();
  intent.passengers.push({ ...intent.passengers[0]!, givenName: 'Charles', surname: 'Babbage' });
  return { intent, key };
}

describe('servicing through the API, the worker and its workflows (airline activities mocked)', () => {
  let mocks: ActivityMocks;
  let connection: NativeConnection;
  let worker: ControlledWorker;
  let client: Client;
  let api: NestExpressApplication;
  let keys: TestKeys;
  let stack: { apiUrl: string; defaultAuth: string };
  let taskQueue: string;

  beforeAll(async () => {
    quietRuntime();
    const address = temporalTestAddress();
    const namespace = temporalTestNamespace();
    taskQueue = uniqueTaskQueue('servicing-api');
    connection = await NativeConnection.connect({ address });
    const activities = delegatingActivities(() => mocks);
    worker = controlledBookingWorker({
      connection,
      namespace,
      taskQueue,
      airlines: [{ code: 'ZZ', rateLimitRps: 200, activities }],
      shutdownGraceMs: 1000,
    });
    await worker.start();
    const env = { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace };
    client = await createTemporalClient({ config: loadTemporalConfig(env) });
    keys = createTestKeys({ agency: { agencyId: 'AGENCY1' } });
    api = await createApiApp({
      config: testApiConfig({
        ...env,
        TEMPORAL_TASK_QUEUE: taskQueue,
        AIRLINE_BASE_URL: 'http://127.0.0.1:9',
        API_KEYS_FILE: keys.file,
        API_QUERY_TIMEOUT_MS: '3000',
        API_LOG: 'error',
      }),
      temporalClient: client,
      codec: uiPayloadCodec(),
    });
    stack = { apiUrl: await listenLocally(api), defaultAuth: `Bearer ${keys.secret('agency')}` };
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await client?.connection.close();
    await connection?.close();
    keys?.remove();
  });

  beforeEach(() => {
    mocks = happyMocks();
    mocks.createOrder.mockImplementation(async () => ({ order: ORDER_NOW, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: ORDER_NOW,
      orderViewXml: '<OrderViewRS>first</OrderViewRS>',
      attempt: attempt(),
    }));
    mocks.reshopChange.mockImplementation(async () => ({ offers: [OFFER], attempt: attempt() }));
  });

  /** A booking through `POST /bookings`, CONFIRMED; its path. */
  async function confirmed(key: string, intent: object = oneWayIntent()): Promise<string> {
    const accepted = await call(stack, 'POST', '/bookings', intent, { 'idempotency-key': key });
    expect(accepted.status).toBe(202);
    await waitForBooking(stack, accepted.body.id, 'CONFIRMED');
    return `/bookings/${encodeURIComponent(accepted.body.id)}`;
  }

  it('a booking stays serviceable: change offers, refused changes, a change done once for a key sent twice', async () => {
    const path = await confirmed('svc-change');
    const view = await call(stack, 'GET', path);
    expect([view.body.flights, view.body.serviceableUntil]).toEqual([
      [FLIGHT],
      new Date(Date.parse(`${DEPARTURE}:00Z`) + 12 * 3_600_000).toISOString(),
    ]);
    const offers = await call(stack, 'POST', `${path}/change-offers`, { journey: OFFER.journey });
    expect([offers.status, offers.body]).toEqual([200, { offers: [PUBLIC_OFFER] }]);
    const refusals = [
      [{ offerId: 'NOPE' }, 404, 'OFFER_UNKNOWN'],
      [{ offerId: OFFER.id, maxDifference: '10.00' }, 409, 'DIFFERENCE_ABOVE_MAX'],
      [{ offerId: OFFER.id }, 422, 'CARD_REQUIRED'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const res = await call(stack, 'POST', `${path}/changes`, body);
      expect([res.status, res.body.code]).toEqual([status, code]);
    }
    const changed: OrderSummary = { ...ORDER_NOW, flights: OFFER.flights, total: OFFER.total };
    mocks.changeOrder.mockImplementation(async () => ({
      order: changed,
      orderViewXml: '<OrderViewRS>changed</OrderViewRS>',
      attempt: attempt(),
    }));
    const body = { offerId: OFFER.id, payment: { card: oneWayIntent().payment.card } };
    const first = await call(stack, 'POST', `${path}/changes`, body, { 'idempotency-key': 'chg-1' });
    const again = await call(stack, 'POST', `${path}/changes`, body, { 'idempotency-key': 'chg-1' });
    expect([first.status, first.body.status, first.body.flights]).toEqual([200, 'CONFIRMED', OFFER.flights]);
    expect(first.body.changes).toEqual([
      {
        at: expect.any(String),
        kind: 'trip',
        from: [FLIGHT],
        to: OFFER.flights,
        // What the card was charged: the offer's 16.98 plus the profile's 2 % servicing card fee.
        difference: GBP('17.32'),
        penalty: OFFER.penalty,
        total: OFFER.total,
      },
    ]);
    expect(mocks.changeOrder.mock.calls[0]![0].change).toMatchObject({ payment: { amount: GBP('17.32') } });
    expect([again.status, again.body.changes]).toEqual([200, first.body.changes]);
    expect(mocks.changeOrder).toHaveBeenCalledTimes(1);
    expect(first.text).not.toContain(CREDIT_CARD);
    const order = await call(stack, 'GET', `${path}/order`);
    expect([order.status, order.text]).toEqual([200, '<OrderViewRS>changed</OrderViewRS>']);
    await call(stack, 'POST', `${path}/cancel`);
  });

  it('BOOKING_BUSY while an action runs; a change still running at the query timeout is 202, then its outcome for the same key', async () => {
    const path = await confirmed('svc-busy');
    const reading = activityGate();
    mocks.reshopChange.mockImplementationOnce(async () => {
      await reading.pass();
      return { offers: [OFFER], attempt: attempt() };
    });
    const offers = call(stack, 'POST', `${path}/change-offers`, { journey: OFFER.journey });
    await reading.reached();
    const busy = await call(stack, 'POST', `${path}/cancel-quote`, {});
    expect([busy.status, busy.body.code, busy.body.detail]).toEqual([
      409,
      'BOOKING_BUSY',
      'another servicing action of this booking is running',
    ]);
    reading.release();
    expect((await offers).status).toBe(200);

    const changing = activityGate();
    mocks.changeOrder.mockImplementationOnce(async () => {
      await changing.pass();
      return { order: { ...ORDER_NOW, flights: OFFER.flights }, attempt: attempt() };
    });
    const body = { offerId: OFFER.id, payment: { card: oneWayIntent().payment.card } };
    const running = await call(stack, 'POST', `${path}/changes`, body, { 'idempotency-key': 'slow-1' });
    expect([
      running.status,
      running.headers.get('location'),
      running.body.status,
      running.body.servicing?.action,
    ]).toEqual([202, path, 'CHANGING', 'changeTrip']);
    changing.release();
    const outcome = await call(stack, 'POST', `${path}/changes`, body, { 'idempotency-key': 'slow-1' });
    expect([outcome.status, outcome.body.status, outcome.body.flights]).toEqual([200, 'CONFIRMED', OFFER.flights]);
    expect(mocks.changeOrder).toHaveBeenCalledTimes(1);
    await call(stack, 'POST', `${path}/cancel`);
  });

  it('refund quote, then a traveller removed with the refund in the answer, then the whole booking cancelled: it takes no more requests', async () => {
    const { intent, key } = twoAdults('svc-remove');
    const path = await confirmed(key, intent);
    mocks.quoteRefund.mockImplementation(async (input) => ({
      refund: GBP('51.51'),
      penalty: GBP('0.00'),
      passengers: input.passengers ?? [0, 1],
      attempt: attempt(),
    }));
    const quote = await call(stack, 'POST', `${path}/cancel-quote`, { passengers: [1] });
    expect([quote.status, quote.body]).toEqual([200, { refund: GBP('51.51'), penalty: GBP('0.00'), passengers: [1] }]);
    const alone = await call(stack, 'POST', `${path}/cancel`, { passengers: [0, 1] });
    expect([alone.status, alone.body.code, alone.body.fields]).toEqual([
      422,
      'INVALID_SERVICING_REQUEST',
      [{ path: 'passengers', message: 'that is everyone; cancel the booking instead' }],
    ]);
    mocks.changeOrder.mockImplementation(async () => ({
      order: { ...ORDER_NOW, passengerIds: ['PAX__ADT01'], total: GBP('51.51'), refund: GBP('51.51') },
      attempt: attempt(),
    }));
    const removed = await call(stack, 'POST', `${path}/cancel`, { passengers: [1] });
    expect([removed.status, removed.body.status, removed.body.refund]).toEqual([200, 'CONFIRMED', GBP('51.51')]);
    expect(mocks.changeOrder.mock.calls[0]![0].change).toEqual({ kind: 'removePassengers', passengers: [1] });
    const cancelled = await call(stack, 'POST', `${path}/cancel`);
    expect([cancelled.status, cancelled.body.status, cancelled.body.signal]).toEqual([
      202,
      'CANCELLED',
      'cancelBooking',
    ]);
    await pollUntil('the cancelled booking to close', async () => {
      const d = await client.workflow.getHandle(decodeURIComponent(path.slice('/bookings/'.length))).describe();
      return d.status.name === 'COMPLETED' ? true : undefined;
    });
    const late = await call(stack, 'POST', `${path}/change-offers`, { journey: OFFER.journey });
    expect([late.status, late.body.code, late.body.detail]).toEqual([
      409,
      'NOT_SERVICEABLE',
      'The booking has ended (CANCELLED): it takes no servicing requests',
    ]);
  });

  it('a FAILED booking takes no servicing request: 409 NOT_SERVICEABLE, never 500', async () => {
    mocks.shop.mockImplementation(async () => {
      throw ApplicationFailure.nonRetryable('710: no offers', 'NO_OFFERS', { airlineCode: '710', attempt: 1 });
    });
    const accepted = await call(stack, 'POST', '/bookings', oneWayIntent(), { 'idempotency-key': 'svc-failed' });
    await waitForBooking(stack, accepted.body.id, 'FAILED');
    const path = `/bookings/${encodeURIComponent(accepted.body.id)}`;
    for (const [method, route, body] of [
      ['POST', 'change-offers', { journey: OFFER.journey }],
      ['GET', 'services', undefined],
      ['POST', 'payment', { card: oneWayIntent().payment.card }],
    ] as const) {
      const res = await call(stack, method, `${path}/${route}`, body);
      expect([route, res.status, res.body.code]).toEqual([route, 409, 'NOT_SERVICEABLE']);
    }
  });

  it('a hold: HELD with its payment due, then paid: CONFIRMED', async () => {
    const dueBy = new Date(NOW.getTime() + 86_400_000).toISOString();
    const held: OrderSummary = { ...ORDER_NOW, payment: { status: 'due', dueBy } };
    mocks.createOrder.mockImplementation(async () => ({ order: held, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: held,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    mocks.repriceOrder.mockImplementation(async () => ({ total: ORDER.total, unchanged: true, attempt: attempt() }));
    mocks.changeOrder.mockImplementation(async () => ({ order: ORDER_NOW, attempt: attempt() }));
    const { card, ...hold } = { ...oneWayIntent().payment, hold: true as const };
    const accepted = await call(stack, 'POST', '/bookings', { ...oneWayIntent(), payment: hold });
    const view = await waitForBooking(stack, accepted.body.id, 'HELD');
    expect(view.payment).toEqual({ status: 'due', amount: ORDER.total, dueBy });
    const path = `/bookings/${encodeURIComponent(accepted.body.id)}`;
    const paid = await call(stack, 'POST', `${path}/payment`, { card });
    expect([paid.status, paid.body.status, paid.body.payment.status]).toEqual([200, 'CONFIRMED', 'paid']);
    expect(mocks.tokenise.mock.calls.map((c) => c[0].card.number)).toEqual([CREDIT_CARD]);
    await call(stack, 'POST', `${path}/cancel`);
  });

  it('a hold repriced higher waits for approval showing the price now as the action amount, then pays it', async () => {
    const dueBy = new Date(NOW.getTime() + 86_400_000).toISOString();
    const held: OrderSummary = { ...ORDER_NOW, payment: { status: 'due', dueBy } };
    mocks.createOrder.mockImplementation(async () => ({ order: held, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: held,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    mocks.repriceOrder.mockImplementation(async () => ({
      total: GBP('120.00'),
      unchanged: false,
      responseId: 'REPRICE-1',
      attempt: attempt(),
    }));
    mocks.changeOrder.mockImplementation(async () => ({ order: ORDER_NOW, attempt: attempt() }));
    mocks.tokenise.mockImplementation(async () => ({ tokenId: 'TOKEN-debit', funding: 'debit', attempt: attempt() }));
    const { card, ...hold } = { ...oneWayIntent().payment, hold: true as const };
    const accepted = await call(stack, 'POST', '/bookings', { ...oneWayIntent(), payment: hold });
    await waitForBooking(stack, accepted.body.id, 'HELD');
    const path = `/bookings/${encodeURIComponent(accepted.body.id)}`;
    const paying = call(stack, 'POST', `${path}/payment`, { card }, { 'idempotency-key': 'repriced' });
    const waiting = await pollUntil('the price guard', async () => {
      const view = await call(stack, 'GET', path);
      return view.body.status === 'AWAITING_APPROVAL' ? view.body : undefined;
    });
    expect(waiting.servicing).toEqual({ action: 'pay', since: expect.any(String), amount: GBP('120.00') });
    expect((await call(stack, 'POST', `${path}/approve-price`)).status).toBe(202);
    let paid = await paying;
    if (paid.status === 202)
      paid = await call(stack, 'POST', `${path}/payment`, { card }, { 'idempotency-key': 'repriced' });
    expect([paid.status, paid.body.status]).toEqual([200, 'CONFIRMED']);
    expect(mocks.changeOrder.mock.calls[0]![0].change).toEqual({
      kind: 'pay',
      tokenId: 'TOKEN-debit',
      amount: GBP('120.00'),
      acceptRepricedOrder: 'REPRICE-1',
    });
    await call(stack, 'POST', `${path}/cancel`);
  });

  it("a hold paid with the airline's servicing card fee on top (a payment without it was refused, 742); a debit token pays none", async () => {
    const dueBy = new Date(NOW.getTime() + 86_400_000).toISOString();
    const held: OrderSummary = { ...ORDER_NOW, payment: { status: 'due', dueBy } };
    mocks.createOrder.mockImplementation(async () => ({ order: held, attempt: attempt() }));
    mocks.retrieveOrder.mockImplementation(async () => ({
      order: held,
      orderViewXml: '<OrderViewRS/>',
      attempt: attempt(),
    }));
    mocks.repriceOrder.mockImplementation(async () => ({ total: ORDER.total, unchanged: true, attempt: attempt() }));
    mocks.changeOrder.mockImplementation(async () => ({ order: ORDER_NOW, attempt: attempt() }));
    const { card, ...hold } = { ...oneWayIntent().payment, hold: true as const };
    const answers = [];
    for (const funding of ['credit', 'debit']) {
      mocks.tokenise.mockImplementation(async () => ({ tokenId: `TOKEN-${funding}`, funding, attempt: attempt() }));
      const accepted = await call(stack, 'POST', '/bookings', { ...oneWayIntent(), payment: hold });
      await waitForBooking(stack, accepted.body.id, 'HELD');
      const path = `/bookings/${encodeURIComponent(accepted.body.id)}`;
      const paid = await call(stack, 'POST', `${path}/payment`, { card });
      answers.push([paid.status, paid.body.status, paid.body.changes?.[0]?.difference]);
      await call(stack, 'POST', `${path}/cancel`);
    }
    // The API's embedded airline profile: servicingCardFeePercent 2; ORDER.total 103.02 GBP, 2 % is 2.06.
    expect(mocks.changeOrder.mock.calls.map((c) => c[0].change)).toEqual([
      { kind: 'pay', tokenId: 'TOKEN-credit', amount: GBP('105.08') },
      { kind: 'pay', tokenId: 'TOKEN-debit', amount: ORDER.total },
    ]);
    expect(answers).toEqual([
      [200, 'CONFIRMED', GBP('105.08')],
      [200, 'CONFIRMED', ORDER.total],
    ]);
  });

  it('lists and reads a booking once after it continued as new, from its latest run', async () => {
    const id = `booking:AGENCY1:svc-can-${taskQueue}`;
    const handle = await client.workflow.start(BOOKING_WORKFLOW, {
      workflowId: id,
      taskQueue,
      args: [oneWayIntent(), { servicing: { maxHistoryEvents: 100 }, airlines: [{ code: 'ZZ' }] }],
      searchAttributes: { AgencyId: ['AGENCY1'] },
    });
    const path = `/bookings/${encodeURIComponent(id)}`;
    await waitForBooking(stack, id, 'CONFIRMED');
    for (let i = 0; i < 40 && (await handle.describe()).runId === handle.firstExecutionRunId; i += 1) {
      expect((await call(stack, 'POST', `${path}/change-offers`, { journey: OFFER.journey })).status).toBe(200);
    }
    expect((await handle.describe()).runId).not.toBe(handle.firstExecutionRunId);
    const listed = await pollUntil('visibility of the continued booking', async () => {
      const list = await call(stack, 'GET', '/bookings?status=CONFIRMED&limit=1000');
      const mine = list.body.bookings.filter((b: { id: string }) => b.id === id);
      return mine.length === 1 && mine[0].workflowStatus === 'RUNNING' ? mine : undefined;
    });
    expect(listed).toEqual([
      expect.objectContaining({ id, status: 'CONFIRMED', agencyId: 'AGENCY1', workflowStatus: 'RUNNING' }),
    ]);
    const view = await call(stack, 'GET', path);
    expect([view.body.status, view.body.steps.map((s: { name: string }) => s.name)]).toEqual([
      'CONFIRMED',
      expect.arrayContaining(['createOrder', 'reshop']),
    ]);
    expect((await call(stack, 'POST', `${path}/change-offers`, { journey: OFFER.journey })).status).toBe(200);
    await handle.terminate();
  });
});
