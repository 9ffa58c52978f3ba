/**
 * Every metric that the Grafana dashboard (ops/grafana/ndc-saga.json) and the alert rules
 * (ops/prometheus/alerts.yml) query is one the processes export: the names come from the API's
 * and the airline's metric registries and from a scrape of a real worker process (our metrics
 * and the SDK core's) after it booked once, plus the series Prometheus makes itself (`up`,
 * `ALERTS`).
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { parse } from 'yaml';
import { writeWorkflowBundle } from '../../scripts/bundle-workflows';
import { createAirlineMetrics } from '../../src/airline/observability/airline.observability';
import { createApiMetrics } from '../../src/api/observability/api.metrics';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { startAirline } from '../airline/airline-harness';
import { exposedNames, metricNamesOf } from '../support/promql';
import { scrape } from '../support/prometheus';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { createHarness, oneWayIntent, type Harness } from '../workflows/booking.fixtures';

const ROOT = path.resolve(__dirname, '..', '..');
/** Series Prometheus itself writes: scrape health and alert state. */
const PROMETHEUS_SERIES = ['up', 'ALERTS', 'ALERTS_FOR_STATE'];

function dashboardQueries(): string[] {
  const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'ops', 'grafana', 'ndc-saga.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
    annotations: { list: { expr?: string }[] };
  };
  return [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...dashboard.annotations.list.flatMap((a) => (a.expr !== undefined ? [a.expr] : [])),
  ];
}

function alertQueries(): string[] {
  const rules = parse(fs.readFileSync(path.join(ROOT, 'ops', 'prometheus', 'alerts.yml'), 'utf8')) as {
    groups: { rules: { expr: string }[] }[];
  };
  return rules.groups.flatMap((g) => g.rules.map((r) => r.expr));
}

describe('metric names', () => {
  it('metricNamesOf finds the selected metrics, not functions, labels, keywords or durations', () => {
    expect(
      metricNamesOf(
        'histogram_quantile(0.95, sum by (le, step) (rate(a_bucket{x="y z"}[$__rate_interval]))) / on (le) ' +
          'group_left b_total or vector(0) unless c offset 1h > bool 2',
      ),
    ).toEqual(['a_bucket', 'b_total', 'c']);
  });
});

describe('queries of the dashboard and the alert rules', () => {
  let harness: Harness;
  let airline: INestApplication;
  let worker: WorkerProcess;
  let exported: Set<string>;
  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-bundle-'));

  beforeAll(async () => {
    const bundlePath = path.join(bundleDir, 'workflow-bundle.js');
    harness = await createHarness('exported-metrics');
    const started = await startAirline();
    airline = started.app;
    await writeWorkflowBundle(bundlePath);
    worker = await startWorkerProcess(bundlePath, {
      TEMPORAL_NAMESPACE: harness.namespace,
      TEMPORAL_TASK_QUEUE: harness.taskQueue,
      AIRLINE_BASE_URL: started.url,
    });
    // One booking, so the SDK core has recorded its workflow and activity metrics.
    const departureDate = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const handle = await harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-metrics`,
      args: [oneWayIntent({ journey: { origin: 'LGW', destination: 'OSL', departureDate } })],
    });
    expect((await handle.result()).state.status).toBe('CONFIRMED');
    exported = new Set([
      ...exposedNames(await scrape(`${worker.url}/metrics`)),
      ...exposedNames(await createApiMetrics().registry.metrics()),
      ...exposedNames(await createAirlineMetrics().registry.metrics()),
      ...PROMETHEUS_SERIES,
    ]);
  }, 300_000);

  afterAll(async () => {
    await worker?.stop();
    await airline?.close();
    await harness?.close();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  it('the scrape has our worker metrics and the SDK core metrics the queries use', () => {
    for (const name of [
      'ndc_saga_bookings_ended_total',
      'ndc_saga_webhook_deliveries_total',
      'temporal_activity_schedule_to_start_latency_bucket',
      'temporal_num_pollers',
    ])
      expect([name, exported.has(name)]).toEqual([name, true]);
  });

  it.each([
    ['dashboard', dashboardQueries],
    ['alert rules', alertQueries],
  ])('the %s name only exported metrics', (_what, queries) => {
    const all = queries();
    expect(all.length).toBeGreaterThan(10);
    const unknown = all.flatMap((expr) => metricNamesOf(expr).filter((name) => !exported.has(name)));
    expect(unknown).toEqual([]);
  });
});
