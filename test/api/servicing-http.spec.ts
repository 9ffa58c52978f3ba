/**
 * The servicing routes of the API (docs/api.md, "After the booking") over a fake Temporal client:
 * validation of every body, the update each sends and with which arguments and id, how the
 * booking's refusals and the actions' failures are answered, 202 for an action still running,
 * agency isolation, and card data in no answer and no log line. The workflow side runs in
 * test/api/servicing-api.e2e-spec.ts.
 */
import { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import request from 'supertest';
import { loadApiConfig } from '../../src/api/config/api.config';
import type { BookingState } from '../../src/booking/booking.model';
import type { ChangeOffer } from '../../src/booking/servicing.model';
import { createLogger } from '../../src/common/observability';
import { createApiApp } from '../../src/configure-app';
import { FAKE_START, fakeClient, fakeCodec, pending, type FakeClient, type FakeRun } from './fake-temporal.fixture';
import { CREDIT_CARD, cvvLeak, oneWayIntent, TEST_CVV } from './intent.fixture';
import { createTestKeys, type TestKeys } from './keys.fixture';
import { problemBody } from './problem.fixture';

const NOW = FAKE_START;
const ID = 'booking:AGENCY1:k1';
const PATH = `/bookings/${ID}`;
const GBP = (value: string) => ({ value, currency: 'GBP' });
const CARD = oneWayIntent({ now: NOW }).payment.card;
const ORDER = { orderId: 'ZZ-ORD-1', bookingReference: 'ABC123', total: GBP('129.00'), status: 'OK' };
const CONFIRMED: BookingState = { status: 'CONFIRMED', steps: [], order: ORDER };
const OFFER: ChangeOffer = {
  id: 'RO-1',
  journey: { departureDate: '2026-12-23' },
  flights: [{ segmentKey: 'S9', flight: 'ZZ1235', origin: 'LGW', destination: 'OSL', departure: '2026-12-23T08:30' }],
  priceClass: 'ECONOMY',
  total: GBP('145.98'),
  difference: GBP('16.98'),
  penalty: GBP('0.00'),
  expiresAt: '2026-11-21T10:15:00.000Z',
};

/** An update refused by the booking's validator (or failed by its action) with ApplicationFailure `type`. */
const refused = (type: string, message: string) => async () => {
  throw new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.nonRetryable(message, type));
};

