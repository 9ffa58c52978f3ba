import * as path from 'node:path';
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
