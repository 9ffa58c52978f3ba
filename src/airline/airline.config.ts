/**
 * Configuration of the airline retail service, read once from the environment
 * and validated with zod. Invalid values fail fast with an error naming the
 * variable; development defaults for secrets are refused when
 * `NODE_ENV=production`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { EnvConfigError } from '../common/env';
import { EXT_NS, NDC_BINDINGS, NDC_EXCHANGE_NS, type NdcBinding } from '../ndc';

/** Development Basic credentials (documented; refused in production). */
export const DEV_AIRLINE_USERNAME = 'agency';
export const DEV_AIRLINE_PASSWORD = 'agency-secret';
/** Development vault passphrase; the AES key is derived from it (refused in production). */
export const DEV_VAULT_PASSPHRASE = 'ndc-saga-development-vault-key';

export interface AirlineConfig {
  /** TCP port of `npm run airline` (AIRLINE_PORT, default 4010). `0` picks a free port. */
  port: number;
  /** Basic auth user for `/retail/*` (AIRLINE_USERNAME, default `agency`). */
  username: string;
  /** Basic auth password for `/retail/*` (AIRLINE_PASSWORD, default `agency-secret`). */
  password: string;
  /** Two-character airline designator (AIRLINE_CODE, default `ZZ`). */
  airlineCode: string;
  /**
   * Whose world it sells (AIRLINE_WORLD_SEED, default the designator): `ZZ` is the world file
   * itself; any other seed the same routes at other times and fares (docs/airline-world.md).
   */
  worldSeed: string;
  /** Vendor of the media type `application/vnd.<vendor>.ndc.v17.2+xml` (AIRLINE_MEDIA_VENDOR, default `ndcsaga`). */
  mediaVendor: string;
  /** Namespace of the airline's NDC extension elements (AIRLINE_EXTENSION_NAMESPACE, default the codec's `EXT_NS`). */
  extensionNamespace: string;
  /**
   * Namespace of the NDC Exchange envelope of answers to `ndcexchange` requests
   * (AIRLINE_EXCHANGE_NAMESPACE, default the codec's `NDC_EXCHANGE_NS`).
   */
  exchangeNamespace: string;
  /** SQLite database file (AIRLINE_DB_PATH, default `.data/airline.db`); `:memory:` for tests. */
  dbPath: string;
  /** 32-byte AES-256-GCM key that encrypts card numbers (from AIRLINE_VAULT_KEY). */
  vaultKey: Buffer;
  /** True when NODE_ENV=production: dev defaults refused, fault simulator disabled. */
  production: boolean;
  /** Largest accepted request body in bytes (AIRLINE_MAX_BODY_BYTES, default 1 MiB). */
  maxBodyBytes: number;
  /** How long a seat priced by OfferPriceRQ stays locked to its TransactionIdentifier (AIRLINE_SEAT_LOCK_MS, default 600000 = 10 min). */
  seatLockMs: number;
  /** Base of the WebAddressID of orders (AIRLINE_PORTAL_URL, default `https://book.example-airline.test/manage/`). */
  portalUrl: string;
  /**
   * How long an order waiting for 3-D Secure holds its seats (AIRLINE_AUTHENTICATION_HOLD_MS,
   * default 600000 = 10 min); the signed authentication result expires with it.
   */
  authenticationHoldMs: number;
  /**
   * Base URL of the simulated issuer page (`ACS_URL` = base + `/acs/<ref>`) as the cardholder's
   * browser reaches it (AIRLINE_ACS_BASE_URL, default unset: the scheme and Host of the OrderCreate request).
   */
  acsBaseUrl?: string;
  /** Servicing after the sale: holds, change offers (docs/airline-service.md, "Servicing orders"). */
  servicing: ServicingConfig;
  /**
   * Where the airline pushes OrderChangeNotif (docs/airline-service.md, "Schedule changes"):
   * unset (AIRLINE_NOTIFY_URL unset) it pushes nothing and agencies find changes by reading orders.
   */
  notify?: NotifyConfig;
  /** Log level list for Nest (AIRLINE_LOG, default `error,warn`; `none` disables logging). */
  logLevels: ('log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal')[];
}

