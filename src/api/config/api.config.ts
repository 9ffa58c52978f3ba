/**
 * Configuration of the HTTP API (`npm run api`), read once from the environment and validated;
 * an invalid value fails fast with an error naming the variable.
 */
import { z } from 'zod/v4';
import { DEFAULT_TASK_QUEUE } from '../../booking/booking.model';

export interface ApiConfig {
  /** TCP port (API_PORT, default 3000; 0 picks a free port). */
  port: number;
  /** Interface to bind (API_HOST, default `0.0.0.0`). */
  host: string;
  /** Temporal frontend `host:port` (TEMPORAL_ADDRESS, default `127.0.0.1:7233`). */
  temporalAddress: string;
  /** Temporal namespace (TEMPORAL_NAMESPACE, default `default`). */
  temporalNamespace: string;
  /** Task queue bookings are started on (TEMPORAL_TASK_QUEUE, default `ndc-saga`). */
  taskQueue: string;
  /** Airline retail base URL, probed by `GET /health` at `<url>/health` (AIRLINE_BASE_URL, default `http://127.0.0.1:4010`). */
  airlineBaseUrl: string;
  /**
   * Origins allowed to call `/codec` from a browser (CODEC_CORS_ORIGINS, comma-separated; default
   * the dev server's Web UI: `http://localhost:<p>,http://127.0.0.1:<p>` with `<p>` =
   * TEMPORAL_UI_PORT, default 8233).
   */
  codecCorsOrigins: string[];
  /** Child bookings a batch runs at once (BATCH_CONCURRENCY, default 4). */
  batchConcurrency: number;
  /** Price-guard wait passed to each booking, ms (BOOKING_APPROVAL_TIMEOUT_MS, default: the workflow's, 24 h). */
  approvalTimeoutMs?: number;
  /**
   * How long a state/progress query may wait for a worker, ms (API_QUERY_TIMEOUT_MS, default
   * 10000); then a booking's state comes from its search attributes, a batch's progress is 503.
   */
  queryTimeoutMs: number;
  /** Nest log levels (API_LOG, comma-separated, default `log,error,warn`; `none` disables). */
  logLevels: ('log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal')[];
}

/** Thrown when the environment is invalid; the message names the variable. */
export class ApiConfigError extends Error {
  readonly code = 'API_CONFIG_INVALID';
  constructor(readonly variable: string, reason: string) {
    super(`${variable}: ${reason}`);
  }
}

const LEVELS = ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const;

const envSchema = z.object({
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  API_HOST: z.string().min(1).default('0.0.0.0'),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port').default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  AIRLINE_BASE_URL: z
    .string()
    .refine((s) => /^https?:\/\//.test(s) && URL.canParse(s), 'must be an absolute http(s) URL')
    .default('http://127.0.0.1:4010'),
  CODEC_CORS_ORIGINS: z.string().optional(),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  BOOKING_APPROVAL_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  API_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  API_LOG: z.string().default('log,error,warn'),
});

/** Reads and validates the API configuration from `env` (default `process.env`). */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const r = envSchema.safeParse(clean);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ApiConfigError(String(issue.path[0]), issue.message);
  }
  const e = r.data;
  const logLevels: ApiConfig['logLevels'] = [];
  if (e.API_LOG !== 'none') {
    for (const level of e.API_LOG.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!(LEVELS as readonly string[]).includes(level)) {
        throw new ApiConfigError('API_LOG', `unknown level "${level}" (use ${LEVELS.join(', ')} or none)`);
      }
      logLevels.push(level as ApiConfig['logLevels'][number]);
    }
  }
  return {
    port: e.API_PORT,
    host: e.API_HOST,
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    taskQueue: e.TEMPORAL_TASK_QUEUE,
    airlineBaseUrl: e.AIRLINE_BASE_URL.replace(/\/+$/, ''),
    codecCorsOrigins: (e.CODEC_CORS_ORIGINS ?? `http://localhost:${e.TEMPORAL_UI_PORT},http://127.0.0.1:${e.TEMPORAL_UI_PORT}`)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    batchConcurrency: e.BATCH_CONCURRENCY,
    approvalTimeoutMs: e.BOOKING_APPROVAL_TIMEOUT_MS,
    queryTimeoutMs: e.API_QUERY_TIMEOUT_MS,
    logLevels,
  };
}
