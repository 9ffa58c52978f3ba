import { DEFAULT_SHUTDOWN_GRACE_MS } from './worker';
import { DEFAULT_WORKER_HTTP_PORT, WorkerConfigError, loadWorkerConfig } from './worker.config';
import { DEFAULT_OVERDUE_AFTER_MS } from './worker.metrics';

describe('loadWorkerConfig', () => {
  it('has local defaults', () => {
    expect(loadWorkerConfig({})).toEqual({
      temporal: { address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'ndc-saga' },
      shutdownGraceMs: DEFAULT_SHUTDOWN_GRACE_MS,
      httpPort: DEFAULT_WORKER_HTTP_PORT,
      httpHost: '0.0.0.0',
      registerSearchAttributes: false,
      overdueAfterMs: DEFAULT_OVERDUE_AFTER_MS,
    });
  });

  it('reads every variable; blank is unset, `off` turns the HTTP server off', () => {
    expect(
      loadWorkerConfig({
        TEMPORAL_ADDRESS: '[::1]:7233',
        TEMPORAL_TASK_QUEUE: 'q',
        WORKER_AIRLINES: 'ZZ, YY',
        WORKER_SHUTDOWN_GRACE_MS: '500',
        WORKFLOW_BUNDLE_PATH: __filename,
        WORKER_HTTP_PORT: 'off',
        WORKER_HTTP_HOST: ' ',
        WORKER_SDK_METRICS_PORT: '9999',
        WORKER_MAX_CACHED_WORKFLOWS: '400',
        TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'true',
        BOOKING_APPROVAL_TIMEOUT_MS: '60000',
        ORDER_SETTLE_WINDOW_MS: '0',
      }),
    ).toEqual({
      temporal: { address: '[::1]:7233', namespace: 'default', taskQueue: 'q' },
      airlines: ['ZZ', 'YY'],
      shutdownGraceMs: 500,
      workflowBundlePath: __filename,
      httpHost: '0.0.0.0',
      sdkMetricsPort: 9999,
      maxCachedWorkflows: 400,
      registerSearchAttributes: true,
      overdueAfterMs: { AWAITING_APPROVAL: 60_000 + 900_000, SETTLING: 900_000 },
    });
    expect(loadWorkerConfig({ WORKER_HTTP_PORT: '0', WORKER_SDK_METRICS_PORT: 'off' })).toMatchObject({ httpPort: 0 });
    expect(loadWorkerConfig({ WORKER_SDK_METRICS_PORT: 'off' }).sdkMetricsPort).toBeUndefined();
  });

  it('fails fast naming the variable', () => {
    expect(() => loadWorkerConfig({ WORKER_AIRLINES: 'zz;yy' })).toThrow(
      new WorkerConfigError(
        'WORKER_AIRLINES',
        'must be airline designators separated by commas, e.g. "ZZ,YY", got "zz;yy"',
      ),
    );
    expect(() => loadWorkerConfig({ WORKER_SHUTDOWN_GRACE_MS: 'soon' })).toThrow(
      'WORKER_SHUTDOWN_GRACE_MS: must be a positive number, got "soon"',
    );
    expect(() => loadWorkerConfig({ WORKFLOW_BUNDLE_PATH: '/nope/bundle.js' })).toThrow(
      'WORKFLOW_BUNDLE_PATH: no file at "/nope/bundle.js"',
    );
    expect(() => loadWorkerConfig({ WORKER_HTTP_PORT: '70000' })).toThrow(
      'WORKER_HTTP_PORT: must be a TCP port (0-65535) or "off", got "70000"',
    );
    expect(() => loadWorkerConfig({ WORKER_MAX_CACHED_WORKFLOWS: '1' })).toThrow(
      'WORKER_MAX_CACHED_WORKFLOWS: must be a whole number of at least 2, got "1"',
    );
    expect(() => loadWorkerConfig({ TEMPORAL_ADDRESS: '::1:7233' })).toThrow(
      'TEMPORAL_ADDRESS: must be host:port or [ipv6]:port, got "::1:7233"',
    );
  });
});
