import type {
  WebhookDelivery,
  WebhookDeliveryReport,
  WebhookEndpoint,
  WebhookRetryPolicy,
} from '../src/webhooks/webhook.model';
import { backoffMs } from './webhook-delivery.workflow';
import { bookingEventData, bookingEventType } from './webhook-events';
import { applyReport, endpointProblem, endpointView } from './webhook-registry.workflow';

const RETRY: WebhookRetryPolicy = {
  initialIntervalMs: 5000,
  backoffCoefficient: 2,
  maximumIntervalMs: 3_600_000,
  maxAgeMs: 259_200_000,
  requestTimeoutMs: 10_000,
};

function endpoint(id: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id,
    url: 'https://agency.example.com/hook',
    events: ['booking.confirmed'],
    secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
    createdAt: '2026-11-23T00:00:00.000Z',
    retry: RETRY,
    ...overrides,
  };
}

describe('backoffMs', () => {
  it('doubles from the initial interval up to the maximum', () => {
    expect([1, 2, 3, 4, 10, 11, 12, 50].map((n) => backoffMs(RETRY, n))).toEqual([
      5000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('gives 81 attempts within the default 72 hours', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed + backoffMs(RETRY, attempts) <= RETRY.maxAgeMs) {
      elapsed += backoffMs(RETRY, attempts);
      attempts += 1;
    }
    expect(attempts).toBe(81);
  });
});

describe('endpointProblem', () => {
  const id = 'we_0123456789abcdef01234567';
  it('accepts a good endpoint and a repeated registration', () => {
    expect(endpointProblem(endpoint(id), [])).toBeUndefined();
    expect(endpointProblem(endpoint(id, { url: 'bad' }), [endpoint(id)])).toBeUndefined();
  });
  it('names what is wrong', () => {
    expect(endpointProblem(endpoint('we_1'), [])).toBe('endpoint id must be we_ and 24 hex digits');
    expect(endpointProblem(endpoint(id, { url: 'ftp://x' }), [])).toBe('url must be an absolute http(s) URL');
    expect(endpointProblem(endpoint(id, { secret: 'plain' }), [])).toBe('secret must start with whsec_');
    expect(endpointProblem(endpoint(id, { events: [] }), [])).toBe('events must not be empty');
    expect(endpointProblem(endpoint(id, { events: ['x' as never] }), [])).toBe('unknown event type');
    const full = Array.from({ length: 20 }, (_, i) => endpoint(`we_${String(i).padStart(24, '0')}`));
    expect(endpointProblem(endpoint(id), full)).toBe('at most 20 endpoints per agency');
  });
  it('lists an endpoint without its secret', () => {
    expect(Object.keys(endpointView(endpoint(id))).sort()).toEqual(['createdAt', 'events', 'id', 'retry', 'url']);
  });
});

describe('applyReport', () => {
  const fresh = (): WebhookDelivery => ({
    id: 'd',
    eventId: 'e',
    eventType: 'booking.confirmed',
    status: 'PENDING',
    createdAt: '2026-11-23T00:00:00.000Z',
    attemptCount: 0,
    attempts: [],
  });
  /** A report of delivery `d` to endpoint `x` (a new object each call). */
  const report = (
    status: WebhookDeliveryReport['status'],
    attempt: WebhookDeliveryReport['attempt'],
    nextAttemptAt?: string,
  ): WebhookDeliveryReport => ({
    deliveryId: 'd',
    endpointId: 'x',
    status,
    attempt,
    ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
  });
  it('records attempts in order, once each, and the next attempt while pending', () => {
    const d = fresh();
    const failed = () =>
      report('PENDING', { attempt: 1, at: 'a1', durationMs: 3, httpStatus: 503, error: 'HTTP 503' }, 'n1');
    applyReport(d, failed());
    applyReport(d, failed());
    expect(d).toMatchObject({ status: 'PENDING', attemptCount: 1, nextAttemptAt: 'n1' });
    applyReport(d, report('DELIVERED', { attempt: 2, at: 'a2', durationMs: 2, httpStatus: 200 }));
    expect(d.status).toBe('DELIVERED');
    expect(d.nextAttemptAt).toBeUndefined();
    expect(d.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  });
  it('a late PENDING report never reopens a finished delivery', () => {
    const d = fresh();
    applyReport(d, report('DELIVERED', { attempt: 2, at: 'a2', durationMs: 2 }));
    applyReport(d, report('PENDING', { attempt: 1, at: 'a1', durationMs: 2 }, 'n'));
    expect(d).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
    expect(d.nextAttemptAt).toBeUndefined();
    expect(d.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  });
  it('keeps the latest 20 attempts', () => {
    const d = fresh();
    for (let n = 1; n <= 25; n += 1) applyReport(d, report('PENDING', { attempt: n, at: `a${n}`, durationMs: 1 }));
    expect(d.attemptCount).toBe(25);
    expect(d.attempts.map((a) => a.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
  });
});

describe('booking events', () => {
  it('maps final and waiting statuses to event types', () => {
    expect(
      [
        'RUNNING',
        'SETTLING',
        'ESCALATED',
        'AWAITING_APPROVAL',
        'AWAITING_SEAT_SELECTION',
        'CONFIRMED',
        'FAILED',
        'CANCELLED',
      ].map((s) => bookingEventType(s as never)),
    ).toEqual([
      undefined,
      undefined,
      'booking.escalated',
      'booking.awaiting_approval',
      'booking.awaiting_seat_selection',
      'booking.confirmed',
      'booking.failed',
      'booking.cancelled',
    ]);
  });
  it('carries the order, totals and error, never passenger or card data', () => {
    const data = bookingEventData(
      'booking:A:1',
      'A',
      {
        status: 'CONFIRMED',
        steps: [],
        pricedTotal: { value: '63.24', currency: 'GBP' },
        order: { orderId: 'O1', bookingReference: 'ABC123', total: { value: '63.24', currency: 'GBP' }, status: 'OK' },
      },
      'batch:k',
    );
    expect(data).toEqual({
      bookingId: 'booking:A:1',
      agencyId: 'A',
      status: 'CONFIRMED',
      batchId: 'batch:k',
      bookingReference: 'ABC123',
      orderId: 'O1',
      total: { value: '63.24', currency: 'GBP' },
    });
    expect(
      bookingEventData('b', 'A', {
        status: 'AWAITING_APPROVAL',
        steps: [],
        pricedTotal: { value: '300.00', currency: 'GBP' },
      }),
    ).toEqual({
      bookingId: 'b',
      agencyId: 'A',
      status: 'AWAITING_APPROVAL',
      pricedTotal: { value: '300.00', currency: 'GBP' },
    });
    expect(
      bookingEventData('b', 'A', {
        status: 'FAILED',
        steps: [],
        error: { type: 'NO_OFFERS', message: 'none', airlineCode: '710' },
      }),
    ).toEqual({
      bookingId: 'b',
      agencyId: 'A',
      status: 'FAILED',
      error: { type: 'NO_OFFERS', message: 'none', airlineCode: '710' },
    });
    expect(
      bookingEventData('b', 'A', {
        status: 'ESCALATED',
        steps: [],
        settling: { lookupIds: ['PRICE-1', 'SHOP-1'], since: 't0', until: 't1', lookups: 9 },
        error: { type: 'ORDER_UNSETTLED', message: 'no order seen' },
      }),
    ).toEqual({
      bookingId: 'b',
      agencyId: 'A',
      status: 'ESCALATED',
      lookupIds: ['PRICE-1', 'SHOP-1'],
      error: { type: 'ORDER_UNSETTLED', message: 'no order seen' },
    });
  });
});
