/**
 * All-or-nothing batches against the real airline, a real worker and a real Temporal dev server
 * (the jest-managed one of test/support/temporal-env, through the stack).
 */
import { AirlineStore } from '../../src/airline/store/airline.store';
import type { BatchProgress, BookingIntent } from '../../src/booking/booking.model';
import type { batchWorkflow as BatchWorkflowFn } from '../../workflows';
import { oneWayIntent } from '../api/intent.fixture';
import { pollUntil } from '../api/stack';
import { as, fastWebhooks, startWebhookStack, type WebhookStack } from '../webhooks/webhook-stack';

const AGENCY = 'AGATOMIC';

/** An intent the airline cannot book: no offer in price class FIRST (the booking ends FAILED, NO_OFFERS). */
function unbookable(): BookingIntent {
  const intent = oneWayIntent({ agencyId: AGENCY });
  intent.selection = { priceClass: 'FIRST' };
  return intent;
}

describe('atomic batches', () => {
  let stack: WebhookStack;

  beforeAll(async () => {
    stack = await startWebhookStack('atomic', fastWebhooks(), [AGENCY], { BATCH_CONCURRENCY: '1' });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  /** POSTs a batch and polls GET /batches/:id until done. */
  async function runBatch(body: unknown, key: string): Promise<any> {
    const posted = await as(stack.api, AGENCY, 'POST', '/batches', body, 'agency', { 'idempotency-key': key });
    expect(posted.status).toBe(202);
    return pollUntil(
      `batch ${posted.body.id} done`,
      async () => {
        const r = await as(stack.api, AGENCY, 'GET', `/batches/${encodeURIComponent(posted.body.id)}`);
        return r.status === 200 && r.body.done === true ? r.body : undefined;
      },
      120_000,
    );
  }

  it('a failed first booking stops the batch: later intents never start, nothing is ordered', async () => {
    const batchId = `batch:${AGENCY}:first-fails`;
    const view = await runBatch(
      { atomic: true, intents: [unbookable(), oneWayIntent({ agencyId: AGENCY }), oneWayIntent({ agencyId: AGENCY })] },
      'first-fails',
    );
    expect(view).toMatchObject({
      id: batchId,
      done: true,
      total: 3,
      pending: 0,
      running: 0,
      confirmed: 0,
      failed: 1,
      cancelled: 0,
      atomic: true,
      status: 'COMPENSATED',
      skipped: 2,
    });
    expect(view.bookings.map((b: any) => [b.id, b.status])).toEqual([[`${batchId}-0`, 'FAILED']]);
    const failed = await stack.client.workflow.getHandle(`${batchId}-0`).result();
    expect(failed.state.error.type).toBe('NO_OFFERS');
    // Nothing was started for the other intents.
    for (const index of [1, 2]) {
      await expect(stack.client.workflow.getHandle(`${batchId}-${index}`).describe()).rejects.toThrow(/not found/i);
    }
  });

  it('a failed last booking: every confirmed booking is cancelled at the airline, the batch ends COMPENSATED', async () => {
    const batchId = `batch:${AGENCY}:last-fails`;
    const view = await runBatch(
      { atomic: true, intents: [oneWayIntent({ agencyId: AGENCY }), oneWayIntent({ agencyId: AGENCY }), unbookable()] },
      'last-fails',
    );
    expect(view).toMatchObject({
      total: 3,
      confirmed: 0,
      failed: 1,
      cancelled: 2,
      atomic: true,
      status: 'COMPENSATED',
      skipped: 0,
    });
    expect(view.bookings.map((b: any) => [b.status, b.compensation])).toEqual([
      ['CANCELLED', 'DONE'],
      ['CANCELLED', 'DONE'],
      ['FAILED', undefined],
    ]);
    for (const b of view.bookings.slice(0, 2)) expect(b.refund).toMatchObject({ currency: 'GBP' });
    // Each confirmed order was cancelled at the airline (OrderCancelRS or a read-back as cancelled).
    for (const index of [0, 1]) {
      const booking = await as(stack.api, AGENCY, 'GET', `/bookings/${encodeURIComponent(`${batchId}-${index}`)}`);
      expect(booking.body.status).toBe('CANCELLED');
      expect(booking.body.cancellation).toMatchObject({ status: 'cancelled', refund: { currency: 'GBP' } });
      // The airline's own record agrees: the order is cancelled there, with the refund answered.
      const order = stack.airline.app.get(AirlineStore).getOrder(booking.body.order.orderId);
      expect(order?.cancellation).toMatchObject({ refund: booking.body.cancellation.refund });
    }
  });

  it('the body: an array (plain) or {intents, atomic}; paths of bad intents start with intents[i]; one key is one batch', async () => {
    const bad = await as(stack.api, AGENCY, 'POST', '/batches', {
      atomic: 'yes',
      intents: [{ ...oneWayIntent({ agencyId: AGENCY }), currency: 'gbp' }],
      extra: 1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([
      { path: 'extra', message: 'unknown field' },
      { path: 'atomic', message: 'must be true or false' },
    ]);
    const badIntent = await as(stack.api, AGENCY, 'POST', '/batches', {
      atomic: true,
      intents: [{ ...oneWayIntent({ agencyId: AGENCY }), currency: 'gbp' }],
    });
    expect(badIntent.status).toBe(400);
    expect(badIntent.body.fields.map((f: { path: string }) => f.path)).toEqual(['intents[0].currency']);
    // Same key, same atomic body: the same batch; the same intents as a plain batch: another request (422).
    const body = { atomic: true, intents: [unbookable()] };
    const first = await as(stack.api, AGENCY, 'POST', '/batches', body, 'agency', { 'idempotency-key': 'same-key' });
    const again = await as(stack.api, AGENCY, 'POST', '/batches', body, 'agency', { 'idempotency-key': 'same-key' });
    expect([first.status, first.body.existing, again.status, again.body.existing, again.body.id]).toEqual([
      202,
      false,
      202,
      true,
      first.body.id,
    ]);
    const plain = await as(stack.api, AGENCY, 'POST', '/batches', body.intents, 'agency', {
      'idempotency-key': 'same-key',
    });
    expect(plain.status).toBe(422);
  });

  it('a plain (not atomic) batch reports as before: no status, no skipped', async () => {
    const batchId = `batch:${stack.taskQueue}-plain`;
    const final: BatchProgress = await stack.client.workflow.execute<typeof BatchWorkflowFn>('batchWorkflow', {
      workflowId: batchId,
      taskQueue: stack.taskQueue,
      args: [{ intents: [oneWayIntent({ agencyId: AGENCY }), unbookable()], concurrency: 2 }],
    });
    expect(final).toEqual({
      total: 2,
      pending: 0,
      running: 0,
      confirmed: 1,
      held: 0,
      failed: 1,
      cancelled: 0,
      escalated: 0,
      bookings: [
        { id: `${batchId}-0`, status: 'CONFIRMED' },
        { id: `${batchId}-1`, status: 'FAILED' },
      ],
    });
  });
});
