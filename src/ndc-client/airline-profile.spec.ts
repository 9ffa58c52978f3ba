import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AIRLINE_ERRORS } from '../airline/airline.errors';
import { failureForNdcCode } from '../booking/booking.failures';
import {
  AirlineProfileError,
  airlineAgencyId,
  airlineListing,
  airlineRoute,
  embeddedAirlineCodes,
  loadAirlineProfiles,
  parseAirlineFile,
  profileFromEnv,
  type AirlineEntry,
} from './airline-profile';

const zz: AirlineEntry = {
  code: 'ZZ',
  name: 'Zeta Air',
  baseUrl: 'http://127.0.0.1:4010/',
  username: 'agency',
  passwordEnv: 'ZZ_AIRLINE_PASSWORD',
  agencyIds: { ACME: 'DYAPI00123' },
  errorCodes: { '711': 'NO_SEATS', '305': 'OFFER_EXPIRED' },
  transientCodes: ['799'],
};
const yy: AirlineEntry = {
  code: 'YY',
  name: 'Ypsilon',
  baseUrl: 'https://yy.example/ndc',
  paymentBaseUrl: 'https://pay.yy.example',
  username: 'acme',
  passwordEnv: 'YY_PASSWORD',
  mediaVendor: 'vnd-yy',
  extensionNamespace: 'http://yy.example/ndc-ext',
  binding: 'soap11',
  timeoutMs: 5000,
  rateLimitRps: 100,
  settleWindowMs: 30_000,
  authenticationTimeoutMs: 120_000,
  unsettledPolicy: 'escalate',
  capabilities: { calendarSearch: false },
};
const env = { ZZ_AIRLINE_PASSWORD: 'zz-secret', YY_PASSWORD: 'yy-secret' };