/** How the airline services orders after the sale (docs/airline-service.md, "Servicing orders"). */
export interface ServicingConfig {
  /**
   * How long an unpaid order (an OrderCreateRQ without Payments) holds its seats before the
   * airline cancels it (AIRLINE_HOLD_MS, default 86400000 = 24 h); never later than 2 h before
   * the first departure.
   */
  holdMs: number;
  /** How long a held order's price is guaranteed (AIRLINE_PRICE_GUARANTEE_MS, default 3600000 = 1 h). */
  priceGuaranteeMs: number;
  /**
   * How long a reshop answer (change offers, refund quote, reprice) may be accepted
   * (AIRLINE_CHANGE_OFFER_TTL_MS, default 900000 = 15 min).
   */
  changeOfferTtlMs: number;
  /** AgencyIDs that may not hold orders (AIRLINE_HOLD_DENIED_AGENCIES, comma separated; default none). */
  holdDeniedAgencies: string[];
  /**
   * How long the seller has to answer a schedule change before the airline applies its default
   * (AIRLINE_CHANGE_ACTION_MS, default 172800000 = 48 h): a retime stands, an order on a cancelled
   * flight is cancelled with a full refund.
   */
  changeActionMs: number;
}

/** How the airline pushes OrderChangeNotif to agencies (docs/airline-service.md, "Schedule changes"). */
export interface NotifyConfig {
  /**
   * The agency's notification address (AIRLINE_NOTIFY_URL): `{agency}` in it is replaced by the
   * order's AgencyID (URL-encoded), e.g. `https://api.example/airlines/ZZ/notifications` for one
   * receiver of every agency, or `https://{agency}.agencies.example/ndc/notifications`.
   */
  url: string;
  /** HTTP Basic user (AIRLINE_NOTIFY_USERNAME, default the airline designator). */
  username: string;
  /** HTTP Basic password (AIRLINE_NOTIFY_PASSWORD, required with the URL). Secret: never logged. */
  password: string;
  /** Binding of the pushed message (AIRLINE_NOTIFY_BINDING: plain, soap11, soap12, ndcexchange; default plain). */
  binding: NdcBinding;
  /** Wait before the first retry of an unacknowledged push, doubled each time up to 5 min (AIRLINE_NOTIFY_RETRY_MS, default 1000). */
  retryMs: number;
}

/** Thrown when the environment is invalid; the message names the variable. */
export class AirlineConfigError extends EnvConfigError {
  constructor(variable: string, reason: string) {
    super('AIRLINE_CONFIG_INVALID', variable, reason);
  }
}

const LOG_LEVELS = ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const;

const envSchema = z
  .object({
    NODE_ENV: z.string().optional(),
    AIRLINE_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
    AIRLINE_USERNAME: z
      .string()
      .min(1)
      .regex(/^[^:]+$/, 'must not contain ":"')
      .default(DEV_AIRLINE_USERNAME),
    AIRLINE_PASSWORD: z.string().min(1).default(DEV_AIRLINE_PASSWORD),
    AIRLINE_CODE: z
      .string()
      .regex(/^[A-Z0-9]{2}$/, 'must be a two-character airline designator such as ZZ')
      .default('ZZ'),
    AIRLINE_WORLD_SEED: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1 to 32 letters, digits, _ or -')
      .optional(),
    AIRLINE_MEDIA_VENDOR: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]*$/, 'must be a lower-case media type vendor token')
      .default('ndcsaga'),
    AIRLINE_EXTENSION_NAMESPACE: z
      .string()
      .url('must be a namespace URI such as http://vendor.example/ndc-ext')
      .default(EXT_NS),
    AIRLINE_EXCHANGE_NAMESPACE: z
      .string()
      .url('must be a namespace URI such as http://hub.example/ndc-exchange')
      .default(NDC_EXCHANGE_NS),
    AIRLINE_DB_PATH: z.string().min(1).default('.data/airline.db'),
    AIRLINE_VAULT_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (a 32-byte AES-256 key)')
      .optional(),
    AIRLINE_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
    AIRLINE_SEAT_LOCK_MS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 3_600_000)
      .default(600_000),
    AIRLINE_PORTAL_URL: z.string().url().default('https://book.example-airline.test/manage/'),
    AIRLINE_AUTHENTICATION_HOLD_MS: z.coerce.number().int().min(1000).max(86_400_000).default(600_000),
    AIRLINE_ACS_BASE_URL: z.string().url().optional(),
    AIRLINE_HOLD_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .max(30 * 86_400_000)
      .default(86_400_000),
    AIRLINE_PRICE_GUARANTEE_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .max(30 * 86_400_000)
      .default(3_600_000),
    AIRLINE_CHANGE_OFFER_TTL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),
    AIRLINE_HOLD_DENIED_AGENCIES: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== ''),
      ),
    AIRLINE_CHANGE_ACTION_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .max(30 * 86_400_000)
      .default(172_800_000),
    AIRLINE_NOTIFY_URL: z
      .string()
      .refine(
        (s) => URL.canParse(s.replaceAll('{agency}', 'AGENCY')),
        'must be a URL (with {agency} where the AgencyID goes)',
      )
      .optional(),
    AIRLINE_NOTIFY_USERNAME: z
      .string()
      .min(1)
      .regex(/^[^:]+$/, 'must not contain ":"')
      .optional(),
    AIRLINE_NOTIFY_PASSWORD: z.string().min(1).optional(),
    AIRLINE_NOTIFY_BINDING: z.enum(NDC_BINDINGS as [NdcBinding, ...NdcBinding[]]).default('plain'),
    AIRLINE_NOTIFY_RETRY_MS: z.coerce.number().int().min(10).max(300_000).default(1000),
    AIRLINE_LOG: z
      .string()
      .default('error,warn')
      .transform((s) => (s === 'none' ? [] : s.split(',').map((x) => x.trim())))
      .pipe(z.array(z.enum(LOG_LEVELS))),
  })
  .superRefine((e, ctx) => {
    if (e.AIRLINE_NOTIFY_URL !== undefined && e.AIRLINE_NOTIFY_PASSWORD === undefined)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['AIRLINE_NOTIFY_PASSWORD'],
        message: 'must be set when AIRLINE_NOTIFY_URL is',
      });
    if (e.NODE_ENV !== 'production') return;
    // The password is named first when both development credentials are left in place.
    for (const [variable, dev] of [
      ['AIRLINE_PASSWORD', DEV_AIRLINE_PASSWORD],
      ['AIRLINE_USERNAME', DEV_AIRLINE_USERNAME],
    ] as const) {
      if (e[variable] === dev) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [variable],
          message: 'the development default is refused when NODE_ENV=production',
        });
        return;
      }
    }
    if (!e.AIRLINE_VAULT_KEY) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['AIRLINE_VAULT_KEY'],
        message: 'must be set when NODE_ENV=production',
      });
    }
  });

