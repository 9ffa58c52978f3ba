/**
 * How the booking's activities are retried (docs/orchestrator.md, "Retries"): the NDC calls that
 * change nothing are retried by Temporal; the calls that may change the order never are (the
 * saga settles them by reading the order back).
 */
import type { ActivityOptions } from '@temporalio/workflow';

/** Maximum attempts of {@link NDC_ACTIVITY_OPTIONS}, used to count attempts of exhausted activities. */
export const NDC_MAX_ATTEMPTS = 8;

/**
 * Retry policy of the NDC activities: transient failures (network, timeouts, 5xx, 429) are retried
 * with exponential backoff; classified business failures are thrown non-retryable.
 */
export const NDC_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  // Activities heartbeat every second while waiting for the airline: a worker that dies is
  // noticed within seconds and the activity is retried on another (or the restarted) worker.
  heartbeatTimeout: '5s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: NDC_MAX_ATTEMPTS },
};

/**
 * Order creation (and every call that may change the order) is never retried by Temporal: the
 * workflow settles (looks the order up) before every retry, so a request that may have reached
 * the airline is never sent twice.
 */
export const CREATE_ORDER_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  heartbeatTimeout: '5s',
  retry: { maximumAttempts: 1 },
};
