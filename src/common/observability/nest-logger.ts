/**
 * Nest's `LoggerService` on a pino logger, for `app.useLogger(...)`: lines logged while a request
 * is handled go to that request's logger (nestjs-pino's, bound to its request id), every other
 * line to the app's own logger. nestjs-pino's `Logger` alone would send the latter to the first
 * logger created in the process (a module-wide fallback), which is wrong as soon as two apps
 * (API and airline in one test process) run side by side.
 */
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { storage } from 'nestjs-pino/storage';
import type { Logger } from './logger';

/** PinoLogger whose out-of-request logger is this app's. */
class AppPinoLogger extends PinoLogger {
  constructor(private readonly root: Logger) {
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): Logger {
    return storage.getStore()?.logger ?? this.root;
  }
}

/** The `LoggerService` of an app logging through `root` (and its requests' loggers). */
export function nestLoggerFor(root: Logger): NestPinoLogger {
  return new NestPinoLogger(new AppPinoLogger(root), {});
}
