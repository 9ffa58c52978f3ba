/**
 * The HTTP shell of the API (authentication, agency scoping, routes, validation, problem answers,
 * idempotency, rate limit, codec, docs) over a fake Temporal client and a real keys file. The
 * real stack runs in test/api/*.e2e-spec.ts.
 */
import { isReturnToken, returnTokenKey } from '../../src/api/bookings/authentication-return';
import { loadPayloadKey } from '../../src/temporal/payload-codec';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ApiKeyStore } from '../../src/api/auth/api-keys';
import { BOOKING_STATUSES } from '../../src/booking/booking.model';
import { loadApiConfig, type ApiConfig } from '../../src/api/config/api.config';
import { createApiApp } from '../../src/configure-app';
import { oneWayIntent, CREDIT_CARD, TEST_CVV } from './intent.fixture';
import { createTestKeys, type TestKeys } from './keys.fixture';
import { keyReusedProblem, problemBody } from './problem.fixture';
import { FAKE_START, fakeClient, fakeCodec } from './fake-temporal.fixture';

const NOW = FAKE_START;
const PROBLEM = 'application/problem+json; charset=utf-8';

/** The route of the one airline of the AIRLINE_* defaults. */
const ZZ_ROUTE = {
  code: 'ZZ',
  settleWindowMs: 120_000,
  unsettledPolicy: 'recreate',
  authenticationTimeoutMs: 600_000,
  calendarSearch: true,
  servicingCardFeePercent: '2',
};
/** The 3-D Secure TermURL / FailURL of a booking: the API's return endpoint with the booking's token. */
const returnUrl = (encodedId: string, result: string) =>
  expect.stringMatching(
    new RegExp(
      `^http://localhost:\\d+/bookings/${encodedId}/authentication/return\\?token=[A-Za-z0-9_-]{43}&result=${result}$`,
    ),
  );

