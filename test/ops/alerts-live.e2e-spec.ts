/**
 * The alert rules against live processes: a real Prometheus scrapes the booking stack's API,
 * worker and airline metrics (test/api/stack.ts) with the rules of ops/prometheus/alerts.yml
 * (`for:` shortened); an airline whose AirShopping answers HTTP 500 raises AirlineCallsFailing
 * for AirShopping, and the alerts of healthy parts stay quiet. Skipped, with a message, where the
 * `prometheus` binary is missing outside CI.
 */
import { spawnSync } from 'node:child_process';
import { oneWayIntent } from '../api/intent.fixture';
import { call, pollUntil, startStack, type Stack } from '../api/stack';
import { startPrometheus, type PrometheusServer } from '../support/prometheus-server';

const hasPrometheus = spawnSync('prometheus', ['--version']).status === 0;
const hostOf = (url: string) => new URL(url).host;

(hasPrometheus || process.env.CI === 'true' ? describe : describe.skip)('alert rules on live metrics', () => {
  let stack: Stack;
  let prometheus: PrometheusServer;

  beforeAll(async () => {
    stack = await startStack({ prefix: 'alerts-live', metrics: true });
    const urls = stack.metricsUrls!;
    prometheus = await startPrometheus({
      'ndc-saga-api': [hostOf(urls.api)],
      'ndc-saga-worker': [hostOf(urls.worker)],
      'ndc-saga-airline': [hostOf(urls.airline)],
    });
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    await stack?.close();
  });

  it('a failing airline raises AirlineCallsFailing for the operation; healthy parts raise nothing', async () => {
    // Every AirShopping answers 500 for a while: the booking's shop activity retries against it.
    await stack.fault('AirShopping', 'http500', 1000);
    const posted = await call(stack, 'POST', '/bookings', oneWayIntent(), {
      'idempotency-key': `alerts-${Date.now()}`,
    });
    expect(posted.status).toBe(202);
    const alerts = await pollUntil(
      'AirlineCallsFailing',
      async () => {
        const all = await prometheus.alerts();
        return all.some((a) => a.labels.alertname === 'AirlineCallsFailing') ? all : undefined;
      },
      120_000,
    );
    const failing = alerts.find((a) => a.labels.alertname === 'AirlineCallsFailing')!;
    expect(failing.labels).toMatchObject({ operation: 'AirShopping', severity: 'page' });
    expect(['pending', 'firing']).toContain(failing.state);
    const names = new Set(alerts.map((a) => a.labels.alertname));
    for (const quiet of ['TargetDown', 'BookingsEscalated', 'BookingIntakeRefused', 'WebhookDeliveriesFailing'])
      expect([quiet, names.has(quiet)]).toEqual([quiet, false]);
  }, 180_000);
});

if (!hasPrometheus && process.env.CI !== 'true')
  console.warn('prometheus not found on PATH: test/ops/alerts-live.e2e-spec.ts skipped (Debian package "prometheus")');
