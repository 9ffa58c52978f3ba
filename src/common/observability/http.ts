/**
 * Observability of an Express-based HTTP server (the API and the airline): the route template of
 * a request, a server span per request that continues the caller's W3C `traceparent`, and the
 * pino-http options of the access log (request ids, safe serializers, secrets redacted).
 *
 * The span and the log are independent of each other, and both work when tracing is off (the
 * global tracer is then the no-op one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { Options as PinoHttpOptions } from 'pino-http';
import type { Logger } from './logger';
import { redact } from './redact';

/** The parts of an Express request these helpers read. */
export interface RoutedRequest extends IncomingMessage {
  /** Set by Express once a route matched. */
  route?: { path?: unknown };
  baseUrl?: string;
  originalUrl?: string;
}

/** Route label of a request without a matched route (404s, static and middleware-only paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route template that matched (`/bookings/:id`), or {@link UNMATCHED_ROUTE}: never the raw path, so labels stay few. */
export function routeOf(req: RoutedRequest): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}

/** Name of the tracer of our HTTP server spans. */
export const HTTP_TRACER = 'ndc-saga-http';

/** Options of {@link httpServerSpans}. */
export interface HttpServerSpanOptions {
  /** Attributes added when the response is sent (e.g. the NDC operation). */
  attributesAtEnd?: (req: RoutedRequest, res: ServerResponse) => Attributes;
  /** Requests without a span (health probes). Default: none skipped. */
  skip?: (req: RoutedRequest) => boolean;
}

/**
 * Express middleware: a SERVER span per request, child of the caller's `traceparent` (extracted
 * from the headers into a fresh context, so only a header links it), active for the rest of the
 * request so that spans started by the handler (the Temporal client's `StartWorkflow`) are its
 * children. Named `<METHOD> <route template>` once the route is known; status ≥ 500 marks it an
 * error.
 */
export function httpServerSpans(options: HttpServerSpanOptions = {}) {
  return (req: RoutedRequest, res: ServerResponse, next: () => void): void => {
    if (options.skip?.(req) === true) return next();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const method = req.method ?? 'GET';
    const span: Span = trace.getTracer(HTTP_TRACER).startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'url.path': (req.originalUrl ?? req.url ?? '/').split('?')[0] },
      },
      parent,
    );
    let ended = false;
    const end = (aborted: boolean): void => {
      if (ended) return;
      ended = true;
      const route = routeOf(req);
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (options.attributesAtEnd !== undefined) span.setAttributes(options.attributesAtEnd(req, res));
      if (aborted) span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the response' });
      else if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${res.statusCode}` });
      span.end();
    };
    res.once('finish', () => end(false));
    res.once('close', () => end(!res.writableFinished));
    context.with(trace.setSpan(parent, span), next);
  };
}

/** The trace id of the active span, for log lines (undefined when tracing is off). */
export function activeTraceId(): string | undefined {
  const ctx = trace.getSpan(context.active())?.spanContext();
  return ctx !== undefined && trace.isSpanContextValid(ctx) ? ctx.traceId : undefined;
}

/** Options of {@link httpLoggerOptions}. */
export interface HttpLoggerOptions {
  /** The process logger (createLogger: redacting). */
  logger: Logger;
  /** Id of a request, logged as `requestId`. */
  genReqId: (req: RoutedRequest, res: ServerResponse) => string;
  /** Fields bound to every line of the request (e.g. `correlationId`). */
  props?: (req: RoutedRequest) => Record<string, unknown>;
  /** Fields added to the access line once answered (e.g. `workflowId`, `problem`). */
  propsAtEnd?: (req: RoutedRequest, res: ServerResponse) => Record<string, unknown>;
  /** Requests without an access line when they succeed (health probes, scrapes). */
  quietPaths?: readonly string[];
}

/**
 * pino-http options for nestjs-pino's `LoggerModule`: one access line per request (`info` below
 * 400, `warn` for 4xx, `error` for 5xx and failures) with method, URL (query scrubbed), route,
 * status, duration, `requestId` and the trace id; a `requestId`-bound child logger for every line
 * logged while handling it. Bodies are never logged; of the headers, only `LOGGED_HEADERS` (redact.ts).
 */
export function httpLoggerOptions(options: HttpLoggerOptions): PinoHttpOptions {
  const quiet = new Set(options.quietPaths ?? []);
  return {
    logger: options.logger,
    genReqId: (req, res) => options.genReqId(req as RoutedRequest, res),
    customAttributeKeys: { responseTime: 'durationMs' },
    autoLogging: { ignore: (req) => quiet.has(((req as RoutedRequest).originalUrl ?? req.url ?? '').split('?')[0]!) },
    // Every line of the request (its logger, `req.log`, and the access line) carries the request
    // (safe fields), its id, the props and the trace id. pino-http calls this again for the access
    // line and binds the answer only when it is not already bound: `traceId` comes last so that
    // the answer without it (no active span by then) is found bound.
    customProps: (req) => {
      const traceId = activeTraceId();
      return {
        requestId: req.id,
        ...options.props?.(req as RoutedRequest),
        ...(traceId !== undefined ? { traceId } : {}),
      };
    },
    customLogLevel: (_req, res, error) =>
      error !== undefined || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: (req, res) =>
      `${req.method} ${routeOf(req as RoutedRequest)} ${res.writableFinished ? res.statusCode : 'aborted (connection closed before the answer)'}`,
    customErrorMessage: (req, res, error) =>
      `${req.method} ${routeOf(req as RoutedRequest)} ${res.statusCode} ${error.name}`,
    customSuccessObject: (req, res, value: Record<string, unknown>) => ({
      ...value,
      route: routeOf(req as RoutedRequest),
      ...options.propsAtEnd?.(req as RoutedRequest, res),
    }),
    customErrorObject: (req, res, error, value: Record<string, unknown>) => ({
      ...value,
      // pino-http's own "failed with status code 5xx" error says nothing the status does not.
      ...(/^failed with status code \d+$/.test(error.message) ? { err: undefined } : {}),
      route: routeOf(req as RoutedRequest),
      ...options.propsAtEnd?.(req as RoutedRequest, res),
    }),
    // The request and response as redact() makes them (method, scrubbed URL, LOGGED_HEADERS;
    // status); pino-http hands its serializers wrappers whose `raw` is the Node object.
    serializers: {
      req: (req: { raw?: unknown }) => redact(req.raw ?? req),
      res: (res: { raw?: unknown }) => redact(res.raw ?? res),
      err: (error: unknown) => redact(error),
    },
  };
}
