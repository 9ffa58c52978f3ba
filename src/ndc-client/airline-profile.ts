/**
 * Airline profiles: everything in which the NDC airlines a deployment sells differ (endpoint and
 * credentials, the AgencyID each knows the agency by, media type vendor, extension namespace, the
 * namespace its documents arrive in, binding, rate limit, settle window, error codes), declared in
 * one place and read once per process (docs/orchestrator.md, "Airlines").
 *
 * - `AIRLINES_FILE`: a JSON file `{ "airlines": [ {...}, ... ] }` ({@link airlineFileSchema});
 *   secrets are never in it: `passwordEnv` names the variable holding each password.
 * - Without it, the `AIRLINE_*` variables make one profile, exactly as before profiles existed
 *   ({@link profileFromEnv}).
 *
 * A bad file stops the process with a message naming the airline and the field.
 */
import * as fs from 'node:fs';
import { z } from 'zod/v4';
import {
  AIRLINE_FAILURE_TYPES,
  ndcCodeTable,
  type AirlineFailureType,
  type NdcCodeTable,
} from '../booking/booking.failures';
import { DEFAULT_AUTHENTICATION_TIMEOUT_MS, type AirlineRoute, type UnsettledPolicy } from '../booking/booking.model';
import { ANY_NAMESPACE } from '../ndc/document-namespace';
import { NDC_BINDINGS, type NdcBinding } from '../ndc/soap';
import type { NdcClientConfig } from './ndc-client';
import { DEV_AIRLINE_PASSWORD, loadNdcClientConfig } from './ndc-client.config';

/** Default requests per second of an airline (`rateLimitRps`, `AIRLINE_RATE_LIMIT_RPS`). */
export const DEFAULT_AIRLINE_RATE_LIMIT_RPS = 20;
/** Default settle window of an order create without a definite answer, ms. */
export const DEFAULT_AIRLINE_SETTLE_WINDOW_MS = 120_000;
/** Designator of the profile made from the `AIRLINE_*` variables (`AIRLINE_CODE`). */
export const DEFAULT_AIRLINE_CODE = 'ZZ';

/** What an airline's interface can do, where airlines differ. */
export interface AirlineCapabilities {
  /** AirShopping calendar searches (`journey.flexibleDays`). Default true. */
  calendarSearch: boolean;
}

/** One airline as the booking side knows it. Never logged whole: `client.password` is a secret. */
export interface AirlineProfile {
  /** Two- or three-character designator (`Owner`, `AirlineID`), e.g. `ZZ`. */
  code: string;
  name: string;
  /** The NDC client's settings (password empty when loaded without credentials: the API). */
  client: NdcClientConfig;
  /** The variable the password came from (what an operator fixes when the airline refuses it). */
  passwordEnv?: string;
  /** Scheduled order reads: their share of `rateLimitRps` and how often (see `airlineEntrySchema`). */
  orderReads: { share: number; everyMs?: number; nearDepartureEveryMs?: number; nearDepartureMs?: number };
  /** The airline pushes OrderChangeNotif: its orders are read less often. */
  pushesNotifications: boolean;
  /** See `AirlineRoute.servicingCardFeePercent`. */
  servicingCardFeePercent?: string;
  /**
   * The credential the airline presents when it pushes (HTTP Basic to `POST /airlines/{code}/notifications`):
   * the username, and the variable holding the password. Set exactly when it pushes.
   */
  notifications?: { username: string; passwordEnv: string };
  /** Airline calls per second across every worker (the airline queue's activity rate limit). */
  rateLimitRps: number;
  /** How long an order create without a definite answer is looked up, ms. */
  settleWindowMs: number;
  unsettledPolicy: UnsettledPolicy;
  /**
   * How long a booking waits for the cardholder's 3-D Secure result, ms: at most the airline's
   * hold of the seats (the embedded airline's `AIRLINE_AUTHENTICATION_HOLD_MS`, 10 minutes).
   */
  authenticationTimeoutMs: number;
  /** Our agency id -> the `TravelAgencySender/AgencyID` this airline knows the agency by. */
  agencyIds: Readonly<Record<string, string>>;
  /** Its NDC error codes (on top of the standard ones) and its transient ones. */
  codes: NdcCodeTable;
  capabilities: AirlineCapabilities;
}

