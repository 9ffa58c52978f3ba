/**
 * The production topology as operations sees it (`npm run test:topology`, docs/operations.md
 * "Production topology"): the real Temporal server v1.32.2 on PostgreSQL, the airline, two
 * workers and the API as separate processes (NODE_ENV=production for the API and the workers),
 * with a real Prometheus (Debian's `prometheus`) scraping all four under the product's alert
 * rules (ops/prometheus/alerts.yml; test/support/prometheus-server.ts shortens every `for:` to
 * 1 s and evaluates every second, the expressions unchanged), and every process exporting its
 * spans by OTLP/HTTP to a real Jaeger v2 (scripts/jaeger.ts, test/support/jaeger-server.ts).
 *
 * 1. Two bookings confirm. One booking's trace is read back from Jaeger's query API: the API's
 *    request span, StartWorkflow, RunWorkflow, each activity and its NDC client span, and the
 *    airline's server span of each call, in one trace with the right parents; no attribute of
 *    any stored span carries the card number, the CVV, a password, a key or the API key.
 * 2. An OrderCreate answers HTTP 500 (outcome unknown): with ORDER_UNSETTLED_POLICY=escalate and a
 *    short settle window the booking ends ESCALATED. Then the airline fails every AirShopping.
 *    Prometheus shows BookingsEscalated, AirlineCallsFailing and AirlineErrorsRising (airline ZZ,
 *    operation AirShopping) pending or firing, every other rule inactive, every target up.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { BookingView } from '../../src/api/bookings/booking.service';
import { freePort } from '../../scripts/temporal-dev-server';
import { startJaeger, type JaegerServer, type JaegerSpan, type JaegerTrace } from '../support/jaeger-server';
import { startPrometheus, type PrometheusServer } from '../support/prometheus-server';
import { createApiKey, pollUntil, ROOT, startRole, waitForHttpOk, type RoleProcess } from './processes';
import { startTemporalOnPostgres, type TemporalOnPostgres } from '../../scripts/temporal-on-postgres';

const NAMESPACE = 'default';
const TASK_QUEUE = 'ndc-saga-operations';
const LOG_DIR = path.join(ROOT, 'test', '.tmp', 'topology-operations');
const FINAL = new Set(['CONFIRMED', 'FAILED', 'CANCELLED', 'ESCALATED']);
const INTENT = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'one-way.json'), 'utf8')) as {
  journey: { departureDate: string };
  payment: { card: { number: string; verificationCode: string } };
};
const RULES = parse(fs.readFileSync(path.join(ROOT, 'ops', 'prometheus', 'alerts.yml'), 'utf8')) as {
  groups: { rules: { alert: string }[] }[];
};
const ALERT_NAMES = RULES.groups.flatMap((group) => group.rules.map((rule) => rule.alert));

const tag = (span: JaegerSpan, key: string): unknown => span.tags.find((t) => t.key === key)?.value;

describe('operations topology: alerts in a real Prometheus, traces in a real Jaeger', () => {
  let temporal: TemporalOnPostgres;
  let jaeger: JaegerServer;
  let prometheus: PrometheusServer;
  let airline: RoleProcess;
  let airlineUrl: string;
  let api: RoleProcess;
  let apiUrl: string;
  const workers: RoleProcess[] = [];
  const runId = randomBytes(4).toString('hex');
  let authorization: string;
  const secrets = {
    PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    AIRLINE_USERNAME: 'ops-agent',
    AIRLINE_PASSWORD: randomBytes(12).toString('hex'),
    AIRLINE_VAULT_KEY: randomBytes(32).toString('hex'),
  };
  let confirmedId: string;
  /** Airline database and keys file. */
  let dir: string | undefined;

  beforeAll(async () => {
    fs.rmSync(LOG_DIR, { recursive: true, force: true });
    // Jaeger first: a missing binary is built (minutes) before anything else runs.
    jaeger = await startJaeger();
    temporal = await startTemporalOnPostgres(LOG_DIR, NAMESPACE);
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '500' };
    // Short settle window, escalate when no order shows: an OrderCreate answering 500 ends ESCALATED.
    const settling = { ORDER_SETTLE_WINDOW_MS: '3000', ORDER_UNSETTLED_POLICY: 'escalate' };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-operations-'));
    const airlinePort = await freePort();
    const airlineMetricsPort = await freePort();
    airlineUrl = `http://127.0.0.1:${airlinePort}`;
    // Development mode for the airline only: its fault simulator is off in production.
    airline = startRole(
      'airline',
      'airline',
      {
        ...tracing,
        NODE_ENV: 'development',
        AIRLINE_PORT: String(airlinePort),
        AIRLINE_METRICS_PORT: String(airlineMetricsPort),
        AIRLINE_DB_PATH: path.join(dir, 'airline.db'),
        AIRLINE_USERNAME: secrets.AIRLINE_USERNAME,
        AIRLINE_PASSWORD: secrets.AIRLINE_PASSWORD,
        AIRLINE_VAULT_KEY: secrets.AIRLINE_VAULT_KEY,
      },
      LOG_DIR,
    );
    const keysFile = path.join(dir, 'api-keys.json');
    authorization = `Bearer ${createApiKey(keysFile, 'AGENCY1', 'operations')}`;
    const temporalEnv = {
      TEMPORAL_ADDRESS: temporal.server.address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    };
    const workerPorts = [await freePort(), await freePort()];
    workerPorts.forEach((port, i) =>
      workers.push(
        startRole(
          `worker-${i + 1}`,
          'worker',
          {
            ...temporalEnv,
            ...tracing,
            ...settling,
            PAYLOAD_ENCRYPTION_KEY: secrets.PAYLOAD_ENCRYPTION_KEY,
            AIRLINE_USERNAME: secrets.AIRLINE_USERNAME,
            AIRLINE_PASSWORD: secrets.AIRLINE_PASSWORD,
            NODE_ENV: 'production',
            AIRLINE_BASE_URL: airlineUrl,
            PAYMENT_BASE_URL: airlineUrl,
            WORKER_HTTP_PORT: String(port),
            WORKER_SHUTDOWN_GRACE_MS: '1000',
          },
          LOG_DIR,
        ),
      ),
    );
    const apiPort = await freePort();
    const apiMetricsPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    api = startRole(
      'api',
      'api',
      {
        ...temporalEnv,
        ...tracing,
        ...settling,
        NODE_ENV: 'production',
        API_PORT: String(apiPort),
        API_HOST: '127.0.0.1',
        API_METRICS_PORT: String(apiMetricsPort),
        API_METRICS_HOST: '127.0.0.1',
        AIRLINE_BASE_URL: airlineUrl,
        PAYLOAD_ENCRYPTION_KEY: secrets.PAYLOAD_ENCRYPTION_KEY,
        API_KEYS_FILE: keysFile,
      },
      LOG_DIR,
    );
    await waitForHttpOk('airline ready', `${airlineUrl}/health`, airline);
    await waitForHttpOk('api ready', `${apiUrl}/health`, api);
    for (const [i, worker] of workers.entries())
      await waitForHttpOk(`${worker.name} ready`, `http://127.0.0.1:${workerPorts[i]}/health/ready`, worker);
    // The scrape jobs of ops/prometheus/prometheus.yml, our processes as targets.
    prometheus = await startPrometheus({
      'ndc-saga-api': [`127.0.0.1:${apiMetricsPort}`],
      'ndc-saga-worker': workerPorts.map((port) => `127.0.0.1:${port}`),
      'ndc-saga-airline': [`127.0.0.1:${airlineMetricsPort}`],
    });
  });

  afterAll(async () => {
    await prometheus?.stop();
    for (const role of [api, ...workers, airline]) await role?.stop(5000);
    await temporal?.stop();
    await jaeger?.stop();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const running = (): string | undefined => {
    const dead = [api, ...workers, airline].find((role) => !role.isRunning());
    return dead === undefined ? undefined : `${dead.name} exited:\n${dead.output().slice(-3000)}`;
  };

  async function book(index: number): Promise<string> {
    const intent = structuredClone(INTENT);
    intent.journey.departureDate = new Date(Date.now() + (30 + index) * 86_400_000).toISOString().slice(0, 10);
    const response = await fetch(`${apiUrl}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `ops-${runId}-${index}`, authorization },
      body: JSON.stringify(intent),
    });
    const body = (await response.json()) as { id: string };
    expect([index, response.status]).toEqual([index, 202]);
    return body.id;
  }

  async function outcome(id: string, done: (status: string) => boolean = (status) => FINAL.has(status)) {
    return pollUntil(
      `booking ${id} final`,
      async () => {
        const response = await fetch(`${apiUrl}/bookings/${encodeURIComponent(id)}`, {
          headers: { authorization },
          signal: AbortSignal.timeout(15_000),
        });
        if (response.status !== 200) throw new Error(`HTTP ${response.status} ${await response.text()}`);
        return (await response.json()) as BookingView;
      },
      (v) => done(v.status),
      { intervalMs: 500, failed: running },
    );
  }

  async function armFault(body: Record<string, unknown>): Promise<void> {
    const basic = Buffer.from(`${secrets.AIRLINE_USERNAME}:${secrets.AIRLINE_PASSWORD}`).toString('base64');
    const response = await fetch(`${airlineUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${basic}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
  }

  it('traces a booking in Jaeger: API → workflow → activities → airline, one trace, no secret', async () => {
    const ids = [await book(0), await book(1)];
    const views = [];
    for (const id of ids) views.push(await outcome(id));
    expect(views.map((v) => [v.id, v.status])).toEqual(ids.map((id) => [id, 'CONFIRMED']));
    confirmedId = ids[0]!;
    // A booking's run stays open until its flight has departed (servicing), and the worker exports
    // its RunWorkflow span when the run ends: cancelling the booking ends it now.
    const cancel = await fetch(`${apiUrl}/bookings/${encodeURIComponent(confirmedId)}/cancel`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(cancel.status).toBe(202);
    expect((await outcome(confirmedId, (status) => status === 'CANCELLED')).status).toBe('CANCELLED');

    // The API's StartWorkflow span names the workflow id; its trace is complete once the worker has
    // exported RunWorkflow (at the run's end: the cancel above) and the airline a server span per NDC call.
    const trace = await pollUntil(
      `the trace of ${confirmedId} in Jaeger`,
      async () => {
        const found = await jaeger.findTraces({
          service: 'ndc-saga-api',
          // Each GET of the booking makes a trace with a QueryWorkflow span naming it too.
          operation: 'StartWorkflow:bookingWorkflow',
          tags: JSON.stringify({ temporalWorkflowId: confirmedId }),
          limit: '10',
        });
        if (found.length !== 1) return undefined;
        return jaeger.trace(found[0]!.traceID);
      },
      (t) => {
        if (t === undefined) return false;
        const names = t.spans.map((s) => s.operationName);
        const ndc = names.filter((n) => n.startsWith('NDC ')).length;
        const airlineServer = t.spans.filter(
          (s) => t.processes[s.processID]?.serviceName === 'ndc-saga-airline' && tag(s, 'span.kind') === 'server',
        ).length;
        // The processes export on their own schedules: wait until no span's parent is still missing.
        const ids = new Set(t.spans.map((s) => s.spanID));
        const complete = t.spans.every((s) => s.references.every((r) => ids.has(r.spanID)));
        return names.includes('RunWorkflow:bookingWorkflow') && ndc > 0 && airlineServer >= ndc && complete;
      },
      { intervalMs: 500, maxAttempts: 600, failed: running },
    );
    checkTraceShape(trace!);

    // Every span Jaeger holds, of every service: no secret in any attribute or process tag.
    const forbidden = [
      INTENT.payment.card.number,
      secrets.AIRLINE_PASSWORD,
      secrets.PAYLOAD_ENCRYPTION_KEY,
      secrets.AIRLINE_VAULT_KEY,
      authorization.slice('Bearer '.length),
      Buffer.from(`${secrets.AIRLINE_USERNAME}:${secrets.AIRLINE_PASSWORD}`).toString('base64'),
    ];
    const cvv = new RegExp(`(^|\\D)${INTENT.payment.card.verificationCode}(\\D|$)`);
    const services = ['ndc-saga-api', 'ndc-saga-worker', 'ndc-saga-airline'];
    const all = (await Promise.all(services.map((service) => jaeger.findTraces({ service, limit: '1000' })))).flat();
    const attributes = all.flatMap((t) => [
      ...t.spans.flatMap((s) => s.tags.map((x) => [s.operationName, x.key, String(x.value)] as const)),
      ...Object.values(t.processes).flatMap((p) =>
        (p.tags ?? []).map((x) => ['process', x.key, String(x.value)] as const),
      ),
    ]);
    expect(attributes.length).toBeGreaterThan(trace!.spans.length);
    const leaks = attributes.filter(
      ([, key, value]) =>
        forbidden.some((secret) => value.includes(secret)) ||
        cvv.test(value) ||
        /card|cvv|verification|password|authorization|api.?key/i.test(key),
    );
    expect(leaks).toEqual([]);
  });

  /** One trace, one root (the API's request span), each span's parent in the trace and of the right kind. */
  function checkTraceShape(trace: JaegerTrace): void {
    const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
    const service = (s: JaegerSpan) => trace.processes[s.processID]?.serviceName;
    const parentOf = (s: JaegerSpan): JaegerSpan | undefined => {
      const refs = s.references.filter((r) => r.refType === 'CHILD_OF');
      return refs.length === 1 ? byId.get(refs[0]!.spanID) : undefined;
    };
    for (const s of trace.spans) {
      expect(s.traceID).toBe(trace.traceID);
      for (const r of s.references) expect([s.operationName, r.traceID]).toEqual([s.operationName, trace.traceID]);
    }
    const roots = trace.spans.filter((s) => s.references.length === 0);
    expect(roots.map((s) => [service(s), tag(s, 'span.kind'), tag(s, 'http.response.status_code')])).toEqual([
      ['ndc-saga-api', 'server', 202],
    ]);
    // Every other span's parent is in this trace.
    expect(trace.spans.filter((s) => s !== roots[0] && parentOf(s) === undefined).map((s) => s.operationName)).toEqual(
      [],
    );
    const only = (name: string): JaegerSpan => {
      const found = trace.spans.filter((s) => s.operationName === name);
      expect(found.map((s) => s.operationName)).toEqual([name]);
      return found[0]!;
    };
    const start = only('StartWorkflow:bookingWorkflow');
    expect(parentOf(start)).toBe(roots[0]);
    expect(tag(start, 'temporalWorkflowId')).toBe(confirmedId);
    const run = only('RunWorkflow:bookingWorkflow');
    expect([service(run), parentOf(run)]).toEqual(['ndc-saga-worker', start]);

    const ndcSpans = trace.spans.filter((s) => s.operationName.startsWith('NDC ') && tag(s, 'span.kind') === 'client');
    const operations = new Set(ndcSpans.map((s) => tag(s, 'ndc.operation')));
    for (const op of ['AirShopping', 'OfferPrice', 'Token', 'OrderCreate']) expect(operations).toContain(op);
    for (const ndc of ndcSpans) {
      const runActivity = parentOf(ndc)!;
      const startActivity = parentOf(runActivity)!;
      expect([service(ndc), runActivity.operationName, startActivity.operationName, parentOf(startActivity)]).toEqual([
        'ndc-saga-worker',
        expect.stringMatching(/^RunActivity:/),
        expect.stringMatching(/^StartActivity:/),
        run,
      ]);
      // The airline's server span of this call: linked through the HTTP traceparent header only.
      const served = trace.spans.filter(
        (s) => service(s) === 'ndc-saga-airline' && tag(s, 'span.kind') === 'server' && parentOf(s) === ndc,
      );
      expect(served.map((s) => tag(s, 'ndc.operation'))).toEqual([tag(ndc, 'ndc.operation')]);
    }
  }

  it('shows the escalated booking and the failing airline as alerts in Prometheus; the rest stay quiet', async () => {
    // OrderCreate answers 500 once: the outcome is unknown, the settle window finds no order, the
    // booking escalates (ORDER_UNSETTLED_POLICY=escalate).
    await armFault({ operation: 'OrderCreate', mode: 'http500', count: 1 });
    const escalated = await outcome(await book(2));
    expect([escalated.status, escalated.error?.type]).toEqual(['ESCALATED', 'ORDER_UNSETTLED']);

    // Then every AirShopping fails: the next booking's shop retries against HTTP 500.
    await armFault({ operation: 'AirShopping', mode: 'http500', count: 100 });
    await book(3);

    const expected = ['AirlineCallsFailing', 'AirlineErrorsRising', 'BookingsEscalated'];
    const alerts = await pollUntil(
      `alerts ${expected.join(', ')}`,
      () => prometheus.alerts(),
      (all) => expected.every((name) => all.some((a) => a.labels.alertname === name)),
      { intervalMs: 1000, maxAttempts: 300, failed: running },
    );
    const active = (name: string) => alerts.filter((a) => a.labels.alertname === name);
    expect(active('AirlineCallsFailing').map((a) => [a.labels.airline, a.labels.operation, a.labels.severity])).toEqual(
      [['ZZ', 'AirShopping', 'page']],
    );
    expect(active('AirlineErrorsRising').map((a) => [a.labels.airline, a.labels.operation])).toEqual([
      ['ZZ', 'AirShopping'],
    ]);
    expect(active('BookingsEscalated').map((a) => a.labels.severity)).toEqual(['page']);
    for (const a of alerts) expect(['pending', 'firing']).toContain(a.state);

    // The product's rules are loaded, all of them, and every other one is inactive.
    const rules = await prometheus.api<{ groups: { rules: { name: string; state: string }[] }[] }>('/api/v1/rules');
    const states = rules.groups.flatMap((g) => g.rules.map((r) => [r.name, r.state] as const));
    expect(states.map(([name]) => name).sort()).toEqual([...ALERT_NAMES].sort());
    expect(states.filter(([name, state]) => !expected.includes(name) && state !== 'inactive')).toEqual([]);
    // Every process was scraped: TargetDown's quiet because all targets answer.
    const targets = await prometheus.api<{ activeTargets: { labels: { job: string }; health: string }[] }>(
      '/api/v1/targets',
    );
    expect(targets.activeTargets.map((t) => [t.labels.job, t.health]).sort()).toEqual([
      ['ndc-saga-airline', 'up'],
      ['ndc-saga-api', 'up'],
      ['ndc-saga-worker', 'up'],
      ['ndc-saga-worker', 'up'],
    ]);
  });
});
