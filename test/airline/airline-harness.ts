/**
 * Test harness of the airline e2e specs: starts the real app on a free port
 * and talks to it over real HTTP (node:http, so headers such as
 * Transfer-Encoding and Content-Encoding are seen as sent).
 */
import { DEFAULT_AUTHENTICATION_TIMEOUT_MS } from '../../src/booking/booking.model';
import type { INestApplication } from '@nestjs/common';
import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { type AirlineConfig, testAirlineConfig } from '../../src/airline/airline.config';
import { type AirlineAppOptions, createAirlineApp } from '../../src/airline/airline.module';
import type { PaymentTokenRequest } from '../../src/common/payment-token.model';
import type { NdcClientConfig } from '../../src/ndc-client';
import {
  DEFAULT_AIRLINE_SETTLE_WINDOW_MS,
  embeddedAirlineCodes,
  EMBEDDED_SERVICING_CARD_FEE_PERCENT,
  type AirlineProfile,
} from '../../src/ndc-client/airline-profile';

export const AUTH = `Basic ${Buffer.from('agency:agency-secret').toString('base64')}`;
export const NDC_TYPE = 'application/vnd.ndcsaga.ndc.v17.2+xml';
export const NDC_TYPE_UTF8 = `${NDC_TYPE};charset=UTF-8`;

export interface RunningAirline {
  app: INestApplication;
  config: AirlineConfig;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function startAirline(
  overrides: Partial<AirlineConfig> = {},
  options: AirlineAppOptions = {},
): Promise<RunningAirline> {
  const config = testAirlineConfig(overrides);
  const app = await createAirlineApp(config, options);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, config, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

/**
 * Arms a fault of the airline's simulator (`POST <url>/_sim/faults`, with the development Basic
 * credentials) for the next `count` calls of `operation` (`delayMs` only when positive; `agencyId`:
 * only that agency's calls) and returns the response; the caller checks it.
 */
export function armFault(
  url: string,
  operation: string,
  mode: string,
  count = 1,
  delayMs = 0,
  agencyId?: string,
): Promise<Response> {
  return fetch(`${url}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: AUTH },
    body: JSON.stringify({
      operation,
      mode,
      count,
      ...(delayMs > 0 ? { delayMs } : {}),
      ...(agencyId ? { agencyId } : {}),
    }),
  });
}

/** Clears every armed fault of the airline at `url` (`DELETE /_sim/faults`); rejects unless 204. */
export async function clearFaults(url: string): Promise<void> {
  const res = await fetch(`${url}/_sim/faults`, { method: 'DELETE', headers: { authorization: AUTH } });
  if (res.status !== 204) throw new Error(`clearing the airline's faults failed: ${res.status}`);
}

/**
 * NdcHttpClient settings for `airline`: retail and payment on its one URL, its credentials and
 * media vendor; `timeoutMs` as given (the client's default when omitted).
 */
export function ndcClientConfig(airline: Pick<RunningAirline, 'config' | 'url'>, timeoutMs?: number): NdcClientConfig {
  return {
    retailBaseUrl: airline.url,
    paymentBaseUrl: airline.url,
    username: airline.config.username,
    password: airline.config.password,
    mediaVendor: airline.config.mediaVendor,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/**
 * The booking side's profile of a running embedded airline (its designator, credentials, media
 * vendor and error codes), as `npm start` writes it into the airlines file.
 */
export function embeddedProfile(
  airline: Pick<RunningAirline, 'config' | 'url'>,
  options: { timeoutMs?: number; rateLimitRps?: number; client?: Partial<NdcClientConfig> } = {},
): AirlineProfile {
  return {
    code: airline.config.airlineCode,
    name: `Embedded ${airline.config.airlineCode}`,
    client: {
      ...ndcClientConfig(airline, options.timeoutMs),
      extensionNamespace: airline.config.extensionNamespace,
      ...options.client,
    },
    rateLimitRps: options.rateLimitRps ?? 200,
    settleWindowMs: DEFAULT_AIRLINE_SETTLE_WINDOW_MS,
    unsettledPolicy: 'recreate',
    authenticationTimeoutMs: DEFAULT_AUTHENTICATION_TIMEOUT_MS,
    agencyIds: {},
    codes: embeddedAirlineCodes(),
    capabilities: { calendarSearch: true },
    orderReads: { share: 0.1 },
    pushesNotifications: false,
    servicingCardFeePercent: EMBEDDED_SERVICING_CARD_FEE_PERCENT,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Body bytes as received (possibly gzip). */
  raw: Buffer;
  /** Body text, gunzipped when Content-Encoding is gzip. */
  text: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent;
}

/** One HTTP exchange; rejects on a network error (e.g. a reset). */
export function http(url: string, r: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: r.method ?? 'GET', headers: r.headers, agent: r.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text =
          res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text });
      });
    });
    req.on('error', reject);
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

/** POSTs NDC XML to `path` with auth and the vendor media type. */
export function postXml(
  base: string,
  path: string,
  xml: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return http(base + path, {
    method: 'POST',
    headers: { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8, Accept: NDC_TYPE_UTF8, ...headers },
    body: xml,
  });
}

/**
 * POSTs NDC `xml` to `/retail/orders` of `url` and says whether an answer came within
 * `timeoutMs` (a socket idle timeout: the request is then abandoned). For simulator faults that
 * withhold the answer.
 */
export function postOrderWithin(url: string, xml: string, timeoutMs: number): Promise<'answered' | 'timed out'> {
  return new Promise((resolve) => {
    const req = request(`${url}/retail/orders`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8, Accept: NDC_TYPE_UTF8 },
      timeout: timeoutMs,
    });
    req.on('response', () => resolve('answered'));
    req.on('timeout', () => {
      req.destroy();
      resolve('timed out');
    });
    req.on('error', () => undefined);
    req.end(xml);
  });
}

export function postJson(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return http(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A valid token request for `number` (expiry one day after `now`). */
export function tokenRequest(number: string, now = new Date()): PaymentTokenRequest {
  const expiry = new Date(now.getTime() + 24 * 3600_000).toISOString().slice(0, 19);
  return {
    expiryDateTimeUTC: expiry,
    card: {
      number,
      name: 'Ada Lovelace',
      address: { addressLine1: '1 Main Street', postalCode: 'RH6 0NP', cityName: 'Crawley', countryCode: 'GB' },
      expirationYear: now.getUTCFullYear() + 2,
      expirationMonth: 12,
      verificationCode: '737',
    },
  };
}

/** Creates a card token and returns its id. */
export async function createToken(base: string, number: string): Promise<string> {
  const res = await postJson(base, '/payment/tokens', tokenRequest(number));
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${res.text}`);
  return (JSON.parse(res.text) as { id: string }).id;
}

/** Polls `check` until it returns true or `ms` elapse. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not met in time');
}