describe('airline profiles', () => {
  it('reads every field of the file, with defaults, secrets from the variables passwordEnv names', () => {
    const [first, second] = parseAirlineFile({ airlines: [zz, yy] }, env);
    expect(first).toMatchObject({
      code: 'ZZ',
      name: 'Zeta Air',
      client: {
        retailBaseUrl: 'http://127.0.0.1:4010',
        paymentBaseUrl: 'http://127.0.0.1:4010',
        username: 'agency',
        password: 'zz-secret',
        mediaVendor: 'ndcsaga',
        binding: 'plain',
        timeoutMs: 20_000,
      },
      rateLimitRps: 20,
      settleWindowMs: 120_000,
      unsettledPolicy: 'recreate',
      authenticationTimeoutMs: 600_000,
      agencyIds: { ACME: 'DYAPI00123' },
      capabilities: { calendarSearch: true },
    });
    expect(second).toMatchObject({
      client: {
        retailBaseUrl: 'https://yy.example/ndc',
        paymentBaseUrl: 'https://pay.yy.example',
        password: 'yy-secret',
        mediaVendor: 'vnd-yy',
        extensionNamespace: 'http://yy.example/ndc-ext',
        binding: 'soap11',
        timeoutMs: 5000,
      },
      rateLimitRps: 100,
      settleWindowMs: 30_000,
      unsettledPolicy: 'escalate',
      authenticationTimeoutMs: 120_000,
      capabilities: { calendarSearch: false },
    });
    expect(airlineRoute(second!)).toMatchObject({ code: 'YY', authenticationTimeoutMs: 120_000 });
  });

  it('documentNamespace: passed to the client when set (a URI or "*"), absent by default, anything else refused', () => {
    const [plain, provider, any] = parseAirlineFile(
      {
        airlines: [
          zz,
          { ...yy, documentNamespace: 'urn:example:ndc-provider:retail:v1' },
          { ...zz, code: 'AA', documentNamespace: '*' },
        ],
      },
      env,
    );
    expect(plain!.client.documentNamespace).toBeUndefined();
    expect(provider!.client.documentNamespace).toBe('urn:example:ndc-provider:retail:v1');
    expect(any!.client.documentNamespace).toBe('*');
    expect(() => parseAirlineFile({ airlines: [{ ...yy, documentNamespace: 'provider ns' }] }, env)).toThrow(
      'AIRLINES_FILE: airline YY (airlines[0]): documentNamespace: ',
    );
  });

  it('orderReads, pushesNotifications, circuitBreaker: defaults (reads 10%, no pushes, breaker on 5 / 30 s)', () => {
    const [first] = parseAirlineFile({ airlines: [zz] }, env);
    expect(first!.orderReads).toStrictEqual({ share: 0.1 });
    expect(first!.pushesNotifications).toBe(false);
    expect(first!.client.circuit).toStrictEqual({ airline: 'ZZ', failureThreshold: 5, openMs: 30_000 });
    expect(airlineRoute(first!)).toStrictEqual({
      code: 'ZZ',
      settleWindowMs: 120_000,
      unsettledPolicy: 'recreate',
      authenticationTimeoutMs: 600_000,
      calendarSearch: true,
    });
  });

  it('orderReads, pushesNotifications, circuitBreaker: set, the schedule and pushes reach the route, false turns the breaker off', () => {
    const orderReads = { share: 0.25, everyMs: 3_600_000, nearDepartureEveryMs: 600_000, nearDepartureMs: 86_400_000 };
    const [first, second] = parseAirlineFile(
      {
        airlines: [
          {
            ...zz,
            orderReads,
            pushesNotifications: true,
            notifications: { passwordEnv: 'ZZ_NOTIFY' },
            circuitBreaker: { failureThreshold: 2 },
          },
          { ...yy, orderReads: { everyMs: 7_200_000 }, circuitBreaker: false },
        ],
      },
      env,
    );
    expect(first!.orderReads).toStrictEqual(orderReads);
    expect(first!.client.circuit).toStrictEqual({ airline: 'ZZ', failureThreshold: 2, openMs: 30_000 });
    expect(airlineRoute(first!)).toMatchObject({
      orderReads: { everyMs: 3_600_000, nearDepartureEveryMs: 600_000, nearDepartureMs: 86_400_000 },
      pushesNotifications: true,
    });
    // The share is the worker's (its reads queue), not the workflow's.
    expect(airlineRoute(first!).orderReads).not.toHaveProperty('share');
    expect(second!.orderReads).toStrictEqual({ share: 0.1, everyMs: 7_200_000 });
    expect(second!.client).not.toHaveProperty('circuit');
    expect(airlineRoute(second!)).toMatchObject({ orderReads: { everyMs: 7_200_000 } });
    expect(airlineRoute(second!)).not.toHaveProperty('pushesNotifications');
  });

  it('refuses bad orderReads, pushesNotifications and circuitBreaker naming the field', () => {
    const bad = (entry: Partial<AirlineEntry>) => () => parseAirlineFile({ airlines: [{ ...yy, ...entry }] }, env);
    const where = 'AIRLINES_FILE: airline YY (airlines[0]): ';
    expect(bad({ orderReads: { share: 1.5 } })).toThrow(`${where}orderReads.share: Too big`);
    expect(bad({ orderReads: { everyMs: 0 } })).toThrow(`${where}orderReads.everyMs: Too small`);
    expect(bad({ pushesNotifications: 'yes' as never })).toThrow(`${where}pushesNotifications: `);
    expect(bad({ circuitBreaker: { failureThreshold: 0 } })).toThrow(
      `${where}circuitBreaker.failureThreshold: Too small`,
    );
    expect(bad({ circuitBreaker: { openMs: 1.5 } })).toThrow(`${where}circuitBreaker.openMs: `);
    expect(bad({ circuitBreaker: { threshold: 3 } as never })).toThrow(
      `${where}circuitBreaker: Unrecognized key: "threshold"`,
    );
    expect(bad({ circuitBreaker: true as never })).toThrow(
      `${where}circuitBreaker: must be { "failureThreshold"?, "openMs"? } or false`,
    );
  });

  it('notifications: the credential a pushing airline presents (username default the designator), needed when it pushes', () => {
    const [pushing, named] = parseAirlineFile(
      {
        airlines: [
          { ...zz, pushesNotifications: true, notifications: { passwordEnv: 'ZZ_NOTIFY' } },
          { ...yy, pushesNotifications: true, notifications: { username: 'yy-push', passwordEnv: 'YY_NOTIFY' } },
        ],
      },
      env,
    );
    expect(pushing!.notifications).toEqual({ username: 'ZZ', passwordEnv: 'ZZ_NOTIFY' });
    expect(named!.notifications).toEqual({ username: 'yy-push', passwordEnv: 'YY_NOTIFY' });
    expect(parseAirlineFile({ airlines: [zz] }, env)[0]).not.toHaveProperty('notifications');
    expect(() => parseAirlineFile({ airlines: [{ ...zz, pushesNotifications: true }] }, env)).toThrow(
      'AIRLINES_FILE: airline ZZ (airlines[0]): notifications: is needed when pushesNotifications is true ({ "passwordEnv": ... })',
    );
    expect(() =>
      parseAirlineFile({ airlines: [{ ...zz, notifications: { passwordEnv: 'not a variable' } }] }, env),
    ).toThrow('AIRLINES_FILE: airline ZZ (airlines[0]): notifications.passwordEnv: must name an environment variable');
  });

  it("reads each airline's error codes on top of the standard ones", () => {
    const [first, second] = parseAirlineFile({ airlines: [zz, yy] }, env);
    expect(failureForNdcCode('305', first!.codes)).toBe('OFFER_EXPIRED');
    expect(failureForNdcCode('913', first!.codes)).toBe('ORDER_NOT_FOUND');
    expect(first!.codes.transient.has('799')).toBe(true);
    expect(failureForNdcCode('711', second!.codes)).toBe('AIRLINE_ERROR');
    expect(second!.codes.transient.has('799')).toBe(false);
    expect(second!.codes.transient.has('911')).toBe(true);
  });

  it('maps the agency to the AgencyID each airline knows it by, else its own id', () => {
    const [first] = parseAirlineFile({ airlines: [zz] }, env);
    expect(airlineAgencyId(first!, 'ACME')).toBe('DYAPI00123');
    expect(airlineAgencyId(first!, 'OTHER')).toBe('OTHER');
  });

  it('refuses a bad file naming the airline and the field', () => {
    const bad =
      (entry: Partial<AirlineEntry>, index = 1) =>
      () =>
        parseAirlineFile({ airlines: [zz, { ...yy, ...entry }].slice(0, index + 1) }, env);
    expect(bad({ rateLimitRps: 0 })).toThrow('AIRLINES_FILE: airline YY (airlines[1]): rateLimitRps: ');
    expect(bad({ binding: 'smtp' as never })).toThrow('AIRLINES_FILE: airline YY (airlines[1]): binding: ');
    expect(bad({ errorCodes: { '711': 'SOLD_OUT' as never } })).toThrow(
      'AIRLINES_FILE: airline YY (airlines[1]): errorCodes.711: ',
    );
    expect(bad({ baseUrl: 'yy.example' })).toThrow(
      'airline YY (airlines[1]): baseUrl: must be an absolute http(s) URL',
    );
    expect(bad({ code: 'ZZ' })).toThrow('AIRLINES_FILE: airline ZZ (airlines[1]): code: ZZ is listed twice');
    expect(bad({ password: 'inline' } as never)).toThrow(/airline YY \(airlines\[1\]\): Unrecognized key: "password"/);
    expect(() => parseAirlineFile({ airlines: [] }, env)).toThrow(
      'AIRLINES_FILE: airlines: must list at least one airline',
    );
  });

  it('fails when the variable holding a password is missing, naming it; the API loads without credentials', () => {
    expect(() => parseAirlineFile({ airlines: [zz, yy] }, { ZZ_AIRLINE_PASSWORD: 'x' })).toThrow(
      new AirlineProfileError('AIRLINES_FILE: airline YY: passwordEnv: YY_PASSWORD is not set'),
    );
    const [withoutSecret] = parseAirlineFile({ airlines: [yy] }, {}, { credentials: false });
    expect(withoutSecret!.client.password).toBe('');
    expect(() =>
      parseAirlineFile({ airlines: [zz] }, { NODE_ENV: 'production', ZZ_AIRLINE_PASSWORD: 'agency-secret' }),
    ).toThrow('airline ZZ: passwordEnv: ZZ_AIRLINE_PASSWORD holds the development password (refused in production)');
  });

  it('reads AIRLINES_FILE from disk, else makes one profile of the AIRLINE_* variables as before profiles', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'airlines-')), 'airlines.json');
    fs.writeFileSync(file, JSON.stringify({ airlines: [yy, zz] }));
    expect(loadAirlineProfiles({ ...env, AIRLINES_FILE: file }).map((p) => p.code)).toEqual(['YY', 'ZZ']);
    fs.writeFileSync(file, '{ "airlines": [');
    expect(() => loadAirlineProfiles({ AIRLINES_FILE: file })).toThrow(`AIRLINES_FILE: cannot read ${file} as JSON`);

    const [single] = loadAirlineProfiles({
      AIRLINE_BASE_URL: 'http://airline:4010',
      AIRLINE_CODE: 'QQ',
      AIRLINE_RATE_LIMIT_RPS: '7.5',
      ORDER_SETTLE_WINDOW_MS: '5000',
      AIRLINE_BINDING: 'soap12',
    });
    expect(single).toMatchObject({
      code: 'QQ',
      client: { retailBaseUrl: 'http://airline:4010', password: 'agency-secret', binding: 'soap12' },
      rateLimitRps: 7.5,
      settleWindowMs: 5000,
      unsettledPolicy: 'recreate',
      orderReads: { share: 0.1 },
      pushesNotifications: false,
    });
    // The default circuit breaker, as for an airline of the file.
    expect(single!.client.circuit).toStrictEqual({ airline: 'QQ', failureThreshold: 5, openMs: 30_000 });
    expect(() => profileFromEnv({ AIRLINE_RATE_LIMIT_RPS: '0' })).toThrow(/^AIRLINE_RATE_LIMIT_RPS: /);
    expect(() => profileFromEnv({ ORDER_UNSETTLED_POLICY: 'retry' })).toThrow(/^ORDER_UNSETTLED_POLICY: /);
    expect(profileFromEnv({ AIRLINE_AUTHENTICATION_TIMEOUT_MS: '90000' }).authenticationTimeoutMs).toBe(90_000);
    expect(() => profileFromEnv({ AIRLINE_AUTHENTICATION_TIMEOUT_MS: '0' })).toThrow(
      /^AIRLINE_AUTHENTICATION_TIMEOUT_MS: /,
    );
  });

  it('lists an airline without its credentials or addresses', () => {
    const [profile] = parseAirlineFile({ airlines: [yy] }, env);
    expect(airlineListing(profile!)).toEqual({ code: 'YY', name: 'Ypsilon', binding: 'soap11', rateLimitRps: 100 });
  });

  it("reads the embedded airline's codes exactly as the airline's own catalogue names them", () => {
    const codes = embeddedAirlineCodes();
    const expected: Record<string, string> = {
      INVALID_REQUEST: 'INVALID_REQUEST',
      UNSUPPORTED_CURRENCY: 'UNSUPPORTED_CURRENCY',
      UNSUPPORTED_SCHEMA: 'INVALID_REQUEST',
      EXCHANGE_HEADER_MISMATCH: 'INVALID_REQUEST',
      ONE_OFFER_PER_ORDER: 'INVALID_REQUEST',
      FOREIGN_OFFER: 'INVALID_REQUEST',
      OFFER_RESPONSE_MISMATCH: 'INVALID_REQUEST',
      NO_OFFERS: 'NO_OFFERS',
      SOLD_OUT: 'NO_SEATS',
      UNKNOWN_OFFER: 'OFFER_EXPIRED',
      OFFER_EXPIRED: 'OFFER_EXPIRED',
      PASSENGER_MISMATCH: 'PASSENGER_MISMATCH',
      BIRTHDATE_REQUIRED: 'BIRTHDATE_REQUIRED',
      PASSENGER_DATA_MISSING: 'PASSENGER_DATA_MISSING',
      CONTACT_MISSING: 'CONTACT_MISSING',
      PRICE_MISMATCH: 'PRICE_MISMATCH',
      PRICE_GUARANTEE_EXPIRED: 'PRICE_MISMATCH',
      HOLD_NOT_ALLOWED: 'INVALID_REQUEST',
      CHANGE_OFFER_NOT_FOUND: 'OFFER_EXPIRED',
      CHANGE_OFFER_EXPIRED: 'OFFER_EXPIRED',
      ORDER_CHANGED: 'OFFER_EXPIRED',
      ORDER_ALREADY_CANCELLED: 'INVALID_REQUEST',
      REFUND_BELOW_EXPECTED: 'PRICE_MISMATCH',
      ORDER_EXPIRED: 'ORDER_NOT_FOUND',
      ORDER_UNPAID: 'INVALID_REQUEST',
      ORDER_ALREADY_PAID: 'INVALID_REQUEST',
      PASSENGER_REMOVAL_REFUSED: 'INVALID_REQUEST',
      TRANSACTION_REUSED: 'INVALID_REQUEST',
      PRICING_SUPERSEDED: 'OFFER_EXPIRED',
      PAYMENT_AMOUNT_MISMATCH: 'PRICE_MISMATCH',
      PAYMENT_CURRENCY_MISMATCH: 'PRICE_MISMATCH',
      INVALID_CARD: 'INVALID_CARD',
      TOKEN_EXPIRED: 'TOKEN_EXPIRED',
      UNKNOWN_TOKEN: 'TOKEN_EXPIRED',
      ORDER_NOT_FOUND: 'ORDER_NOT_FOUND',
      SECURE_PAYMENT_REQUIRED: 'INVALID_REQUEST',
      AUTHENTICATION_DECLINED: 'AUTHENTICATION_FAILED',
      AUTHENTICATION_INVALID: 'AUTHENTICATION_FAILED',
      AUTHENTICATION_EXPIRED: 'AUTHENTICATION_TIMEOUT',
      // The result was used: the order may exist, so it is looked up, never sent again.
      AUTHENTICATION_USED: 'ORDER_OUTCOME_UNKNOWN',
    };
    for (const [name, def] of Object.entries(AIRLINE_ERRORS)) {
      if (name === 'SYSTEM_ERROR' || name === 'CHANGE_IN_PROGRESS') expect(codes.transient.has(def.code)).toBe(true);
      else expect([name, failureForNdcCode(def.code, codes)]).toEqual([name, expected[name] ?? 'AIRLINE_ERROR']);
    }
  });
});
