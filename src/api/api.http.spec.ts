/**
 * The HTTP shell of the API (routes, validation, error mapping, idempotency, codec, docs) over a
 * fake Temporal client. The real thing runs in test/api/*.e2e-spec.ts.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { oneWayIntent, CREDIT_CARD, TEST_CVV } from '../../test/api/intent.fixture';
import { loadApiConfig } from './config/api.config';
import { createApiApp } from '../configure-app';
import type { UiPayloadCodec } from './codec/codec.controller';

const NOW = new Date('2026-11-21T10:00:00Z');

interface FakeRun {
  type: string;
  status: string;
  memo: Record<string, unknown>;
  args: unknown[];
  state?: unknown;
  result?: unknown;
  signals: string[];
}

class NotFound extends Error {
  override name = 'WorkflowNotFoundError';
}

function fakeClient() {
  const runs = new Map<string, FakeRun>();
  const handle = (id: string) => ({
    workflowId: id,
    describe: async () => {
      const r = runs.get(id);
      if (r === undefined) throw new NotFound(id);
      return {
        workflowId: id,
        type: r.type,
        status: { name: r.status },
        memo: r.memo,
        searchAttributes: {},
        startTime: NOW,
        historyLength: 3,
      };
    },
    query: async () => runs.get(id)!.state,
    result: async () => runs.get(id)!.result,
    signal: async (name: string) => {
      runs.get(id)!.signals.push(name);
    },
  });
  const client = {
    runs,
    withDeadline: async <T>(_d: number, fn: () => Promise<T>) => fn(),
    workflow: {
      getHandle: handle,
      start: jest.fn(async (type: string, opts: { workflowId: string; memo: Record<string, unknown>; args: unknown[] }) => {
        if (!runs.has(opts.workflowId)) {
          runs.set(opts.workflowId, {
            type,
            status: 'RUNNING',
            memo: opts.memo,
            args: opts.args,
            state: { status: 'RUNNING', steps: [] },
            signals: [],
          });
        }
        return handle(opts.workflowId);
      }),
      list: jest.fn(),
    },
    connection: { workflowService: { getSystemInfo: async () => ({ serverVersion: 'fake' }) } },
  };
  return client;
}

const fakeCodec: UiPayloadCodec = {
  decode: async (payloads) => payloads.map((p) => ({ ...p, data: Buffer.from(`decoded:${Buffer.from(p.data!).toString()}`) })),
  encode: async (payloads) => payloads.map((p) => ({ ...p, data: Buffer.from(`encoded:${Buffer.from(p.data!).toString()}`) })),
};

describe('booking API over a fake Temporal client', () => {
  let app: NestExpressApplication;
  let client: ReturnType<typeof fakeClient>;

  beforeEach(async () => {
    client = fakeClient();
    const config = { ...loadApiConfig({ API_LOG: 'none', AIRLINE_BASE_URL: 'http://127.0.0.1:9' }), port: 0 };
    app = await createApiApp({ config, temporalClient: client as never, codec: fakeCodec, clock: () => NOW });
    await app.init();
  });
  afterEach(() => app.close());

  it('POST /bookings starts a workflow with an id derived from agency and key: 202', async () => {
    const intent = oneWayIntent({ now: NOW });
    const res = await request(app.getHttpServer()).post('/bookings').set('Idempotency-Key', 'k-1').send(intent);
    expect(res.status).toBe(202);
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
    const opts = client.workflow.start.mock.calls[0]![1] as unknown as Record<string, unknown>;
    expect(client.workflow.start.mock.calls[0]![0]).toBe('bookingWorkflow');
    expect(opts.workflowIdConflictPolicy).toBe('USE_EXISTING');
    expect(opts.workflowIdReusePolicy).toBe('REJECT_DUPLICATE');
    expect(opts.taskQueue).toBe('ndc-saga');
    expect(opts.args).toEqual([intent, {}]);
    expect(JSON.stringify(opts.memo)).not.toContain(CREDIT_CARD);
  });

  it('the same key and body gives the same booking; a different body gives 422', async () => {
    const intent = oneWayIntent({ now: NOW });
    const server = app.getHttpServer();
    await request(server).post('/bookings').set('Idempotency-Key', 'k-2').send(intent).expect(202);
    const again = await request(server).post('/bookings').set('Idempotency-Key', 'k-2').send(intent);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe('booking:AGENCY1:k-2');
    expect(again.body.existing).toBe(true);
    expect(client.workflow.start).toHaveBeenCalledTimes(1);
    const other = { ...intent, currency: 'EUR' };
    const clash = await request(server).post('/bookings').set('Idempotency-Key', 'k-2').send(other);
    expect(clash.status).toBe(422);
    expect(clash.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was already used for a different request',
      id: 'booking:AGENCY1:k-2',
    });
  });

  it('400 names each bad field and never echoes the card', async () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.passengers[0].birthdate = '1985-13-01';
    intent.payment.card.number = '4111111111111112';
    const res = await request(app.getHttpServer()).post('/bookings').send(intent);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      code: 'INVALID_INTENT',
      message: 'Invalid booking intent',
      fields: [
        { path: 'passengers[0].birthdate', message: 'must be a valid date YYYY-MM-DD' },
        { path: 'payment.card.number', message: 'is not a valid card number (Luhn check failed)' },
      ],
    });
    expect(res.text).not.toContain('411111111111111');
    expect(res.text).not.toContain(TEST_CVV);
    expect(client.workflow.start).not.toHaveBeenCalled();
  });

  it('malformed JSON is refused without quoting the body', async () => {
    const res = await request(app.getHttpServer())
      .post('/bookings')
      .set('Content-Type', 'application/json')
      .send(`{"payment":{"card":{"number":"${CREDIT_CARD}",`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', code: 'MALFORMED_JSON', message: 'The request body is not valid JSON' });
  });

  it('rejects a bad Idempotency-Key', async () => {
    const res = await request(app.getHttpServer()).post('/bookings').set('Idempotency-Key', 'a b').send(oneWayIntent({ now: NOW }));
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ path: 'Idempotency-Key', message: 'must be 1 to 100 characters of A-Z a-z 0-9 _ . : -' }]);
  });

  it('404 for unknown bookings and batches, and for workflows of another type', async () => {
    const server = app.getHttpServer();
    const res = await request(server).get('/bookings/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', code: 'BOOKING_NOT_FOUND', message: 'No booking with id nope' });
    client.runs.set('batch:x', { type: 'batchWorkflow', status: 'RUNNING', memo: {}, args: [], signals: [] });
    expect((await request(server).get('/bookings/batch%3Ax')).status).toBe(404);
    expect((await request(server).get('/batches/nope')).body.code).toBe('BATCH_NOT_FOUND');
    expect((await request(server).post('/bookings/nope/cancel')).status).toBe(404);
  });

  it('order: 409 before CONFIRMED, XML after', async () => {
    const server = app.getHttpServer();
    await request(server).post('/bookings').set('Idempotency-Key', 'k-3').send(oneWayIntent({ now: NOW })).expect(202);
    const early = await request(server).get('/bookings/booking:AGENCY1:k-3/order');
    expect(early.status).toBe(409);
    expect(early.headers['content-type']).toMatch(/^application\/json/);
    expect(early.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'ORDER_NOT_READY',
      message: 'The booking has no confirmed order yet',
      status: 'RUNNING',
    });
    const run = client.runs.get('booking:AGENCY1:k-3')!;
    run.status = 'COMPLETED';
    run.result = { state: { status: 'CONFIRMED', steps: [] }, orderViewXml: '<OrderViewRS/>' };
    const done = await request(server).get('/bookings/booking:AGENCY1:k-3/order');
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(done.text).toBe('<OrderViewRS/>');
  });

  it('approve-price only while AWAITING_APPROVAL; cancel only while open', async () => {
    const server = app.getHttpServer();
    await request(server).post('/bookings').set('Idempotency-Key', 'k-4').send(oneWayIntent({ now: NOW })).expect(202);
    const id = 'booking:AGENCY1:k-4';
    const run = client.runs.get(id)!;
    expect((await request(server).post(`/bookings/${id}/approve-price`)).body.code).toBe('NOT_AWAITING_APPROVAL');
    run.state = { status: 'AWAITING_APPROVAL', steps: [] };
    const ok = await request(server).post(`/bookings/${id}/approve-price`);
    expect(ok.status).toBe(202);
    expect(run.signals).toEqual(['approvePrice']);
    expect((await request(server).post(`/bookings/${id}/cancel`)).status).toBe(202);
    expect(run.signals).toEqual(['approvePrice', 'cancel']);
    run.status = 'COMPLETED';
    run.result = { state: { status: 'CANCELLED', steps: [] } };
    const late = await request(server).post(`/bookings/${id}/cancel`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('BOOKING_NOT_CANCELLABLE');
  });

  it('GET /bookings validates filters and queries visibility', async () => {
    const server = app.getHttpServer();
    const bad = await request(server).get("/bookings?status=DONE&agencyId=x'y");
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([
      { path: 'status', message: 'must be one of RUNNING, AWAITING_APPROVAL, CONFIRMED, FAILED, CANCELLED' },
      { path: 'agencyId', message: 'must be 1 to 64 characters of A-Z a-z 0-9 _ . -' },
    ]);
    client.workflow.list.mockImplementation(async function* () {
      yield {
        workflowId: 'booking:A:1',
        status: { name: 'COMPLETED' },
        searchAttributes: { BookingStatus: ['CONFIRMED'], AgencyId: ['A'], Route: ['LGW-OSL'], BookingReference: ['ABC123'] },
        startTime: NOW,
        closeTime: NOW,
      };
    });
    const res = await request(server).get('/bookings?status=CONFIRMED&agencyId=A');
    expect(res.status).toBe(200);
    expect(client.workflow.list.mock.calls[0]![0]).toEqual({
      query: "WorkflowType = 'bookingWorkflow' AND BookingStatus = 'CONFIRMED' AND AgencyId = 'A'",
      pageSize: 100,
    });
    expect(res.body).toEqual({
      bookings: [
        {
          id: 'booking:A:1',
          status: 'CONFIRMED',
          agencyId: 'A',
          route: 'LGW-OSL',
          bookingReference: 'ABC123',
          workflowStatus: 'COMPLETED',
          startTime: NOW.toISOString(),
          closeTime: NOW.toISOString(),
        },
      ],
    });
  });

  it('POST /batches validates each intent by index and starts batchWorkflow', async () => {
    const server = app.getHttpServer();
    const bad = oneWayIntent({ now: NOW }) as any;
    bad.contacts[0].emails = ['not-an-email'];
    const res = await request(server).post('/batches').send([oneWayIntent({ now: NOW }), bad]);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ path: '[1].contacts[0].emails[0]', message: 'must be an e-mail address' }]);
    const ok = await request(server).post('/batches').set('Idempotency-Key', 'b1').send([oneWayIntent({ now: NOW })]);
    expect(ok.status).toBe(202);
    expect(ok.body).toEqual({ id: 'batch:b1', total: 1, existing: false, links: { self: '/batches/batch%3Ab1' } });
    expect(client.workflow.start.mock.calls[0]![0]).toBe('batchWorkflow');
    client.runs.get('batch:b1')!.state = {
      total: 1, pending: 0, running: 1, confirmed: 0, failed: 0, cancelled: 0,
      bookings: [{ id: 'batch:b1-0', status: 'RUNNING' }],
    };
    const progress = await request(server).get('/batches/batch:b1');
    expect(progress.body).toEqual({
      id: 'batch:b1', done: false, total: 1, pending: 0, running: 1, confirmed: 0, failed: 0, cancelled: 0,
      bookings: [{ id: 'batch:b1-0', status: 'RUNNING', links: { self: '/bookings/batch%3Ab1-0' } }],
      links: { self: '/batches/batch%3Ab1' },
    });
  });

  it('codec endpoints follow the remote codec protocol, with CORS for the UI origin', async () => {
    const server = app.getHttpServer();
    const pre = await request(server)
      .options('/codec/decode')
      .set('Origin', 'http://localhost:8233')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-namespace');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:8233');
    expect(pre.headers['access-control-allow-headers']).toBe('Content-Type, X-Namespace, Authorization');
    const body = { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('x').toString('base64') }] };
    const res = await request(server).post('/codec/decode').set('Origin', 'http://localhost:8233').set('X-Namespace', 'default').send(body);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8233');
    expect(res.body).toEqual({ payloads: [{ metadata: body.payloads[0]!.metadata, data: Buffer.from('decoded:x').toString('base64') }] });
    const enc = await request(server).post('/codec/encode').send(body);
    expect(Buffer.from(enc.body.payloads[0].data, 'base64').toString()).toBe('encoded:x');
    const other = await request(server).post('/codec/decode').set('Origin', 'http://evil.example').send(body);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect((await request(server).post('/codec/decode').send({ payloads: [{ data: '***' }] })).body.fields).toEqual([
      { path: 'payloads[0].data', message: 'must be base64' },
    ]);
  });

  it('health: an airline outage degrades readiness (200, naming the airline) but keeps liveness', async () => {
    expect((await request(app.getHttpServer()).get('/health/live')).body).toEqual({ status: 'ok' });
    const ready = await request(app.getHttpServer()).get('/health/ready');
    expect([ready.status, ready.body.status]).toEqual([200, 'degraded']);
    const res = await request(app.getHttpServer()).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.temporal).toEqual({ status: 'up', address: '127.0.0.1:7233', namespace: 'default', serverVersion: 'fake' });
    expect(res.body.airline.status).toBe('down');
    expect(res.body.airline.url).toBe('http://127.0.0.1:9/health');
  });

  it('serves the OpenAPI document with the intent schema', async () => {
    const res = await request(app.getHttpServer()).get('/docs/json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/batches', '/batches/{id}', '/bookings', '/bookings/{id}', '/bookings/{id}/approve-price',
      '/bookings/{id}/cancel', '/bookings/{id}/order', '/codec/decode', '/codec/encode', '/health', '/health/live', '/health/ready',
      '/webhooks', '/webhooks/{id}', '/webhooks/{id}/deliveries',
    ]);
    expect(res.body.components.schemas.BookingIntent.required).toEqual([
      'agency', 'pointOfSale', 'currency', 'language', 'journey', 'passengers', 'contacts', 'payment', 'securePayment',
    ]);
    expect((await request(app.getHttpServer()).get('/docs')).status).toBe(200);
  });
});
