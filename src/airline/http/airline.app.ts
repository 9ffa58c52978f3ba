/** Settings shared by every airline app (main.ts, e2e tests, orchestrator tests). */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AirlineConfig } from '../airline.config';
import { AirlineExceptionFilter } from './airline-exception.filter';
import type { ExpressRequest } from './express.types';
import { JSON_TYPES } from './json-body.decorator';
import { NdcMessages } from './ndc-messages';

/** Keep-alive timeout of the server (seconds), announced as `Keep-Alive: timeout=60`. */
export const KEEP_ALIVE_SECONDS = 60;

/** Largest JSON body (token requests, fault definitions): 16 KiB. */
export const JSON_BODY_LIMIT = 16 * 1024;

/**
 * The global exception filter, Express's body parsers (XML retail bodies as
 * UTF-8 text up to `AIRLINE_MAX_BODY_BYTES`, JSON bodies as text up to
 * {@link JSON_BODY_LIMIT}, both refusing compressed bodies), Express settings
 * and keep-alive. Bodies are never logged.
 */
export function configureAirlineApp(app: NestExpressApplication, config: AirlineConfig): void {
  const messages = app.get(NdcMessages);
  app.useGlobalFilters(new AirlineExceptionFilter(config, messages));
  app.useBodyParser('text', {
    type: (req: IncomingMessage) => messages.media.isRequestType(req as ExpressRequest),
    limit: config.maxBodyBytes,
    inflate: false,
  });
  app.useBodyParser('text', {
    type: (req: IncomingMessage) => Boolean((req as ExpressRequest).is(JSON_TYPES)),
    limit: JSON_BODY_LIMIT,
    inflate: false,
  });
  // The issuer page's form (decision=approve|decline): tiny.
  app.useBodyParser('urlencoded', { extended: false, limit: 1024, inflate: false });
  // Announced on every answer, also to clients that asked to close (documented behaviour).
  app.use((_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    res.setHeader('Keep-Alive', `timeout=${KEEP_ALIVE_SECONDS}`);
    next();
  });
  app.disable('x-powered-by');
  app.disable('etag');
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
  // Must exceed keepAliveTimeout so a slow request on a reused connection is not cut.
  server.headersTimeout = (KEEP_ALIVE_SECONDS + 5) * 1000;
}