/** What the booking API shows of an airline (`GET /airlines`): never a credential. */
export interface AirlineListing {
  code: string;
  name: string;
  binding: NdcBinding;
  rateLimitRps: number;
}

export function airlineListing(profile: AirlineProfile): AirlineListing {
  return {
    code: profile.code,
    name: profile.name,
    binding: profile.client.binding ?? 'plain',
    rateLimitRps: profile.rateLimitRps,
  };
}

/** Thrown for a bad airlines file or variable; the message names the airline and the field. */
export class AirlineProfileError extends Error {
  readonly code = 'AIRLINE_PROFILE_INVALID';
}

const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:\S+$/i;
const ndcCode = z.string().regex(/^[0-9A-Z]{1,3}$/, 'must be an NDC error code (1-3 of 0-9 A-Z)');
const absoluteHttpUrl = z
  .string()
  .refine((s) => /^https?:\/\//.test(s) && URL.canParse(s), 'must be an absolute http(s) URL')
  .transform((s) => s.replace(/\/+$/, ''));

/** One airline of the file. The field names are the contract (README, "Airlines"). */
export const airlineEntrySchema = z.strictObject({
  code: z.string().regex(/^[A-Z0-9]{2,3}$/, 'must be a 2-3 character airline designator (A-Z 0-9)'),
  name: z.string().trim().min(1).max(100),
  baseUrl: absoluteHttpUrl,
  paymentBaseUrl: absoluteHttpUrl.optional(),
  username: z.string().min(1),
  passwordEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must name an environment variable'),
  mediaVendor: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]*$/, 'must be a media type vendor token')
    .default('ndcsaga'),
  extensionNamespace: z.string().regex(ABSOLUTE_URI, 'must be an absolute URI').optional(),
  binding: z.enum(NDC_BINDINGS).default('plain'),
  /**
   * The namespace this airline's NDC documents arrive in, when it is not the NDC 17.2 namespace
   * (`http://www.iata.org/IATA/EDIST/2017.2`): e.g. American Airlines' 17.2 responses through its
   * provider carry the NDC root inside a wrapper element of the provider whose default namespace
   * the NDC elements inherit. Set to that namespace (an absolute URI), every answer of the airline
   * is read through the wrapper and its elements in that namespace are read as NDC elements, in
   * every binding (plain, SOAP 1.1/1.2, NDC Exchange); `"*"` accepts a known NDC root in any
   * namespace. Default: unset, and such answers are refused as invalid responses (`root must be
   * in namespace ...`). Requests are always written in the NDC namespace.
   */
  documentNamespace: z
    .union([z.string().regex(ABSOLUTE_URI, 'must be an absolute URI or "*"'), z.literal(ANY_NAMESPACE)])
    .optional(),
  timeoutMs: z.number().int().positive().default(20_000),
  rateLimitRps: z.number().positive().default(DEFAULT_AIRLINE_RATE_LIMIT_RPS),
  settleWindowMs: z.number().int().min(0).default(DEFAULT_AIRLINE_SETTLE_WINDOW_MS),
  unsettledPolicy: z.enum(['recreate', 'escalate']).default('recreate'),
  authenticationTimeoutMs: z.number().int().positive().default(DEFAULT_AUTHENTICATION_TIMEOUT_MS),
  agencyIds: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), z.string().min(1).max(64)).default({}),
  errorCodes: z.record(ndcCode, z.enum(AIRLINE_FAILURE_TYPES)).default({}),
  transientCodes: z.array(ndcCode).default([]),
  capabilities: z.strictObject({ calendarSearch: z.boolean().default(true) }).default({ calendarSearch: true }),
  /**
   * Scheduled reads of a serviceable booking's order, for changes the airline made without
   * telling (docs/orchestrator.md, "Changes the airline makes"): at most `share` of `rateLimitRps`
   * (default 0.1), behind bookings and servicing; every `everyMs` (default 24 h), every
   * `nearDepartureEveryMs` (default 6 h) within `nearDepartureMs` (default 7 days) of departure.
   */
  orderReads: z
    .strictObject({
      share: z.number().min(0).max(1).default(0.1),
      everyMs: z.number().int().positive().optional(),
      nearDepartureEveryMs: z.number().int().positive().optional(),
      nearDepartureMs: z.number().int().min(0).optional(),
    })
    .default({ share: 0.1 }),
  /** The airline pushes OrderChangeNotif to the API (`POST /airlines/{code}/notifications`): read three times less often. Default false. */
  pushesNotifications: z.boolean().default(false),
  /**
   * The card fee (percent of the amount, a decimal string) the airline adds to payments in an
   * OrderChangeRQ for a card its token answer does not call debit (the embedded airline: `"2"`).
   * Default none.
   */
  servicingCardFeePercent: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,4})?$/, 'must be a percentage such as "2" or "1.5"')
    .optional(),
  /**
   * The HTTP Basic credential the airline pushes with (needed when `pushesNotifications`): the
   * username (default the designator) and `passwordEnv`, the variable holding its password.
   */
  notifications: z
    .strictObject({
      username: z.string().min(1).max(100).optional(),
      passwordEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must name an environment variable'),
    })
    .optional(),
  /**
   * The circuit breaker of the worker's calls (docs/orchestrator.md, "Under load and outages"):
   * after `failureThreshold` transient failures in a row (default 5) the airline is not called
   * for `openMs` (default 30 000), so bookings go to the others at once; `false`: none.
   */
  circuitBreaker: z
    .union(
      [
        z.strictObject({
          failureThreshold: z.number().int().positive().default(5),
          openMs: z.number().int().min(0).default(30_000),
        }),
        z.literal(false),
      ],
      'must be { "failureThreshold"?, "openMs"? } or false',
    )
    .default({ failureThreshold: 5, openMs: 30_000 }),
});
export type AirlineEntry = z.input<typeof airlineEntrySchema>;

