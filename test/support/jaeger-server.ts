/**
 * A real Jaeger v2 all-in-one (scripts/jaeger.ts builds and caches the binary) for the topology
 * test: in-memory store, OTLP/HTTP in, query API out, each on a free loopback port. The default
 * configuration (what the binary runs without arguments) binds fixed ports (4317, 4318, 16686,
 * 8888, ...), which clash when several runs share a machine, so this writes a configuration of
 * its own with only what the test uses: the OTLP/HTTP receiver, the memory store and the query
 * extension (its own tracing off).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { resolveJaeger } from '../../scripts/jaeger';
import { freePort } from '../../scripts/temporal-dev-server';

/** One span as Jaeger's query API (`/api/traces`) answers it. */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; type: string; value: unknown }[];
  processID: string;
}

/** One trace of `/api/traces`. */
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags?: { key: string; value: unknown }[] }>;
}

export interface JaegerServer {
  /** Base URL for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter appends `/v1/traces`). */
  otlpEndpoint: string;
  /** Base URL of the query API and UI. */
  queryUrl: string;
  /** `GET /api/traces` with `params` (service, tags, limit, ...). */
  findTraces(params: Record<string, string>): Promise<JaegerTrace[]>;
  /** `GET /api/traces/{id}`. */
  trace(traceId: string): Promise<JaegerTrace | undefined>;
  /** Everything it printed. */
  output(): string;
  stop(): Promise<void>;
}

/** The collector configuration: OTLP/HTTP receiver, memory store, query API; nothing else listens. */
function jaegerConfig(ports: { otlp: number; http: number; grpc: number }): unknown {
  return {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query'],
      pipelines: {
        traces: { receivers: ['otlp'], processors: ['batch'], exporters: ['jaeger_storage_exporter'] },
      },
      telemetry: { metrics: { level: 'none' }, logs: { level: 'warn' } },
    },
    extensions: {
      jaeger_storage: { backends: { memstore: { memory: { max_traces: 10_000 } } } },
      jaeger_query: {
        storage: { traces: 'memstore' },
        enable_tracing: false,
        http: { endpoint: `127.0.0.1:${ports.http}` },
        grpc: { endpoint: `127.0.0.1:${ports.grpc}` },
      },
    },
    receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${ports.otlp}` } } } },
    processors: { batch: { timeout: '200ms' } },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memstore' } },
  };
}

/** Starts Jaeger; resolves once its query API answers. */
export async function startJaeger(): Promise<JaegerServer> {
  const bin = resolveJaeger();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-jaeger-'));
  const ports = { otlp: await freePort(), http: await freePort(), grpc: await freePort() };
  const configFile = path.join(dir, 'jaeger.yaml');
  fs.writeFileSync(configFile, stringify(jaegerConfig(ports)));
  const child = spawn(bin, ['--config', `file:${configFile}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const append = (chunk: Buffer): void => {
    log += chunk.toString();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const queryUrl = `http://127.0.0.1:${ports.http}`;
  const get = async <T>(pathAndQuery: string): Promise<T> => {
    const response = await fetch(`${queryUrl}${pathAndQuery}`, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok && response.status !== 404)
      throw new Error(`jaeger GET ${pathAndQuery}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${queryUrl}/api/services`).then(
      (r) => r.ok,
      () => false,
    );
    const receiving = await fetch(`http://127.0.0.1:${ports.otlp}/v1/traces`, { method: 'POST' }).then(
      () => true,
      () => false,
    );
    if (ready && receiving) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`jaeger did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    otlpEndpoint: `http://127.0.0.1:${ports.otlp}`,
    queryUrl,
    findTraces: async (params) =>
      (await get<{ data: JaegerTrace[] | null }>(`/api/traces?${new URLSearchParams(params).toString()}`)).data ?? [],
    trace: async (traceId) =>
      (await get<{ data: JaegerTrace[] | null }>(`/api/traces/${encodeURIComponent(traceId)}`)).data?.[0],
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
