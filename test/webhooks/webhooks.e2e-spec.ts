/**
 * Signed booking webhooks end to end: registration through the API, events from a real batch
 * (real airline, real worker, real Temporal dev server), deliveries to a real local receiver that
 * refuses the first attempts and verifies every signature with its own implementation, attempts
 * listed, give-up after the maximum age, delete stopping retries, continue-as-new of the
 * registry, several API instances and a worker restart, and the secret kept out of histories and
 * logs.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { EncryptionCodec, loadPayloadKey } from '../../src/temporal';
import {
  webhookDeliveryId,
  webhookRegistryId,
  webhookTaskQueue,
  type WebhookEvent,
} from '../../src/webhooks/webhook.model';
import { webhookEventSignal } from '../../workflows/webhook-definitions';
import { oneWayIntent } from '../api/intent.fixture';
import { pollUntil } from '../api/stack';
import { startReceiver, TOLERANCE_SECONDS, verifySignature, type Receiver } from './receiver';
import { as, fastWebhooks, startWebhookStack, type WebhookStack } from './webhook-stack';
import { captureProcessOutput } from '../support/capture-output';

const captured = captureProcessOutput('INFO');

const FAST = fastWebhooks(120_000);
const AGENCY = 'AGHOOK';
const OTHER = 'AGOTHER';

/** Every byte array in a history, as latin1 text (payload data, whatever their encoding). */
function bytesIn(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('latin1'));
  else if (Array.isArray(value)) value.forEach((v) => bytesIn(v, out));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => bytesIn(v, out));
  return out;
}

/** Payloads (objects with metadata and data) of a history. */
function payloadsIn(value: unknown, out: { metadata: Record<string, Uint8Array>; data?: Uint8Array }[] = []) {
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const record = value as Record<string, unknown>;
    if (
      record.metadata !== undefined &&
      record.metadata !== null &&
      typeof record.metadata === 'object' &&
      'encoding' in (record.metadata as object)
    ) {
      out.push(record as never);
    } else Object.values(record).forEach((v) => payloadsIn(v, out));
  }
  return out;
}

/** Where `secret` shows in clear: the whole secret, its key in base64, or the key's bytes. */
function secretLeaks(texts: string[], secret: string): string[] {
  const keyB64 = secret.slice('whsec_'.length);
  const keyBytes = Buffer.from(keyB64, 'base64').toString('latin1');
  const leaks: string[] = [];
  for (const text of texts) {
    if (text.includes(secret)) leaks.push('secret');
    if (text.includes(keyB64)) leaks.push('key (base64)');
    if (text.includes(keyBytes)) leaks.push('key (bytes)');
  }
  return leaks;
}

