/**
 * A batch of booking intents, run as child `bookingWorkflow`s with bounded concurrency.
 */
import { executeChild, setHandler, workflowInfo } from '@temporalio/workflow';
import type { BatchInput, BatchProgress, BookingStatus } from '../src/booking/booking.model';
import { bookingWorkflow } from './booking.workflow';
import { progressQuery } from './definitions';
import { emitWebhookEvent } from './webhook-events';

/** Default number of children running at once. */
export const DEFAULT_BATCH_CONCURRENCY = 4;

/** Child workflow id of intent `index` (0-based) of batch `batchId`. */
export function batchChildId(batchId: string, index: number): string {
  return `${batchId}-${index}`;
}

/**
 * Runs every intent as a child booking (ids from {@link batchChildId}), at most `concurrency` at
 * once, in intent order. Returns the final progress; the `progress` query gives it meanwhile.
 * A child that fails (a bug, or terminated) counts as `FAILED`. At the end it sends
 * `batch.completed` to the agency's webhook registry (workflows/webhook-events.ts).
 */
export async function batchWorkflow(input: BatchInput): Promise<BatchProgress> {
  const batchId = workflowInfo().workflowId;
  const intents = input.intents;
  const concurrency = Math.max(1, Math.floor(input.concurrency ?? DEFAULT_BATCH_CONCURRENCY));
  const statuses: (BookingStatus | undefined)[] = intents.map(() => undefined);

  const progress = (): BatchProgress => {
    const counts = { running: 0, confirmed: 0, failed: 0, cancelled: 0 };
    const bookings: BatchProgress['bookings'] = [];
    statuses.forEach((status, index) => {
      if (status === undefined) return;
      bookings.push({ id: batchChildId(batchId, index), status });
      if (status === 'CONFIRMED') counts.confirmed += 1;
      else if (status === 'FAILED') counts.failed += 1;
      else if (status === 'CANCELLED') counts.cancelled += 1;
      else counts.running += 1;
    });
    return { total: intents.length, pending: intents.length - bookings.length, ...counts, bookings };
  };
  setHandler(progressQuery, progress);

  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < intents.length) {
      const index = next;
      next += 1;
      statuses[index] = 'RUNNING';
      try {
        const result = await executeChild(bookingWorkflow, {
          workflowId: batchChildId(batchId, index),
          args: input.options !== undefined ? [intents[index]!, input.options] : [intents[index]!],
        });
        statuses[index] = result.state.status;
      } catch {
        statuses[index] = 'FAILED';
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, intents.length) }, lane));
  const final = progress();
  // `batch.completed` to each agency of the batch (one, once the API sets the agency from the credential).
  for (const agencyId of new Set(intents.map((intent) => intent.agency.id))) {
    await emitWebhookEvent(agencyId, 'batch.completed', {
      batchId,
      agencyId,
      status: 'COMPLETED',
      total: final.total,
      confirmed: final.confirmed,
      failed: final.failed,
      cancelled: final.cancelled,
      bookings: final.bookings,
    });
  }
  return final;
}
