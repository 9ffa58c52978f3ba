import * as path from 'node:path';
import { embeddedAirlines } from './embedded-airlines';
import { loadStartConfig } from './start';
import { PROJECT_ROOT } from './temporal-cli';

describe('loadStartConfig', () => {
  it('defaults to the documented ports, data file and codec endpoint', () => {
    expect(loadStartConfig({})).toEqual({
      temporalPort: 7233,
      temporalUiPort: 8233,
      temporalIp: '127.0.0.1',
      temporalDbFile: path.join(PROJECT_ROOT, '.data', 'temporal.db'),
      temporalNamespace: 'default',
      externalTemporalAddress: undefined,
      uiCodecEndpoint: 'http://localhost:3000/codec',
      airlinePort: 4010,
      secondAirlinePort: 4011,
      airlinesFile: path.join(PROJECT_ROOT, '.data', 'airlines.json'),
      ownAirlinesFile: false,
      apiPort: 3000,
      taskQueue: 'ndc-saga',
      startupTimeoutMs: 120_000,
      stopGraceMs: 20_000,
      entries: { airline: 'src/airline/main.ts', worker: 'src/worker/main.ts', api: 'src/main.ts' },
    });
  });

  it('reads every setting from the environment', () => {
    const config = loadStartConfig({
      TEMPORAL_PORT: '17233',
      TEMPORAL_UI_PORT: '18233',
      TEMPORAL_IP: '0.0.0.0',
      TEMPORAL_DB_FILE: '/var/tmp/t.db',
      TEMPORAL_NAMESPACE: 'bookings',
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TASK_QUEUE: 'q1',
      AIRLINE_PORT: '14010',
      API_PORT: '13000',
      START_TIMEOUT_MS: '5000',
      STOP_GRACE_MS: '250',
    });
    expect(config).toMatchObject({
      temporalPort: 17233,
      temporalUiPort: 18233,
      temporalIp: '0.0.0.0',
      temporalDbFile: '/var/tmp/t.db',
      temporalNamespace: 'bookings',
      externalTemporalAddress: 'temporal.example:7233',
      taskQueue: 'q1',
      airlinePort: 14010,
      apiPort: 13000,
      uiCodecEndpoint: 'http://localhost:13000/codec',
      startupTimeoutMs: 5000,
      stopGraceMs: 250,
    });
  });

  it('disables the UI codec endpoint with "none"', () => {
    expect(loadStartConfig({ TEMPORAL_UI_CODEC_ENDPOINT: 'none' }).uiCodecEndpoint).toBeUndefined();
  });

  it.each([
    ['TEMPORAL_PORT', 'abc', 'TEMPORAL_PORT must be an integer >= 1, got "abc"'],
    ['API_PORT', '70000', 'API_PORT must be a TCP port (1-65535), got "70000"'],
    ['AIRLINE_PORT', '0', 'AIRLINE_PORT must be an integer >= 1, got "0"'],
    ['STOP_GRACE_MS', '1.5', 'STOP_GRACE_MS must be an integer >= 100, got "1.5"'],
  ])('rejects %s=%s naming the variable', (name, value, message) => {
    expect(() => loadStartConfig({ [name]: value })).toThrow(message);
  });
});

describe('embeddedAirlines (npm start)', () => {
  const ports = { zz: 4010, yy: 4011, zzMetrics: '9466', yyMetrics: '9467' };

  it('regression: AIRLINE_USERNAME / AIRLINE_PASSWORD reach both airline ZZ and the worker (one source)', () => {
    const [zz, yy] = embeddedAirlines(ports, '/tmp/data', {
      AIRLINE_USERNAME: 'ops-user',
      AIRLINE_PASSWORD: 'ops-pass',
    });
    expect(zz!.env).toMatchObject({ AIRLINE_USERNAME: 'ops-user', AIRLINE_PASSWORD: 'ops-pass' });
    expect(zz!.entry.username).toBe('ops-user');
    expect(zz!.secret).toEqual({ name: 'ZZ_AIRLINE_PASSWORD', value: 'ops-pass' });
    // The airlines file names the variable, never the password.
    expect(JSON.stringify(zz!.entry)).not.toContain('ops-pass');
    expect(yy!.env.AIRLINE_PASSWORD).toBe(yy!.secret.value);
  });

  it('uses the development credentials when none are set', () => {
    const [zz, yy] = embeddedAirlines(ports, '/tmp/data');
    expect(zz!.entry.username).toBe('agency');
    expect(zz!.secret.value).toBe('agency-secret');
    expect(zz!.env.AIRLINE_PASSWORD).toBe('agency-secret');
    expect(yy!.secret).toEqual({ name: 'YY_AIRLINE_PASSWORD', value: 'yy-agency-secret' });
  });
});
