/**
 * Observability of one booking across the API, the worker and the airline (docs/operations.md,
 * "Observability"), on the in-process stack with each role wired as its main.ts wires it:
 * - metrics: each role's `/metrics` (its own port) moved for the booking;
 * - traces: one trace from the API's server span through StartWorkflow, RunWorkflow,
 *   StartActivity/RunActivity and the worker's NDC client spans to the airline's server spans,
 *   linked only through Temporal headers and the HTTP `traceparent` header (the airline and the
 *   API extract the caller's context from the headers into an empty context);
 * - logs: the API's lines of the booking request carry its request id and workflow id, and no
 *   card number, CVV or credential appears in any line, at the most verbose level.
 */
import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  createLogger,
  InMemorySpanExporter,
  nestLoggerFor,
  setupTracing,
  type Tracing,
} from '../../src/common/observability';
import { NdcClient } from '../airline/ndc-client';
import '../support/temporal-env';
import { scrape, sampleSum } from '../support/prometheus';
import { CREDIT_CARD, cvvLeak, oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';

const REQUEST_ID = 'obs-e2e-booking-1';
/** A CVV of this test only, so a leak cannot be mistaken for another number. */
const CVV = '4862';

describe('observability of a booking (API, worker, airline in one process)', () => {
  const exporter = new InMemorySpanExporter();
  const lines: string[] = [];
  const airlineLines: string[] = [];
  let tracing: Tracing;
  let stack: Stack;
  let bookingId: string;
  const before: Record<'api' | 'worker' | 'airline', string> = { api: '', worker: '', airline: '' };
  const after: Record<'api' | 'worker' | 'airline', string> = { api: '', worker: '', airline: '' };

  beforeAll(async () => {
    tracing = setupTracing({ service: 'test', env: {}, exporter })!;
    const into = (target: string[]) =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          target.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      });
    const destination = into(lines);
    stack = await startStack({
      prefix: 'obs',
      metrics: true,
      tracing,
      apiLogger: createLogger({ service: 'api', level: 'trace', destination }),
      airlineLogger: createLogger({ service: 'airline', level: 'trace', destination: into(airlineLines) }),
    });
    for (const role of ['api', 'worker', 'airline'] as const) before[role] = await scrape(stack.metricsUrls![role]);

    const intent = oneWayIntent();
    intent.payment.card.verificationCode = CVV;
    // Through the API's logger: the whole intent (card number and CVV included) and the credential.
    nestLoggerFor(createLogger({ service: 'api', level: 'trace', destination })).log(
      { intent, headers: { authorization: stack.defaultAuth } },
      'booking intent as received',
      'BookingController',
    );
    const accepted = await call(stack, 'POST', '/bookings', intent, {
      'x-request-id': REQUEST_ID,
      'x-api-key': stack.defaultAuth.slice('Bearer '.length),
    });
    expect(accepted.status).toBe(202);
    bookingId = accepted.body.id;
    await waitForBooking(stack, bookingId, 'CONFIRMED');
    // A booking stays serviceable until its flight has departed: cancelled, its workflow closes,
    // so its RunWorkflow span ends and is exported.
    expect((await call(stack, 'POST', `/bookings/${encodeURIComponent(bookingId)}/cancel`)).body.status).toBe(
      'CANCELLED',
    );
    // A refused intent, an NDC business error (913) and an unauthenticated retail call.
    expect((await call(stack, 'POST', '/bookings', { agency: { id: 'AGENCY1' } })).status).toBe(400);
    const unknown = await new NdcClient(stack.airlineUrl).retrieve('ZZ-ORD-NOPE');
    expect(unknown.kind).toBe('error');
    expect((await fetch(`${stack.airlineUrl}/retail/orders`, { method: 'POST' })).status).toBe(401);
    // The booking's workflow has closed once its RunWorkflow span is exported.
    await pollUntil('the RunWorkflow span', async () =>
      exporter.getFinishedSpans().some((s) => s.name === 'RunWorkflow:bookingWorkflow') ? true : undefined,
    );
    for (const role of ['api', 'worker', 'airline'] as const) after[role] = await scrape(stack.metricsUrls![role]);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await tracing?.shutdown();
  });

  const moved = (role: 'api' | 'worker' | 'airline', name: string, labels: Record<string, string>): number =>
    sampleSum(after[role], name, labels) - sampleSum(before[role], name, labels);

  it('moves the API metrics: HTTP requests by route template and intake by outcome', () => {
    expect(moved('api', 'ndc_saga_http_requests_total', { method: 'POST', route: '/bookings', status: '202' })).toBe(1);
    expect(moved('api', 'ndc_saga_http_requests_total', { method: 'POST', route: '/bookings', status: '400' })).toBe(1);
    expect(
      moved('api', 'ndc_saga_http_requests_total', { method: 'GET', route: '/bookings/:id', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved('api', 'ndc_saga_http_request_duration_seconds_count', { method: 'POST', route: '/bookings' })).toBe(
      2,
    );
    expect(moved('api', 'ndc_saga_intake_total', { kind: 'booking', outcome: 'accepted', reason: 'none' })).toBe(1);
    expect(
      moved('api', 'ndc_saga_intake_total', { kind: 'booking', outcome: 'refused', reason: 'INVALID_INTENT' }),
    ).toBe(1);
    expect(after.api).toContain('service="api"');
    expect(after.api).not.toContain(bookingId);
  });

  it('moves the worker metrics: the booking confirmed, its airline calls', () => {
    expect(moved('worker', 'ndc_saga_bookings_started_total', { workflow_type: 'bookingWorkflow' })).toBe(1);
    expect(moved('worker', 'ndc_saga_bookings_ended_total', { status: 'CONFIRMED', failure_type: 'none' })).toBe(1);
    expect(
      moved('worker', 'ndc_saga_airline_call_duration_seconds_count', {
        airline: 'ZZ',
        operation: 'OrderCreate',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('moves the airline metrics: requests by NDC operation and outcome', () => {
    const ok = (operation: string) =>
      moved('airline', 'ndc_saga_airline_requests_total', { operation, outcome: 'ok', code: 'none' });
    expect(ok('AirShopping')).toBeGreaterThanOrEqual(1);
    expect(ok('OfferPrice')).toBeGreaterThanOrEqual(1);
    expect(ok('Token')).toBe(1);
    expect(ok('OrderCreate')).toBe(1);
    expect(
      moved('airline', 'ndc_saga_airline_requests_total', {
        operation: 'OrderRetrieve',
        outcome: 'ndc_error',
        code: '913',
        status: '200',
      }),
    ).toBe(1);
    expect(
      moved('airline', 'ndc_saga_airline_requests_total', { operation: 'Order', outcome: 'http_4xx', status: '401' }),
    ).toBe(1);
    expect(
      moved('airline', 'ndc_saga_airline_request_duration_seconds_count', { operation: 'OrderCreate', outcome: 'ok' }),
    ).toBe(1);
  });

  it('traces the booking as one trace: API request, workflow, activities, NDC calls, airline', () => {
    const spans = exporter.getFinishedSpans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const parentOf = (span: ReadableSpan): ReadableSpan | undefined =>
      span.parentSpanId !== undefined ? byId.get(span.parentSpanId) : undefined;
    const one = (name: string, pick: (s: ReadableSpan) => boolean = () => true): ReadableSpan => {
      const found = spans.filter((s) => s.name === name && pick(s));
      expect(found.map((s) => s.name)).toEqual([name]);
      return found[0]!;
    };

    const server = one(
      'POST /bookings',
      (s) => s.kind === SpanKind.SERVER && s.attributes['http.response.status_code'] === 202,
    );
    const traceId = server.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const start = one('StartWorkflow:bookingWorkflow');
    const run = one('RunWorkflow:bookingWorkflow');
    expect(parentOf(start)).toBe(server);
    expect(parentOf(run)).toBe(start);

    const ndcSpans = inTrace.filter((s) => s.name.startsWith('NDC ') && s.kind === SpanKind.CLIENT);
    const operations = new Set(ndcSpans.map((s) => s.attributes['ndc.operation']));
    for (const op of ['AirShopping', 'OfferPrice', 'Token', 'OrderCreate']) expect(operations).toContain(op);
    expect(new Set(ndcSpans.map((s) => s.attributes['ndc.airline']))).toEqual(new Set(['ZZ']));
    for (const ndc of ndcSpans) {
      const runActivity = parentOf(ndc)!;
      expect(runActivity.name).toMatch(/^RunActivity:/);
      const startActivity = parentOf(runActivity)!;
      expect(startActivity.name).toBe(runActivity.name.replace('RunActivity:', 'StartActivity:'));
      expect(parentOf(startActivity)).toBe(run);
      // The airline's server span of this call, linked by the traceparent header only.
      const airline = inTrace.filter((s) => s.kind === SpanKind.SERVER && parentOf(s) === ndc);
      expect(airline.map((s) => s.attributes['ndc.operation'])).toEqual([ndc.attributes['ndc.operation']]);
      expect(airline[0]!.attributes['ndc.correlation_id']).toBe(REQUEST_ID);
    }
    // Every span of the booking (API, workflow, activities, NDC, airline) is in the one trace.
    expect(inTrace.length).toBeGreaterThanOrEqual(3 + 3 * ndcSpans.length);
  });

  it('logs the booking request with its request id and workflow id, and never a secret', () => {
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // Access lines are the ones with a duration; every line logged for the request has its id.
    const access = parsed.filter((l) => l.requestId === REQUEST_ID && typeof l.durationMs === 'number');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      service: 'api',
      level: 'info',
      route: '/bookings',
      workflowId: bookingId,
      res: { statusCode: 202 },
      msg: 'POST /bookings 202',
    });
    expect(typeof access[0]!.traceId).toBe('string');
    const intentLine = parsed.find((l) => l.msg === 'booking intent as received');
    expect(intentLine).toMatchObject({
      context: 'BookingController',
      intent: { payment: { card: { number: '[Redacted]', verificationCode: '[Redacted]' } } },
      headers: { authorization: '[Redacted]' },
    });
    const all = lines.join('\n');
    const apiKey = stack.defaultAuth.slice('Bearer '.length);
    expect(all).not.toContain(CREDIT_CARD);
    expect(all).not.toMatch(cvvLeak(CVV));
    expect(all).not.toContain(apiKey);
    expect(all).not.toMatch(/Bearer (?!\[Redacted\])/);
    expect(all).toContain('[Redacted]');
  });

  it("logs the airline's requests with the NDC CorrelationID, operation and outcome, and never a secret", () => {
    const parsed = airlineLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const orderCreate = parsed.filter((l) => l.operation === 'OrderCreate');
    expect(orderCreate).toHaveLength(1);
    expect(orderCreate[0]).toMatchObject({
      service: 'airline',
      level: 'info',
      correlationId: REQUEST_ID,
      route: '/retail/orders',
      outcome: 'ok',
      msg: 'POST /retail/orders 200',
    });
    // The saga's own OrderRetrieve is ok; the test's lookup of an unknown order is not.
    expect(parsed.filter((l) => l.operation === 'OrderRetrieve' && l.outcome === 'ndc_error')).toEqual([
      expect.objectContaining({ level: 'info', ndcErrorCode: '913', msg: 'POST /retail/orders 200' }),
    ]);
    expect(parsed.find((l) => l.operation === 'Token')).toMatchObject({ correlationId: REQUEST_ID, outcome: 'ok' });
    const all = airlineLines.join('\n');
    expect(all).not.toContain(CREDIT_CARD);
    expect(all).not.toMatch(cvvLeak(CVV));
    expect(all).not.toMatch(/Basic (?!\[Redacted\])/);
  });
});
