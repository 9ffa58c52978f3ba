/**
 * Configuration of the HTTP API (`npm run api`): one zod schema over the environment, read once
 * at start; an invalid value fails fast with an error naming the variable.
 */
import * as path from 'node:path';
import { z } from 'zod/v4';
import { bookingDefaultsEnvFields, bookingWorkflowDefaults } from '../../booking/booking.config';
import type { BookingWorkflowOptions } from '../../booking/booking.model';
import { loadBookingPriorities, type BookingPriorities } from '../../booking/booking.priority';
import { EnvConfigError, parseEnv } from '../../common/env';
import { temporalEnvFields } from '../../temporal/temporal.config';
import { BasicCredentials } from '../../common/basic-credentials';
import { airlineRoute, loadAirlineProfiles, type AirlineProfile } from '../../ndc-client/airline-profile';

/** Where the API keys live when API_KEYS_FILE is not set (the git-ignored `.data/` folder). */
export const DEFAULT_API_KEYS_FILE = path.join('.data', 'api-keys.json');

/** OIDC / OAuth2 bearer-token settings (all of OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URL set). */
export interface OidcConfig {
  /** Expected `iss` (OIDC_ISSUER). */
  issuer: string;
  /** Expected `aud` (OIDC_AUDIENCE). */
  audience: string;
  /** The issuer's JSON Web Key Set (OIDC_JWKS_URL). */
  jwksUrl: string;
  /** Claim holding the agency id (OIDC_AGENCY_CLAIM, default `agency_id`). */
  agencyClaim: string;
  /** Claim holding the role(s), a string or an array of strings (OIDC_ROLE_CLAIM, default `roles`). */
  roleClaim: string;
  /** Value of the role claim granting `ops` (OIDC_OPS_ROLE, default `ops`); anything else is `agency`. */
  opsRole: string;
}

export interface ApiConfig {
  /** TCP port (API_PORT, default 3000; 0 picks a free port). */
  port: number;
  /** Interface to bind (API_HOST, default `0.0.0.0`). */
  host: string;
  /** Temporal frontend `host:port` or `[ipv6]:port` (TEMPORAL_ADDRESS, default `127.0.0.1:7233`). */
  temporalAddress: string;
  /** Temporal namespace (TEMPORAL_NAMESPACE, default `default`). */
  temporalNamespace: string;
  /** Task queue bookings are started on (TEMPORAL_TASK_QUEUE, default `ndc-saga`). */
  taskQueue: string;
  /**
   * The airlines bookings may use (AIRLINES_FILE, else the AIRLINE_* variables;
   * `src/ndc-client/airline-profile.ts`), loaded without credentials: the API never calls an
   * airline but `GET /health` (`<baseUrl>/health` of each).
   */
  airlines: AirlineProfile[];
  /**
   * The credential each airline that pushes notifications presents (its profile's
   * `notifications`: username, and the password from the variable `passwordEnv` names, checked
   * here at start), by designator; only a digest is kept.
   */
  notificationCredentials: ReadonlyMap<string, BasicCredentials>;
  /**
   * Origins allowed to call `/codec` from a browser (CODEC_CORS_ORIGINS, comma-separated; default
   * the dev server's Web UI: `http://localhost:<p>,http://127.0.0.1:<p>` with `<p>` =
   * TEMPORAL_UI_PORT, default 8233).
   */
  codecCorsOrigins: string[];
  /**
   * `/codec` without a credential from a loopback address (CODEC_OPEN_ON_LOOPBACK, default false;
   * `npm start` sets it for the embedded dev stack; refused when NODE_ENV=production).
   */
  codecOpenOnLoopback: boolean;
  /** Child bookings a batch runs at once (BATCH_CONCURRENCY, default 4). */
  batchConcurrency: number;
  /** Price-guard wait passed to each booking, ms (BOOKING_APPROVAL_TIMEOUT_MS, default: the workflow's, 24 h). */
  approvalTimeoutMs?: number;
  /**
   * Deployment defaults of the other workflow options, passed with every booking and batch:
   * ORDER_SETTLE_WINDOW_MS, ORDER_UNSETTLED_POLICY, SEAT_SELECTION_TIMEOUT_MS (unset: the
   * workflow's defaults), `servicing` with BOOKING_PAYMENT_DUE_NOTICE_MS (default 2 h: every
   * booking stays serviceable until its last flight has departed; `src/booking/booking.config.ts`),
   * and the routes of every configured airline (each booking shops at those its intent names).
   */
  workflowDefaults: BookingWorkflowOptions;
  /**
   * Temporal priority keys bookings are started with: `POST /bookings` (BOOKING_PRIORITY_INTERACTIVE,
   * default 2) and `POST /batches` (BOOKING_PRIORITY_BATCH, default 4); 1 is the highest. The
   * agency is the fairness key of both (`src/booking/booking.priority.ts`).
   */
  priorities: BookingPriorities;
  /**
   * How long a state/progress query may wait for a worker, ms (API_QUERY_TIMEOUT_MS, default
   * 10000); then the answer comes from visibility, marked `stale`.
   */
  queryTimeoutMs: number;
  /** Nest log levels (API_LOG, comma-separated, default `log,error,warn`; `none` disables). */
  logLevels: ('log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal')[];
  /**
   * The API keys file (API_KEYS_FILE, default `.data/api-keys.json` outside production; in
   * production unset means no API keys, and OIDC must then be configured).
   */
  apiKeysFile?: string;
  /** JWT bearer tokens; undefined when OIDC_ISSUER is not set. */
  oidc?: OidcConfig;
  /** Requests per agency and window on `POST /bookings` and `POST /batches` (RATE_LIMIT_POINTS, default 60; 0 disables). */
  rateLimitPoints: number;
  /** The rate-limit window, seconds (RATE_LIMIT_WINDOW_S, default 60). */
  rateLimitWindowS: number;
  /**
   * The API's base URL as travellers' browsers reach it (API_PUBLIC_URL): the 3-D Secure TermURL
   * and FailURL sent to airlines point to it. Unset: `http://localhost:<the port it listens on>`.
   */
  publicUrl?: string;
}

