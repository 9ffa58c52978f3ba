/**
 * Observability of the airline service (docs/operations.md, "Airline"): requests by NDC operation
 * and outcome (Prometheus, served by main.ts on AIRLINE_METRICS_PORT), a server span per request
 * that continues the caller's `traceparent`, and nestjs-pino access logs tied to the NDC
 * `CorrelationID` (the `X-Correlation-Id` header the booking worker sends with every call).
 *
 * The request pipeline reports the NDC errors it answered with `noteNdcErrors` (business
 * errors with HTTP 200, and 4xx/5xx answers carrying NDC errors); the operation of an NDC
 * message is its request root's (`POST /retail/orders` serves four).
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import {
  Counter,
  createMetricsRegistry,
  DURATION_BUCKETS,
  Histogram,
  httpLoggerOptions,
  httpServerSpans,
  METRIC_PREFIX,
  routeOf,
  type Logger,
  type Registry,
  type RoutedRequest,
} from '../../common/observability';
import type { ExpressResponse } from '../http/express.types';
import { findExchange } from '../http/ndc-exchange';
import { ndcErrorCodesOf } from './ndc-errors.note';

export interface AirlineMetrics {
  registry: Registry;
  requests: Counter<'operation' | 'outcome' | 'code' | 'status'>;
  duration: Histogram<'operation' | 'outcome'>;
}

/** The airline's metrics on `registry` (default: a new one labelled `service="airline"`). */
export function createAirlineMetrics(
  registry: Registry = createMetricsRegistry({ service: 'airline' }),
): AirlineMetrics {
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: `${METRIC_PREFIX}airline_requests_total`,
      help: 'Requests answered by the airline, by NDC operation, outcome (ok, ndc_error, http_4xx, http_5xx, aborted), NDC error code (none) and HTTP status',
      labelNames: ['operation', 'outcome', 'code', 'status'],
      registers,
    }),
    duration: new Histogram({
      name: `${METRIC_PREFIX}airline_request_duration_seconds`,
      help: 'Time from request to the last byte of the answer, by NDC operation and outcome',
      labelNames: ['operation', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
  };
}

/** Operation of each route, by method and route template, for requests whose body was not decoded. */
const ROUTE_OPERATIONS: Record<string, string> = {
  'POST /retail/offers': 'AirShopping',
  'POST /retail/offerPrices': 'OfferPrice',
  'POST /retail/orders': 'Order',
  'GET /retail/orders': 'OrderList',
  'POST /payment/tokens': 'Token',
  'GET /payment/tokens/:id': 'TokenRetrieve',
  'POST /payment/tokens/:id/charges': 'TokenCharge',
  'GET /acs/:ref': 'IssuerPage',
  'POST /acs/:ref': 'IssuerDecision',
  'GET /health': 'health',
  'POST /_sim/faults': 'sim_faults',
  'GET /_sim/faults': 'sim_faults',
};

/**
 * The NDC operation of a request: the operation of its body's root once the exchange decoded it
 * (retail.operations.ts), else the one of its route.
 */
export function operationOf(req: RoutedRequest, res: ServerResponse): string {
  const decoded = findExchange(res as ExpressResponse)?.operation?.name;
  if (decoded !== undefined) return decoded;
  const route = routeOf(req);
  return ROUTE_OPERATIONS[`${req.method ?? 'GET'} ${route}`] ?? (route === 'unmatched' ? 'unmatched' : 'other');
}

/** Outcome of an answer: `ok`, `ndc_error` (an NDC error document with 2xx), `http_4xx`, `http_5xx`, `aborted`. */
export function outcomeOf(res: ServerResponse): { outcome: string; code: string; status: string } {
  const codes = ndcErrorCodesOf(res);
  const code = codes[0] ?? 'none';
  if (!res.writableFinished) return { outcome: 'aborted', code, status: 'aborted' };
  const status = String(res.statusCode);
  if (res.statusCode >= 500) return { outcome: 'http_5xx', code, status };
  if (res.statusCode >= 400) return { outcome: 'http_4xx', code, status };
  return { outcome: codes.length > 0 ? 'ndc_error' : 'ok', code, status };
}

/** Express middleware counting every answered request (finished or cut off). */
export function airlineRequestMetrics(metrics: AirlineMetrics) {
  return (req: RoutedRequest, res: ServerResponse, next: () => void): void => {
    const end = metrics.duration.startTimer();
    let counted = false;
    const count = (): void => {
      if (counted) return;
      counted = true;
      const operation = operationOf(req, res);
      const { outcome, code, status } = outcomeOf(res);
      metrics.requests.inc({ operation, outcome, code, status });
      end({ operation, outcome });
    };
    res.once('finish', count);
    res.once('close', count);
    next();
  };
}

/** Paths whose successful answers are not logged and not traced (probes). */
const QUIET_PATHS = ['/health'];

/** Server span per request, named by route, with the NDC operation, outcome and correlation id. */
export function airlineServerSpans() {
  return httpServerSpans({
    skip: (req) => QUIET_PATHS.includes((req.url ?? '').split('?')[0]!),
    attributesAtEnd: (req, res) => {
      const { outcome, code } = outcomeOf(res);
      const correlationId = req.headers['x-correlation-id'];
      return {
        'ndc.operation': operationOf(req, res),
        'ndc.outcome': outcome,
        ...(code !== 'none' ? { 'ndc.error_code': code } : {}),
        ...(typeof correlationId === 'string' ? { 'ndc.correlation_id': correlationId } : {}),
      };
    },
  });
}

function header(req: RoutedRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v.slice(0, 128) : undefined;
}

/**
 * nestjs-pino's module for the airline: `requestId` (X-Request-Id or a fresh UUID),
 * `correlationId` (X-Correlation-Id: the NDC CorrelationID) and `transactionId`
 * (X-TransactionIdentifier) on every line of a request; the access line adds the operation,
 * outcome and NDC error code.
 */
export function airlineLoggerModule(logger: Logger): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: httpLoggerOptions({
      logger,
      genReqId: (req) => header(req, 'x-request-id') ?? randomUUID(),
      quietPaths: QUIET_PATHS,
      props: (req) => {
        const correlationId = header(req, 'x-correlation-id');
        const transactionId = header(req, 'x-transactionidentifier');
        return {
          ...(correlationId !== undefined ? { correlationId } : {}),
          ...(transactionId !== undefined ? { transactionId } : {}),
        };
      },
      propsAtEnd: (req, res) => {
        const { outcome, code } = outcomeOf(res);
        return { operation: operationOf(req, res), outcome, ...(code !== 'none' ? { ndcErrorCode: code } : {}) };
      },
    }),
  });
}
