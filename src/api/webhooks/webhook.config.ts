/**
 * Webhook settings of the API, read once from the environment and validated (an invalid value
 * fails fast naming the variable). The retry schedule is copied into each endpoint when it is
 * registered, so changing it affects endpoints registered afterwards.
 */
import { z } from 'zod/v4';
import type { WebhookRetryPolicy } from '../../webhooks/webhook.model';

export interface WebhookConfig {
  /** Retry schedule given to new endpoints (defaults: see {@link WebhookRetryPolicy}). */
  retry: WebhookRetryPolicy;
  /**
   * Refuse `http:` endpoint URLs (WEBHOOK_REQUIRE_HTTPS, default `true` when
   * `NODE_ENV=production`, else `false`).
   */
  requireHttps: boolean;
}

/** Thrown when a WEBHOOK_* variable is invalid; the message names it. */
export class WebhookConfigError extends Error {
  readonly code = 'WEBHOOK_CONFIG_INVALID';
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
  }
}

const envSchema = z.object({
  WEBHOOK_INITIAL_INTERVAL_MS: z.coerce.number().int().min(1).default(5000),
  WEBHOOK_BACKOFF_COEFFICIENT: z.coerce.number().min(1).max(10).default(2),
  WEBHOOK_MAX_INTERVAL_MS: z.coerce.number().int().min(1).default(3_600_000),
  WEBHOOK_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(72 * 3_600_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBHOOK_REQUIRE_HTTPS: z.enum(['true', 'false']).optional(),
});

/** Reads and validates the webhook configuration from `env` (default `process.env`). */
export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const r = envSchema.safeParse(clean);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new WebhookConfigError(String(issue.path[0]), issue.message);
  }
  const e = r.data;
  if (e.WEBHOOK_MAX_INTERVAL_MS < e.WEBHOOK_INITIAL_INTERVAL_MS) {
    throw new WebhookConfigError('WEBHOOK_MAX_INTERVAL_MS', 'must not be below WEBHOOK_INITIAL_INTERVAL_MS');
  }
  return {
    retry: {
      initialIntervalMs: e.WEBHOOK_INITIAL_INTERVAL_MS,
      backoffCoefficient: e.WEBHOOK_BACKOFF_COEFFICIENT,
      maximumIntervalMs: e.WEBHOOK_MAX_INTERVAL_MS,
      maxAgeMs: e.WEBHOOK_MAX_AGE_MS,
      requestTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    requireHttps:
      e.WEBHOOK_REQUIRE_HTTPS !== undefined ? e.WEBHOOK_REQUIRE_HTTPS === 'true' : env.NODE_ENV === 'production',
  };
}
