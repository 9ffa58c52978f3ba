/**
 * The pino logger factory of every process (worker, API, airline): JSON lines on stdout, with
 * secrets scrubbed from every line (redact.ts), human-readable through pino-pretty when stdout
 * is a terminal outside production.
 *
 * Configuration (read by {@link loggerOptionsFromEnv}):
 * - `LOG_LEVEL`: `fatal`, `error`, `warn`, `info` (default), `debug`, `trace` or `silent`;
 * - `LOG_FORMAT`: `json` or `pretty`; default `pretty` when stdout is a TTY and
 *   `NODE_ENV` is not `production`, else `json`.
 *
 * Fields that tie a line to a booking: `requestId` (API), `workflowId`, `runId`, `activityType`,
 * `correlationId` (the NDC CorrelationID, which is the workflow id). Use them by these names.
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { redact, redactString } from './redact';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Process role, logged as `service` on every line (`worker`, `api`, `airline`). */
  service: string;
  /** Default `info`. */
  level?: LogLevel;
  /** Human-readable output through pino-pretty. Default `false` (JSON). */
  pretty?: boolean;
  /** Where lines go (tests). Default: stdout. Ignored when `pretty`. */
  destination?: DestinationStream;
  /** Fields added to every line. */
  base?: Record<string, unknown>;
}

/** Thrown when LOG_LEVEL or LOG_FORMAT is invalid; the message names the variable. */
export class LoggerConfigError extends Error {
  readonly code = 'LOGGER_CONFIG_INVALID';
}

/** Reads LOG_LEVEL and LOG_FORMAT (see the file comment). */
export function loggerOptionsFromEnv(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
  isTty: boolean = process.stdout.isTTY === true,
): CreateLoggerOptions {
  const level = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level))
    throw new LoggerConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  const format = env.LOG_FORMAT?.trim() || (isTty && env.NODE_ENV !== 'production' ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty')
    throw new LoggerConfigError(`LOG_FORMAT: must be json or pretty, got "${format}"`);
  return { service, level, pretty: format === 'pretty' };
}

function prettyAvailable(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    // A production install has no devDependencies: JSON then.
    return false;
  }
}

/** A pino logger with secrets scrubbed from every line (message and fields). */
export function createLogger(options: CreateLoggerOptions): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    base: { service: options.service, pid: process.pid, ...options.base },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    formatters: {
      level: (label) => ({ level: label }),
      // Every merged object (bindings of children are scrubbed where they are bound).
      log: (object) => redact(object) as Record<string, unknown>,
      bindings: (bindings) => redact(bindings) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        // Scrub the message string and its interpolation arguments too.
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? redactString(arg) : arg)) as Parameters<
          typeof method
        >;
        method.apply(this, scrubbed);
      },
    },
    // `req`/`res` may be Node HTTP messages (pino-http) or pino-http's wrappers of them (`raw`).
    serializers: {
      err: (error: unknown) => redact(error),
      error: (error: unknown) => redact(error),
      req: (req: unknown) => redact((req as { raw?: unknown } | null)?.raw ?? req),
      res: (res: unknown) => redact((res as { raw?: unknown } | null)?.raw ?? res),
    },
  };
  const logger =
    options.pretty === true && prettyAvailable()
      ? pino({
          ...config,
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        })
      : options.destination !== undefined
        ? pino(config, options.destination)
        : pino(config);
  // pino does not pass a child's bindings through formatters.bindings: scrub them here. Children
  // inherit this method (they are prototype-linked to the root).
  const original = logger.child;
  logger.child = function scrubbedChild(this: Logger, bindings: Record<string, unknown>, childOptions?: unknown) {
    return (original as unknown as (...args: unknown[]) => Logger).call(this, redact(bindings), childOptions);
  } as unknown as Logger['child'];
  return logger;
}

/** Nest's log level names (API_LOG, AIRLINE_LOG). */
export type NestLogLevel = 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';

/**
 * The pino level of a list of Nest log levels (API_LOG, AIRLINE_LOG, kept for compatibility): the
 * most verbose level listed (`log` is `info`, `verbose` is `trace`); an empty list is `silent`.
 */
export function pinoLevelOfNestLevels(levels: readonly NestLogLevel[]): LogLevel {
  const order: [NestLogLevel, LogLevel][] = [
    ['verbose', 'trace'],
    ['debug', 'debug'],
    ['log', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
    ['fatal', 'fatal'],
  ];
  return order.find(([nest]) => levels.includes(nest))?.[1] ?? 'silent';
}

/** {@link createLogger} configured from the environment (LOG_LEVEL, LOG_FORMAT, NODE_ENV). */
export function createLoggerFromEnv(service: string, env: NodeJS.ProcessEnv = process.env): Logger {
  return createLogger(loggerOptionsFromEnv(service, env));
}

/**
 * The logger of a Nest role (API, airline) from the environment: LOG_LEVEL when set, else the
 * level of its older Nest list variable (`API_LOG`, `AIRLINE_LOG`; {@link pinoLevelOfNestLevels})
 * when that is set, else `info`; LOG_FORMAT as {@link loggerOptionsFromEnv}.
 */
export function createNestRoleLoggerFromEnv(
  service: string,
  nest: { variable: string; levels: readonly NestLogLevel[] },
  env: NodeJS.ProcessEnv = process.env,
  isTty: boolean = process.stdout.isTTY === true,
): Logger {
  const options = loggerOptionsFromEnv(service, env, isTty);
  const explicit = (env.LOG_LEVEL?.trim() ?? '') !== '';
  const nestSet = (env[nest.variable]?.trim() ?? '') !== '';
  return createLogger({ ...options, level: !explicit && nestSet ? pinoLevelOfNestLevels(nest.levels) : options.level });
}
