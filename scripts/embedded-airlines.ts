/**
 * The airlines `npm start` runs (docs/operations.md, "npm start"): two processes of the embedded
 * airline service in two dialects, each with its own port, database, credentials and world, and
 * the airlines file that tells the worker and the API about them.
 *
 * - `ZZ`: as before airline profiles: plain NDC, media vendor `ndcsaga`, port AIRLINE_PORT (4010).
 * - `YY`: SOAP 1.1, media vendor `ypsilon`, its own extension namespace and password, port
 *   SECOND_AIRLINE_PORT (4011), and a world of its own (other times, other fares).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  EMBEDDED_AIRLINE_ERROR_CODES,
  EMBEDDED_AIRLINE_TRANSIENT_CODES,
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
}

/** Extension namespace of the second embedded airline. */
export const YY_EXTENSION_NAMESPACE = 'http://www.ypsilon-air.example/ndc/ext/17.2';

/** The two embedded airlines on `ports` (ZZ, YY), their data under `dataDir`. */
export function embeddedAirlines(
  ports: { zz: number; yy: number; zzMetrics: string; yyMetrics: string },
  dataDir: string,
): EmbeddedAirline[] {
  const codes = {
    errorCodes: { ...EMBEDDED_AIRLINE_ERROR_CODES },
    transientCodes: [...EMBEDDED_AIRLINE_TRANSIENT_CODES],
  };
  const zzUrl = `http://127.0.0.1:${ports.zz}`;
  const yyUrl = `http://127.0.0.1:${ports.yy}`;
  return [
    {
      code: 'ZZ',
      port: ports.zz,
      metricsPort: ports.zzMetrics,
      env: { AIRLINE_CODE: 'ZZ', AIRLINE_PORT: String(ports.zz), AIRLINE_METRICS_PORT: ports.zzMetrics },
      entry: {
        code: 'ZZ',
        name: 'Zeta Air (embedded)',
        baseUrl: zzUrl,
        username: 'agency',
        passwordEnv: 'ZZ_AIRLINE_PASSWORD',
        ...codes,
      },
      secret: { name: 'ZZ_AIRLINE_PASSWORD', value: 'agency-secret' },
    },
    {
      code: 'YY',
      port: ports.yy,
      metricsPort: ports.yyMetrics,
      env: {
        AIRLINE_CODE: 'YY',
        AIRLINE_PORT: String(ports.yy),
        AIRLINE_METRICS_PORT: ports.yyMetrics,
        AIRLINE_DB_PATH: path.join(dataDir, 'airline-yy.db'),
        AIRLINE_USERNAME: 'agency-yy',
        AIRLINE_PASSWORD: 'yy-agency-secret',
        AIRLINE_MEDIA_VENDOR: 'ypsilon',
        AIRLINE_EXTENSION_NAMESPACE: YY_EXTENSION_NAMESPACE,
      },
      entry: {
        code: 'YY',
        name: 'Ypsilon Air (embedded, SOAP 1.1)',
        baseUrl: yyUrl,
        username: 'agency-yy',
        passwordEnv: 'YY_AIRLINE_PASSWORD',
        mediaVendor: 'ypsilon',
        extensionNamespace: YY_EXTENSION_NAMESPACE,
        binding: 'soap11',
        ...codes,
      },
      secret: { name: 'YY_AIRLINE_PASSWORD', value: 'yy-agency-secret' },
    },
  ];
}

/** Writes the airlines file of `airlines` to `file` (no secret in it); returns its text. */
export function writeAirlinesFile(file: string, airlines: readonly EmbeddedAirline[]): string {
  const text = `${JSON.stringify({ airlines: airlines.map((airline) => airline.entry) }, null, 2)}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return text;
}
