/**
 * The worker's client span around each airline call (`NDC <operation>`, attribute
 * `ndc.operation`), child of the activity's `RunActivity` span; the NDC client puts its context
 * in the request's `traceparent` header, so the airline's server span is its child.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Tracing } from '../common/observability';

/**
 * Wraps a call to airline `airline` in a client span when tracing is on (for
 * instrumentNdcClient's `around`); attributes `ndc.operation` and `ndc.airline`.
 */
export function airlineSpan(tracing: Tracing | undefined, airline: string) {
  return async <R>(operation: string, call: () => Promise<R>): Promise<R> => {
    if (tracing === undefined) return call();
    return tracing.tracer.startActiveSpan(
      `NDC ${operation}`,
      { kind: SpanKind.CLIENT, attributes: { 'ndc.operation': operation, 'ndc.airline': airline } },
      async (span) => {
        try {
          return await call();
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  };
}