describe('servicing routes over a fake Temporal client', () => {
  let app: NestExpressApplication;
  let client: FakeClient;
  let keys: TestKeys;
  let run: FakeRun;
  const lines: string[] = [];

  async function start(env: Record<string, string> = {}): Promise<void> {
    client = fakeClient();
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    app = await createApiApp({
      config: {
        ...loadApiConfig({ AIRLINE_BASE_URL: 'http://127.0.0.1:9', API_KEYS_FILE: keys.file, ...env }),
        port: 0,
      },
      temporalClient: client as never,
      codec: fakeCodec,
      clock: () => NOW,
      logger: createLogger({ service: 'api', level: 'trace', destination }),
    });
    await app.init();
    await post('/bookings', 'A', oneWayIntent({ now: NOW }))
      .set('Idempotency-Key', 'k1')
      .expect(202);
    run = client.runs.get(ID)!;
    run.state = CONFIRMED;
  }

  beforeAll(() => {
    keys = createTestKeys({ A: { agencyId: 'AGENCY1' }, B: { agencyId: 'AGENCY2' } });
  });
  afterAll(() => {
    keys.remove();
    // Card data in no log line of any request of this file (bodies with cards were sent).
    const all = lines.join('\n');
    expect(all).not.toContain(CREDIT_CARD);
    expect(all).not.toMatch(cvvLeak(TEST_CVV));
  });
  beforeEach(() => start());
  afterEach(() => app.close());

  const post = (path: string, who: string, body?: unknown) =>
    request(app.getHttpServer())
      .post(path)
      .set(keys.auth(who))
      .send(body as object);
  const get = (path: string, who: string) => request(app.getHttpServer()).get(path).set(keys.auth(who));
  const send = (method: 'get' | 'post', path: string, who: string, body?: unknown) =>
    method === 'get' ? get(path, who) : post(path, who, body);
  /** `res` is the problem `code` answered at `instance` with `status`, `detail` and `extra` members. */
  const problem = (res: request.Response, instance: string, status: number, code: string, detail: string, extra = {}) =>
    expect([res.status, res.body]).toEqual([
      status,
      problemBody(status, code, detail, instance, res.headers['x-request-id'], extra),
    ]);

  it('validates every body, names each bad field, echoes no card, sends nothing', async () => {
    const expired = { ...CARD, expirationYear: 2026, expirationMonth: 10 };
    const cases: [string, unknown, { path: string; message: string }[]][] = [
      ['payment', {}, [{ path: 'card', message: 'Invalid input: expected object, received undefined' }]],
      ['payment', { card: expired }, [{ path: 'card.expirationMonth', message: 'card has expired' }]],
      [
        'payment',
        { card: { ...CARD, number: '4111111111111112' } },
        [{ path: 'card.number', message: 'is not a valid card number (Luhn check failed)' }],
      ],
      [
        'change-offers',
        { journey: { departureDate: '2026-11-20', returnDate: '2026-11-19' } },
        [
          { path: 'journey.departureDate', message: 'must not be before today (2026-11-21)' },
          { path: 'journey.returnDate', message: 'must be after departureDate' },
        ],
      ],
      [
        'change-offers',
        { journey: { departureDate: '2026-12-01' }, priceClass: 'economy' },
        [{ path: 'priceClass', message: 'must be a price class code such as ECONOMY' }],
      ],
      [
        'change-offers',
        { date: '2026-12-01' },
        [
          { path: 'journey', message: 'Invalid input: expected object, received undefined' },
          { path: '(body)', message: 'Unrecognized key: "date"' },
        ],
      ],
      [
        'changes',
        { maxDifference: '12,50', payment: { card: expired } },
        [
          { path: 'offerId', message: 'Invalid input: expected string, received undefined' },
          { path: 'maxDifference', message: 'must be a decimal string such as "25.00"' },
        ],
      ],
      [
        'changes',
        { offerId: 'RO-1', payment: { card: expired } },
        [{ path: 'payment.card.expirationMonth', message: 'card has expired' }],
      ],
      ['services', {}, [{ path: 'bags', message: 'add at least one bag or seat' }]],
      [
        'services',
        { bags: [{ passenger: 0, code: 'YN9', direction: 'outbound' }], seats: [{ passenger: 0, seat: '12' }] },
        [
          { path: 'bags[0].code', message: expect.stringMatching(/^must be one of YN1, YN2, /) },
          { path: 'seats[0].seat', message: 'must be a seat such as 12A' },
        ],
      ],
      ['cancel-quote', { passengers: [0, 0] }, [{ path: 'passengers', message: 'must not name a passenger twice' }]],
      ['cancel', { passengers: [] }, [{ path: 'passengers', message: 'must name at least one passenger' }]],
      [
        'cancel',
        { passengers: [-1], why: 'x' },
        [
          { path: 'passengers[0]', message: 'Too small: expected number to be >=0' },
          { path: '(body)', message: 'Unrecognized key: "why"' },
        ],
      ],
    ];
    for (const [route, body, fields] of cases) {
      const res = await post(`${PATH}/${route}`, 'A', body);
      expect([route, res.status, res.body.code, res.body.fields]).toEqual([route, 400, 'INVALID_REQUEST', fields]);
      expect(res.text).not.toContain('411111111111111');
      expect(res.text.replaceAll(res.headers['x-request-id'], '')).not.toContain(TEST_CVV);
    }
    expect(run.updateCalls).toEqual([]);
    expect(run.signals).toEqual([]);
  });

  it('sends each route as its update, the card as `card`, the Idempotency-Key as the update id (per route)', async () => {
    const done = {
      ...CONFIRMED,
      changes: [{ at: '2026-11-21T10:01:00.000Z', kind: 'trip' as const, difference: OFFER.difference }],
    };
    run.updates = {
      changeOffers: async () => ({ offers: [OFFER] }),
      changeTrip: async () => done,
      orderServices: async () => ({
        services: [
          { code: 'YN1', passenger: 0, direction: 'outbound', segment: 'S1', price: '25.00', currency: 'GBP' },
        ],
      }),
      addServices: async () => done,
      cancelQuote: async () => ({ refund: GBP('100.00'), penalty: GBP('29.00'), passengers: [0] }),
      payBooking: async () => done,
    };
    const offers = await post(`${PATH}/change-offers`, 'A', { journey: { departureDate: '2026-12-23' } });
    expect([offers.status, offers.body]).toEqual([200, { offers: [OFFER] }]);
    const change = await post(`${PATH}/changes`, 'A', {
      offerId: 'RO-1',
      payment: { card: CARD },
      maxDifference: '20.00',
    }).set('Idempotency-Key', 'chg-1');
    expect([change.status, change.headers.location, change.body]).toEqual([
      200,
      undefined,
      { id: ID, ...done, links: expect.objectContaining({ self: '/bookings/booking%3AAGENCY1%3Ak1' }) },
    ]);
    expect((await get(`${PATH}/services`, 'A')).body.services).toHaveLength(1);
    const bags = [{ passenger: 0, code: 'YN1', direction: 'outbound' }];
    await post(`${PATH}/services`, 'A', { bags, seats: [], payment: { card: CARD } }).expect(200);
    const quote = await post(`${PATH}/cancel-quote`, 'A', undefined).set('Idempotency-Key', 'chg-1');
    expect([quote.status, quote.body]).toEqual([
      200,
      { refund: GBP('100.00'), penalty: GBP('29.00'), passengers: [0] },
    ]);
    await post(`${PATH}/payment`, 'A', { card: CARD }).expect(200);
    expect(run.updateCalls).toEqual([
      { name: 'changeOffers', arg: { journey: { departureDate: '2026-12-23' } } },
      {
        name: 'changeTrip',
        arg: { offerId: 'RO-1', card: CARD, maxDifference: '20.00' },
        updateId: 'changeTrip:chg-1',
      },
      { name: 'orderServices', arg: {} },
      { name: 'addServices', arg: { bags, card: CARD } },
      { name: 'cancelQuote', arg: {}, updateId: 'cancelQuote:chg-1' },
      { name: 'payBooking', arg: { card: CARD } },
    ]);
    const badKey = await post(`${PATH}/cancel-quote`, 'A', {}).set('Idempotency-Key', 'a b');
    expect([badKey.status, badKey.body.fields]).toEqual([
      400,
      [{ path: 'Idempotency-Key', message: 'must be 1 to 100 characters of A-Z a-z 0-9 _ . : -' }],
    ]);
  });

  it("maps the booking's refusals: BOOKING_BUSY, NOT_SERVICEABLE, OFFER_UNKNOWN, OFFER_EXPIRED, DIFFERENCE_ABOVE_MAX, CARD_REQUIRED", async () => {
    const cases: [string, string, string, number][] = [
      ['change-offers', 'BOOKING_BUSY', 'another servicing action of this booking is running', 409],
      ['payment', 'NOT_SERVICEABLE', 'pay needs status HELD, not CONFIRMED', 409],
      ['changes', 'OFFER_UNKNOWN', 'offerId: no change offer RO-9; ask for change offers first', 404],
      ['changes', 'OFFER_EXPIRED', 'offerId: the change offer RO-1 expired at 2026-11-21T10:15:00.000Z', 409],
      ['changes', 'DIFFERENCE_ABOVE_MAX', 'maxDifference: the change costs 16.98 GBP, above 10.00', 409],
      ['changes', 'CARD_REQUIRED', 'payment.card: 16.98 GBP is due for this change', 422],
    ];
    const bodies: Record<string, unknown> = {
      'change-offers': { journey: { departureDate: '2026-12-23' } },
      payment: { card: CARD },
      changes: { offerId: 'RO-1' },
    };
    const updates: Record<string, string> = {
      'change-offers': 'changeOffers',
      payment: 'payBooking',
      changes: 'changeTrip',
    };
    for (const [route, code, message, status] of cases) {
      run.updates = { [updates[route]!]: refused(code, message) };
      const res = await post(`${PATH}/${route}`, 'A', bodies[route]);
      problem(res, `${PATH}/${route}`, status, code, message, { bookingStatus: 'CONFIRMED' });
    }
  });

  it('INVALID_SERVICING_REQUEST is 422 naming the field its refusal starts with', async () => {
    run.updates = { cancelQuote: refused('INVALID_SERVICING_REQUEST', 'passengers: traveller 3 is not on the order') };
    const quote = await post(`${PATH}/cancel-quote`, 'A', { passengers: [3] });
    problem(
      quote,
      `${PATH}/cancel-quote`,
      422,
      'INVALID_SERVICING_REQUEST',
      'passengers: traveller 3 is not on the order',
      {
        fields: [{ path: 'passengers', message: 'traveller 3 is not on the order' }],
      },
    );
    run.updates = { orderSeatMap: refused('INVALID_SERVICING_REQUEST', 'the airline has no seat map for this order') };
    const map = await get(`${PATH}/seat-map`, 'A');
    expect([map.status, map.body.fields]).toEqual([
      422,
      [{ path: '(body)', message: 'the airline has no seat map for this order' }],
    ]);
    run.updates = { addServices: refused('INVALID_SERVICING_REQUEST', 'seats[0]: 12A is taken') };
    const seats = await post(`${PATH}/services`, 'A', { seats: [{ passenger: 0, seat: '12A' }] });
    expect([seats.status, seats.body.fields]).toEqual([422, [{ path: 'seats[0]', message: '12A is taken' }]]);
  });

  it("maps the actions' failures by failure type; card digits in a failure never reach the answer", async () => {
    const cases: [string, string, number][] = [
      ['INVALID_CARD', `750: card ${CREDIT_CARD} refused`, 422],
      ['AUTHENTICATION_FAILED', 'the cardholder was not authenticated', 402],
      ['PRICE_NOT_APPROVED', 'the new price was not approved', 409],
      ['CHANGE_UNSETTLED', 'pay got no answer and the order could not be read back; check order ZZ-ORD-1 by hand', 502],
      ['AIRLINE_UNAVAILABLE', 'the airline did not answer', 503],
      // A type outside the vocabulary (a bug) is the airline's error, not a 500 with its text.
      ['NOT_MOCKED', 'activity x is not mocked', 502],
    ];
    for (const [type, message, status] of cases) {
      run.updates = { payBooking: refused(type, message) };
      const res = await post(`${PATH}/payment`, 'A', { card: CARD });
      const code = type === 'NOT_MOCKED' ? 'AIRLINE_ERROR' : type;
      expect([type, res.status, res.body.code, res.body.detail]).toEqual([
        type,
        status,
        code,
        message.replace(CREDIT_CARD, '****1111'),
      ]);
    }
  });

  it('no flights on the dates asked is an empty list of offers', async () => {
    run.updates = { changeOffers: refused('NO_OFFERS', '710: no offers') };
    const res = await post(`${PATH}/change-offers`, 'A', { journey: { departureDate: '2026-12-23' } });
    expect([res.status, res.body]).toEqual([200, { offers: [] }]);
  });

  it('a booking that has ended takes no servicing request: 409 NOT_SERVICEABLE, never 500', async () => {
    run.updates = {
      changeOffers: async () => Promise.reject(new WorkflowNotFoundError('already completed', ID, undefined)),
    };
    const raced = await post(`${PATH}/change-offers`, 'A', { journey: { departureDate: '2026-12-23' } });
    problem(
      raced,
      `${PATH}/change-offers`,
      409,
      'NOT_SERVICEABLE',
      'The booking has ended: it takes no servicing requests',
      {
        bookingStatus: 'CONFIRMED',
      },
    );
    run.status = 'COMPLETED';
    run.result = { state: { ...CONFIRMED, status: 'CANCELLED' } };
    run.updateCalls = [];
    for (const [method, route] of [
      ['post', 'change-offers'],
      ['post', 'changes'],
      ['post', 'payment'],
      ['get', 'services'],
      ['post', 'services'],
      ['post', 'cancel-quote'],
    ] as const) {
      const body = {
        'change-offers': { journey: { departureDate: '2026-12-23' } },
        changes: { offerId: 'RO-1' },
        payment: { card: CARD },
        services: { seats: [{ passenger: 0, seat: '1A' }] },
      }[route as string];
      const res = await send(method, `${PATH}/${route}`, 'A', body);
      expect([route, res.status, res.body.code, res.body.detail]).toEqual([
        route,
        409,
        'NOT_SERVICEABLE',
        'The booking has ended (CANCELLED): it takes no servicing requests',
      ]);
    }
    const partial = await post(`${PATH}/cancel`, 'A', { passengers: [0] });
    expect([partial.status, partial.body.code]).toEqual([409, 'NOT_SERVICEABLE']);
    expect(run.updateCalls).toEqual([]);
  });

  it('an action still running at the query timeout answers 202 with the booking as it is and a Location; no worker: 503', async () => {
    await app.close();
    await start({ API_QUERY_TIMEOUT_MS: '100' });
    const waiting: BookingState = {
      ...CONFIRMED,
      status: 'AWAITING_AUTHENTICATION',
      servicing: { action: 'changeTrip', since: NOW.toISOString() },
    };
    run.updates = {
      changeTrip: async () => {
        run.state = waiting;
        return pending();
      },
    };
    const res = await post(`${PATH}/changes`, 'A', { offerId: 'RO-1', payment: { card: CARD } }).set(
      'Idempotency-Key',
      'c2',
    );
    expect([res.status, res.headers.location, res.body.status, res.body.servicing]).toEqual([
      202,
      '/bookings/booking%3AAGENCY1%3Ak1',
      'AWAITING_AUTHENTICATION',
      { action: 'changeTrip', since: NOW.toISOString() },
    ]);
    run.unaccepted = true;
    const none = await post(`${PATH}/cancel-quote`, 'A', {});
    expect([none.status, none.headers['retry-after'], none.body.code]).toEqual([503, '5', 'TEMPORAL_UNAVAILABLE']);
  });

  it('cancel with passengers removes them (200 with the refund); without, a HELD booking is cancelled like a confirmed one', async () => {
    const after: BookingState = {
      ...CONFIRMED,
      changes: [
        { at: NOW.toISOString(), kind: 'passengers', passengers: [1], difference: GBP('-64.50'), penalty: GBP('0.00') },
      ],
    };
    run.updates = { removePassengers: async () => after };
    const removed = await post(`${PATH}/cancel`, 'A', { passengers: [1], reason: 'cannot travel' }).set(
      'Idempotency-Key',
      'r1',
    );
    expect([removed.status, removed.body.refund, removed.body.changes]).toEqual([200, GBP('64.50'), after.changes]);
    expect(run.updateCalls).toEqual([
      { name: 'removePassengers', arg: { passengers: [1], reason: 'cannot travel' }, updateId: 'removePassengers:r1' },
    ]);
    run.state = { ...CONFIRMED, status: 'HELD' };
    const cancelled: BookingState = {
      ...CONFIRMED,
      status: 'CANCELLED',
      cancellation: { status: 'cancelled', requestedAt: NOW.toISOString(), refund: GBP('0.00') },
    };
    run.updates = { cancelBooking: async () => cancelled };
    const whole = await post(`${PATH}/cancel`, 'A', undefined);
    expect([whole.status, whole.body]).toEqual([
      202,
      expect.objectContaining({ status: 'CANCELLED', signal: 'cancelBooking', cancellation: cancelled.cancellation }),
    ]);
    expect(run.updateCalls.at(-1)).toEqual({ name: 'cancelBooking', arg: {} });
  });

  it("seat map: the booking's while AWAITING_SEAT_SELECTION, the order's once confirmed, else 409", async () => {
    const maps = {
      aLaCarteOfferId: 'ALC',
      owner: 'ZZ',
      responseId: 'R',
      segments: [
        { segment: 'S1', flight: 'ZZ1234', seats: [{ seat: '1A', available: true, characteristics: ['window'] }] },
      ],
    };
    const view = {
      segments: [
        { segment: 'S1', flight: 'ZZ1234', seats: [{ seat: '1A', available: true, characteristics: ['window'] }] },
      ],
    };
    run.updates = { orderSeatMap: async () => maps };
    expect((await get(`${PATH}/seat-map`, 'A')).body).toEqual(view);
    run.state = { status: 'AWAITING_SEAT_SELECTION', steps: [] };
    run.queries = { seatMap: maps };
    expect((await get(`${PATH}/seat-map`, 'A')).body).toEqual(view);
    expect(run.updateCalls.map((c) => c.name)).toEqual(['orderSeatMap']);
    run.state = { status: 'RUNNING', steps: [] };
    const early = await get(`${PATH}/seat-map`, 'A');
    expect([early.status, early.body.code, early.body.bookingStatus]).toEqual([409, 'NOT_AWAITING_SEATS', 'RUNNING']);
  });

  it('GET /order answers the order of a HELD or CHANGING booking too, not of an expired one', async () => {
    run.queries = { orderView: '<OrderViewRS/>' };
    for (const status of ['HELD', 'CHANGING', 'CONFIRMED'] as const) {
      run.state = { ...CONFIRMED, status };
      const res = await get(`${PATH}/order`, 'A');
      expect([status, res.status, res.text]).toEqual([status, 200, '<OrderViewRS/>']);
    }
    run.status = 'COMPLETED';
    run.result = { state: { ...CONFIRMED, status: 'EXPIRED' }, orderViewXml: '<OrderViewRS/>' };
    const gone = await get(`${PATH}/order`, 'A');
    expect([gone.status, gone.body.code, gone.body.bookingStatus]).toEqual([409, 'ORDER_NOT_READY', 'EXPIRED']);
  });

  it("another agency's booking is 404 on every servicing route, and nothing is sent", async () => {
    for (const [method, route, body] of [
      ['post', 'payment', { card: CARD }],
      ['post', 'change-offers', { journey: { departureDate: '2026-12-23' } }],
      ['post', 'changes', { offerId: 'RO-1' }],
      ['get', 'services', undefined],
      ['post', 'services', { seats: [{ passenger: 0, seat: '1A' }] }],
      ['get', 'seat-map', undefined],
      ['post', 'cancel-quote', {}],
      ['post', 'cancel', { passengers: [0] }],
    ] as const) {
      const res = await send(method, `${PATH}/${route}`, 'B', body);
      expect([route, res.status, res.body.code]).toEqual([route, 404, 'BOOKING_NOT_FOUND']);
    }
    expect(run.updateCalls).toEqual([]);
  });
});