/**
 * Reads and validates the airline configuration from `env` (default
 * `process.env`). Throws {@link AirlineConfigError} naming the first bad variable.
 */
export function loadAirlineConfig(env: NodeJS.ProcessEnv = process.env): AirlineConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AirlineConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const portalUrl = e.AIRLINE_PORTAL_URL.endsWith('/') ? e.AIRLINE_PORTAL_URL : `${e.AIRLINE_PORTAL_URL}/`;
  return {
    port: e.AIRLINE_PORT,
    username: e.AIRLINE_USERNAME,
    password: e.AIRLINE_PASSWORD,
    airlineCode: e.AIRLINE_CODE,
    worldSeed: e.AIRLINE_WORLD_SEED ?? e.AIRLINE_CODE,
    mediaVendor: e.AIRLINE_MEDIA_VENDOR,
    extensionNamespace: e.AIRLINE_EXTENSION_NAMESPACE,
    exchangeNamespace: e.AIRLINE_EXCHANGE_NAMESPACE,
    dbPath: e.AIRLINE_DB_PATH,
    vaultKey: e.AIRLINE_VAULT_KEY
      ? Buffer.from(e.AIRLINE_VAULT_KEY, 'hex')
      : createHash('sha256').update(DEV_VAULT_PASSPHRASE).digest(),
    production,
    maxBodyBytes: e.AIRLINE_MAX_BODY_BYTES,
    seatLockMs: e.AIRLINE_SEAT_LOCK_MS,
    portalUrl,
    authenticationHoldMs: e.AIRLINE_AUTHENTICATION_HOLD_MS,
    ...(e.AIRLINE_ACS_BASE_URL ? { acsBaseUrl: e.AIRLINE_ACS_BASE_URL.replace(/\/+$/, '') } : {}),
    servicing: {
      holdMs: e.AIRLINE_HOLD_MS,
      priceGuaranteeMs: e.AIRLINE_PRICE_GUARANTEE_MS,
      changeOfferTtlMs: e.AIRLINE_CHANGE_OFFER_TTL_MS,
      holdDeniedAgencies: e.AIRLINE_HOLD_DENIED_AGENCIES,
      changeActionMs: e.AIRLINE_CHANGE_ACTION_MS,
    },
    ...(e.AIRLINE_NOTIFY_URL !== undefined
      ? {
          notify: {
            url: e.AIRLINE_NOTIFY_URL,
            username: e.AIRLINE_NOTIFY_USERNAME ?? e.AIRLINE_CODE,
            password: e.AIRLINE_NOTIFY_PASSWORD!,
            binding: e.AIRLINE_NOTIFY_BINDING,
            retryMs: e.AIRLINE_NOTIFY_RETRY_MS,
          },
        }
      : {}),
    logLevels: e.AIRLINE_LOG,
  };
}

/** Test helper: a development configuration with an in-memory database and no logging. */
export function testAirlineConfig(overrides: Partial<AirlineConfig> = {}): AirlineConfig {
  return { ...loadAirlineConfig({ AIRLINE_DB_PATH: ':memory:', AIRLINE_LOG: 'none' }), port: 0, ...overrides };
}