describe('signed booking webhooks', () => {
  let stack: WebhookStack;
  let receiver: Receiver;
  const secrets: string[] = [];
  const receivers: Receiver[] = [];
  let endpointId = '';

  beforeAll(async () => {
    stack = await startWebhookStack('webhooks', FAST, [
      AGENCY,
      OTHER,
      'AGGIVEUP',
      'AGDELETE',
      'AGCAN',
      'AGBOOKEV',
      'AGSERVICING',
    ]);
    receiver = await startReceiver({ refuseFirst: 2 });
    receivers.push(receiver);
  }, 120_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.close();
  });

  const register = async (url: string, events: string[], agencyId = AGENCY, api = stack.api) => {
    const r = await as(api, agencyId, 'POST', '/webhooks', { url, events, description: 'test endpoint' });
    expect(r.status).toBe(201);
    secrets.push(r.body.secret);
    return r.body as { id: string; secret: string };
  };

  const deliveriesOf = async (id: string, agencyId = AGENCY) => {
    const r = await as(stack.api, agencyId, 'GET', `/webhooks/${id}/deliveries`);
    expect(r.status).toBe(200);
    return r.body.deliveries as any[];
  };

  it('refuses an invalid registration, naming every bad field', async () => {
    const r = await as(stack.api, AGENCY, 'POST', '/webhooks', {
      url: 'ftp://user:pw@example.com/x',
      events: ['booking.confirmed', 'booking.shipped'],
      colour: 'red',
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('INVALID_WEBHOOK');
    expect(r.body.fields).toEqual(
      expect.arrayContaining([
        { path: 'url', message: 'must be an http(s) URL' },
        { path: 'events[1]', message: expect.stringContaining('must be one of booking.confirmed') },
        { path: 'colour', message: 'unknown field' },
      ]),
    );
    const empty = await as(stack.api, AGENCY, 'POST', '/webhooks', { url: receiver.url, events: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual([{ path: 'events', message: 'must name at least one event' }]);
  });

  it('registers an endpoint: the secret is answered once and never listed; other agencies see nothing', async () => {
    const created = await as(stack.api, AGENCY, 'POST', '/webhooks', {
      url: receiver.url,
      events: ['batch.completed', 'booking.confirmed'],
      description: 'back office',
    });
    expect(created.status).toBe(201);
    const { secret, id, createdAt, ...rest } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(id).toMatch(/^we_[0-9a-f]{24}$/);
    expect(Number.isNaN(Date.parse(createdAt))).toBe(false);
    expect(rest).toEqual({
      url: receiver.url,
      events: ['batch.completed', 'booking.confirmed'],
      description: 'back office',
      retry: FAST.retry,
      links: { self: `/webhooks/${id}`, deliveries: `/webhooks/${id}/deliveries` },
    });
    secrets.push(secret);
    receiver.setSecret(secret);
    endpointId = id;

    const listed = await as(stack.api, AGENCY, 'GET', '/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks).toEqual([{ id, createdAt, ...rest }]);
    expect(listed.text).not.toContain(secret.slice(6));
    const one = await as(stack.api, AGENCY, 'GET', `/webhooks/${id}`);
    expect(one.body).toEqual({ id, createdAt, ...rest });

    // Another agency: nothing to see, nothing to delete (404 as for an unknown id).
    expect((await as(stack.api, OTHER, 'GET', '/webhooks')).body).toEqual({ webhooks: [] });
    expect((await as(stack.api, OTHER, 'GET', `/webhooks/${id}`)).status).toBe(404);
    expect((await as(stack.api, OTHER, 'GET', `/webhooks/${id}/deliveries`)).status).toBe(404);
    const foreignDelete = await as(stack.api, OTHER, 'DELETE', `/webhooks/${id}`);
    expect(foreignDelete.status).toBe(404);
    expect(foreignDelete.body.code).toBe('WEBHOOK_NOT_FOUND');
    expect((await as(stack.api, OTHER, 'GET', `/webhooks?agencyId=${AGENCY}`)).status).toBe(400);
    // ops may act for any agency.
    const ops = await as(stack.api, 'OPS', 'GET', `/webhooks?agencyId=${AGENCY}`, undefined, 'ops');
    expect(ops.body.webhooks.map((w: { id: string }) => w.id)).toEqual([id]);
  });

  it('a batch sends batch.completed: signed, refused twice, accepted on the third attempt, every attempt listed', async () => {
    const posted = await as(stack.api, AGENCY, 'POST', '/batches', [
      oneWayIntent({ agencyId: AGENCY }),
      oneWayIntent({ agencyId: AGENCY }),
    ]);
    expect(posted.status).toBe(202);
    const batchId: string = posted.body.id;
    await pollUntil(
      'batch done',
      async () => {
        const r = await as(stack.api, AGENCY, 'GET', `/batches/${encodeURIComponent(batchId)}`);
        return r.status === 200 && r.body.done === true ? r.body : undefined;
      },
      120_000,
    );

    const accepted = await pollUntil('batch.completed accepted', async () =>
      receiver.requests.find((r) => r.answered === 204 && JSON.parse(r.body).type === 'batch.completed'),
    );
    const attempts = receiver.requests.filter((r) => r.id === accepted.id);
    expect(attempts.map((a) => a.answered)).toEqual([503, 503, 204]);
    expect(attempts.map((a) => a.verifyError)).toEqual([undefined, undefined, undefined]);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(attempts.every((a) => a.contentType === 'application/json')).toBe(true);
    const event = JSON.parse(accepted.body) as WebhookEvent;
    expect(event.id).toBe(accepted.id);
    expect(event.id).toMatch(/^evt_[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(event.timestamp))).toBe(false);
    expect(event).toEqual({
      id: accepted.id,
      type: 'batch.completed',
      timestamp: event.timestamp,
      data: {
        batchId,
        agencyId: AGENCY,
        status: 'COMPLETED',
        total: 2,
        confirmed: 2,
        failed: 0,
        cancelled: 0,
        bookings: [
          { id: `${batchId}-0`, status: 'CONFIRMED' },
          { id: `${batchId}-1`, status: 'CONFIRMED' },
        ],
      },
    });

    const delivery = await pollUntil('delivery listed as DELIVERED', async () => {
      const found = (await deliveriesOf(endpointId)).find((d) => d.eventId === event.id);
      return found?.status === 'DELIVERED' ? found : undefined;
    });
    expect(delivery).toMatchObject({
      id: webhookDeliveryId(AGENCY, endpointId, event.id),
      eventType: 'batch.completed',
      attemptCount: 3,
    });
    expect(delivery.nextAttemptAt).toBeUndefined();
    expect(delivery.attempts.map((a: any) => [a.attempt, a.httpStatus, a.error])).toEqual([
      [1, 503, 'HTTP 503'],
      [2, 503, 'HTTP 503'],
      [3, 204, undefined],
    ]);
    // Exponential backoff: the second wait is longer than the first (200 ms, then 400 ms).
    const at = delivery.attempts.map((a: any) => Date.parse(a.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(200);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(400);
    // Every attempt ran on the webhook task queue, outside the airline's rate limit.
    const history = await stack.client.workflow.getHandle(delivery.id).fetchHistory();
    const queues = (history.events ?? [])
      .map((e) => e.activityTaskScheduledEventAttributes?.taskQueue?.name)
      .filter((name) => name !== undefined);
    expect(queues).toEqual([1, 2, 3].map(() => webhookTaskQueue(stack.taskQueue)));
  });

  it('registers the servicing events (held, payment due, expired, changed, airline change) through the registry', async () => {
    const servicing = [
      'booking.held',
      'booking.payment_due',
      'booking.expired',
      'booking.changed',
      'booking.airline_change',
      'booking.airline_change_due',
    ];
    const endpoint = await register(receiver.url, servicing, 'AGSERVICING');
    const one = await as(stack.api, 'AGSERVICING', 'GET', `/webhooks/${endpoint.id}`);
    expect(one.body.events).toEqual(servicing);
  });

  it('bookings send booking.confirmed, booking.failed, booking.awaiting_approval and booking.cancelled', async () => {
    const agencyId = 'AGBOOKEV';
    const events = ['booking.confirmed', 'booking.failed', 'booking.awaiting_approval', 'booking.cancelled'];
    const accepting = await startReceiver({ refuseFirst: 0 });
    receivers.push(accepting);
    const endpoint = await register(accepting.url, events, agencyId);
    accepting.setSecret(endpoint.secret);
    const received = (type: string, bookingId: string) =>
      pollUntil(`${type} of ${bookingId}`, async () =>
        accepting.requests
          .map((r) => ({ r, e: JSON.parse(r.body) as WebhookEvent }))
          .find(({ e }) => e.type === type && (e.data as any).bookingId === bookingId),
      );

    const post = (intent: unknown, key: string) =>
      as(stack.api, agencyId, 'POST', '/bookings', intent, 'agency', { 'idempotency-key': key });

    const confirmed = await post(oneWayIntent({ agencyId }), 'ev-confirmed');
    expect(confirmed.status).toBe(202);
    const ok = await received('booking.confirmed', confirmed.body.id);
    const view = await as(stack.api, agencyId, 'GET', `/bookings/${encodeURIComponent(confirmed.body.id)}`);
    expect(ok.e.data).toEqual({
      bookingId: confirmed.body.id,
      agencyId,
      status: 'CONFIRMED',
      bookingReference: view.body.order.bookingReference,
      orderId: view.body.order.orderId,
      total: view.body.order.total,
      // The order's flights as the airline shows them (what servicing and airline changes compare).
      flights: [
        {
          flight: expect.stringMatching(/^ZZ\d+$/),
          origin: 'LGW',
          destination: 'OSL',
          departure: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/),
          arrival: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/),
        },
      ],
    });

    const unbookable = oneWayIntent({ agencyId });
    unbookable.selection = { priceClass: 'FIRST' };
    const failed = await post(unbookable, 'ev-failed');
    const ko = await received('booking.failed', failed.body.id);
    expect(ko.e.data).toMatchObject({
      bookingId: failed.body.id,
      agencyId,
      status: 'FAILED',
      error: { type: 'NO_OFFERS' },
    });

    const pricey = oneWayIntent({ agencyId });
    pricey.selection = { maxTotal: '1.00' };
    const waiting = await post(pricey, 'ev-approval');
    const wait = await received('booking.awaiting_approval', waiting.body.id);
    expect(wait.e.data).toMatchObject({
      bookingId: waiting.body.id,
      status: 'AWAITING_APPROVAL',
      pricedTotal: { currency: 'GBP' },
    });
    expect(
      (await as(stack.api, agencyId, 'POST', `/bookings/${encodeURIComponent(waiting.body.id)}/cancel`)).status,
    ).toBe(202);
    const gone = await received('booking.cancelled', waiting.body.id);
    expect(gone.e.data).toMatchObject({
      bookingId: waiting.body.id,
      status: 'CANCELLED',
      error: { type: 'CANCELLED' },
    });

    // One delivery per event, each verified by the receiver's own implementation.
    expect(accepting.requests.map((r) => r.verifyError)).toEqual(accepting.requests.map(() => undefined));
    expect(new Set(accepting.requests.map((r) => r.id)).size).toBe(accepting.requests.length);
    expect(accepting.requests).toHaveLength(4);
  });

  it('the test verifier refuses a tampered body, another secret and a stale timestamp', () => {
    const good = receiver.requests.find((r) => r.answered === 204)!;
    const headers = { 'webhook-id': good.id, 'webhook-timestamp': good.timestamp, 'webhook-signature': good.signature };
    const now = Number(good.timestamp);
    expect(verifySignature(secrets[0]!, headers, Buffer.from(good.body), now)).toBeUndefined();
    expect(verifySignature(secrets[0]!, headers, Buffer.from(`${good.body} `), now)).toBe('no v1 signature matches');
    expect(
      verifySignature(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, headers, Buffer.from(good.body), now),
    ).toBe('no v1 signature matches');
    expect(verifySignature(secrets[0]!, headers, Buffer.from(good.body), now + TOLERANCE_SECONDS + 1)).toBe(
      'webhook-timestamp outside the tolerance',
    );
    expect(verifySignature(secrets[0]!, { ...headers, 'webhook-id': 'evt_other' }, Buffer.from(good.body), now)).toBe(
      'no v1 signature matches',
    );
  });

  it('registrations survive a worker restart and every API instance sees them', async () => {
    await stack.stopWorker();
    await stack.startWorker();
    const second = await stack.startApi(FAST);
    const listed = await as(second, AGENCY, 'GET', '/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([endpointId]);
    const deliveries = await as(second, AGENCY, 'GET', `/webhooks/${endpointId}/deliveries`);
    expect(deliveries.body.deliveries[0].status).toBe('DELIVERED');
  });

  it('gives up after the maximum age: the delivery is FAILED with every attempt listed', async () => {
    const refusing = await startReceiver({ refuseFirst: Infinity });
    receivers.push(refusing);
    const shortLived = await stack.startApi({
      retry: {
        initialIntervalMs: 100,
        backoffCoefficient: 2,
        maximumIntervalMs: 200,
        maxAgeMs: 2000,
        requestTimeoutMs: 2000,
      },
      requireHttps: false,
    });
    const endpoint = await register(refusing.url, ['batch.completed'], 'AGGIVEUP', shortLived);
    refusing.setSecret(endpoint.secret);
    const event: WebhookEvent = {
      id: 'evt_00000000-0000-4000-8000-000000000001',
      type: 'batch.completed',
      timestamp: new Date().toISOString(),
      data: {
        batchId: 'batch:x',
        agencyId: 'AGGIVEUP',
        status: 'COMPLETED',
        total: 0,
        confirmed: 0,
        failed: 0,
        cancelled: 0,
        bookings: [],
      },
    };
    await stack.client.workflow.getHandle(webhookRegistryId('AGGIVEUP')).signal(webhookEventSignal, event);
    const delivery = await pollUntil('delivery FAILED', async () => {
      const found = (await deliveriesOf(endpoint.id, 'AGGIVEUP')).find((d) => d.eventId === event.id);
      return found?.status === 'FAILED' ? found : undefined;
    });
    const seen = refusing.requests.filter((r) => r.id === event.id);
    // Attempts are spaced by the backoff (and the server's timer resolution); at least one retry happened.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((r) => r.verifyError === undefined && r.answered === 503)).toBe(true);
    expect(delivery.attemptCount).toBe(seen.length);
    expect(delivery.attempts.map((a: any) => a.attempt)).toEqual(seen.map((_, i) => i + 1));
    const result = await stack.client.workflow.getHandle(delivery.id).result();
    expect(result).toBe('FAILED');
  });

  it('deleting an endpoint stops its pending deliveries and removes it', async () => {
    const refusing = await startReceiver({ refuseFirst: Infinity });
    receivers.push(refusing);
    const endpoint = await register(refusing.url, ['booking.failed'], 'AGDELETE');
    refusing.setSecret(endpoint.secret);
    const event: WebhookEvent = {
      id: 'evt_00000000-0000-4000-8000-000000000002',
      type: 'booking.failed',
      timestamp: new Date().toISOString(),
      data: {
        bookingId: 'booking:AGDELETE:x',
        agencyId: 'AGDELETE',
        status: 'FAILED',
        error: { type: 'NO_OFFERS', message: 'none' },
      },
    };
    await stack.client.workflow.getHandle(webhookRegistryId('AGDELETE')).signal(webhookEventSignal, event);
    await pollUntil('a first attempt', async () => (refusing.requests.length > 0 ? true : undefined));
    const deleted = await as(stack.api, 'AGDELETE', 'DELETE', `/webhooks/${endpoint.id}`);
    expect(deleted.status).toBe(204);
    expect((await as(stack.api, 'AGDELETE', 'GET', '/webhooks')).body).toEqual({ webhooks: [] });
    expect((await as(stack.api, 'AGDELETE', 'GET', `/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
    expect((await as(stack.api, 'AGDELETE', 'DELETE', `/webhooks/${endpoint.id}`)).status).toBe(404);
    const handle: WorkflowHandle = stack.client.workflow.getHandle(
      webhookDeliveryId('AGDELETE', endpoint.id, event.id),
    );
    expect(await handle.result()).toBe('CANCELLED');
  });

  it('the registry continues as new when its history grows, keeping endpoints and deliveries', async () => {
    const accepting = await startReceiver({ refuseFirst: 0 });
    receivers.push(accepting);
    const agencyId = 'AGCAN';
    const registry = stack.client.workflow.getHandle(webhookRegistryId(agencyId));
    await stack.client.workflow.start('webhookRegistryWorkflow', {
      workflowId: webhookRegistryId(agencyId),
      taskQueue: stack.taskQueue,
      args: [{ agencyId, maxHistoryEvents: 40 }],
    });
    const firstRun = (await registry.describe()).runId;
    const endpoint = await register(accepting.url, ['booking.confirmed'], agencyId);
    accepting.setSecret(endpoint.secret);
    const ids = Array.from(
      { length: 8 },
      (_, i) => `evt_00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
    );
    for (const id of ids) {
      const event: WebhookEvent = {
        id,
        type: 'booking.confirmed',
        timestamp: new Date().toISOString(),
        data: { bookingId: `booking:${agencyId}:${id}`, agencyId, status: 'CONFIRMED' },
      };
      await registry.signal(webhookEventSignal, event);
    }
    const deliveries = await pollUntil('8 deliveries DELIVERED', async () => {
      const list = await deliveriesOf(endpoint.id, agencyId);
      return list.length === 8 && list.every((d) => d.status === 'DELIVERED') ? list : undefined;
    });
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([...ids].sort());
    expect((await registry.describe()).runId).not.toBe(firstRun);
    const listed = await as(stack.api, agencyId, 'GET', '/webhooks');
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([endpoint.id]);
    // A repeated event (same id) is not delivered twice.
    const before = accepting.requests.length;
    await registry.signal(webhookEventSignal, {
      id: ids[0]!,
      type: 'booking.confirmed',
      timestamp: new Date().toISOString(),
      data: { bookingId: 'b', agencyId, status: 'CONFIRMED' },
    });
    const probe = 'evt_00000000-0000-4000-8000-000000000199';
    await registry.signal(webhookEventSignal, {
      id: probe,
      type: 'booking.confirmed',
      timestamp: new Date().toISOString(),
      data: { bookingId: 'b', agencyId, status: 'CONFIRMED' },
    });
    await pollUntil('probe delivered', async () => (accepting.requests.some((r) => r.id === probe) ? true : undefined));
    expect(accepting.requests.slice(before).map((r) => r.id)).toEqual([probe]);
  });

  it('no signing secret in any history (registry, deliveries) or log; the payloads are encrypted', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    const workflowIds = [
      webhookRegistryId(AGENCY),
      webhookRegistryId('AGGIVEUP'),
      webhookRegistryId('AGDELETE'),
      webhookRegistryId('AGCAN'),
    ];
    for (const list of [await deliveriesOf(endpointId)]) workflowIds.push(...list.map((d) => d.id));
    const texts: string[] = [];
    let encrypted = 0;
    let revealed = false;
    const codec = new EncryptionCodec(loadPayloadKey());
    for (const workflowId of workflowIds) {
      const history = await stack.client.workflow.getHandle(workflowId).fetchHistory();
      texts.push(JSON.stringify(history), ...bytesIn(history));
      for (const payload of payloadsIn(history)) {
        const encoding = Buffer.from(payload.metadata.encoding!).toString();
        if (encoding === 'binary/encrypted') {
          encrypted += 1;
          const [plain] = await codec.decode([payload as never]);
          if (secrets.some((s) => Buffer.from(plain!.data!).toString().includes(s))) revealed = true;
        }
      }
    }
    expect(encrypted).toBeGreaterThan(10);
    // Positive control: decrypted, the payloads do hold the secrets the plain text must not show.
    expect(revealed).toBe(true);
    for (const secret of secrets) {
      expect(secretLeaks(texts, secret)).toEqual([]);
      expect(secretLeaks(captured, secret)).toEqual([]);
    }
    // Nor the API keys the test used.
    for (const key of stack.keys.all()) expect(captured.filter((line) => line.includes(key))).toEqual([]);
  });
});
