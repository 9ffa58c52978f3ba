/**
 * A batch of booking intents, run as child `bookingWorkflow`s with bounded concurrency; an
 * atomic batch (all or nothing) cancels its confirmed bookings when one fails.
 */
import {
  condition,
  executeChild,
  getExternalWorkflowHandle,
  patched,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import {
  batchChildId,
  type BatchInput,
  type BatchProgress,
  type BatchStatus,
  type BookingResult,
  type BookingStatus,
  type CompensationOutcome,
  isFinalStatus,
} from '../src/booking/booking.model';
import { bookingWorkflow } from './booking.workflow';
import { bookingStatusSignal, cancelSignal, progressQuery } from './definitions';
import { emitWebhookEvent } from './webhook-events';
import { bookingStaticDetails, bookingSummary } from '../src/booking/booking.summary';

/** Default number of children running at once. */
export const DEFAULT_BATCH_CONCURRENCY = 4;
/** Patch id: children started with `ABANDON` and followed by status, atomic batches. */
export const BATCH_V2_PATCH = 'batch-v2-atomic';
/** First wait before a compensation's cancel is sent again; doubles up to {@link COMPENSATION_MAX_INTERVAL_MS}. */
export const COMPENSATION_INITIAL_INTERVAL_MS = 5_000;
export const COMPENSATION_MAX_INTERVAL_MS = 10 * 60_000;
/** What an atomic batch's children keep their cancel window open beyond the approval timeout: 6 h. */
export const ATOMIC_CANCEL_WINDOW_MARGIN_MS = 6 * 3_600_000;
/** The booking workflow's default approval wait (24 h), as in booking.workflow.ts. */
const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 3_600_000;

type Money = { value: string; currency: string };

/** A status a booking has its outcome in ({@link isFinalStatus}): the batch waits for no more. */
export function isFinal(status: BookingStatus | undefined): boolean {
  return status !== undefined && isFinalStatus(status);
}

/** The booking got its order: confirmed, or held for payment later (intent `payment.hold`). */
function ordered(status: BookingStatus | undefined): boolean {
  return status === 'CONFIRMED' || status === 'HELD';
}

/** Index of child `bookingId` of batch `batchId`, if it is one. */
export function batchChildIndex(batchId: string, bookingId: string, size: number): number | undefined {
  const prefix = `${batchId}-`;
  if (!bookingId.startsWith(prefix)) return undefined;
  const rest = bookingId.slice(prefix.length);
  if (!/^(0|[1-9][0-9]*)$/.test(rest)) return undefined;
  const index = Number(rest);
  return index < size ? index : undefined;
}

/** One intent of the batch as the batch sees it. */
export interface BatchEntry {
  status?: BookingStatus;
  refund?: Money;
  compensation?: CompensationOutcome;
  /** Atomic batch: never started because a booking had already failed. */
  skipped?: boolean;
}

/**
 * Records a status seen for a child (from its report or its result). A final status is never
 * replaced by a non-final one, nor a final one by another, except `CONFIRMED` or `HELD` by
 * `CANCELLED` (a compensated order). Returns true when the booking ended without an order
 * (neither `CONFIRMED` nor `HELD`). Pure; unit-tested.
 */
export function recordStatus(entry: BatchEntry, status: BookingStatus, refund?: Money): boolean {
  const previous = entry.status;
  if (isFinal(previous) && !(ordered(previous) && status === 'CANCELLED')) return false;
  entry.status = status;
  if (refund !== undefined) entry.refund = refund;
  return isFinal(status) && !ordered(status) && !ordered(previous);
}

/** The progress of `entries` (only atomic batches carry `atomic`, `status`, `skipped`). Pure; unit-tested. */
export function progressOf(
  batchId: string,
  entries: readonly BatchEntry[],
  atomic: boolean,
  status: BatchStatus,
): BatchProgress {
  const counts = { running: 0, confirmed: 0, held: 0, failed: 0, cancelled: 0, escalated: 0 };
  const bookings: BatchProgress['bookings'] = [];
  let skipped = 0;
  entries.forEach((entry, index) => {
    if (entry.skipped === true) skipped += 1;
    if (entry.status === undefined) return;
    const booking: BatchProgress['bookings'][number] = { id: batchChildId(batchId, index), status: entry.status };
    if (entry.refund !== undefined) booking.refund = entry.refund;
    if (entry.compensation !== undefined) booking.compensation = entry.compensation;
    bookings.push(booking);
    if (entry.status === 'CONFIRMED') counts.confirmed += 1;
    else if (entry.status === 'HELD') counts.held += 1;
    else if (entry.status === 'CANCELLED') counts.cancelled += 1;
    else if (entry.status === 'ESCALATED') counts.escalated += 1;
    else if (isFinal(entry.status)) counts.failed += 1;
    else counts.running += 1;
  });
  const progress: BatchProgress = {
    total: entries.length,
    pending: entries.length - bookings.length - skipped,
    ...counts,
    bookings,
  };
  return atomic ? { ...progress, atomic: true, status, skipped } : progress;
}

/** The refund of a cancelled order in a booking's state (`state.cancellation.refund`), if any. */
export function refundOf(state: BookingResult['state']): Money | undefined {
  return (state as { cancellation?: { refund?: Money } }).cancellation?.refund;
}

/**
 * Options of the children of an atomic batch: their cancel window (`cancelWindowMs`, the time a
 * confirmed booking stays cancellable) must outlast the batch, i.e. the longest a sibling may
 * wait for price approval plus {@link ATOMIC_CANCEL_WINDOW_MARGIN_MS}. Pure; unit-tested.
 */
export function atomicChildOptions(options: BatchInput['options']): BatchInput['options'] {
  const approvalTimeoutMs = options?.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const given = (options as { cancelWindowMs?: number } | undefined)?.cancelWindowMs ?? 0;
  const cancelWindowMs = Math.max(given, approvalTimeoutMs + ATOMIC_CANCEL_WINDOW_MARGIN_MS);
  return { ...(options ?? {}), cancelWindowMs } as BatchInput['options'];
}

/**
 * The options of one child: the batch's, with the child's own 3-D Secure return URLs when the
 * API gave them (batches started before they existed: the batch's options alone). Pure; unit-tested.
 */
export function optionsOfChild(
  options: BatchInput['options'],
  authenticationReturn: { termUrl: string; failUrl: string } | undefined,
): BatchInput['options'] {
  return authenticationReturn === undefined ? options : { ...(options ?? {}), authenticationReturn };
}

/**
 * Runs every intent as a child booking (ids from {@link batchChildId}), at most `concurrency` at
 * once, in intent order, and follows each to its final status (its `bookingStatus` reports, or its
 * result). Children are started with `ABANDON`: a confirmed booking stays cancellable after the
 * batch completes. Returns the final progress; the `progress` query gives it meanwhile. A child
 * that fails (a bug, or terminated) before a final status counts as `FAILED`.
 *
 * Atomic (`input.atomic`): once a booking ends other than `CONFIRMED`, no further intent starts,
 * running ones are asked to cancel, and every confirmed one is cancelled (its `cancel` signal,
 * sent again with backoff until it reports `CANCELLED`): the batch ends `COMPENSATED`.
 *
 * At the end it sends `batch.completed` to the agency's webhook registry (workflows/webhook-events.ts).
 */
export async function batchWorkflow(input: BatchInput): Promise<BatchProgress> {
  if (!patched(BATCH_V2_PATCH)) return legacyBatchWorkflow(input);
  const batch = openBatch(input);
  const { intents } = input;
  const concurrency = Math.max(1, Math.floor(input.concurrency ?? DEFAULT_BATCH_CONCURRENCY));
  await Promise.all(Array.from({ length: Math.min(concurrency, intents.length) }, () => lane(batch)));
  if (batch.atomic && batch.groupFailed) {
    batch.phase = 'COMPENSATING';
    await Promise.all(
      batch.entries.flatMap((entry, index) => (entry.status === 'CONFIRMED' ? [compensate(batch, index)] : [])),
    );
    batch.phase = batch.entries.some((entry) => entry.compensation === 'IMPOSSIBLE')
      ? 'COMPENSATION_FAILED'
      : 'COMPENSATED';
  } else {
    batch.phase = 'COMPLETED';
  }
  const final = progressOf(batch.id, batch.entries, batch.atomic, batch.phase);
  await emitBatchCompleted(batch.id, input, final, batch.phase);
  return final;
}

/** The batch as this run follows it. */
interface Batch {
  readonly id: string;
  readonly input: BatchInput;
  readonly atomic: boolean;
  readonly childOptions: BatchInput['options'];
  readonly entries: BatchEntry[];
  /** Each started child's result, once followed. */
  readonly results: (Promise<void> | undefined)[];
  readonly cancelRequested: Set<number>;
  /** The next intent a lane takes. */
  next: number;
  /** Written by {@link record} only. */
  groupFailed: boolean;
  phase: BatchStatus;
}

/** The batch's state, its `progress` query and the children's `bookingStatus` reports. */
function openBatch(input: BatchInput): Batch {
  const atomic = input.atomic === true;
  const batch: Batch = {
    id: workflowInfo().workflowId,
    input,
    atomic,
    childOptions: atomic ? atomicChildOptions(input.options) : input.options,
    entries: input.intents.map(() => ({})),
    results: input.intents.map(() => undefined),
    cancelRequested: new Set<number>(),
    next: 0,
    groupFailed: false,
    phase: 'RUNNING',
  };
  setHandler(progressQuery, () => progressOf(batch.id, batch.entries, atomic, batch.phase));
  setHandler(bookingStatusSignal, (report) => {
    const index = batchChildIndex(batch.id, report.bookingId, input.intents.length);
    if (index !== undefined) record(batch, index, report.status, report.refund);
  });
  return batch;
}

function record(batch: Batch, index: number, status: BookingStatus, refund?: Money): void {
  if (recordStatus(batch.entries[index]!, status, refund) && batch.atomic) batch.groupFailed = true;
}

/** Takes intents in order and runs each as a child booking until it has a final status. */
async function lane(batch: Batch): Promise<void> {
  const { input, entries } = batch;
  while (batch.next < input.intents.length) {
    const index = batch.next;
    batch.next += 1;
    if (batch.atomic && batch.groupFailed) {
      entries[index]!.skipped = true;
      continue;
    }
    record(batch, index, 'RUNNING');
    try {
      const options = optionsOfChild(batch.childOptions, input.authenticationReturns?.[index]);
      const intent = input.intents[index]!;
      const child = await startChild(bookingWorkflow, {
        workflowId: batchChildId(batch.id, index),
        args: options !== undefined ? [intent, options] : [intent],
        parentClosePolicy: 'ABANDON',
        staticSummary: bookingSummary(intent),
        staticDetails: bookingStaticDetails(intent),
      });
      batch.results[index] = child.result().then(
        (result) => record(batch, index, result.state.status, refundOf(result.state)),
        () => record(batch, index, 'FAILED'),
      );
    } catch {
      record(batch, index, 'FAILED');
      continue;
    }
    await condition(() => isFinal(entries[index]!.status));
    if (batch.atomic && batch.groupFailed) await cancelRunning(batch);
  }
}

/** Atomic batch that failed: asks every booking still running to cancel (before its order exists). */
async function cancelRunning(batch: Batch): Promise<void> {
  const running = batch.entries.flatMap((entry, index) =>
    entry.status !== undefined && !isFinal(entry.status) && !batch.cancelRequested.has(index) ? [index] : [],
  );
  running.forEach((index) => batch.cancelRequested.add(index));
  await Promise.all(
    running.map((index) =>
      getExternalWorkflowHandle(batchChildId(batch.id, index))
        .signal(cancelSignal, { reason: 'another booking of the atomic batch failed' })
        .catch(() => undefined),
    ),
  );
}

/** Cancels confirmed booking `index`, sending its cancel again with backoff until it is CANCELLED. */
async function compensate(batch: Batch, index: number): Promise<void> {
  const entry = batch.entries[index]!;
  entry.compensation = 'PENDING';
  const child = getExternalWorkflowHandle(batchChildId(batch.id, index));
  for (let attempt = 1; ; attempt += 1) {
    try {
      await child.signal(cancelSignal, { reason: 'compensation: another booking of the atomic batch failed' });
    } catch {
      // The booking workflow has closed: its result says how it ended.
      await batch.results[index];
      entry.compensation = entry.status === 'CANCELLED' ? 'DONE' : 'IMPOSSIBLE';
      return;
    }
    const wait = Math.min(COMPENSATION_INITIAL_INTERVAL_MS * 2 ** (attempt - 1), COMPENSATION_MAX_INTERVAL_MS);
    if (await condition(() => entry.status === 'CANCELLED', wait)) {
      entry.compensation = 'DONE';
      return;
    }
  }
}

/** `batch.completed` to each agency of the batch (one, once the API sets the agency from the credential). */
async function emitBatchCompleted(
  batchId: string,
  input: BatchInput,
  final: BatchProgress,
  status: BatchStatus,
): Promise<void> {
  for (const agencyId of new Set(input.intents.map((intent) => intent.agency.id))) {
    await emitWebhookEvent(agencyId, 'batch.completed', {
      batchId,
      agencyId,
      status,
      total: final.total,
      confirmed: final.confirmed,
      failed: final.failed,
      cancelled: final.cancelled,
      bookings: final.bookings,
    });
  }
}

/**
 * The batch as it ran before {@link BATCH_V2_PATCH} (children awaited with `executeChild`), kept
 * so that batches recorded or started before it replay unchanged.
 */
async function legacyBatchWorkflow(input: BatchInput): Promise<BatchProgress> {
  const batchId = workflowInfo().workflowId;
  const intents = input.intents;
  const concurrency = Math.max(1, Math.floor(input.concurrency ?? DEFAULT_BATCH_CONCURRENCY));
  const entries: BatchEntry[] = intents.map(() => ({}));
  const progress = (): BatchProgress => progressOf(batchId, entries, false, 'RUNNING');
  setHandler(progressQuery, progress);

  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < intents.length) {
      const index = next;
      next += 1;
      entries[index]!.status = 'RUNNING';
      try {
        const result = await executeChild(bookingWorkflow, {
          workflowId: batchChildId(batchId, index),
          args: input.options !== undefined ? [intents[index]!, input.options] : [intents[index]!],
        });
        entries[index]!.status = result.state.status;
      } catch {
        entries[index]!.status = 'FAILED';
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, intents.length) }, lane));
  const final = progress();
  await emitBatchCompleted(batchId, input, final, 'COMPLETED');
  return final;
}
