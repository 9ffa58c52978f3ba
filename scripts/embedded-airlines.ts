/**
 * The airlines `npm start` runs (docs/operations.md, "npm start"): two processes of the embedded
 * airline service in two dialects, each with its own port, database, credentials and world, and
 * the airlines file that tells the worker and the API about them.
 *
 * - `ZZ`: as before airline profiles: plain NDC, media vendor `ndcsaga`, port AIRLINE_PORT (4010).
 * - `YY`: SOAP 1.1, media vendor `ypsilon`, its own extension namespace and password, port
 *   SECOND_AIRLINE_PORT (4011), and a world of its own (other times, other fares).
 *
 * Both push the changes they make (OrderChangeNotif, docs/airline-service.md, "Schedule changes")
 * for every agency to the API's `POST /airlines/{code}/notifications`, in their binding, with a
 * credential generated on first run and kept (mode 600) beside the development API keys
 * (`.data/airline-notify-secrets.json`; `ZZ_AIRLINE_NOTIFY_PASSWORD` / `YY_AIRLINE_NOTIFY_PASSWORD`
 * override it), never printed: the API reads it from the variable its profile names.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  EMBEDDED_AIRLINE_ERROR_CODES,
  EMBEDDED_AIRLINE_TRANSIENT_CODES,
  EMBEDDED_SERVICING_CARD_FEE_PERCENT,
  type AirlineEntry,
} from '../src/ndc-client/airline-profile';

/** One embedded airline of `npm start`. */
export interface EmbeddedAirline {
  code: string;
  port: number;
  /** Its `/metrics` port. */
  metricsPort: string;
  /** The airline process's own variables (on top of the stack's). */
  env: Record<string, string>;
  /** Its entry in the airlines file. */
  entry: AirlineEntry;
  /** The variable holding its password (the entry's `passwordEnv`) and the development value. */
  secret: { name: string; value: string };
  /** When it pushes notifications: the variable holding its push password (the entry's `notifications.passwordEnv`) and the value. */
  notifySecret?: { name: string; value: string };
}

/** Where the embedded airlines push (the API's notification route) and their push passwords by designator. */
export interface EmbeddedPush {
  apiPort: number;
  passwords: Record<'ZZ' | 'YY', string>;
}

/** Extension namespace of the second embedded airline. */
export const YY_EXTENSION_NAMESPACE = 'http://www.ypsilon-air.example/ndc/ext/17.2';

/**
 * The two embedded airlines on `ports` (ZZ, YY), their data under `dataDir`. Each airline's
 * credentials have one source, given to both its process and the airlines file the worker reads:
 * ZZ's `AIRLINE_USERNAME` / `AIRLINE_PASSWORD` (the README's variables; development defaults),
 * YY's `YY_AIRLINE_PASSWORD` (user `agency-yy`).
 */
export function embeddedAirlines(
  ports: { zz: number; yy: number; zzMetrics: string; yyMetrics: string },
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
  push?: EmbeddedPush,
): EmbeddedAirline[] {
  const airlines = [
    zetaAir(ports.zz, ports.zzMetrics, {
      username: env.AIRLINE_USERNAME || 'agency',
      password: env.AIRLINE_PASSWORD || 'agency-secret',
    }),
    ypsilonAir(ports.yy, ports.yyMetrics, dataDir, env.YY_AIRLINE_PASSWORD || 'yy-agency-secret'),
  ];
  return airlines.map((a) => {
    const airline = { ...a, env: { ...a.env, ...servicingEnv(env) } };
    return push === undefined ? airline : pushing(airline, push);
  });
}

/** The variable holding airline `code`'s push password (what its profile's `notifications.passwordEnv` names). */
export function notifyPasswordVariable(code: string): string {
  return `${code}_AIRLINE_NOTIFY_PASSWORD`;
}

/** `airline` pushing its notifications for every agency to the API, in its binding, with its password. */
function pushing(airline: EmbeddedAirline, push: EmbeddedPush): EmbeddedAirline {
  const code = airline.code as 'ZZ' | 'YY';
  const notifySecret = { name: notifyPasswordVariable(code), value: push.passwords[code] };
  return {
    ...airline,
    env: {
      ...airline.env,
      AIRLINE_NOTIFY_URL: `http://127.0.0.1:${push.apiPort}/airlines/${code}/notifications`,
      AIRLINE_NOTIFY_USERNAME: code,
      AIRLINE_NOTIFY_PASSWORD: notifySecret.value,
      AIRLINE_NOTIFY_BINDING: airline.entry.binding ?? 'plain',
    },
    entry: { ...airline.entry, pushesNotifications: true, notifications: { passwordEnv: notifySecret.name } },
    notifySecret,
  };
}

