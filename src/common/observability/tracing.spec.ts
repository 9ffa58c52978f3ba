import { InMemorySpanExporter, setupTracing } from './tracing';

describe('setupTracing', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT and without an exporter', () => {
    expect(setupTracing({ service: 'worker', env: {} })).toBeUndefined();
  });

  it('exports spans with parent links and the service name to an in-memory exporter', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = setupTracing({ service: 'worker', env: {}, exporter })!;
    try {
      tracing.tracer.startActiveSpan('parent', (parent) => {
        tracing.tracer.startSpan('child').end();
        parent.end();
      });
      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => span.name)).toEqual(['child', 'parent']);
      const [child, parent] = spans;
      expect(child!.parentSpanId).toBe(parent!.spanContext().spanId);
      expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
      expect(parent!.resource.attributes['service.name']).toBe('ndc-saga-worker');
    } finally {
      await tracing.shutdown();
    }
  });
});
