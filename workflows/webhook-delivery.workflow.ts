/**
 * Delivers one event to one endpoint, at least once: one activity per attempt (a signed POST),
 * durable timers with exponential backoff in between, until a 2xx or the endpoint's `maxAgeMs`
 * (default 72 h) after the first attempt. Each attempt is reported to the agency's registry,
 * which lists it. Cancelled (by the registry) when the endpoint is deleted.
 */
import {
  ActivityFailure,
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  patched,
  proxyActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  DeliverWebhookResult,
  WebhookActivities,
  WebhookAttempt,
  WebhookDeliveryInput,
  WebhookDeliveryReport,
  WebhookDeliveryStatus,
  WebhookRetryPolicy,
} from '../src/webhooks/webhook.model';
import { webhookTaskQueue } from '../src/webhooks/webhook.model';
import { webhookDeliveryReportSignal } from './webhook-definitions';

/**
 * Patch id of the webhook task queue: deliveries started before it keep their attempts on the
 * booking task queue (whose worker still serves them).
 */
export const WEBHOOK_TASK_QUEUE_PATCH = 'webhook-task-queue';

/** Wait before attempt `attempt + 1` (1-based) under `retry`. Pure; unit-tested. */
export function backoffMs(retry: WebhookRetryPolicy, attempt: number): number {
  const raw = retry.initialIntervalMs * retry.backoffCoefficient ** (attempt - 1);
  return Math.min(Math.round(raw), retry.maximumIntervalMs);
}

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryStatus> {
  const { endpoint } = input;
  const attemptOnce = attempter(input);
  const report = reporter(input);
  const firstAttemptAt = Date.now();
  try {
    for (let attempt = 1; ; attempt += 1) {
      const { ok, record } = await attemptOnce(attempt);
      if (ok) {
        await report('DELIVERED', record);
        return 'DELIVERED';
      }
      const wait = backoffMs(endpoint.retry, attempt);
      if (Date.now() + wait - firstAttemptAt > endpoint.retry.maxAgeMs) {
        log.info('webhook delivery given up', { attempts: attempt });
        await report('FAILED', record);
        return 'FAILED';
      }
      await report('PENDING', record, new Date(Date.now() + wait).toISOString());
      await sleep(wait);
    }
  } catch (error) {
    if (isCancellation(error)) return 'CANCELLED';
    throw error;
  }
}

/**
 * One signed POST per attempt, as an activity: the backoff between attempts is this workflow's
 * (durable timers), so every attempt is recorded and reported. On the webhook task queue, beside
 * the booking queue and outside the airline's rate limit (attempts scheduled before that queue
 * existed replay on the booking queue).
 */
function attempter({ endpoint, event }: WebhookDeliveryInput) {
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    ...(patched(WEBHOOK_TASK_QUEUE_PATCH) ? { taskQueue: webhookTaskQueue(workflowInfo().taskQueue) } : {}),
    startToCloseTimeout: endpoint.retry.requestTimeoutMs + 5000,
    retry: { maximumAttempts: 1 },
  });
  const body = JSON.stringify(event);
  return async (attempt: number): Promise<{ ok: boolean; record: WebhookAttempt }> => {
    let outcome: DeliverWebhookResult;
    try {
      outcome = await deliverWebhook({
        url: endpoint.url,
        secret: endpoint.secret,
        messageId: event.id,
        body,
        timeoutMs: endpoint.retry.requestTimeoutMs,
      });
    } catch (error) {
      if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
      // The worker was lost or the activity timed out: a failed attempt like any other.
      outcome = {
        ok: false,
        at: new Date().toISOString(),
        durationMs: 0,
        error: `activity failed: ${error.cause?.message ?? error.message}`,
      };
    }
    const record: WebhookAttempt = { attempt, at: outcome.at, durationMs: outcome.durationMs };
    if (outcome.httpStatus !== undefined) record.httpStatus = outcome.httpStatus;
    if (outcome.error !== undefined) record.error = outcome.error;
    return { ok: outcome.ok, record };
  };
}

/** Reports each attempt to the agency's registry (which lists it). */
function reporter({ registryId, endpoint }: WebhookDeliveryInput) {
  const registry = getExternalWorkflowHandle(registryId);
  const { workflowId } = workflowInfo();
  return async (status: WebhookDeliveryStatus, attempt: WebhookAttempt, nextAttemptAt?: string): Promise<void> => {
    const message: WebhookDeliveryReport = { deliveryId: workflowId, endpointId: endpoint.id, status, attempt };
    if (nextAttemptAt !== undefined) message.nextAttemptAt = nextAttemptAt;
    try {
      await CancellationScope.nonCancellable(() => registry.signal(webhookDeliveryReportSignal, message));
    } catch (error) {
      log.warn('delivery report not accepted by the registry', { error: (error as Error).message });
    }
  };
}