/** Thrown when the environment is invalid; the message names the variable. */
export class ApiConfigError extends EnvConfigError {
  constructor(variable: string, reason: string) {
    super('API_CONFIG_INVALID', variable, reason);
  }
}

const LEVELS = ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const;

const httpUrl = z.string().refine((s) => /^https?:\/\//.test(s) && URL.canParse(s), 'must be an absolute http(s) URL');
const bool = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((s) => s === 'true' || s === '1');

/** The API's environment: one schema, every variable with its default. */
export const apiEnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  API_HOST: z.string().min(1).default('0.0.0.0'),
  ...temporalEnvFields,
  ...bookingDefaultsEnvFields,
  CODEC_CORS_ORIGINS: z.string().optional(),
  CODEC_OPEN_ON_LOOPBACK: bool.default(false),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  BOOKING_APPROVAL_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  API_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  API_LOG: z.string().default('log,error,warn'),
  API_KEYS_FILE: z.string().min(1).optional(),
  OIDC_ISSUER: z.string().min(1).optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_JWKS_URL: httpUrl.optional(),
  OIDC_AGENCY_CLAIM: z.string().min(1).default('agency_id'),
  OIDC_ROLE_CLAIM: z.string().min(1).default('roles'),
  OIDC_OPS_ROLE: z.string().min(1).default('ops'),
  RATE_LIMIT_POINTS: z.coerce.number().int().min(0).default(60),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).default(60),
  API_PUBLIC_URL: httpUrl.optional(),
});

type ApiEnv = z.infer<typeof apiEnvSchema>;

/** `VARIABLE: reason` thrown by a shared loader becomes an {@link ApiConfigError} naming the variable. */
function asApiConfigError(err: unknown): unknown {
  const m = /^([A-Z0-9_]+): ([\s\S]*)$/.exec((err as Error).message);
  return m !== null ? new ApiConfigError(m[1]!, m[2]!) : err;
}

/** The airline profiles, without credentials; a bad one names its variable (or AIRLINES_FILE). */
function loadApiAirlines(env: NodeJS.ProcessEnv): AirlineProfile[] {
  try {
    return loadAirlineProfiles(env, { credentials: false });
  } catch (err) {
    throw asApiConfigError(err);
  }
}

/** Each pushing airline's notification credential; a missing password names its variable. */
function notificationCredentialsOf(
  airlines: readonly AirlineProfile[],
  env: NodeJS.ProcessEnv,
): Map<string, BasicCredentials> {
  const credentials = new Map<string, BasicCredentials>();
  for (const { code, notifications } of airlines) {
    if (notifications === undefined) continue;
    const password = env[notifications.passwordEnv];
    if (password === undefined || password === '')
      throw new ApiConfigError(notifications.passwordEnv, `not set: the notification password of airline ${code}`);
    credentials.set(code, new BasicCredentials(notifications.username, password));
  }
  return credentials;
}

/** The priority keys of BOOKING_PRIORITY_*; a bad one names its variable. */
function loadApiPriorities(env: NodeJS.ProcessEnv): BookingPriorities {
  try {
    return loadBookingPriorities(env);
  } catch (err) {
    throw asApiConfigError(err);
  }
}

