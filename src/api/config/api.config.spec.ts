import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiConfigError, loadApiConfig } from './api.config';

describe('loadApiConfig', () => {
  it('has documented defaults', () => {
    expect(loadApiConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      temporalAddress: '127.0.0.1:7233',
      temporalNamespace: 'default',
      taskQueue: 'ndc-saga',
      // The AIRLINE_* profile, without its password: the API never calls an airline.
      airlines: [
        expect.objectContaining({
          code: 'ZZ',
          client: expect.objectContaining({ retailBaseUrl: 'http://127.0.0.1:4010', password: '' }),
        }),
      ],
      notificationCredentials: new Map(),
      codecCorsOrigins: ['http://localhost:8233', 'http://127.0.0.1:8233'],
      codecOpenOnLoopback: false,
      batchConcurrency: 4,
      approvalTimeoutMs: undefined,
      workflowDefaults: {
        servicing: { paymentDueNoticeMs: 7_200_000 },
        airlines: [
          {
            code: 'ZZ',
            settleWindowMs: 120_000,
            unsettledPolicy: 'recreate',
            authenticationTimeoutMs: 600_000,
            calendarSearch: true,
            servicingCardFeePercent: '2',
          },
        ],
      },
      priorities: { interactive: 2, batch: 4 },
      queryTimeoutMs: 10000,
      logLevels: ['log', 'error', 'warn'],
      apiKeysFile: '.data/api-keys.json',
      rateLimitPoints: 60,
      rateLimitWindowS: 60,
    });
  });

  it('follows TEMPORAL_UI_PORT for the codec CORS origins unless they are given', () => {
    expect(loadApiConfig({ TEMPORAL_UI_PORT: '9000' }).codecCorsOrigins).toEqual([
      'http://localhost:9000',
      'http://127.0.0.1:9000',
    ]);
    expect(
      loadApiConfig({ TEMPORAL_UI_PORT: '9000', CODEC_CORS_ORIGINS: 'https://ui.example.com' }).codecCorsOrigins,
    ).toEqual(['https://ui.example.com']);
  });

  it('accepts TEMPORAL_ADDRESS as host:port or [ipv6]:port, as the worker does', () => {
    expect(loadApiConfig({ TEMPORAL_ADDRESS: '[::1]:7233' }).temporalAddress).toBe('[::1]:7233');
    expect(loadApiConfig({ TEMPORAL_ADDRESS: 'temporal:7233' }).temporalAddress).toBe('temporal:7233');
    expect(() => loadApiConfig({ TEMPORAL_ADDRESS: '::1:7233' })).toThrow(/^TEMPORAL_ADDRESS: /);
    expect(() => loadApiConfig({ TEMPORAL_ADDRESS: 'http://x:7233' })).toThrow(/^TEMPORAL_ADDRESS: /);
  });

  it('reads OIDC settings together, with claim defaults', () => {
    const oidc = {
      OIDC_ISSUER: 'https://id.example.com/',
      OIDC_AUDIENCE: 'ndc-saga',
      OIDC_JWKS_URL: 'https://id.example.com/jwks',
    };
    expect(loadApiConfig(oidc).oidc).toEqual({
      issuer: 'https://id.example.com/',
      audience: 'ndc-saga',
      jwksUrl: 'https://id.example.com/jwks',
      agencyClaim: 'agency_id',
      roleClaim: 'roles',
      opsRole: 'ops',
    });
    expect(() => loadApiConfig({ OIDC_ISSUER: 'x' })).toThrow('OIDC_AUDIENCE: must be set with OIDC_ISSUER');
    expect(() => loadApiConfig({ ...oidc, OIDC_JWKS_URL: 'file:///x' })).toThrow(
      'OIDC_JWKS_URL: must be an absolute http(s) URL',
    );
  });

  it('production: a credential source is required, the keys file has no default, the loopback codec is refused', () => {
    expect(() => loadApiConfig({ NODE_ENV: 'production' })).toThrow(
      'API_KEYS_FILE: set it (or OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URL) when NODE_ENV=production',
    );
    expect(loadApiConfig({ NODE_ENV: 'production', API_KEYS_FILE: '/data/api-keys.json' }).apiKeysFile).toBe(
      '/data/api-keys.json',
    );
    expect(() =>
      loadApiConfig({ NODE_ENV: 'production', API_KEYS_FILE: '/k', CODEC_OPEN_ON_LOOPBACK: 'true' }),
    ).toThrow('CODEC_OPEN_ON_LOOPBACK: is refused when NODE_ENV=production');
  });

  it('fails fast naming the variable', () => {
    expect(() => loadApiConfig({ API_PORT: 'http' })).toThrow(ApiConfigError);
    expect(() => loadApiConfig({ API_PORT: '70000' })).toThrow(/^API_PORT: /);
    expect(() => loadApiConfig({ AIRLINE_BASE_URL: 'localhost:4010' })).toThrow(
      'AIRLINE_BASE_URL: must be an http or https URL, got "localhost:4010"',
    );
    expect(() => loadApiConfig({ API_LOG: 'loud' })).toThrow('API_LOG: unknown level "loud"');
    expect(() => loadApiConfig({ RATE_LIMIT_POINTS: '-1' })).toThrow(/^RATE_LIMIT_POINTS: /);
    expect(() => loadApiConfig({ CODEC_OPEN_ON_LOOPBACK: 'yes' })).toThrow(
      'CODEC_OPEN_ON_LOOPBACK: must be true or false',
    );
    expect(() => loadApiConfig({ ORDER_UNSETTLED_POLICY: 'retry' })).toThrow(ApiConfigError);
    expect(() => loadApiConfig({ ORDER_SETTLE_WINDOW_MS: '2m' })).toThrow(/^ORDER_SETTLE_WINDOW_MS: /);
    expect(
      loadApiConfig({ ORDER_SETTLE_WINDOW_MS: '300000', ORDER_UNSETTLED_POLICY: 'escalate' }).workflowDefaults,
    ).toEqual({
      servicing: { paymentDueNoticeMs: 7_200_000 },
      // The AIRLINE_* profile takes its settle window and policy from the same variables.
      airlines: [
        {
          code: 'ZZ',
          settleWindowMs: 300000,
          unsettledPolicy: 'escalate',
          authenticationTimeoutMs: 600_000,
          calendarSearch: true,
          servicingCardFeePercent: '2',
        },
      ],
      settleWindowMs: 300000,
      unsettledPolicy: 'escalate',
    });
    expect(() => loadApiConfig({ BOOKING_PRIORITY_BATCH: '0' })).toThrow(ApiConfigError);
    expect(() => loadApiConfig({ BOOKING_PRIORITY_INTERACTIVE: '5' })).toThrow(/^BOOKING_PRIORITY_INTERACTIVE: /);
    expect(loadApiConfig({ BOOKING_PRIORITY_INTERACTIVE: '1', BOOKING_PRIORITY_BATCH: '5' }).priorities).toEqual({
      interactive: 1,
      batch: 5,
    });
    expect(loadApiConfig({ API_LOG: 'none' }).logLevels).toEqual([]);
    expect(loadApiConfig({ AIRLINE_BASE_URL: 'http://airline:4010/' }).airlines[0]!.client.retailBaseUrl).toBe(
      'http://airline:4010',
    );
    expect(() => loadApiConfig({ AIRLINE_BASE_URL: 'ftp://airline' })).toThrow(/^AIRLINE_BASE_URL: /);
    expect(() => loadApiConfig({ AIRLINES_FILE: '/nope/airlines.json' })).toThrow(/^AIRLINES_FILE: cannot read/);
  });

  it('reads the notification credential of each pushing airline, naming a missing password variable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-config-'));
    const file = path.join(dir, 'airlines.json');
    const entry = {
      code: 'ZZ',
      name: 'Zeta',
      baseUrl: 'http://127.0.0.1:4010',
      username: 'agency',
      passwordEnv: 'ZZ_PW',
    };
    fs.writeFileSync(
      file,
      JSON.stringify({
        airlines: [{ ...entry, pushesNotifications: true, notifications: { passwordEnv: 'ZZ_PUSH' } }],
      }),
    );
    try {
      const config = loadApiConfig({ AIRLINES_FILE: file, ZZ_PUSH: 'push-secret' });
      const zz = config.notificationCredentials.get('ZZ')!;
      expect(zz.matches(`Basic ${Buffer.from('ZZ:push-secret').toString('base64')}`)).toBe(true);
      expect(zz.matches(`Basic ${Buffer.from('ZZ:other').toString('base64')}`)).toBe(false);
      expect(JSON.stringify(config)).not.toContain('push-secret');
      expect(() => loadApiConfig({ AIRLINES_FILE: file })).toThrow(
        new ApiConfigError('ZZ_PUSH', 'not set: the notification password of airline ZZ'),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
