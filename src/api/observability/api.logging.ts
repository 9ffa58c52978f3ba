/**
 * The API's logs: nestjs-pino over the process logger (createLogger: JSON, secrets redacted).
 * Every line logged while a request is handled carries its `requestId` (X-Request-Id, which is
 * also the NDC CorrelationID of a booking it starts) and, when tracing is on, `traceId`; the
 * access line adds the route, status, duration, the `workflowId` the request was about (the
 * booking or batch started, or the one in the path) and the problem code of an error answer.
 * Successful health probes get no access line.
 */
import { type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { httpLoggerOptions, type Logger, type RoutedRequest } from '../../common/observability';
import { requestIdFrom, requestIdOf, REQUEST_ID_KEY } from '../common/request-id';
import { problemOf } from '../common/answer-notes';
import { workflowIdOf } from './api.metrics';

/** Paths whose successful answers are not logged (probes). */
export const QUIET_PATHS = ['/health', '/health/live', '/health/ready'];

/** The request id of `req`, set by requestIdMiddleware (or chosen here the same way when it has not run yet). */
function requestIdFor(req: RoutedRequest): string {
  const known = requestIdOf(req);
  if (known !== undefined) return known;
  const id = requestIdFrom(req.headers['x-request-id']);
  (req as unknown as Record<string, unknown>)[REQUEST_ID_KEY] = id;
  return id;
}

/** nestjs-pino's module for the API, logging through `logger`. */
export function apiLoggerModule(logger: Logger): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: httpLoggerOptions({
      logger,
      genReqId: requestIdFor,
      quietPaths: QUIET_PATHS,
      propsAtEnd: (req, res) => {
        const workflowId = workflowIdOf(req, res);
        const problem = problemOf(res);
        return {
          ...(workflowId !== undefined ? { workflowId } : {}),
          ...(problem !== undefined ? { problem } : {}),
        };
      },
    }),
  });
}
