/**
 * Observability building blocks shared by the worker, the API and the airline
 * (docs/operations.md, "Observability"): logger factory with redaction, Prometheus registry and
 * ops HTTP server, OpenTelemetry tracing setup, and the Temporal SDK logger adapter.
 */
export * from './http';
export * from './logger';
export * from './metrics';
export * from './nest-logger';
export * from './ops-server';
export * from './redact';
export * from './temporal-logger';
export * from './tracing';
