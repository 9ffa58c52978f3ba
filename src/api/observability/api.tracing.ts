/**
 * Tracing of the API: the Temporal client's OpenTelemetry interceptor, so that a booking's
 * `StartWorkflow` span is a child of the API request's server span (configure-app.ts) and the
 * workflow's spans continue it through the Temporal headers. The tracer provider itself is
 * `setupTracing({ service: 'api' })` (on when OTEL_EXPORTER_OTLP_ENDPOINT is set).
 */
import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';

/** Interceptors of the API's Temporal client: spans on start/signal/query/update, context in the headers. */
export function apiClientInterceptors(): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