/** An airline that pushes names the credential it pushes with. */
const pushingAirline = airlineEntrySchema.refine(
  (entry) => !entry.pushesNotifications || entry.notifications !== undefined,
  { path: ['notifications'], message: 'is needed when pushesNotifications is true ({ "passwordEnv": ... })' },
);

export const airlineFileSchema = z.strictObject({
  airlines: z
    .array(pushingAirline)
    .min(1, 'must list at least one airline')
    .superRefine((airlines, ctx) => {
      const seen = new Set<string>();
      airlines.forEach((airline, index) => {
        if (seen.has(airline.code))
          ctx.addIssue({ code: 'custom', path: [index, 'code'], message: `${airline.code} is listed twice` });
        seen.add(airline.code);
      });
    }),
});

export interface LoadProfilesOptions {
  /**
   * Resolve each `passwordEnv` (a missing variable fails). Default true; the booking API, which
   * never calls an airline, loads without (passwords stay empty).
   */
  credentials?: boolean;
}

/** The airlines of `AIRLINES_FILE`, else the one of the `AIRLINE_*` variables. In file order. */
export function loadAirlineProfiles(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadProfilesOptions = {},
): AirlineProfile[] {
  const file = env.AIRLINES_FILE?.trim();
  if (file === undefined || file === '') return [profileFromEnv(env, options)];
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AirlineProfileError(`AIRLINES_FILE: cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  return parseAirlineFile(raw, env, options, file);
}

/** Validates a parsed airlines file and builds its profiles. */
export function parseAirlineFile(
  raw: unknown,
  env: NodeJS.ProcessEnv,
  options: LoadProfilesOptions = {},
  source = 'AIRLINES_FILE',
): AirlineProfile[] {
  const parsed = airlineFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = innermostIssue(parsed.error.issues[0]!);
    throw new AirlineProfileError(`${source}: ${describePath(raw, issue.path)}: ${issue.message}`);
  }
  return parsed.data.airlines.map((entry) => profileFromEntry(entry, env, options.credentials ?? true, source));
}

/**
 * A union's issue from inside the branch the value was meant for (`circuitBreaker.openMs`, not
 * `circuitBreaker: Invalid input`); the union's own when the value fits no branch at all.
 */
function innermostIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const wrongShape = (i: z.core.$ZodIssue) =>
    i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_value');
  const inner = issue.errors.map((errors) => errors[0]).find((i) => i !== undefined && !wrongShape(i));
  return inner === undefined ? issue : { ...innermostIssue(inner), path: [...issue.path, ...inner.path] };
}

/** `airline ZZ (airlines[0]): rateLimitRps` for an issue's path. */
function describePath(raw: unknown, path: readonly PropertyKey[]): string {
  if (path[0] !== 'airlines' || typeof path[1] !== 'number') return path.map(String).join('.') || '(file)';
  const entry = (raw as { airlines?: unknown[] }).airlines?.[path[1]];
  const code =
    typeof (entry as { code?: unknown } | undefined)?.code === 'string' ? (entry as { code: string }).code : '?';
  const field = path.slice(2).map(String).join('.');
  return `airline ${code} (airlines[${path[1]}])${field !== '' ? `: ${field}` : ''}`;
}

function profileFromEntry(
  entry: z.output<typeof airlineEntrySchema>,
  env: NodeJS.ProcessEnv,
  credentials: boolean,
  source: string,
): AirlineProfile {
  let password = '';
  if (credentials) {
    const value = env[entry.passwordEnv];
    const where = `${source}: airline ${entry.code}: passwordEnv`;
    if (value === undefined || value === '') throw new AirlineProfileError(`${where}: ${entry.passwordEnv} is not set`);
    if (env.NODE_ENV === 'production' && value === DEV_AIRLINE_PASSWORD)
      throw new AirlineProfileError(
        `${where}: ${entry.passwordEnv} holds the development password (refused in production)`,
      );
    password = value;
  }
  return {
    code: entry.code,
    name: entry.name,
    client: {
      retailBaseUrl: entry.baseUrl,
      paymentBaseUrl: entry.paymentBaseUrl ?? entry.baseUrl,
      username: entry.username,
      password,
      mediaVendor: entry.mediaVendor,
      binding: entry.binding,
      ...(entry.extensionNamespace !== undefined ? { extensionNamespace: entry.extensionNamespace } : {}),
      ...(entry.documentNamespace !== undefined ? { documentNamespace: entry.documentNamespace } : {}),
      timeoutMs: entry.timeoutMs,
      ...circuitOf(entry),
    },
    passwordEnv: entry.passwordEnv,
    orderReads: entry.orderReads,
    pushesNotifications: entry.pushesNotifications,
    ...(entry.servicingCardFeePercent !== undefined ? { servicingCardFeePercent: entry.servicingCardFeePercent } : {}),
    ...(entry.pushesNotifications && entry.notifications !== undefined
      ? {
          notifications: {
            username: entry.notifications.username ?? entry.code,
            passwordEnv: entry.notifications.passwordEnv,
          },
        }
      : {}),
    rateLimitRps: entry.rateLimitRps,
    settleWindowMs: entry.settleWindowMs,
    unsettledPolicy: entry.unsettledPolicy,
    authenticationTimeoutMs: entry.authenticationTimeoutMs,
    agencyIds: entry.agencyIds,
    codes: ndcCodeTable(entry.errorCodes, entry.transientCodes),
    capabilities: entry.capabilities,
  };
}

/** The client's circuit breaker of an entry (none with `circuitBreaker: false`). */
function circuitOf({
  code,
  circuitBreaker,
}: Pick<z.output<typeof airlineEntrySchema>, 'code' | 'circuitBreaker'>): Pick<NdcClientConfig, 'circuit'> {
  return circuitBreaker === false ? {} : { circuit: { airline: code, ...circuitBreaker } };
}

/**
 * The profile of the `AIRLINE_*` variables (no AIRLINES_FILE): the client of
 * {@link loadNdcClientConfig} (its password only with `credentials`) with the default circuit
 * breaker, `AIRLINE_CODE` (default ZZ), `AIRLINE_NAME`, `AIRLINE_RATE_LIMIT_RPS`,
 * `AIRLINE_SERVICING_CARD_FEE_PERCENT` (default the embedded airline's 2),
 * `ORDER_SETTLE_WINDOW_MS`, `ORDER_UNSETTLED_POLICY`, and the embedded airline's error codes
 * (`embeddedErrorCodes`), which is what such a deployment booked with before profiles.
 */
export function profileFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadProfilesOptions = {},
): AirlineProfile {
  const withCredentials = options.credentials ?? true;
  // Without credentials (the API) the password is neither read nor checked.
  const client = withCredentials
    ? loadNdcClientConfig(env)
    : { ...loadNdcClientConfig({ ...env, NODE_ENV: undefined }), password: '' };
  const entry = airlineEntrySchema.safeParse({
    code: env.AIRLINE_CODE?.trim() || DEFAULT_AIRLINE_CODE,
    name: env.AIRLINE_NAME?.trim() || 'Airline',
    baseUrl: client.retailBaseUrl,
    username: client.username,
    passwordEnv: 'AIRLINE_PASSWORD',
    servicingCardFeePercent: env.AIRLINE_SERVICING_CARD_FEE_PERCENT?.trim() || EMBEDDED_SERVICING_CARD_FEE_PERCENT,
    ...numberOf(env, 'AIRLINE_RATE_LIMIT_RPS', 'rateLimitRps'),
    ...numberOf(env, 'ORDER_SETTLE_WINDOW_MS', 'settleWindowMs'),
    ...numberOf(env, 'AIRLINE_AUTHENTICATION_TIMEOUT_MS', 'authenticationTimeoutMs'),
    ...(env.ORDER_UNSETTLED_POLICY?.trim() ? { unsettledPolicy: env.ORDER_UNSETTLED_POLICY.trim() } : {}),
  });
  if (!entry.success) {
    const issue = entry.error.issues[0]!;
    const variable = ENV_OF_FIELD[String(issue.path[0])] ?? String(issue.path[0]);
    throw new AirlineProfileError(`${variable}: ${issue.message}`);
  }
  return {
    code: entry.data.code,
    name: entry.data.name,
    client: { ...client, ...circuitOf(entry.data) },
    passwordEnv: 'AIRLINE_PASSWORD',
    orderReads: entry.data.orderReads,
    pushesNotifications: entry.data.pushesNotifications,
    ...(entry.data.servicingCardFeePercent !== undefined
      ? { servicingCardFeePercent: entry.data.servicingCardFeePercent }
      : {}),
    rateLimitRps: entry.data.rateLimitRps,
    settleWindowMs: entry.data.settleWindowMs,
    unsettledPolicy: entry.data.unsettledPolicy,
    authenticationTimeoutMs: entry.data.authenticationTimeoutMs,
    agencyIds: {},
    codes: embeddedAirlineCodes(),
    capabilities: { calendarSearch: true },
  };
}

const ENV_OF_FIELD: Readonly<Record<string, string>> = {
  code: 'AIRLINE_CODE',
  name: 'AIRLINE_NAME',
  rateLimitRps: 'AIRLINE_RATE_LIMIT_RPS',
  servicingCardFeePercent: 'AIRLINE_SERVICING_CARD_FEE_PERCENT',
  settleWindowMs: 'ORDER_SETTLE_WINDOW_MS',
  unsettledPolicy: 'ORDER_UNSETTLED_POLICY',
  authenticationTimeoutMs: 'AIRLINE_AUTHENTICATION_TIMEOUT_MS',
};

/** `{ [field]: Number(value) }` when the variable is set (the schema then checks it). */
function numberOf(env: NodeJS.ProcessEnv, variable: string, field: string): Record<string, number> {
  const raw = env[variable]?.trim();
  return raw === undefined || raw === '' ? {} : { [field]: Number(raw) };
}

/**
 * The embedded airline's own error codes (docs/airline-world.md) as failure types: what the
 * profile of the `AIRLINE_*` variables uses, and what `npm start` writes into its airlines file.
 */
export const EMBEDDED_AIRLINE_ERROR_CODES: Readonly<Record<string, AirlineFailureType>> = {
  '701': 'INVALID_REQUEST',
  '702': 'UNSUPPORTED_CURRENCY',
  // NDC Exchange header refused: another schema (704), SellerID or Recipient disagreeing (705).
  '704': 'INVALID_REQUEST',
  '705': 'INVALID_REQUEST',
  '710': 'NO_OFFERS',
  '711': 'NO_SEATS',
  '720': 'OFFER_EXPIRED',
  '721': 'OFFER_EXPIRED',
  '722': 'PASSENGER_MISMATCH',
  // Offers the request should not have sent: a second flight offer, another owner's, another response's.
  '723': 'INVALID_REQUEST',
  '724': 'INVALID_REQUEST',
  '725': 'INVALID_REQUEST',
  '730': 'BIRTHDATE_REQUIRED',
  '731': 'PASSENGER_DATA_MISSING',
  '732': 'CONTACT_MISSING',
  '740': 'PRICE_MISMATCH',
  '741': 'OFFER_EXPIRED',
  '742': 'PRICE_MISMATCH',
  '743': 'PRICE_MISMATCH',
  '750': 'INVALID_CARD',
  '751': 'TOKEN_EXPIRED',
  '752': 'TOKEN_EXPIRED',
  // 3-D Secure (docs/airline-world.md): 780 a 3-D Secure card without a SecurePaymentAlert,
  // 781 declined, 782 forged or for another transaction, 783 expired, 784 result already used
  // (the order may exist: looked up, never sent again).
  '780': 'INVALID_REQUEST',
  '781': 'AUTHENTICATION_FAILED',
  '782': 'AUTHENTICATION_FAILED',
  '783': 'AUTHENTICATION_TIMEOUT',
  '784': 'ORDER_OUTCOME_UNKNOWN',
  // Servicing (docs/airline-service.md, "Servicing orders"): 744 the price guarantee passed and the
  // price changed (reprice, then accept), 753 a hold not allowed, 726/727/775 a change offer or
  // reprice unknown, expired, or made for the order as it was, 770 the order cancelled, 771 a
  // refund below the one expected, 772 a hold expired unpaid, 773 a change of an unpaid order, 774
  // a payment of a paid one, 776 a removal refused, 777 a TransactionIdentifier reused.
  '744': 'PRICE_MISMATCH',
  '753': 'INVALID_REQUEST',
  '726': 'OFFER_EXPIRED',
  '727': 'OFFER_EXPIRED',
  '775': 'OFFER_EXPIRED',
  '770': 'INVALID_REQUEST',
  '771': 'PRICE_MISMATCH',
  '772': 'ORDER_NOT_FOUND',
  '773': 'INVALID_REQUEST',
  '774': 'INVALID_REQUEST',
  '776': 'INVALID_REQUEST',
  '777': 'INVALID_REQUEST',
};
/** The embedded airline's card fee on payments in an OrderChangeRQ (credit cards, docs/airline-service.md): 2 %. */
export const EMBEDDED_SERVICING_CARD_FEE_PERCENT = '2';

/** The embedded airline's "try again later" codes (799 system error, 778 another change of the order waits for 3-D Secure). */
export const EMBEDDED_AIRLINE_TRANSIENT_CODES: readonly string[] = ['799', '778'];

/** The embedded airline's reading of NDC codes: the standard ones and its own. */
export function embeddedAirlineCodes(): NdcCodeTable {
  return ndcCodeTable(EMBEDDED_AIRLINE_ERROR_CODES, EMBEDDED_AIRLINE_TRANSIENT_CODES);
}

/** What a booking needs of the airline (`BookingWorkflowOptions.airlines`). */
export function airlineRoute(profile: AirlineProfile): AirlineRoute {
  return {
    code: profile.code,
    settleWindowMs: profile.settleWindowMs,
    unsettledPolicy: profile.unsettledPolicy,
    authenticationTimeoutMs: profile.authenticationTimeoutMs,
    calendarSearch: profile.capabilities.calendarSearch,
    ...(readSchedule(profile.orderReads) !== undefined ? { orderReads: readSchedule(profile.orderReads)! } : {}),
    ...(profile.pushesNotifications ? { pushesNotifications: true } : {}),
    ...(profile.servicingCardFeePercent !== undefined
      ? { servicingCardFeePercent: profile.servicingCardFeePercent }
      : {}),
  };
}

/** The schedule part of the order reads (the share is the worker's business), when any is set. */
function readSchedule({ everyMs, nearDepartureEveryMs, nearDepartureMs }: AirlineProfile['orderReads']) {
  const schedule = {
    ...(everyMs !== undefined ? { everyMs } : {}),
    ...(nearDepartureEveryMs !== undefined ? { nearDepartureEveryMs } : {}),
    ...(nearDepartureMs !== undefined ? { nearDepartureMs } : {}),
  };
  return Object.keys(schedule).length > 0 ? schedule : undefined;
}

/** The profile of `code`, or an error naming it. */
export function profileOf(profiles: readonly AirlineProfile[], code: string): AirlineProfile {
  const profile = profiles.find((p) => p.code === code);
  if (profile === undefined) throw new AirlineProfileError(`airline ${code} is not configured`);
  return profile;
}

/** The `TravelAgencySender/AgencyID` `profile`'s airline knows `agencyId` by. */
export function airlineAgencyId(profile: Pick<AirlineProfile, 'agencyIds'>, agencyId: string): string {
  return profile.agencyIds[agencyId] ?? agencyId;
}

export type { NdcBinding };
