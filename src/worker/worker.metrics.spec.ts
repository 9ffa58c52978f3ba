import { createMetricsRegistry } from '../common/observability';
import { CircuitBreaker, NdcBusinessError, NdcHttpError, NdcTransportError, type NdcHttpClient } from '../ndc-client';
import { summarise } from './booking-metrics.interceptor';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { NativeConnection } from '@temporalio/worker';
import { agencyOfWebhookDelivery, webhookDeliveryId } from '../webhooks/webhook.model';
import {
  createWorkerMetrics,
  instrumentNdcClient,
  instrumentWebhookActivities,
  overdueQuery,
  recordBookingEnded,
} from './worker.metrics';

/** Value of the sample `name` whose labels include all of `labels` (any order), as text. */
function sample(text: string, name: string, labels: Record<string, string>): string | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    if (Object.entries(labels).every(([key, value]) => match[2]!.split(',').includes(`${key}="${value}"`)))
      return match[3];
  }
  return undefined;
}

describe('summarise (booking-metrics workflow interceptor)', () => {
  it('reports status, failure type, step durations, re-shops and reconciliations from the final state', () => {
    const steps = [
      { name: 'shop', outcome: 'ok', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:00.250Z' },
      { name: 'price', outcome: 'failed', startedAt: '2026-01-01T00:00:00.250Z', endedAt: '2026-01-01T00:00:01.000Z' },
      { name: 'shop', outcome: 'ok', startedAt: '2026-01-01T00:00:01.000Z', endedAt: '2026-01-01T00:00:01.100Z' },
      {
        name: 'createOrder',
        outcome: 'failed',
        startedAt: '2026-01-01T00:00:02.000Z',
        endedAt: '2026-01-01T00:00:07.000Z',
      },
      {
        name: 'reconcileOrder',
        outcome: 'ok',
        startedAt: '2026-01-01T00:00:07.000Z',
        endedAt: '2026-01-01T00:00:07.500Z',
      },
      { name: 'retrieveOrder', startedAt: '2026-01-01T00:00:08.000Z' },
    ];
    expect(summarise({ state: { status: 'FAILED', error: { type: 'PRICE_MISMATCH' }, steps } })).toEqual({
      status: 'FAILED',
      failureType: 'PRICE_MISMATCH',
      steps: [
        { name: 'shop', outcome: 'ok', seconds: 0.25 },
        { name: 'price', outcome: 'failed', seconds: 0.75 },
        { name: 'shop', outcome: 'ok', seconds: 0.1 },
        { name: 'createOrder', outcome: 'failed', seconds: 5 },
        { name: 'reconcileOrder', outcome: 'ok', seconds: 0.5 },
        { name: 'retrieveOrder', outcome: undefined },
      ],
      reshops: 1,
      reconciliations: 1,
    });
    expect(summarise(undefined)).toEqual({ status: 'UNKNOWN', steps: [], reshops: 0, reconciliations: 0 });
  });
});

describe('worker metrics', () => {
  it('counts ended bookings by status and failure type, and times steps', async () => {
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const metrics = createWorkerMetrics(registry);
    recordBookingEnded(metrics, {
      status: 'CONFIRMED',
      airline: 'YY',
      steps: [{ name: 'shop', outcome: 'ok', seconds: 0.2 }],
      reshops: 2,
      reconciliations: 1,
    });
    recordBookingEnded(metrics, {
      status: 'FAILED',
      failureType: 'NO_OFFERS',
      steps: [],
      reshops: 0,
      reconciliations: 0,
    });
    const text = await registry.metrics();
    expect(text).toContain(
      'ndc_saga_bookings_ended_total{status="CONFIRMED",failure_type="none",airline="YY",service="worker"} 1',
    );
    expect(text).toContain(
      'ndc_saga_bookings_ended_total{status="FAILED",failure_type="NO_OFFERS",airline="none",service="worker"} 1',
    );
    expect(sample(text, 'ndc_saga_saga_step_duration_seconds_bucket', { le: '0.1', step: 'shop', outcome: 'ok' })).toBe(
      '0',
    );
    expect(
      sample(text, 'ndc_saga_saga_step_duration_seconds_bucket', { le: '0.25', step: 'shop', outcome: 'ok' }),
    ).toBe('1');
    expect(text).toContain('ndc_saga_reshops_total{service="worker"} 2');
    expect(text).toContain('ndc_saga_reconciliations_total{service="worker"} 1');
  });

  it('times airline calls by NDC operation, HTTP status and outcome, passing results and errors through', async () => {
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const metrics = createWorkerMetrics(registry);
    const errors = [
      new NdcHttpError(503, 'HTTP 503'),
      new NdcTransportError('TIMEOUT', 'timeout', true),
      new NdcBusinessError([]),
    ];
    const fake = {
      offerPrice: jest.fn().mockResolvedValue('priced'),
      orderCreate: jest.fn().mockImplementation(() => Promise.reject(errors.shift())),
      close: jest.fn(),
    };
    const client = instrumentNdcClient(fake as unknown as NdcHttpClient, metrics, 'ZZ');
    await expect(client.offerPrice({} as never)).resolves.toBe('priced');
    for (let i = 0; i < 3; i += 1) await expect(client.orderCreate({} as never)).rejects.toBeInstanceOf(Error);
    client.close();
    expect(fake.close).toHaveBeenCalledTimes(1);
    const text = await registry.metrics();
    const count = (operation: string, outcome: string, status: string): string | undefined =>
      sample(text, 'ndc_saga_airline_call_duration_seconds_count', {
        airline: 'ZZ',
        operation,
        outcome,
        http_status: status,
        service: 'worker',
      });
    expect(count('OfferPrice', 'ok', '200')).toBe('1');
    expect(count('OrderCreate', 'http_error', '503')).toBe('1');
    expect(count('OrderCreate', 'transport_error', 'none')).toBe('1');
    expect(count('OrderCreate', 'ndc_error', '200')).toBe('1');
  });
});

describe('bookings overdue gauge', () => {
  it('counts, per waiting status, the running bookings started before that status window', async () => {
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const queries: string[] = [];
    const connection = {
      withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn(),
      workflowService: {
        countWorkflowExecutions: async ({ query }: { query: string }) => {
          queries.push(query);
          return { count: query.includes('"SETTLING"') ? 1 : 3 };
        },
      },
    } as unknown as NativeConnection;
    const now = Date.parse('2026-06-01T12:00:00.000Z');
    createWorkerMetrics(registry, {
      connection,
      namespace: 'default',
      overdueAfterMs: { AWAITING_APPROVAL: 3_600_000, SETTLING: 60_000 },
      now: () => now,
    });
    const text = await registry.metrics();
    expect(sample(text, 'ndc_saga_bookings_overdue', { status: 'AWAITING_APPROVAL' })).toBe('3');
    expect(sample(text, 'ndc_saga_bookings_overdue', { status: 'SETTLING' })).toBe('1');
    expect(queries).toContain(overdueQuery('AWAITING_APPROVAL', new Date('2026-06-01T11:00:00.000Z')));
    expect(queries).toContain(
      'WorkflowType = "bookingWorkflow" AND ExecutionStatus = "Running" AND BookingStatus = "SETTLING" AND StartTime < "2026-06-01T11:59:00.000Z"',
    );
  });
});

describe('webhook delivery counter', () => {
  it('counts each attempt by the agency of the delivery workflow and its outcome', async () => {
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const metrics = createWorkerMetrics(registry);
    const results = [
      { ok: true, at: 'x', durationMs: 1, httpStatus: 204 },
      { ok: false, at: 'x', durationMs: 1, httpStatus: 500, error: 'HTTP 500' },
    ];
    const activities = instrumentWebhookActivities({ deliverWebhook: async () => results.shift()! }, metrics);
    const env = new MockActivityEnvironment({
      workflowExecution: { workflowId: webhookDeliveryId('AG7', 'ep1', 'ev1'), runId: 'r' },
    });
    const input = { url: 'https://example.test/h', secret: 's', messageId: 'm', body: '{}', timeoutMs: 1000 };
    expect(((await env.run(activities.deliverWebhook, input)) as { ok: boolean }).ok).toBe(true);
    expect(((await env.run(activities.deliverWebhook, input)) as { ok: boolean }).ok).toBe(false);
    const text = await registry.metrics();
    expect(sample(text, 'ndc_saga_webhook_deliveries_total', { agency: 'AG7', outcome: 'delivered' })).toBe('1');
    expect(sample(text, 'ndc_saga_webhook_deliveries_total', { agency: 'AG7', outcome: 'failed' })).toBe('1');
    expect(agencyOfWebhookDelivery('booking:AG7:k')).toBeUndefined();
  });
});

describe('airline circuit breakers in the worker metrics', () => {
  it("shows each airline's circuit state (0 closed, 1 half-open, 2 open) and how often it opened", async () => {
    let now = 0;
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const metrics = createWorkerMetrics(registry);
    const zz = new CircuitBreaker('ZZ', { failureThreshold: 2, openMs: 1000, now: () => now });
    const yy = new CircuitBreaker('YY', { now: () => now });
    metrics.watchCircuit('ZZ', zz);
    metrics.watchCircuit('YY', yy);
    zz.failure();
    zz.failure();
    let text = await registry.metrics();
    expect(sample(text, 'ndc_saga_airline_circuit_state', { airline: 'ZZ' })).toBe('2');
    expect(sample(text, 'ndc_saga_airline_circuit_state', { airline: 'YY' })).toBe('0');
    expect(sample(text, 'ndc_saga_airline_circuit_opens_total', { airline: 'ZZ' })).toBe('1');
    expect(sample(text, 'ndc_saga_airline_circuit_opens_total', { airline: 'YY' })).toBe('0');
    expect(text).toContain('# TYPE ndc_saga_airline_circuit_opens_total counter');
    now = 1000;
    text = await registry.metrics();
    expect(sample(text, 'ndc_saga_airline_circuit_state', { airline: 'ZZ' })).toBe('1');
    // The trial call fails: open again, a second open counted.
    zz.before();
    zz.failure();
    text = await registry.metrics();
    expect(sample(text, 'ndc_saga_airline_circuit_state', { airline: 'ZZ' })).toBe('2');
    expect(sample(text, 'ndc_saga_airline_circuit_opens_total', { airline: 'ZZ' })).toBe('2');
  });
});
