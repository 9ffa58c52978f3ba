import { AirlineConfigError, loadAirlineConfig } from './airline.config';

describe('loadAirlineConfig', () => {
  it('has documented defaults', () => {
    const c = loadAirlineConfig({});
    expect({ ...c, vaultKey: c.vaultKey.length }).toEqual({
      port: 4010,
      username: 'agency',
      password: 'agency-secret',
      airlineCode: 'ZZ',
      mediaVendor: 'ndcsaga',
      extensionNamespace: 'http://www.ndc-saga.dev/schema/ndc-ext/17.2',
      exchangeNamespace: 'http://www.ndc-saga.dev/schema/ndc-exchange/1',
      dbPath: '.data/airline.db',
      vaultKey: 32,
      production: false,
      maxBodyBytes: 1048576,
      seatLockMs: 600000,
      worldSeed: 'ZZ',
      portalUrl: 'https://book.example-airline.test/manage/',
      authenticationHoldMs: 600000,
      servicing: {
        holdMs: 86400000,
        priceGuaranteeMs: 3600000,
        changeOfferTtlMs: 900000,
        holdDeniedAgencies: [],
        changeActionMs: 172800000,
      },
      logLevels: ['error', 'warn'],
    });
  });

  it.each([
    [{ AIRLINE_PORT: 'eighty' }, 'AIRLINE_PORT'],
    [{ AIRLINE_PORT: '70000' }, 'AIRLINE_PORT'],
    [{ AIRLINE_CODE: 'ZZZ' }, 'AIRLINE_CODE'],
    [{ AIRLINE_MEDIA_VENDOR: 'Bad Vendor' }, 'AIRLINE_MEDIA_VENDOR'],
    [{ AIRLINE_EXTENSION_NAMESPACE: 'not a uri' }, 'AIRLINE_EXTENSION_NAMESPACE'],
    [{ AIRLINE_VAULT_KEY: 'short' }, 'AIRLINE_VAULT_KEY'],
    [{ AIRLINE_LOG: 'chatty' }, 'AIRLINE_LOG'],
    [{ AIRLINE_AUTHENTICATION_HOLD_MS: '10' }, 'AIRLINE_AUTHENTICATION_HOLD_MS'],
    [{ AIRLINE_ACS_BASE_URL: 'not a url' }, 'AIRLINE_ACS_BASE_URL'],
    [{ AIRLINE_SEAT_LOCK_MS: '0' }, 'AIRLINE_SEAT_LOCK_MS'],
    [{ AIRLINE_HOLD_MS: '999' }, 'AIRLINE_HOLD_MS'],
    [{ AIRLINE_PRICE_GUARANTEE_MS: 'an hour' }, 'AIRLINE_PRICE_GUARANTEE_MS'],
    [{ AIRLINE_CHANGE_OFFER_TTL_MS: '0' }, 'AIRLINE_CHANGE_OFFER_TTL_MS'],
    [{ AIRLINE_CHANGE_ACTION_MS: '48h' }, 'AIRLINE_CHANGE_ACTION_MS'],
    [{ AIRLINE_NOTIFY_URL: 'not a url' }, 'AIRLINE_NOTIFY_URL'],
    [{ AIRLINE_NOTIFY_URL: 'http://127.0.0.1:3000/airlines/ZZ/notifications' }, 'AIRLINE_NOTIFY_PASSWORD'],
    [{ AIRLINE_NOTIFY_BINDING: 'rest' }, 'AIRLINE_NOTIFY_BINDING'],
    [{ AIRLINE_NOTIFY_RETRY_MS: '1' }, 'AIRLINE_NOTIFY_RETRY_MS'],
  ])('fails fast naming the variable for %j', (env, variable) => {
    expect(() => loadAirlineConfig(env)).toThrow(AirlineConfigError);
    expect(() => loadAirlineConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });

  it('reads the servicing settings: hold, price guarantee, change offer lifetime, agencies that may not hold', () => {
    const c = loadAirlineConfig({
      AIRLINE_HOLD_MS: '5000',
      AIRLINE_PRICE_GUARANTEE_MS: '2000',
      AIRLINE_CHANGE_OFFER_TTL_MS: '3000',
      AIRLINE_HOLD_DENIED_AGENCIES: ' AGENCY02, AGENCY03 ,',
    });
    expect(c.servicing).toEqual({
      holdMs: 5000,
      priceGuaranteeMs: 2000,
      changeOfferTtlMs: 3000,
      holdDeniedAgencies: ['AGENCY02', 'AGENCY03'],
      changeActionMs: 172800000,
    });
  });

  it('reads where the airline pushes OrderChangeNotif: the URL template, the credential (user default the designator), the binding and the retry', () => {
    const base = { AIRLINE_CODE: 'YY', AIRLINE_CHANGE_ACTION_MS: '60000' };
    expect(loadAirlineConfig(base).notify).toBeUndefined();
    const c = loadAirlineConfig({
      ...base,
      AIRLINE_NOTIFY_URL: 'https://{agency}.agencies.example/ndc/notifications',
      AIRLINE_NOTIFY_PASSWORD: 'push-secret',
      AIRLINE_NOTIFY_BINDING: 'soap11',
      AIRLINE_NOTIFY_RETRY_MS: '250',
    });
    expect([c.servicing.changeActionMs, c.notify]).toEqual([
      60000,
      {
        url: 'https://{agency}.agencies.example/ndc/notifications',
        username: 'YY',
        password: 'push-secret',
        binding: 'soap11',
        retryMs: 250,
      },
    ]);
  });

  it('refuses the development defaults in production', () => {
    const key = 'a'.repeat(64);
    expect(() => loadAirlineConfig({ NODE_ENV: 'production', AIRLINE_USERNAME: 'u', AIRLINE_VAULT_KEY: key })).toThrow(
      'AIRLINE_PASSWORD: the development default is refused when NODE_ENV=production',
    );
    expect(() => loadAirlineConfig({ NODE_ENV: 'production', AIRLINE_PASSWORD: 'p', AIRLINE_VAULT_KEY: key })).toThrow(
      'AIRLINE_USERNAME: the development default is refused when NODE_ENV=production',
    );
    expect(() => loadAirlineConfig({ NODE_ENV: 'production', AIRLINE_USERNAME: 'u', AIRLINE_PASSWORD: 'p' })).toThrow(
      'AIRLINE_VAULT_KEY: must be set when NODE_ENV=production',
    );
    const c = loadAirlineConfig({
      NODE_ENV: 'production',
      AIRLINE_USERNAME: 'u',
      AIRLINE_PASSWORD: 'p',
      AIRLINE_VAULT_KEY: key,
    });
    expect([c.production, c.vaultKey.toString('hex')]).toEqual([true, key]);
  });
});