/** API_LOG: comma-separated Nest levels, or `none` (no level). */
function logLevelsOf(apiLog: string): ApiConfig['logLevels'] {
  if (apiLog === 'none') return [];
  const levels = apiLog
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const level of levels) {
    if (!(LEVELS as readonly string[]).includes(level)) {
      throw new ApiConfigError('API_LOG', `unknown level "${level}" (use ${LEVELS.join(', ')} or none)`);
    }
  }
  return levels as ApiConfig['logLevels'];
}

/** The OIDC settings: all of OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URL, or none (undefined). */
function oidcOf(e: ApiEnv): OidcConfig | undefined {
  const oidcVars = ['OIDC_ISSUER', 'OIDC_AUDIENCE', 'OIDC_JWKS_URL'] as const;
  const oidcSet = oidcVars.filter((name) => e[name] !== undefined);
  if (oidcSet.length === 0) return undefined;
  const missing = oidcVars.find((name) => e[name] === undefined);
  if (missing !== undefined) throw new ApiConfigError(missing, `must be set with ${oidcSet.join(', ')}`);
  return {
    issuer: e.OIDC_ISSUER!,
    audience: e.OIDC_AUDIENCE!,
    jwksUrl: e.OIDC_JWKS_URL!,
    agencyClaim: e.OIDC_AGENCY_CLAIM,
    roleClaim: e.OIDC_ROLE_CLAIM,
    opsRole: e.OIDC_OPS_ROLE,
  };
}

/**
 * The credential sources: the API keys file (default `.data/api-keys.json` outside production)
 * and OIDC. Production needs one of them, and refuses CODEC_OPEN_ON_LOOPBACK.
 */
function credentialsOf(e: ApiEnv): Pick<ApiConfig, 'apiKeysFile' | 'oidc'> {
  const production = e.NODE_ENV === 'production';
  const oidc = oidcOf(e);
  const apiKeysFile = e.API_KEYS_FILE ?? (production ? undefined : DEFAULT_API_KEYS_FILE);
  if (production && apiKeysFile === undefined && oidc === undefined) {
    throw new ApiConfigError(
      'API_KEYS_FILE',
      'set it (or OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URL) when NODE_ENV=production',
    );
  }
  if (production && e.CODEC_OPEN_ON_LOOPBACK) {
    throw new ApiConfigError('CODEC_OPEN_ON_LOOPBACK', 'is refused when NODE_ENV=production');
  }
  return { ...(apiKeysFile !== undefined ? { apiKeysFile } : {}), ...(oidc !== undefined ? { oidc } : {}) };
}

/** CODEC_CORS_ORIGINS, default the dev server's Web UI on TEMPORAL_UI_PORT. */
function codecCorsOriginsOf(e: ApiEnv): string[] {
  return (e.CODEC_CORS_ORIGINS ?? `http://localhost:${e.TEMPORAL_UI_PORT},http://127.0.0.1:${e.TEMPORAL_UI_PORT}`)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads and validates the API configuration from `env` (default `process.env`). */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const e = parseEnv(apiEnvSchema, env, (variable, reason) => new ApiConfigError(variable, reason));
  const logLevels = logLevelsOf(e.API_LOG);
  const { apiKeysFile, oidc } = credentialsOf(e);
  const priorities = loadApiPriorities(env);
  const airlines = loadApiAirlines(env);
  return {
    port: e.API_PORT,
    host: e.API_HOST,
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    taskQueue: e.TEMPORAL_TASK_QUEUE,
    airlines,
    notificationCredentials: notificationCredentialsOf(airlines, env),
    codecCorsOrigins: codecCorsOriginsOf(e),
    codecOpenOnLoopback: e.CODEC_OPEN_ON_LOOPBACK,
    batchConcurrency: e.BATCH_CONCURRENCY,
    approvalTimeoutMs: e.BOOKING_APPROVAL_TIMEOUT_MS,
    workflowDefaults: { ...bookingWorkflowDefaults(e), airlines: airlines.map(airlineRoute) },
    priorities,
    queryTimeoutMs: e.API_QUERY_TIMEOUT_MS,
    logLevels,
    ...(apiKeysFile !== undefined ? { apiKeysFile } : {}),
    ...(oidc !== undefined ? { oidc } : {}),
    rateLimitPoints: e.RATE_LIMIT_POINTS,
    rateLimitWindowS: e.RATE_LIMIT_WINDOW_S,
    ...(e.API_PUBLIC_URL !== undefined ? { publicUrl: e.API_PUBLIC_URL } : {}),
  };
}