/**
 * The embedded airlines' push passwords: `ZZ_AIRLINE_NOTIFY_PASSWORD` / `YY_AIRLINE_NOTIFY_PASSWORD`
 * when set, else those kept in `file` (mode 600), generated there on first run. Never printed.
 */
export function ensureNotifyPasswords(file: string, env: NodeJS.ProcessEnv = {}): EmbeddedPush['passwords'] {
  let saved: Partial<Record<'ZZ' | 'YY', string>> = {};
  try {
    saved = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof saved;
  } catch {
    // First run (or an unreadable file): generate them.
  }
  const generated = { ZZ: saved.ZZ ?? newPassword(), YY: saved.YY ?? newPassword() };
  if (generated.ZZ !== saved.ZZ || generated.YY !== saved.YY) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600 });
  }
  return {
    ZZ: env[notifyPasswordVariable('ZZ')] || generated.ZZ,
    YY: env[notifyPasswordVariable('YY')] || generated.YY,
  };
}

function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** Servicing settings `npm start` passes to every embedded airline when set (docs/airline-service.md, "Servicing orders"). */
export const SERVICING_VARIABLES = [
  'AIRLINE_HOLD_MS',
  'AIRLINE_PRICE_GUARANTEE_MS',
  'AIRLINE_CHANGE_OFFER_TTL_MS',
  'AIRLINE_CHANGE_ACTION_MS',
] as const;

function servicingEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(SERVICING_VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

/** The embedded airline's error codes and servicing card fee, as its profile names them. */
function embeddedCodes() {
  return {
    errorCodes: { ...EMBEDDED_AIRLINE_ERROR_CODES },
    transientCodes: [...EMBEDDED_AIRLINE_TRANSIENT_CODES],
    servicingCardFeePercent: EMBEDDED_SERVICING_CARD_FEE_PERCENT,
  };
}

/** `ZZ`: plain NDC, media vendor `ndcsaga`, the default database and world. */
function zetaAir(
  port: number,
  metricsPort: string,
  credentials: { username: string; password: string },
): EmbeddedAirline {
  return {
    code: 'ZZ',
    port,
    metricsPort,
    env: {
      AIRLINE_CODE: 'ZZ',
      AIRLINE_PORT: String(port),
      AIRLINE_METRICS_PORT: metricsPort,
      AIRLINE_USERNAME: credentials.username,
      AIRLINE_PASSWORD: credentials.password,
    },
    entry: {
      code: 'ZZ',
      name: 'Zeta Air (embedded)',
      baseUrl: `http://127.0.0.1:${port}`,
      username: credentials.username,
      passwordEnv: 'ZZ_AIRLINE_PASSWORD',
      ...embeddedCodes(),
    },
    secret: { name: 'ZZ_AIRLINE_PASSWORD', value: credentials.password },
  };
}

/** `YY`: SOAP 1.1, media vendor `ypsilon`, its own extension namespace, database and world. */
function ypsilonAir(port: number, metricsPort: string, dataDir: string, password: string): EmbeddedAirline {
  return {
    code: 'YY',
    port,
    metricsPort,
    env: {
      AIRLINE_CODE: 'YY',
      AIRLINE_PORT: String(port),
      AIRLINE_METRICS_PORT: metricsPort,
      AIRLINE_DB_PATH: path.join(dataDir, 'airline-yy.db'),
      AIRLINE_USERNAME: 'agency-yy',
      AIRLINE_PASSWORD: password,
      AIRLINE_MEDIA_VENDOR: 'ypsilon',
      AIRLINE_EXTENSION_NAMESPACE: YY_EXTENSION_NAMESPACE,
    },
    entry: {
      code: 'YY',
      name: 'Ypsilon Air (embedded, SOAP 1.1)',
      baseUrl: `http://127.0.0.1:${port}`,
      username: 'agency-yy',
      passwordEnv: 'YY_AIRLINE_PASSWORD',
      mediaVendor: 'ypsilon',
      extensionNamespace: YY_EXTENSION_NAMESPACE,
      binding: 'soap11',
      ...embeddedCodes(),
    },
    secret: { name: 'YY_AIRLINE_PASSWORD', value: password },
  };
}

/** Writes the airlines file of `airlines` to `file` (no secret in it); returns its text. */
export function writeAirlinesFile(file: string, airlines: readonly EmbeddedAirline[]): string {
  const text = `${JSON.stringify({ airlines: airlines.map((airline) => airline.entry) }, null, 2)}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return text;
}
