import type { Client } from '@temporalio/client';
import type { ApiConfig } from '../config/api.config';
import type { HttpResponse } from '../common/http.types';
import { HealthController, readiness, type DependencyHealth } from './health.controller';

const up: DependencyHealth = { status: 'up' };
const down: DependencyHealth = { status: 'down', error: 'ECONNREFUSED' };

describe('readiness', () => {
  it('is ok with both up, degraded (still ready) with the airline down, unready with Temporal down', () => {
    expect(readiness(up, [up, up])).toEqual({ status: 'ok', httpStatus: 200 });
    expect(readiness(up, [up, down])).toEqual({ status: 'degraded', httpStatus: 200 });
    expect(readiness(down, [up])).toEqual({ status: 'unavailable', httpStatus: 503 });
    expect(readiness(down, [down])).toEqual({ status: 'unavailable', httpStatus: 503 });
  });
});

describe('HealthController', () => {
  const config = {
    temporalAddress: 't:7233',
    temporalNamespace: 'default',
    airlines: [{ code: 'ZZ', client: { retailBaseUrl: 'http://127.0.0.1:9' } }],
  } as unknown as ApiConfig;
  const clientFailing = {
    withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn(),
    connection: {
      workflowService: { getSystemInfo: () => Promise.reject(new Error('14 UNAVAILABLE: connection refused')) },
    },
  } as unknown as Client;

  it('ready: 503 when Temporal does not answer, naming it; live stays 200', async () => {
    const controller = new HealthController(clientFailing, config);
    let status = 0;
    const res = { status: (code: number) => ((status = code), res) } as unknown as HttpResponse;
    const report = await controller.ready(res);
    expect(status).toBe(503);
    expect(report.status).toBe('unavailable');
    expect(report.temporal).toEqual({
      status: 'down',
      address: 't:7233',
      namespace: 'default',
      error: '14 UNAVAILABLE: connection refused',
    });
    expect(controller.live()).toEqual({ status: 'ok' });
  });
});
