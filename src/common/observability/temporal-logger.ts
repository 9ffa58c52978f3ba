/**
 * The Temporal SDK's logger interface on top of a pino logger, for `Runtime.install({ logger })`:
 * the SDK's own lines, Rust core lines (`telemetryOptions.logging.forward`), workflow `log.*`
 * (through the SDK's default logger sink) and activity `log.*` all become our JSON lines, with
 * the SDK's metadata (`workflowId`, `runId`, `workflowType`, `activityType`, `taskQueue`, ...) as
 * fields and `correlationId` set to the workflow id (the NDC CorrelationID of the booking).
 */
import type { Logger as PinoLogger } from 'pino';

/** What the SDK calls (structurally the `Logger` of `@temporalio/common`). */
export interface TemporalLogger {
  log(level: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR', message: string, meta?: Record<string, unknown>): void;
  trace(message: string, meta?: Record<string, unknown>): void;
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

const LEVELS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/** Adapts `logger` (its level applies) to the SDK's logger. */
export function temporalLogger(logger: PinoLogger): TemporalLogger {
  const write = (level: keyof typeof LEVELS, message: string, meta?: Record<string, unknown>): void => {
    const fields: Record<string, unknown> = { ...meta };
    // The SDK's own timestamp rides on a symbol key, which JSON (and so pino) leaves out.
    if (typeof fields.workflowId === 'string' && fields.correlationId === undefined)
      fields.correlationId = fields.workflowId;
    logger[LEVELS[level]](fields, message);
  };
  return {
    log: write,
    trace: (message, meta) => write('TRACE', message, meta),
    debug: (message, meta) => write('DEBUG', message, meta),
    info: (message, meta) => write('INFO', message, meta),
    warn: (message, meta) => write('WARN', message, meta),
    error: (message, meta) => write('ERROR', message, meta),
  };
}
