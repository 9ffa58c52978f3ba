/**
 * The API's Prometheus metrics (docs/operations.md, "API metrics"), on a registry of its own
 * served by `startApi` on API_METRICS_PORT:
 * - HTTP requests by method, route template and status, and their duration;
 * - intake: `POST /bookings` and `POST /batches` by outcome (`accepted`, `replayed`: the
 *   Idempotency-Key matched an existing one, `refused`) and reason (the problem code of a refusal,
 *   `none` otherwise);
 * - airline notifications (`POST /airlines/{code}/notifications`) by airline and outcome.
 *
 * Counted by {@link apiHttpMetrics} when the answer is sent, from what controllers and the
 * exception filter noted on the answer (src/api/common/answer-notes.ts).
 */
import type { ServerResponse } from 'node:http';
import { intakeOf, problemOf } from '../common/answer-notes';
import {
  Counter,
  createMetricsRegistry,
  DURATION_BUCKETS,
  Histogram,
  METRIC_PREFIX,
  routeOf,
  type Registry,
  type RoutedRequest,
} from '../../common/observability';

export interface ApiMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  intake: Counter<'kind' | 'outcome' | 'reason'>;
  airlineNotifications: Counter<'airline' | 'outcome'>;
}

/** The metrics of one API app, on `registry` (default: a new one labelled `service="api"`). */
export function createApiMetrics(registry: Registry = createMetricsRegistry({ service: 'api' })): ApiMetrics {
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from request to the last byte of the answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    intake: new Counter({
      name: `${METRIC_PREFIX}intake_total`,
      help: 'Booking submissions (kind booking: POST /bookings, batch: POST /batches) by outcome (accepted, replayed, refused) and reason (problem code of a refusal; none)',
      labelNames: ['kind', 'outcome', 'reason'],
      registers,
    }),
    airlineNotifications: new Counter({
      name: `${METRIC_PREFIX}airline_notifications_total`,
      help: 'OrderChangeNotif pushed by airlines, by airline and outcome (delivered, duplicate, unknown-order, refused: 400/401/404/413, failed: 503)',
      labelNames: ['airline', 'outcome'],
      registers,
    }),
  };
}

/** The workflow id an answer is about: the booking/batch started, or the one of the path (`/bookings/:id`). */
export function workflowIdOf(req: RoutedRequest, res: ServerResponse): string | undefined {
  const note = intakeOf(res);
  if (note !== undefined) return note.workflowId;
  const m = /^\/(?:bookings|batches)\/([^/?]+)/.exec(req.originalUrl ?? req.url ?? '');
  if (m === null) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

const INTAKE_ROUTES: Record<string, 'booking' | 'batch'> = { '/bookings': 'booking', '/batches': 'batch' };

/**
 * Express middleware counting every answered request (finished or cut off) in `metrics`. Register
 * it before the routes; the route template is read when the answer is sent.
 */
export function apiHttpMetrics(metrics: ApiMetrics) {
  return (req: RoutedRequest, res: ServerResponse, next: () => void): void => {
    const end = metrics.httpDuration.startTimer();
    let counted = false;
    const count = (): void => {
      if (counted) return;
      counted = true;
      const method = req.method ?? 'GET';
      const route = routeOf(req);
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      const labels = { method, route, status };
      metrics.httpRequests.inc(labels);
      end(labels);
      // A body the parser refused (413, malformed JSON) never reaches the router: match the path then.
      const path = (req.originalUrl ?? req.url ?? '').split('?')[0]!;
      const kind = method === 'POST' ? (INTAKE_ROUTES[route] ?? INTAKE_ROUTES[path]) : undefined;
      if (kind === undefined) return;
      const note = intakeOf(res);
      if (note !== undefined && res.statusCode < 400) {
        metrics.intake.inc({ kind, outcome: note.outcome, reason: 'none' });
      } else {
        metrics.intake.inc({ kind, outcome: 'refused', reason: problemOf(res) ?? `HTTP_${status.toUpperCase()}` });
      }
    };
    res.once('finish', count);
    res.once('close', count);
    next();
  };
}
