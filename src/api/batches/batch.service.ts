/** Batches: many intents as one `batchWorkflow` running them as child bookings. */
import { Inject, Injectable } from '@nestjs/common';
import { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  BATCH_WORKFLOW,
  PROGRESS_QUERY,
  type BatchInput,
  type BatchProgress,
  type BookingIntent,
  type BookingStatus,
} from '../../booking/booking.model';
import { API_CONFIG, TEMPORAL_CLIENT } from '../api.tokens';
import { ApiError } from '../common/api-error';
import type { ApiConfig } from '../config/api.config';
import { createHash } from 'node:crypto';
import { MAX_BATCH_SIZE } from '../bookings/booking.dto';
import {
  bookingLinks,
  describeOrUndefined,
  FINGERPRINT_MEMO,
  fingerprint,
  idempotencyKey,
  MAX_WORKFLOW_ID,
} from '../bookings/booking.service';

export interface BatchAccepted {
  id: string;
  total: number;
  existing: boolean;
  links: { self: string };
}

/** `GET /batches/:id`: the batch workflow's progress, each booking with its link. */
export interface BatchView extends Omit<BatchProgress, 'bookings'> {
  id: string;
  /** True once every child booking has finished. */
  done: boolean;
  bookings: { id: string; status: BookingStatus; links: { self: string } }[];
  links: { self: string };
}

/**
 * Batch workflow id: `batch:<key>`; its children are `batch:<key>-<index>`. When a child id could
 * exceed {@link MAX_WORKFLOW_ID} (it is sent as the NDC CorrelationID), `batch:<first 40 hex of
 * sha256(key)>` instead.
 */
export function batchWorkflowId(key: string): string {
  const readable = `batch:${key}`;
  if (readable.length + `-${MAX_BATCH_SIZE - 1}`.length <= MAX_WORKFLOW_ID) return readable;
  return `batch:${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

@Injectable()
export class BatchService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  async create(intents: BookingIntent[], keyHeader: string | undefined): Promise<BatchAccepted> {
    const id = batchWorkflowId(idempotencyKey(keyHeader));
    const print = fingerprint(intents);
    const self = { self: `/batches/${encodeURIComponent(id)}` };
    const handle = this.client.workflow.getHandle(id);
    const before = await describeOrUndefined(handle);
    if (before !== undefined) {
      if (before.type !== BATCH_WORKFLOW || before.memo?.[FINGERPRINT_MEMO] !== print) throw keyReused(id);
      return { id, total: intents.length, existing: true, links: self };
    }
    const input: BatchInput = { intents, concurrency: this.config.batchConcurrency };
    if (this.config.approvalTimeoutMs !== undefined) input.options = { approvalTimeoutMs: this.config.approvalTimeoutMs };
    try {
      await this.client.workflow.start(BATCH_WORKFLOW, {
        workflowId: id,
        taskQueue: this.config.taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        memo: { [FINGERPRINT_MEMO]: print },
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    const after = await handle.describe();
    if (after.memo?.[FINGERPRINT_MEMO] !== print) throw keyReused(id);
    return { id, total: intents.length, existing: false, links: self };
  }

  async get(id: string): Promise<BatchView> {
    const handle = this.client.workflow.getHandle(id);
    const d = await describeOrUndefined(handle);
    if (d === undefined || d.type !== BATCH_WORKFLOW) throw new ApiError('BATCH_NOT_FOUND', `No batch with id ${id}`);
    let progress: BatchProgress;
    if (d.status.name === 'COMPLETED') {
      const result = (await handle.result()) as unknown;
      progress = isProgress(result)
        ? result
        : await this.client.withDeadline(Date.now() + this.config.queryTimeoutMs, () => handle.query<BatchProgress>(PROGRESS_QUERY));
    } else {
      progress = await this.client.withDeadline(Date.now() + this.config.queryTimeoutMs, () =>
        handle.query<BatchProgress>(PROGRESS_QUERY),
      );
    }
    return {
      id,
      done: d.status.name !== 'RUNNING' || progress.pending + progress.running === 0,
      total: progress.total,
      pending: progress.pending,
      running: progress.running,
      confirmed: progress.confirmed,
      failed: progress.failed,
      cancelled: progress.cancelled,
      bookings: progress.bookings.map((b) => ({ id: b.id, status: b.status, links: { self: bookingLinks(b.id).self } })),
      links: { self: `/batches/${encodeURIComponent(id)}` },
    };
  }
}

function isProgress(v: unknown): v is BatchProgress {
  return v !== null && typeof v === 'object' && typeof (v as BatchProgress).total === 'number' && Array.isArray((v as BatchProgress).bookings);
}

function keyReused(id: string): ApiError {
  return new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request', undefined, {
    id,
  });
}
