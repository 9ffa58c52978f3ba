/**
 * OpenTelemetry tracing for one process: off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set (then
 * spans go by OTLP/HTTP, batched), or unless a test hands in an exporter (the in-memory one).
 * Registers the provider globally, with the W3C `traceparent` propagator and async-hooks context,
 * so `@temporalio/interceptors-opentelemetry` and our own spans share one trace per booking.
 *
 * Standard variables: `OTEL_EXPORTER_OTLP_ENDPOINT` (e.g. `http://collector:4318`; the exporter
 * appends `/v1/traces`), `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME` (default
 * `ndc-saga-<role>`).
 */
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export { InMemorySpanExporter };

/** Options of {@link setupTracing}. */
export interface TracingOptions {
  /** Process role (`worker`, `api`, `airline`); the service name is `ndc-saga-<role>` unless OTEL_SERVICE_NAME. */
  service: string;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Exporter to use instead of OTLP (tests: `new InMemorySpanExporter()`); spans are exported one by one. */
  exporter?: SpanExporter;
  /** Register as the global tracer provider and propagator. Default `true`. */
  register?: boolean;
}

/** Tracing that is on. */
export interface Tracing {
  provider: NodeTracerProvider;
  resource: Resource;
  /** The processor spans go through (the Temporal workflow exporter sink uses it too). */
  spanProcessor: SpanProcessor;
  tracer: Tracer;
  /** Flushes and stops exporting. */
  shutdown(): Promise<void>;
}

/** Starts tracing, or returns `undefined` when it is off (no exporter and no OTEL_EXPORTER_OTLP_ENDPOINT). */
export function setupTracing(options: TracingOptions): Tracing | undefined {
  const env = options.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (options.exporter === undefined && (endpoint === undefined || endpoint === '')) return undefined;
  const resource = new Resource({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || `ndc-saga-${options.service}` });
  const spanProcessor =
    options.exporter !== undefined
      ? new SimpleSpanProcessor(options.exporter)
      : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  if (options.register ?? true) provider.register();
  return {
    provider,
    resource,
    spanProcessor,
    tracer: provider.getTracer('ndc-saga'),
    shutdown: async () => {
      await provider.shutdown();
      if (options.register ?? true) {
        trace.disable();
        propagation.disable();
        context.disable();
      }
    },
  };
}
