import { createMetricsRegistry, Counter } from './metrics';
import { startOpsServer } from './ops-server';

describe('startOpsServer', () => {
  it('serves liveness, readiness (503 when not ready) and metrics with the extra text appended', async () => {
    const registry = createMetricsRegistry({ service: 'test', processMetrics: false });
    new Counter({ name: 'ndc_saga_test_total', help: 'test', registers: [registry] }).inc(3);
    let ready = false;
    const server = await startOpsServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      live: () => ({ ok: true, status: 'ok' }),
      ready: () => ({
        ok: ready,
        status: ready ? 'ok' : 'unavailable',
        details: { temporal: { status: ready ? 'up' : 'down' } },
      }),
      extraMetrics: () => Promise.resolve('temporal_worker_start 1\n'),
    });
    try {
      expect(await (await fetch(`${server.url}/health/live`)).json()).toEqual({ status: 'ok' });
      const unready = await fetch(`${server.url}/health/ready`);
      expect([unready.status, await unready.json()]).toEqual([
        503,
        { status: 'unavailable', temporal: { status: 'down' } },
      ]);
      ready = true;
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain('ndc_saga_test_total{service="test"} 3');
      expect(metrics).toContain('temporal_worker_start 1');
      expect((await fetch(`${server.url}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('has only /metrics when health is false (a process whose health is on its own port)', async () => {
    const registry = createMetricsRegistry({ service: 'test', processMetrics: false });
    const server = await startOpsServer({ port: 0, host: '127.0.0.1', registry, health: false });
    try {
      expect((await fetch(`${server.url}/health/live`)).status).toBe(404);
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(404);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
