/**
 * Configuration of the booking worker process (`npm run worker`): one zod schema over the
 * environment, read once at start; an invalid value fails fast with an error naming the variable.
 * The airlines (`loadAirlineProfiles`: AIRLINES_FILE or AIRLINE_*) and the payload key
 * (`loadPayloadKey`) have loaders of their own, shared with the processes that also use them.
 */
import * as fs from 'node:fs';
import { z } from 'zod/v4';
import { EnvConfigError, parseEnv } from '../common/env';
import { type TemporalConfig, TemporalConfigError, temporalEnvSchema } from '../temporal/temporal.config';
import { DEFAULT_SHUTDOWN_GRACE_MS } from './worker';
import { DEFAULT_OVERDUE_AFTER_MS, OVERDUE_GRACE_MS, type OverdueAfterMs } from './worker.metrics';

/** Default port of the worker's health and metrics server (WORKER_HTTP_PORT; `off` disables, 0 picks one). */
export const DEFAULT_WORKER_HTTP_PORT = 9464;

/** Thrown when the environment is invalid; the message names the variable. */
export class WorkerConfigError extends EnvConfigError {
  constructor(variable: string, reason: string) {
    super('WORKER_CONFIG_INVALID', variable, reason);
  }
}

export interface WorkerConfig {
  /** The cluster, namespace and task queue (TEMPORAL_*, see `src/temporal/temporal.config.ts`). */
  temporal: TemporalConfig;
  /** Designators of the airlines this process serves (WORKER_AIRLINES, comma-separated; default every configured one). */
  airlines?: string[];
  /** Grace period of in-flight activities at shutdown, ms (WORKER_SHUTDOWN_GRACE_MS, default 10000). */
  shutdownGraceMs: number;
  /** A prebuilt workflow bundle (WORKFLOW_BUNDLE_PATH, default none: bundled at start); must exist when set. */
  workflowBundlePath?: string;
  /** Port of the health and metrics server (WORKER_HTTP_PORT, default 9464; `off`: undefined, no server). */
  httpPort?: number;
  /** Interface of that server (WORKER_HTTP_HOST, default `0.0.0.0`). */
  httpHost: string;
  /** Loopback port of the SDK core's Prometheus exporter (WORKER_SDK_METRICS_PORT; unset, `0` or `off`: a free one). */
  sdkMetricsPort?: number;
  /**
   * Workflows kept in the worker's cache (WORKER_MAX_CACHED_WORKFLOWS, default the SDK's, about
   * 2,300 on a 4 GB heap). Each open booking in the cache holds about 0.3 MB; one evicted replays
   * its history at its next event.
   */
  maxCachedWorkflows?: number;
  /**
   * Register the booking search attributes the namespace lacks at start
   * (TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=true; default false: readiness fails and names them).
   * Needs operator permission on the namespace.
   */
  registerSearchAttributes: boolean;
  /**
   * After how long a running booking still AWAITING_APPROVAL / SETTLING counts as overdue
   * (`ndc_saga_bookings_overdue`): the API's BOOKING_APPROVAL_TIMEOUT_MS (default 24 h) and
   * ORDER_SETTLE_WINDOW_MS (default 120 s), each plus 15 minutes.
   */
  overdueAfterMs: OverdueAfterMs;
}

const positive = (fallback: number) =>
  z
    .string()
    .trim()
    .refine((s) => Number.isFinite(Number(s)) && Number(s) > 0, {
      error: (issue) => `must be a positive number, got "${String(issue.input)}"`,
    })
    .transform(Number)
    .default(fallback);

/** A TCP port, or `off` (null: zod's default would replace an undefined). */
const portOrOff = z
  .string()
  .trim()
  .refine((s) => s === 'off' || (Number.isInteger(Number(s)) && Number(s) >= 0 && Number(s) <= 65535), {
    error: (issue) => `must be a TCP port (0-65535) or "off", got "${String(issue.input)}"`,
  })
  .transform((s) => (s === 'off' ? null : Number(s)));

/** The worker's own variables (the TEMPORAL_* ones are {@link temporalEnvSchema}'s). */
export const workerEnvSchema = z.object({
  WORKER_AIRLINES: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .refine((codes) => codes.length > 0 && codes.every((code) => /^[A-Z0-9]{2,3}$/.test(code)), {
      error: (issue) => `must be airline designators separated by commas, e.g. "ZZ,YY", got "${String(issue.input)}"`,
    })
    .optional(),
  WORKER_SHUTDOWN_GRACE_MS: positive(DEFAULT_SHUTDOWN_GRACE_MS),
  WORKFLOW_BUNDLE_PATH: z
    .string()
    .trim()
    .refine((p) => fs.existsSync(p), { error: (issue) => `no file at "${String(issue.input)}"` })
    .optional(),
  WORKER_HTTP_PORT: portOrOff.default(DEFAULT_WORKER_HTTP_PORT),
  WORKER_HTTP_HOST: z.string().trim().default('0.0.0.0'),
  WORKER_SDK_METRICS_PORT: portOrOff.optional(),
  WORKER_MAX_CACHED_WORKFLOWS: z
    .string()
    .trim()
    .refine((s) => /^\d+$/.test(s) && Number(s) >= 2, {
      error: (issue) => `must be a whole number of at least 2, got "${String(issue.input)}"`,
    })
    .transform(Number)
    .optional(),
  TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: z.enum(['true', 'false']).default('false'),
  BOOKING_APPROVAL_TIMEOUT_MS: positive(DEFAULT_OVERDUE_AFTER_MS.AWAITING_APPROVAL - OVERDUE_GRACE_MS),
  ORDER_SETTLE_WINDOW_MS: z
    .string()
    .trim()
    .refine((s) => /^\d+$/.test(s), { error: (issue) => `must be a whole number of ms, got "${String(issue.input)}"` })
    .transform(Number)
    .default(DEFAULT_OVERDUE_AFTER_MS.SETTLING - OVERDUE_GRACE_MS),
});

/** Reads and validates the worker's configuration from `env` (default `process.env`). */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const temporal = parseEnv(temporalEnvSchema, env, (variable, reason) => new TemporalConfigError(variable, reason));
  const e = parseEnv(workerEnvSchema, env, (variable, reason) => new WorkerConfigError(variable, reason));
  return {
    temporal,
    ...(e.WORKER_AIRLINES !== undefined ? { airlines: e.WORKER_AIRLINES } : {}),
    shutdownGraceMs: e.WORKER_SHUTDOWN_GRACE_MS,
    ...(e.WORKFLOW_BUNDLE_PATH !== undefined ? { workflowBundlePath: e.WORKFLOW_BUNDLE_PATH } : {}),
    ...(e.WORKER_HTTP_PORT !== null ? { httpPort: e.WORKER_HTTP_PORT } : {}),
    httpHost: e.WORKER_HTTP_HOST,
    ...(e.WORKER_SDK_METRICS_PORT ? { sdkMetricsPort: e.WORKER_SDK_METRICS_PORT } : {}),
    ...(e.WORKER_MAX_CACHED_WORKFLOWS !== undefined ? { maxCachedWorkflows: e.WORKER_MAX_CACHED_WORKFLOWS } : {}),
    registerSearchAttributes: e.TEMPORAL_REGISTER_SEARCH_ATTRIBUTES === 'true',
    overdueAfterMs: {
      AWAITING_APPROVAL: e.BOOKING_APPROVAL_TIMEOUT_MS + OVERDUE_GRACE_MS,
      SETTLING: e.ORDER_SETTLE_WINDOW_MS + OVERDUE_GRACE_MS,
    },
  };
}