describe('booking API over a fake Temporal client', () => {
  let app: NestExpressApplication;
  let client: ReturnType<typeof fakeClient>;
  let keys: TestKeys;
  let store: ApiKeyStore;
  let warnings: string[];

  async function start(env: Record<string, string> = {}): Promise<void> {
    client = fakeClient();
    store = new ApiKeyStore(keys.file);
    const config: ApiConfig = {
      ...loadApiConfig({ API_LOG: 'none', AIRLINE_BASE_URL: 'http://127.0.0.1:9', API_KEYS_FILE: keys.file, ...env }),
      port: 0,
    };
    app = await createApiApp({
      config,
      temporalClient: client as never,
      codec: fakeCodec,
      clock: () => NOW,
      apiKeys: store,
    });
    await app.init();
  }

  beforeAll(() => {
    keys = createTestKeys({
      A: { agencyId: 'AGENCY1' },
      B: { agencyId: 'AGENCY2' },
      OPS: { agencyId: 'OPERATOR', role: 'ops' },
      REVOKED: { agencyId: 'AGENCY1' },
    });
  });
  afterAll(() => keys.remove());
  beforeEach(async () => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    await start();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await app.close();
  });

  const post = (path: string, who: string, body?: unknown) =>
    request(app.getHttpServer())
      .post(path)
      .set(keys.auth(who))
      .send(body as object);
  const get = (path: string, who: string) => request(app.getHttpServer()).get(path).set(keys.auth(who));

  it('POST /bookings: 202 with Location and X-Request-Id; the id is derived from agency and key; the request id is the correlation id', async () => {
    const intent = oneWayIntent({ now: NOW });
    const res = await post('/bookings', 'A', intent).set('Idempotency-Key', 'k-1').set('X-Request-Id', 'req-123');
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe('/bookings/booking%3AAGENCY1%3Ak-1');
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.body).toEqual({
      id: 'booking:AGENCY1:k-1',
      status: 'RUNNING',
      existing: false,
      links: {
        self: '/bookings/booking%3AAGENCY1%3Ak-1',
        order: '/bookings/booking%3AAGENCY1%3Ak-1/order',
        approvePrice: '/bookings/booking%3AAGENCY1%3Ak-1/approve-price',
        cancel: '/bookings/booking%3AAGENCY1%3Ak-1/cancel',
      },
    });
    const [type, opts] = client.workflow.start.mock.calls[0]! as unknown as [string, Record<string, any>];
    expect(type).toBe('bookingWorkflow');
    expect(opts.workflowIdConflictPolicy).toBe('FAIL');
    expect(opts.workflowIdReusePolicy).toBe('REJECT_DUPLICATE');
    expect(opts.taskQueue).toBe('ndc-saga');
    // Every configured airline's route goes with the booking (here the one of AIRLINE_*).
    expect(opts.args).toEqual([
      intent,
      {
        servicing: { paymentDueNoticeMs: 7_200_000 },
        airlines: [ZZ_ROUTE],
        correlationId: 'req-123',
        authenticationReturn: {
          termUrl: returnUrl('booking%3AAGENCY1%3Ak-1', 'approved'),
          failUrl: returnUrl('booking%3AAGENCY1%3Ak-1', 'declined'),
        },
      },
    ]);
    expect(opts.searchAttributes).toEqual({ BookingStatus: ['RUNNING'], AgencyId: ['AGENCY1'], Route: ['LGW-OSL'] });
    expect(JSON.stringify(opts.memo)).not.toContain(CREDIT_CARD);
  });

  it('deployment defaults of the workflow options (ORDER_SETTLE_WINDOW_MS, ORDER_UNSETTLED_POLICY, BOOKING_PAYMENT_DUE_NOTICE_MS) go with every booking and batch', async () => {
    await app.close();
    await start({
      ORDER_SETTLE_WINDOW_MS: '300000',
      ORDER_UNSETTLED_POLICY: 'escalate',
      BOOKING_APPROVAL_TIMEOUT_MS: '5000',
      BOOKING_PAYMENT_DUE_NOTICE_MS: '600000',
    });
    await post('/bookings', 'A', oneWayIntent({ now: NOW }))
      .set('X-Request-Id', 'r1')
      .expect(202);
    await post('/batches', 'A', [oneWayIntent({ now: NOW })])
      .set('X-Request-Id', 'r2')
      .expect(202);
    const [booking, batch] = client.workflow.start.mock.calls.map((c) => (c as any[])[1].args);
    const options = {
      servicing: { paymentDueNoticeMs: 600_000 },
      settleWindowMs: 300000,
      unsettledPolicy: 'escalate',
      approvalTimeoutMs: 5000,
      // Every configured airline's route: here the one of the AIRLINE_* variables.
      airlines: [
        {
          code: 'ZZ',
          settleWindowMs: 300000,
          unsettledPolicy: 'escalate',
          authenticationTimeoutMs: 600_000,
          calendarSearch: true,
          servicingCardFeePercent: '2',
        },
      ],
    };
    expect(booking[1]).toEqual({ ...options, correlationId: 'r1', authenticationReturn: expect.any(Object) });
    expect(batch[0].options).toEqual({ ...options, correlationId: 'r2' });
  });

  it("an intent without agency.id gets the caller's; one naming another agency is 403; ops may name any", async () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    delete intent.agency.id;
    const own = await post('/bookings', 'B', intent).set('Idempotency-Key', 'k-own');
    expect(own.status).toBe(202);
    expect(own.body.id).toBe('booking:AGENCY2:k-own');
    expect((client.workflow.start.mock.calls[0]![1] as any).args[0].agency).toEqual({
      id: 'AGENCY2',
      name: 'Test Travel',
    });
    const other = await post('/bookings', 'B', oneWayIntent({ now: NOW, agencyId: 'AGENCY1' }));
    expect(other.status).toBe(403);
    expect(other.headers['content-type']).toBe(PROBLEM);
    expect(other.body).toEqual(
      problemBody(
        403,
        'AGENCY_MISMATCH',
        "The intent names an agency other than the credential's",
        '/bookings',
        other.headers['x-request-id'],
        { fields: [{ path: 'agency.id', message: 'must be the agency of your credential, or left out' }] },
      ),
    );
    const batch = await post('/batches', 'B', [intent, oneWayIntent({ now: NOW, agencyId: 'AGENCY1' })]);
    expect(batch.status).toBe(403);
    expect(batch.body.fields).toEqual([
      { path: '[1].agency.id', message: 'must be the agency of your credential, or left out' },
    ]);
    const byOps = await post('/bookings', 'OPS', oneWayIntent({ now: NOW, agencyId: 'AGENCY1' })).set(
      'Idempotency-Key',
      'k-ops',
    );
    expect(byOps.status).toBe(202);
    expect(byOps.body.id).toBe('booking:AGENCY1:k-ops');
    expect(client.workflow.start).toHaveBeenCalledTimes(2);
  });

  it('the same key and body gives the same booking; a different body gives 422; another agency with the key gets its own', async () => {
    const intent = oneWayIntent({ now: NOW });
    await post('/bookings', 'A', intent).set('Idempotency-Key', 'k-2').expect(202);
    const again = await post('/bookings', 'A', intent).set('Idempotency-Key', 'k-2');
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: 'booking:AGENCY1:k-2', existing: true });
    // The second start was refused by "Temporal": one workflow.
    expect(client.workflow.start).toHaveBeenCalledTimes(2);
    expect([...client.runs.keys()]).toEqual(['booking:AGENCY1:k-2']);
    const clash = await post('/bookings', 'A', { ...intent, currency: 'EUR' }).set('Idempotency-Key', 'k-2');
    expect(clash.status).toBe(422);
    expect(clash.body).toEqual(keyReusedProblem('/bookings', clash.headers['x-request-id'], 'booking:AGENCY1:k-2'));
    const b = await post('/bookings', 'B', oneWayIntent({ now: NOW, agencyId: 'AGENCY2' })).set(
      'Idempotency-Key',
      'k-2',
    );
    expect(b.body).toMatchObject({ id: 'booking:AGENCY2:k-2', existing: false });
  });

  it('400 names each bad field and never echoes the card; a sane X-Request-Id is kept, another replaced', async () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.passengers[0].birthdate = '1985-13-01';
    intent.payment.card.number = '4111111111111112';
    const res = await post('/bookings', 'A', intent).set('X-Request-Id', 'bad id with spaces');
    expect(res.status).toBe(400);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual(
      problemBody(400, 'INVALID_INTENT', 'Invalid booking intent', '/bookings', res.headers['x-request-id'], {
        fields: [
          { path: 'passengers[0].birthdate', message: 'must be a valid date YYYY-MM-DD' },
          { path: 'payment.card.number', message: 'is not a valid card number (Luhn check failed)' },
        ],
      }),
    );
    // The request id is a random UUID: its hex digits may hold "737" by chance.
    const text = res.text.replaceAll(res.headers['x-request-id'], '');
    expect(text).not.toContain('411111111111111');
    expect(text).not.toContain(TEST_CVV);
    expect(client.workflow.start).not.toHaveBeenCalled();
  });

  it('malformed JSON is refused without quoting the body', async () => {
    const res = await request(app.getHttpServer())
      .post('/bookings')
      .set(keys.auth('A'))
      .set('Content-Type', 'application/json')
      .send(`{"payment":{"card":{"number":"${CREDIT_CARD}",`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe(PROBLEM);
    expect(res.body).toMatchObject({
      status: 400,
      code: 'MALFORMED_JSON',
      detail: 'The request body is not valid JSON',
    });
    expect(res.text).not.toContain(CREDIT_CARD);
  });

  it('rejects a bad Idempotency-Key', async () => {
    const res = await post('/bookings', 'A', oneWayIntent({ now: NOW })).set('Idempotency-Key', 'a b');
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([
      { path: 'Idempotency-Key', message: 'must be 1 to 100 characters of A-Z a-z 0-9 _ . : -' },
    ]);
  });

  it('401 without a credential, with a malformed, unknown or revoked one; failures are logged with the prefix only', async () => {
    const server = app.getHttpServer();
    const none = await request(server).get('/bookings/x');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="ndc-saga"');
    expect(none.headers['content-type']).toBe(PROBLEM);
    expect(none.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', instance: '/bookings/x' });
    expect((await request(server).get('/bookings').set('Authorization', 'Basic YTpi')).status).toBe(401);
    expect((await request(server).get('/bookings').set('Authorization', 'Bearer nonsense')).status).toBe(401);
    const a = keys.secret('A');
    const forged = `${a.slice(0, -4)}AAAA`;
    expect((await request(server).get('/bookings').set('Authorization', `Bearer ${forged}`)).status).toBe(401);
    const revokedKey = keys.secret('REVOKED');
    client.workflow.list.mockImplementation(async function* () {});
    expect((await get('/bookings', 'REVOKED')).status).toBe(200);
    keys.revoke('REVOKED');
    store.reload();
    expect((await get('/bookings', 'REVOKED')).status).toBe(401);
    const log = warnings.join('\n');
    expect(log).toContain(`authentication failed: ${a.slice(0, 14)} (API key unknown) on GET /bookings`);
    expect(log).toContain(`authentication failed: ${revokedKey.slice(0, 14)} (API key revoked)`);
    expect(log).toContain('authentication failed: none (no credential) on GET /bookings/x');
    for (const secret of [a, forged, revokedKey, 'nonsense', 'YTpi']) expect(log).not.toContain(secret);
  });

  it("another agency's booking is 404 like an unknown one, for every read and action; ops sees and acts on it", async () => {
    await post('/bookings', 'A', oneWayIntent({ now: NOW }))
      .set('Idempotency-Key', 'k-a')
      .expect(202);
    const id = 'booking:AGENCY1:k-a';
    client.runs.get(id)!.state = { status: 'AWAITING_APPROVAL', steps: [] };
    const unknown = await get('/bookings/booking:AGENCY2:nope', 'B');
    for (const [method, path] of [
      ['get', `/bookings/${id}`],
      ['get', `/bookings/${id}/order`],
      ['post', `/bookings/${id}/approve-price`],
      ['post', `/bookings/${id}/cancel`],
    ] as const) {
      const r = await request(app.getHttpServer())[method](path).set(keys.auth('B'));
      expect([path, r.status, r.body.code, r.body.detail]).toEqual([
        path,
        404,
        'BOOKING_NOT_FOUND',
        `No booking with id ${id}`,
      ]);
    }
    expect(unknown.body).toMatchObject({
      status: 404,
      code: 'BOOKING_NOT_FOUND',
      detail: 'No booking with id booking:AGENCY2:nope',
    });
    expect(client.runs.get(id)!.signals).toEqual([]);
    expect((await get(`/bookings/${id}`, 'OPS')).body.status).toBe('AWAITING_APPROVAL');
    const approved = await post(`/bookings/${id}/approve-price`, 'OPS');
    expect(approved.status).toBe(202);
    expect(approved.headers.location).toBe('/bookings/booking%3AAGENCY1%3Ak-a');
    expect(approved.body).toMatchObject({ id, status: 'AWAITING_APPROVAL', signal: 'approvePrice' });
    expect((await post(`/bookings/${id}/cancel`, 'A')).status).toBe(202);
    expect(client.runs.get(id)!.signals).toEqual(['approvePrice', 'cancel']);
    client.runs.set('batch:x', {
      type: 'batchWorkflow',
      status: 'RUNNING',
      memo: {},
      searchAttributes: {},
      args: [],
      signals: [],
      updates: {},
      updateCalls: [],
    });
    expect((await get('/bookings/batch%3Ax', 'OPS')).status).toBe(404);
  });

  it('order: 409 before CONFIRMED, XML after', async () => {
    await post('/bookings', 'A', oneWayIntent({ now: NOW }))
      .set('Idempotency-Key', 'k-3')
      .expect(202);
    const early = await get('/bookings/booking:AGENCY1:k-3/order', 'A');
    expect(early.status).toBe(409);
    expect(early.headers['content-type']).toBe(PROBLEM);
    expect(early.body).toMatchObject({
      status: 409,
      code: 'ORDER_NOT_READY',
      detail: 'The booking has no order (yet)',
      bookingStatus: 'RUNNING',
    });
    const run = client.runs.get('booking:AGENCY1:k-3')!;
    run.status = 'COMPLETED';
    run.result = { state: { status: 'CONFIRMED', steps: [] }, orderViewXml: '<OrderViewRS/>' };
    const done = await get('/bookings/booking:AGENCY1:k-3/order', 'A');
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(done.text).toBe('<OrderViewRS/>');
  });

  it('approve-price only while AWAITING_APPROVAL; cancel only while open', async () => {
    await post('/bookings', 'A', oneWayIntent({ now: NOW }))
      .set('Idempotency-Key', 'k-4')
      .expect(202);
    const id = 'booking:AGENCY1:k-4';
    const run = client.runs.get(id)!;
    expect((await post(`/bookings/${id}/approve-price`, 'A')).body.code).toBe('NOT_AWAITING_APPROVAL');
    run.state = { status: 'AWAITING_APPROVAL', steps: [] };
    expect((await post(`/bookings/${id}/approve-price`, 'A')).status).toBe(202);
    expect((await post(`/bookings/${id}/cancel`, 'A')).status).toBe(202);
    expect(run.signals).toEqual(['approvePrice', 'cancel']);
    run.status = 'COMPLETED';
    run.result = { state: { status: 'CANCELLED', steps: [] } };
    const late = await post(`/bookings/${id}/cancel`, 'A');
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'BOOKING_NOT_CANCELLABLE', bookingStatus: 'CANCELLED' });
  });

  it('regression: a state query failing with gRPC CANCELLED (worker SIGKILLed) answers 200 from the search attributes, marked stale', async () => {
    await post('/bookings', 'A', oneWayIntent({ now: NOW }))
      .set('Idempotency-Key', 'k-stale')
      .expect(202);
    const run = client.runs.get('booking:AGENCY1:k-stale')!;
    run.searchAttributes.BookingStatus = ['AWAITING_APPROVAL'];
    for (const code of [1, 4, 14, 2]) {
      run.queryError = Object.assign(new Error(`${code} query failed`), {
        name: 'ServiceError',
        cause: Object.assign(new Error('grpc'), { code }),
      });
      const res = await get('/bookings/booking:AGENCY1:k-stale', 'A');
      expect([code, res.status]).toEqual([code, 200]);
      expect(res.body).toMatchObject({ status: 'AWAITING_APPROVAL', steps: [] });
      expect(res.body.stale).toBe(
        `no worker answered the state query within 10000 ms; status from the BookingStatus search attribute (ServiceError gRPC ${code})`,
      );
    }
    // Actions still work from the stale state: the signal is delivered once a worker runs the workflow.
    expect((await post('/bookings/booking:AGENCY1:k-stale/approve-price', 'A')).status).toBe(202);
  });

  it('GET /bookings: an agency lists its own agency only; ops lists every agency or filters; filters are validated', async () => {
    const server = app.getHttpServer();
    const bad = await get("/bookings?status=DONE&agencyId=x'y&limit=0", 'OPS');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([
      {
        path: 'status',
        message:
          'must be one of RUNNING, AWAITING_APPROVAL, AWAITING_SEAT_SELECTION, AWAITING_AUTHENTICATION, SETTLING, CONFIRMED, HELD, EXPIRED, CHANGING, ACTION_REQUIRED, CANCELLING, FAILED, CANCELLED, ESCALATED',
      },
      { path: 'agencyId', message: 'must be 1 to 64 characters of A-Z a-z 0-9 _ . -' },
      { path: 'limit', message: 'must be an integer from 1 to 1000' },
    ]);
    client.workflow.list.mockImplementation(async function* () {
      yield {
        workflowId: 'booking:AGENCY1:1',
        status: { name: 'COMPLETED' },
        searchAttributes: {
          BookingStatus: ['CONFIRMED'],
          AgencyId: ['AGENCY1'],
          Route: ['LGW-OSL'],
          BookingReference: ['ABC123'],
        },
        startTime: NOW,
        closeTime: NOW,
      };
    });
    const res = await get('/bookings?status=CONFIRMED', 'A');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      bookings: [
        {
          id: 'booking:AGENCY1:1',
          status: 'CONFIRMED',
          agencyId: 'AGENCY1',
          route: 'LGW-OSL',
          bookingReference: 'ABC123',
          workflowStatus: 'COMPLETED',
          startTime: NOW.toISOString(),
          closeTime: NOW.toISOString(),
        },
      ],
    });
    expect((await request(server).get('/bookings?agencyId=AGENCY2').set(keys.auth('A'))).status).toBe(403);
    await get('/bookings', 'OPS').expect(200);
    await get('/bookings?agencyId=AGENCY2&limit=5', 'OPS').expect(200);
    expect(client.workflow.list.mock.calls.map((c) => (c as any[])[0])).toEqual([
      {
        query:
          "WorkflowType = 'bookingWorkflow' AND ExecutionStatus != 'ContinuedAsNew' AND BookingStatus = 'CONFIRMED' AND AgencyId = 'AGENCY1'",
        pageSize: 100,
      },
      { query: "WorkflowType = 'bookingWorkflow' AND ExecutionStatus != 'ContinuedAsNew'", pageSize: 100 },
      {
        query: "WorkflowType = 'bookingWorkflow' AND ExecutionStatus != 'ContinuedAsNew' AND AgencyId = 'AGENCY2'",
        pageSize: 5,
      },
    ]);
  });

  it('POST /batches validates each intent by index, starts a per-agency batchWorkflow; GET is scoped', async () => {
    const bad = oneWayIntent({ now: NOW }) as any;
    bad.contacts[0].emails = ['not-an-email'];
    const res = await post('/batches', 'A', [oneWayIntent({ now: NOW }), bad]);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ path: '[1].contacts[0].emails[0]', message: 'must be an e-mail address' }]);
    const ok = await post('/batches', 'A', [oneWayIntent({ now: NOW })])
      .set('Idempotency-Key', 'b1')
      .set('X-Request-Id', 'batch-req');
    expect(ok.status).toBe(202);
    expect(ok.headers.location).toBe('/batches/batch%3AAGENCY1%3Ab1');
    expect(ok.body).toEqual({
      id: 'batch:AGENCY1:b1',
      total: 1,
      existing: false,
      links: { self: '/batches/batch%3AAGENCY1%3Ab1' },
    });
    const [type, opts] = client.workflow.start.mock.calls[0]! as unknown as [string, Record<string, any>];
    expect(type).toBe('batchWorkflow');
    expect(opts.args[0].options).toEqual({
      servicing: { paymentDueNoticeMs: 7_200_000 },
      airlines: [ZZ_ROUTE],
      correlationId: 'batch-req',
    });
    // The child gets what a single booking gets: the API's return URLs with its own token.
    const [childReturn] = opts.args[0].authenticationReturns as { termUrl: string; failUrl: string }[];
    const child = 'batch:AGENCY1:b1-0';
    const term = new URL(childReturn!.termUrl);
    expect(term.pathname).toBe(`/bookings/${encodeURIComponent(child)}/authentication/return`);
    expect(new URL(childReturn!.failUrl).searchParams.get('result')).toBe('declined');
    const key = returnTokenKey(loadPayloadKey());
    expect(isReturnToken(key, child, term.searchParams.get('token'))).toBe(true);
    expect(isReturnToken(key, 'batch:AGENCY1:b1', term.searchParams.get('token'))).toBe(false);
    expect(opts.searchAttributes).toEqual({ AgencyId: ['AGENCY1'] });
    const counts = { total: 1, pending: 0, running: 1, confirmed: 0, held: 0, failed: 0, cancelled: 0, escalated: 0 };
    client.runs.get('batch:AGENCY1:b1')!.state = {
      ...counts,
      bookings: [{ id: 'batch:AGENCY1:b1-0', status: 'RUNNING' }],
    };
    const progress = await get('/batches/batch:AGENCY1:b1', 'A');
    expect(progress.body).toEqual({
      id: 'batch:AGENCY1:b1',
      done: false,
      ...counts,
      bookings: [{ id: 'batch:AGENCY1:b1-0', status: 'RUNNING', links: { self: '/bookings/batch%3AAGENCY1%3Ab1-0' } }],
      links: { self: '/batches/batch%3AAGENCY1%3Ab1' },
    });
    const other = await get('/batches/batch:AGENCY1:b1', 'B');
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: 'BATCH_NOT_FOUND', detail: 'No batch with id batch:AGENCY1:b1' });
    expect((await get('/batches/batch:nope', 'B')).body.code).toBe('BATCH_NOT_FOUND');
    expect((await get('/batches/batch:AGENCY1:b1', 'OPS')).status).toBe(200);
  });

  it('regression: a batch whose progress query fails answers its children from visibility, marked stale', async () => {
    const two = [oneWayIntent({ now: NOW }), oneWayIntent({ now: NOW })];
    await post('/batches', 'A', two).set('Idempotency-Key', 'b2').expect(202);
    const run = client.runs.get('batch:AGENCY1:b2')!;
    run.queryError = Object.assign(new Error('1 CANCELLED'), { name: 'ServiceError', cause: { code: 1 } });
    client.workflow.list.mockImplementation(async function* () {
      // Waiting for the cardholder is running too (regression: only RUNNING, AWAITING_APPROVAL and SETTLING counted).
      yield {
        workflowId: 'batch:AGENCY1:b2-1',
        status: { name: 'RUNNING' },
        searchAttributes: { BookingStatus: ['AWAITING_AUTHENTICATION'] },
      };
      yield {
        workflowId: 'batch:AGENCY1:b2-0',
        status: { name: 'COMPLETED' },
        searchAttributes: { BookingStatus: ['CONFIRMED'] },
      };
    });
    const res = await get('/batches/batch:AGENCY1:b2', 'A');
    expect(res.status).toBe(200);
    expect(client.workflow.list.mock.calls[0]![0]).toEqual({
      query:
        "ParentWorkflowId = 'batch:AGENCY1:b2' AND WorkflowType = 'bookingWorkflow' AND ExecutionStatus != 'ContinuedAsNew'",
      pageSize: 100,
    });
    expect(res.body).toMatchObject({
      done: false,
      total: 2,
      pending: 0,
      running: 1,
      confirmed: 1,
      held: 0,
      failed: 0,
      cancelled: 0,
      escalated: 0,
      bookings: [
        { id: 'batch:AGENCY1:b2-0', status: 'CONFIRMED' },
        { id: 'batch:AGENCY1:b2-1', status: 'AWAITING_AUTHENTICATION' },
      ],
    });
    expect(res.body.stale).toMatch(/^no worker answered the progress query within 10000 ms; counts from visibility/);
  });

  it('rate limit per agency on POST /bookings and /batches: 429 with Retry-After', async () => {
    await app.close();
    await start({ RATE_LIMIT_POINTS: '2', RATE_LIMIT_WINDOW_S: '3600' });
    await post('/bookings', 'A', oneWayIntent({ now: NOW })).expect(202);
    await post('/batches', 'A', [oneWayIntent({ now: NOW })]).expect(202);
    const limited = await post('/bookings', 'A', oneWayIntent({ now: NOW }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect(limited.headers['content-type']).toBe(PROBLEM);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await post('/batches', 'A', [oneWayIntent({ now: NOW })])).status).toBe(429);
    await post('/bookings', 'B', oneWayIntent({ now: NOW, agencyId: 'AGENCY2' })).expect(202);
    // Reads are not limited.
    await get('/bookings/booking:AGENCY1:none', 'A').expect(404);
  });

  const payloadBody = {
    payloads: [
      {
        metadata: { encoding: Buffer.from('json/plain').toString('base64') },
        data: Buffer.from('x').toString('base64'),
      },
    ],
  };

  it('codec endpoints: remote codec protocol for ops, 403 for agency keys, 401 without a credential; CORS for the UI origin', async () => {
    const server = app.getHttpServer();
    const pre = await request(server)
      .options('/codec/decode')
      .set('Origin', 'http://localhost:8233')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-namespace,authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:8233');
    expect(pre.headers['access-control-allow-headers']).toBe('Content-Type, X-Namespace, Authorization');
    const res = await post('/codec/decode', 'OPS', payloadBody)
      .set('Origin', 'http://localhost:8233')
      .set('X-Namespace', 'default');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8233');
    expect(res.body).toEqual({
      payloads: [{ metadata: payloadBody.payloads[0]!.metadata, data: Buffer.from('decoded:x').toString('base64') }],
    });
    const enc = await post('/codec/encode', 'OPS', payloadBody);
    expect(Buffer.from(enc.body.payloads[0].data, 'base64').toString()).toBe('encoded:x');
    const agency = await post('/codec/decode', 'A', payloadBody);
    expect(agency.status).toBe(403);
    expect(agency.body).toMatchObject({ code: 'FORBIDDEN', detail: 'This operation needs the ops role' });
    expect((await post('/codec/encode', 'A', payloadBody)).status).toBe(403);
    expect((await request(server).post('/codec/decode').send(payloadBody)).status).toBe(401);
    const other = await post('/codec/decode', 'OPS', payloadBody).set('Origin', 'http://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect((await post('/codec/decode', 'OPS', { payloads: [{ data: '***' }] })).body.fields).toEqual([
      { path: 'payloads[0].data', message: 'must be base64' },
    ]);
    expect((await post('/codec/decode', 'OPS', {})).body.fields).toEqual([
      { path: 'payloads', message: 'must be an array' },
    ]);
    expect((await post('/codec/decode', 'OPS', { payloads: [{ metadata: { encoding: 1 } }] })).body.fields).toEqual([
      { path: 'payloads[0].metadata.encoding', message: 'must be base64' },
    ]);
  });

  it('CODEC_OPEN_ON_LOOPBACK (dev stack): /codec answers loopback callers without a credential, nothing else does', async () => {
    await app.close();
    await start({ CODEC_OPEN_ON_LOOPBACK: 'true' });
    const server = app.getHttpServer();
    expect((await request(server).post('/codec/decode').send(payloadBody)).status).toBe(200);
    expect((await request(server).get('/bookings')).status).toBe(401);
    // A credential that is presented is still checked.
    expect((await request(server).post('/codec/decode').set(keys.auth('A')).send(payloadBody)).status).toBe(403);
  });

  it('health is public: an airline outage degrades readiness (200, naming the airline) but keeps liveness', async () => {
    expect((await request(app.getHttpServer()).get('/health/live')).body).toEqual({ status: 'ok' });
    const ready = await request(app.getHttpServer()).get('/health/ready');
    expect([ready.status, ready.body.status]).toEqual([200, 'degraded']);
    const res = await request(app.getHttpServer()).get('/health');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeDefined();
    expect(res.body.status).toBe('degraded');
    expect(res.body.temporal).toEqual({
      status: 'up',
      address: '127.0.0.1:7233',
      namespace: 'default',
      serverVersion: 'fake',
      searchAttributes: 'up',
    });
    expect(res.body.airlines.ZZ.status).toBe('down');
  });

  it('unknown routes: 404 problem', async () => {
    const res = await request(app.getHttpServer()).get('/nope').set(keys.auth('A'));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe(PROBLEM);
    expect(res.body).toMatchObject({
      type: 'urn:ndc-saga:problem:not-found',
      status: 404,
      code: 'NOT_FOUND',
      instance: '/nope',
    });
  });

  it('serves the OpenAPI document: security schemes, zod-derived schemas, problem answers on every route', async () => {
    const res = await request(app.getHttpServer()).get('/docs/json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/airlines',
      '/airlines/{code}/notifications',
      '/batches',
      '/batches/{id}',
      '/bookings',
      '/bookings/{id}',
      '/bookings/{id}/airline-change',
      '/bookings/{id}/approve-price',
      '/bookings/{id}/authentication',
      '/bookings/{id}/authentication/return',
      '/bookings/{id}/cancel',
      '/bookings/{id}/cancel-quote',
      '/bookings/{id}/change-offers',
      '/bookings/{id}/changes',
      '/bookings/{id}/order',
      '/bookings/{id}/payment',
      '/bookings/{id}/seat-map',
      '/bookings/{id}/seats',
      '/bookings/{id}/services',
      '/codec/decode',
      '/codec/encode',
      '/health',
      '/health/live',
      '/health/ready',
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/deliveries',
    ]);
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'nsk_<id>_<secret>', description: expect.any(String) },
      oidc: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: expect.any(String) },
      airlineBasic: { type: 'http', scheme: 'basic', description: expect.any(String) },
    });
    expect(doc.components.schemas.BookingIntent.required).toEqual([
      'agency',
      'pointOfSale',
      'currency',
      'language',
      'journey',
      'passengers',
      'contacts',
      'payment',
      'securePayment',
    ]);
    expect(doc.components.schemas.BookingIntent.properties.agency.required).toEqual(['name']);
    expect(doc.components.schemas.CodecPayloads.required).toEqual(['payloads']);
    // regression: the webhook body was a hand-written copy; now it is the validating schema's.
    expect(doc.paths['/webhooks'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WebhookCreate',
    });
    expect(doc.components.schemas.WebhookCreate).toMatchObject({
      required: ['url', 'events'],
      additionalProperties: false,
      properties: { url: { maxLength: 2048 }, events: { minItems: 1 }, description: { maxLength: 200 } },
    });
    expect(doc.components.schemas.BookingListQuery.properties.status.enum).toEqual(BOOKING_STATUSES);
    expect(doc.components.schemas.Problem.required).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'instance',
      'code',
      'requestId',
    ]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const errors = Object.entries<any>(op.responses).filter(([status]) => Number(status) >= 400);
        // Health answers a report, also with 503 (not a problem): public, no credential.
        if (path.startsWith('/health')) {
          expect(op.security).toBeUndefined();
          continue;
        }
        // The 3-D Secure return: the traveller's browser, no credential but the booking's token.
        if (path.endsWith('/authentication/return')) {
          expect([path, method, op.security]).toEqual([path, method, undefined]);
        } else if (path.endsWith('/notifications')) {
          // An airline's push: its notification credential, HTTP Basic; errors in NDC (OrderViewRS).
          expect([path, method, op.security]).toEqual([path, method, [{ airlineBasic: [] }]]);
          continue;
        } else {
          expect([path, method, op.security]).toEqual([path, method, [{ apiKey: [] }, { oidc: [] }]]);
          expect(errors.map(([s]) => s)).toContain('401');
        }
        for (const [status, answer] of errors) {
          expect([path, method, status, answer.content]).toEqual([
            path,
            method,
            status,
            { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          ]);
        }
      }
    }
    expect((await request(app.getHttpServer()).get('/docs')).status).toBe(200);
  });
});
