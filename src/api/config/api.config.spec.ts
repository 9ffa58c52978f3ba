import { ApiConfigError, loadApiConfig } from './api.config';

describe('loadApiConfig', () => {
  it('has documented defaults', () => {
    expect(loadApiConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      temporalAddress: '127.0.0.1:7233',
      temporalNamespace: 'default',
      taskQueue: 'ndc-saga',
      airlineBaseUrl: 'http://127.0.0.1:4010',
      codecCorsOrigins: ['http://localhost:8233', 'http://127.0.0.1:8233'],
      batchConcurrency: 4,
      approvalTimeoutMs: undefined,
      queryTimeoutMs: 10000,
      logLevels: ['log', 'error', 'warn'],
    });
  });

  it('follows TEMPORAL_UI_PORT for the codec CORS origins unless they are given', () => {
    expect(loadApiConfig({ TEMPORAL_UI_PORT: '9000' }).codecCorsOrigins).toEqual(['http://localhost:9000', 'http://127.0.0.1:9000']);
    expect(loadApiConfig({ TEMPORAL_UI_PORT: '9000', CODEC_CORS_ORIGINS: 'https://ui.example.com' }).codecCorsOrigins).toEqual([
      'https://ui.example.com',
    ]);
  });

  it('fails fast naming the variable', () => {
    expect(() => loadApiConfig({ API_PORT: 'http' })).toThrow(ApiConfigError);
    expect(() => loadApiConfig({ API_PORT: '70000' })).toThrow(/^API_PORT: /);
    expect(() => loadApiConfig({ AIRLINE_BASE_URL: 'localhost:4010' })).toThrow('AIRLINE_BASE_URL: must be an absolute http(s) URL');
    expect(() => loadApiConfig({ API_LOG: 'loud' })).toThrow('API_LOG: unknown level "loud"');
    expect(loadApiConfig({ API_LOG: 'none' }).logLevels).toEqual([]);
    expect(loadApiConfig({ AIRLINE_BASE_URL: 'http://airline:4010/' }).airlineBaseUrl).toBe('http://airline:4010');
  });
});
