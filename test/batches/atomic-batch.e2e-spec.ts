/**
 * All-or-nothing batches against the real airline, a real worker and a real Temporal dev server
 * (the jest-managed one of test/support/temporal-env, through the stack).
 */
import type { BatchProgress, BookingIntent } from '../../src/booking/booking.model';
import type { batchWorkflow as BatchWorkflowFn } from '../../workflows';
import { oneWayIntent } from '../api/intent.fixture';
import { startWebhookStack, type WebhookStack } from '../webhooks/webhook-stack';

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
    stack = await startWebhookStack('atomic', {
      retry: { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 1000, maxAgeMs: 60_000, requestTimeoutMs: 2000 },
      requireHttps: false,
    }, [AGENCY]);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('a failed first booking stops the batch: later intents never start, nothing is ordered', async () => {
    const batchId = `batch:${stack.taskQueue}-first-fails`;
    const handle = await stack.client.workflow.start<typeof BatchWorkflowFn>('batchWorkflow', {
      workflowId: batchId,
      taskQueue: stack.taskQueue,
      args: [{ intents: [unbookable(), oneWayIntent({ agencyId: AGENCY }), oneWayIntent({ agencyId: AGENCY })], concurrency: 1, atomic: true }],
    });
    const final: BatchProgress = await handle.result();
    expect(final).toEqual({
      total: 3,
      pending: 0,
      running: 0,
      confirmed: 0,
      failed: 1,
      cancelled: 0,
      bookings: [{ id: `${batchId}-0`, status: 'FAILED' }],
      atomic: true,
      status: 'COMPENSATED',
      skipped: 2,
    });
    const failed = await stack.client.workflow.getHandle(`${batchId}-0`).result();
    expect(failed.state.error.type).toBe('NO_OFFERS');
    // Nothing was started for the other intents.
    for (const index of [1, 2]) {
      await expect(stack.client.workflow.getHandle(`${batchId}-${index}`).describe()).rejects.toThrow(/not found/i);
    }
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
      failed: 1,
      cancelled: 0,
      bookings: [
        { id: `${batchId}-0`, status: 'CONFIRMED' },
        { id: `${batchId}-1`, status: 'FAILED' },
      ],
    });
  });
});
