/**
 * Batches: many intents as one `batchWorkflow` running them as child bookings. A batch belongs to
 * one agency (AgencyId search attribute); reads are scoped like bookings.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Client, type WorkflowExecutionDescription, type WorkflowHandle } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { createHash } from 'node:crypto';
import {
  batchChildId,
  BATCH_WORKFLOW,
  BOOKING_WORKFLOW,
  type BatchInput,
  type BatchProgress,
  type BookingIntent,
  type BookingStatus,
  isFinalStatus,
} from '../../booking/booking.model';
import { progressQuery } from '../../../workflows/definitions';
import { bookingPriority } from '../../booking/booking.priority';
import { ApiError } from '../common/api-error';
import { API_CONFIG, TEMPORAL_CLIENT } from '../common/api.tokens';
import { FINGERPRINT_MEMO, fingerprint, idempotencyKey, keyReused, MAX_WORKFLOW_ID } from '../common/intake';
import type { Principal } from '../common/principal';
import { startFailure } from '../common/start-failure';
import type { BatchWorkflow } from '../common/workflow-contract';
import { describeOrUndefined, errorName, statusFromDescription, visibleTo } from '../common/workflow-reads';
import type { ApiConfig } from '../config/api.config';
import { AuthenticationReturns } from '../bookings/authentication-return';
import { MAX_BATCH_SIZE } from '../bookings/booking.dto';
import { bookingLinks, LATEST_RUN } from '../bookings/booking.reads';

/** Memo key holding the number of intents of a batch (for the progress answered from visibility). */
export const TOTAL_MEMO = 'total';

// The API's answers: types inferred from their zod schemas, which the OpenAPI document is derived from.
export type { BatchAccepted, BatchView } from '../common/api.schemas';
import type { BatchAccepted, BatchView } from '../common/api.schemas';

/**
 * Batch workflow id: `batch:<agencyId>:<key>`; its children are `batch:<agencyId>:<key>-<index>`.
 * When a child id could exceed {@link MAX_WORKFLOW_ID}, `batch:<first 40 hex of sha256(agencyId,
 * key)>` instead. Per agency, like booking ids: two agencies with one key get two batches.
 */
export function batchWorkflowId(agencyId: string, key: string): string {
  const readable = `batch:${agencyId}:${key}`;
  if (readable.length + `-${MAX_BATCH_SIZE - 1}`.length <= MAX_WORKFLOW_ID) return readable;
  return `batch:${createHash('sha256').update(`${agencyId}\n${key}`).digest('hex').slice(0, 40)}`;
}

/**
 * The agency a batch belongs to: the caller's, or, for ops submitting intents that all name one
 * agency, that agency.
 */
export function batchAgency(intents: BookingIntent[], caller: Principal): string {
  if (caller.role !== 'ops') return caller.agencyId;
  const named = new Set(intents.map((i) => i.agency.id));
  return named.size === 1 ? [...named][0]! : caller.agencyId;
}

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

