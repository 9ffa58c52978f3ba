import { readFileSync } from 'node:fs';
import { loadTemporalConfig } from './temporal.config';

describe('loadTemporalConfig', () => {
  it('has local defaults', () => {
    expect(loadTemporalConfig({})).toEqual({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'ndc-saga' });
  });

  it('reads address, namespace, task queue, API key (implies TLS) and inline PEMs', () => {
    expect(
      loadTemporalConfig({
        TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
        TEMPORAL_NAMESPACE: 'ns.acct',
        TEMPORAL_TASK_QUEUE: 'q',
        TEMPORAL_API_KEY: 'key',
        TEMPORAL_TLS_SERVER_NAME: 'ns.acct.tmprl.cloud',
        TEMPORAL_TLS_CA: '-----BEGIN CERTIFICATE-----\\nAA\\n-----END CERTIFICATE-----',
      }),
    ).toEqual({
      address: 'ns.acct.tmprl.cloud:7233',
      namespace: 'ns.acct',
      taskQueue: 'q',
      apiKey: 'key',
      tls: {
        serverName: 'ns.acct.tmprl.cloud',
        serverRootCa: Buffer.from('-----BEGIN CERTIFICATE-----\nAA\n-----END CERTIFICATE-----'),
      },
    });
  });

  it('accepts [ipv6]:port, as the API does, and treats blank values as unset', () => {
    expect(loadTemporalConfig({ TEMPORAL_ADDRESS: '[::1]:7233', TEMPORAL_NAMESPACE: '  ' })).toEqual({
      address: '[::1]:7233',
      namespace: 'default',
      taskQueue: 'ndc-saga',
    });
  });

  it('reads client certificate and key together, from files', () => {
    const config = loadTemporalConfig({ TEMPORAL_TLS_CERT: __filename, TEMPORAL_TLS_KEY: __filename });
    expect(config.tls).toEqual({ clientCert: readFileSync(__filename), clientKey: readFileSync(__filename) });
  });

  it('fails fast naming the variable', () => {
    expect(() => loadTemporalConfig({ TEMPORAL_ADDRESS: 'localhost' })).toThrow(
      'TEMPORAL_ADDRESS: must be host:port or [ipv6]:port, got "localhost"',
    );
    expect(() => loadTemporalConfig({ TEMPORAL_TLS_CERT: '/nope.pem' })).toThrow(
      'TEMPORAL_TLS_KEY: TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together',
    );
    expect(() => loadTemporalConfig({ TEMPORAL_TLS_CERT: '/nope.pem', TEMPORAL_TLS_KEY: '/nope.key' })).toThrow(
      /^TEMPORAL_TLS_CERT: cannot read PEM file "\/nope.pem"/,
    );
  });
});