@Injectable()
export class BatchService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly returns: AuthenticationReturns,
  ) {}

  /** Starts the batch, or returns the one already started with the same agency and key. Intents are settled for the caller. */
  async create(
    intents: BookingIntent[],
    caller: Principal,
    keyHeader: string | undefined,
    requestId: string,
    atomic = false,
  ): Promise<BatchAccepted> {
    const agencyId = batchAgency(intents, caller);
    const id = batchWorkflowId(agencyId, idempotencyKey(keyHeader));
    // An atomic batch is another request than a plain one with the same intents (same key: 422).
    const print = atomic ? fingerprint({ atomic: true, intents }) : fingerprint(intents);
    const self = { self: `/batches/${encodeURIComponent(id)}` };
    const handle = this.client.workflow.getHandle<BatchWorkflow>(id);
    const before = await describeOrUndefined(handle);
    if (before !== undefined) {
      if (before.type !== BATCH_WORKFLOW || before.memo?.[FINGERPRINT_MEMO] !== print) throw keyReused(id);
      return { id, total: intents.length, existing: true, links: self };
    }
    try {
      await this.client.workflow.start<BatchWorkflow>(BATCH_WORKFLOW, {
        workflowId: id,
        taskQueue: this.config.taskQueue,
        args: [this.batchInput(id, intents, requestId, atomic)],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        // Behind interactive bookings; the children and their activities inherit it on the server.
        priority: bookingPriority('batch', agencyId, this.config.priorities),
        memo: { [FINGERPRINT_MEMO]: print, [TOTAL_MEMO]: intents.length },
        searchAttributes: { AgencyId: [agencyId] },
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw await startFailure(this.client, err);
    }
    const after = await handle.describe();
    if (after.memo?.[FINGERPRINT_MEMO] !== print) throw keyReused(id);
    return { id, total: intents.length, existing: false, links: self };
  }

  /** The batch workflow's argument: the intents with the deployment's workflow defaults. */
  private batchInput(id: string, intents: BookingIntent[], requestId: string, atomic: boolean): BatchInput {
    const options = { ...this.config.workflowDefaults, correlationId: requestId };
    if (this.config.approvalTimeoutMs !== undefined) options.approvalTimeoutMs = this.config.approvalTimeoutMs;
    return {
      intents,
      concurrency: this.config.batchConcurrency,
      options,
      // Each child gets the return URLs a single booking gets, under its own id.
      authenticationReturns: intents.map((_, index) => this.returns.urlsOf(batchChildId(id, index))),
      ...(atomic ? { atomic: true } : {}),
    };
  }

  /** Progress of a batch the caller may see (unknown and another agency's: BATCH_NOT_FOUND alike). */
  async get(id: string, caller: Principal): Promise<BatchView> {
    const handle = this.client.workflow.getHandle<BatchWorkflow>(id);
    const d = await describeOrUndefined(handle);
    if (d === undefined || d.type !== BATCH_WORKFLOW || !visibleTo(d, caller))
      throw new ApiError('BATCH_NOT_FOUND', `No batch with id ${id}`);
    const { progress, stale } = await this.progressOf(handle, d);
    return batchView(id, d, progress, stale);
  }

  /**
   * The batch's progress: its result once completed, else its `progress` query, else (no worker
   * answered) the counts visibility has, with `stale` saying why.
   */
  private async progressOf(
    handle: WorkflowHandle<BatchWorkflow>,
    d: WorkflowExecutionDescription,
  ): Promise<{ progress: BatchProgress; stale?: string }> {
    if (d.status.name === 'COMPLETED') {
      const result = await handle.result();
      if (isProgress(result)) return { progress: result };
    }
    try {
      return {
        progress: await this.client.withDeadline(Date.now() + this.config.queryTimeoutMs, () =>
          handle.query(progressQuery),
        ),
      };
    } catch (err) {
      // No worker answered (none polling, or the one holding the batch died), whatever the
      // gRPC code: count the children from visibility instead.
      return {
        progress: await this.progressFromVisibility(d),
        stale: `no worker answered the progress query within ${this.config.queryTimeoutMs} ms; counts from visibility (${errorName(err)})`,
      };
    }
  }

  /**
   * The progress of batch `d` as visibility knows it: its child bookings (`ParentWorkflowId`)
   * with their BookingStatus search attribute, the total from the batch's memo. Eventually
   * consistent: a child started a moment ago may still count as pending.
   */
  private async progressFromVisibility(d: WorkflowExecutionDescription): Promise<BatchProgress> {
    if (!SAFE_ID.test(d.workflowId))
      throw new ApiError('TEMPORAL_UNAVAILABLE', 'The batch progress is not available right now');
    const children: { id: string; status: BookingStatus }[] = [];
    const query = `ParentWorkflowId = '${d.workflowId}' AND WorkflowType = '${BOOKING_WORKFLOW}' AND ${LATEST_RUN}`;
    for await (const wf of this.client.workflow.list({ query, pageSize: 100 })) {
      const closed = wf.status.name !== 'RUNNING';
      const status = statusFromDescription(wf) ?? (closed ? 'FAILED' : 'RUNNING');
      children.push({ id: wf.workflowId, status });
    }
    children.sort((a, b) => childIndex(a.id) - childIndex(b.id));
    const memoTotal = Number(d.memo?.[TOTAL_MEMO]);
    const total = Number.isInteger(memoTotal) && memoTotal >= children.length ? memoTotal : children.length;
    const count = (s: BookingStatus) => children.filter((c) => c.status === s).length;
    return {
      total,
      pending: total - children.length,
      // Every status a booking passes through (AWAITING_APPROVAL, AWAITING_AUTHENTICATION, SETTLING...).
      running: children.filter((c) => !isFinalStatus(c.status)).length,
      confirmed: count('CONFIRMED'),
      held: count('HELD'),
      failed: count('FAILED'),
      cancelled: count('CANCELLED'),
      escalated: count('ESCALATED'),
      bookings: children,
    };
  }
}

/** The answer of GET /batches/:id. */
function batchView(id: string, d: WorkflowExecutionDescription, progress: BatchProgress, stale?: string): BatchView {
  return {
    id,
    // An atomic batch is done once its compensation is over too.
    done:
      (d.status.name !== 'RUNNING' && stale === undefined) ||
      (progress.pending + progress.running === 0 &&
        (progress.atomic !== true || (progress.status !== 'RUNNING' && progress.status !== 'COMPENSATING'))),
    total: progress.total,
    pending: progress.pending,
    running: progress.running,
    confirmed: progress.confirmed,
    held: progress.held ?? 0,
    failed: progress.failed,
    cancelled: progress.cancelled,
    escalated: progress.escalated ?? 0,
    bookings: progress.bookings.map((b) => ({
      id: b.id,
      status: b.status,
      ...(b.refund !== undefined ? { refund: b.refund } : {}),
      ...(b.compensation !== undefined ? { compensation: b.compensation } : {}),
      links: { self: bookingLinks(b.id).self },
    })),
    ...(progress.atomic === true ? { atomic: true as const, status: progress.status, skipped: progress.skipped } : {}),
    ...(stale !== undefined ? { stale } : {}),
    links: { self: `/batches/${encodeURIComponent(id)}` },
  };
}

function childIndex(id: string): number {
  const m = /-(\d+)$/.exec(id);
  return m === null ? Number.MAX_SAFE_INTEGER : Number(m[1]);
}

function isProgress(v: unknown): v is BatchProgress {
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as BatchProgress).total === 'number' &&
    Array.isArray((v as BatchProgress).bookings)
  );
}
