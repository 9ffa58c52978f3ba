/**
 * The booking worker's own Prometheus metrics (docs/operations.md, "Metrics"), beside the SDK
 * core's `temporal_*` metrics:
 * - bookings started / ended by status and failure type, saga step durations, re-shops and
 *   reconciliations: from the workflow interceptor (booking-metrics.interceptor.ts) through the
 *   `bookingMetrics` sink, once per booking when it reaches its outcome (not during replay), and
 *   order cancels of confirmed bookings;
 * - airline calls by NDC operation, HTTP status and outcome: from {@link instrumentNdcClient};
 * - each airline's circuit breaker (state, opens): read from the breakers when scraped
 *   (`watchCircuit`);
 * - bookings awaiting approval, and bookings overdue in a waiting status: counted in Temporal
 *   visibility when scraped (cluster-wide);
 * - webhook deliveries by agency and outcome: from {@link instrumentWebhookActivities}.
 */
import type { NativeConnection } from '@temporalio/worker';
import type { InjectedSinks } from '@temporalio/worker';
import { DURATION_BUCKETS, METRIC_PREFIX, Counter, Gauge, Histogram, type Registry } from '../common/observability';
import {
  NdcBusinessError,
  NdcCircuitOpenError,
  NdcHttpError,
  NdcTransportError,
  type CircuitBreaker,
  type NdcHttpClient,
} from '../ndc-client';
import type { BookingEnded, BookingMetricsSinks } from './booking-metrics.interceptor';
import { activityInfo } from '@temporalio/activity';
import { agencyOfWebhookDelivery, type WebhookActivities } from '../webhooks/webhook.model';

export interface WorkerMetrics {
  bookingsStarted: Counter<'workflow_type'>;
  bookingsEnded: Counter<'status' | 'failure_type' | 'airline'>;
  orderCancels: Counter<'outcome'>;
  stepDuration: Histogram<'step' | 'outcome'>;
  reshops: Counter;
  reconciliations: Counter;
  airlineCallDuration: Histogram<'airline' | 'operation' | 'http_status' | 'outcome'>;
  airlineCircuitState: Gauge<'airline'>;
  airlineCircuitOpens: Counter<'airline'>;
  /** Shows an airline client's circuit breaker in the circuit metrics. */
  watchCircuit(airline: string, circuit: CircuitBreaker): void;
  awaitingApproval: Gauge;
  bookingsOverdue: Gauge<'status'>;
  webhookDeliveries: Counter<'agency' | 'outcome'>;
}

/** Where the visibility gauges count. */
export interface VisibilitySource {
  connection: NativeConnection;
  namespace: string;
  /**
   * When a running booking still in a waiting status is overdue: its window, ms after its start
   * (`bookings_overdue`). Default {@link DEFAULT_OVERDUE_AFTER_MS}.
   */
  overdueAfterMs?: OverdueAfterMs;
  /** Clock for the overdue cut-off. Default `Date.now`. */
  now?: () => number;
}

/** The waiting statuses `bookings_overdue` watches, and after how long (ms after the start) a booking in them is overdue. */
export interface OverdueAfterMs {
  AWAITING_APPROVAL: number;
  SETTLING: number;
}

/** Slack added to a window: a booking reaches a waiting status within minutes of its start. */
export const OVERDUE_GRACE_MS = 15 * 60_000;

/** The workflow's default windows (24 h price guard, 120 s settle window) plus {@link OVERDUE_GRACE_MS}. */
export const DEFAULT_OVERDUE_AFTER_MS: OverdueAfterMs = {
  AWAITING_APPROVAL: 24 * 3_600_000 + OVERDUE_GRACE_MS,
  SETTLING: 120_000 + OVERDUE_GRACE_MS,
};

/** Visibility query of running bookings in `status` started before `before`. */
export function overdueQuery(status: keyof OverdueAfterMs, before: Date): string {
  return (
    'WorkflowType = "bookingWorkflow" AND ExecutionStatus = "Running" AND ' +
    `BookingStatus = "${status}" AND StartTime < "${before.toISOString()}"`
  );
}

/** Visibility query of bookings waiting for a price approval. */
export const AWAITING_APPROVAL_QUERY =
  'WorkflowType = "bookingWorkflow" AND ExecutionStatus = "Running" AND BookingStatus = "AWAITING_APPROVAL"';

/** Registers the worker metrics on `registry`. */
export function createWorkerMetrics(registry: Registry, visibility?: VisibilitySource): WorkerMetrics {
  const registers = [registry];
  return {
    ...sagaMetrics(registers),
    ...airlineMetrics(registers),
    ...visibilityGauges(registers, visibility),
    webhookDeliveries: new Counter({
      name: `${METRIC_PREFIX}webhook_deliveries_total`,
      help: 'Webhook delivery attempts, by agency and outcome (delivered: a 2xx answer; failed: anything else)',
      labelNames: ['agency', 'outcome'],
      registers,
    }),
  };
}

/** What the sagas report through the booking-metrics sink. */
function sagaMetrics(registers: Registry[]) {
  return {
    bookingsStarted: new Counter({
      name: `${METRIC_PREFIX}bookings_started_total`,
      help: 'Booking sagas started (first workflow task; replays not counted)',
      labelNames: ['workflow_type'],
      registers,
    }),
    bookingsEnded: new Counter({
      name: `${METRIC_PREFIX}bookings_ended_total`,
      help: 'Bookings that reached their outcome (CONFIRMED, FAILED, ESCALATED, CANCELLED; ERROR when the workflow failed), by status, failure type (none when confirmed) and airline (none before one was chosen); counted when reached, not when the workflow closes',
      labelNames: ['status', 'failure_type', 'airline'],
      registers,
    }),
    orderCancels: new Counter({
      name: `${METRIC_PREFIX}order_cancels_total`,
      help: 'Cancels of confirmed bookings at the airline, by outcome (cancelled, failed: the booking stays CONFIRMED)',
      labelNames: ['outcome'],
      registers,
    }),
    stepDuration: new Histogram({
      name: `${METRIC_PREFIX}saga_step_duration_seconds`,
      help: 'Duration of each saga step (workflow time, retries included), by step and outcome',
      labelNames: ['step', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    reshops: new Counter({
      name: `${METRIC_PREFIX}reshops_total`,
      help: 'Re-shops: AirShopping runs after the first one of a booking',
      registers,
    }),
    reconciliations: new Counter({
      name: `${METRIC_PREFIX}reconciliations_total`,
      help: 'Order reconciliations (order lookups after an OrderCreate of unknown outcome)',
      registers,
    }),
  };
}

/** The airline calls, and each airline's circuit breaker (read when scraped). */
function airlineMetrics(registers: Registry[]) {
  const circuits = new Map<string, CircuitBreaker>();
  const stateValue = { closed: 0, 'half-open': 1, open: 2 } as const;
  return {
    airlineCallDuration: new Histogram({
      name: `${METRIC_PREFIX}airline_call_duration_seconds`,
      help: 'Airline calls, by airline, NDC operation, HTTP status (none when no response) and outcome (ok, ndc_error, http_error, transport_error, invalid_response, circuit_open)',
      labelNames: ['airline', 'operation', 'http_status', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    airlineCircuitState: new Gauge({
      name: `${METRIC_PREFIX}airline_circuit_state`,
      help: "Each airline's circuit breaker: 0 closed, 1 half-open (one call trying), 2 open (the airline is skipped)",
      labelNames: ['airline'],
      registers,
      collect() {
        for (const [airline, circuit] of circuits) this.set({ airline }, stateValue[circuit.state]);
      },
    }),
    airlineCircuitOpens: new Counter({
      name: `${METRIC_PREFIX}airline_circuit_opens_total`,
      help: "Times each airline's circuit breaker opened since the worker started",
      labelNames: ['airline'],
      registers,
      collect() {
        // The breaker counts; a counter cannot be set, so it is cleared and counted up to that.
        this.reset();
        for (const [airline, circuit] of circuits) this.inc({ airline }, circuit.snapshot().opens);
      },
    }),
    /** Shows `circuit` (an airline client's breaker) in the circuit metrics. */
    watchCircuit(airline: string, circuit: CircuitBreaker): void {
      circuits.set(airline, circuit);
    },
  };
}

/** Bookings awaiting approval and bookings overdue, counted in Temporal visibility when scraped. */
function visibilityGauges(registers: Registry[], visibility: VisibilitySource | undefined) {
  const count = async (query: string): Promise<number> => {
    const response = await visibility!.connection.withDeadline(Date.now() + 3000, () =>
      visibility!.connection.workflowService.countWorkflowExecutions({ namespace: visibility!.namespace, query }),
    );
    return Number(response.count ?? 0);
  };
  return {
    awaitingApproval: new Gauge({
      name: `${METRIC_PREFIX}bookings_awaiting_approval`,
      help: 'Running bookings waiting for a price approval (Temporal visibility, whole namespace)',
      registers,
      async collect() {
        if (visibility !== undefined) this.set(await count(AWAITING_APPROVAL_QUERY));
      },
    }),
    bookingsOverdue: new Gauge({
      name: `${METRIC_PREFIX}bookings_overdue`,
      help: 'Running bookings still AWAITING_APPROVAL or SETTLING although their window (plus 15 min) has passed since their start: their timers do not fire (Temporal visibility, whole namespace)',
      labelNames: ['status'],
      registers,
      async collect() {
        if (visibility === undefined) return;
        const after = visibility.overdueAfterMs ?? DEFAULT_OVERDUE_AFTER_MS;
        const now = (visibility.now ?? Date.now)();
        for (const status of Object.keys(after) as (keyof OverdueAfterMs)[])
          this.set({ status }, await count(overdueQuery(status, new Date(now - after[status]))));
      },
    }),
  };
}

/**
 * The webhook activities with every delivery attempt counted in `webhook_deliveries_total`, by
 * the agency of the delivering workflow (its id, `webhookDeliveryId`).
 */
export function instrumentWebhookActivities(
  activities: WebhookActivities,
  metrics: Pick<WorkerMetrics, 'webhookDeliveries'> | undefined,
): WebhookActivities {
  if (metrics === undefined) return activities;
  return {
    deliverWebhook: async (input) => {
      const result = await activities.deliverWebhook(input);
      const agency = agencyOfWebhookDelivery(activityInfo().workflowExecution?.workflowId ?? '') ?? 'unknown';
      metrics.webhookDeliveries.inc({ agency, outcome: result.ok ? 'delivered' : 'failed' });
      return result;
    },
  };
}

/** Records one ended booking (the sink's payload). */
export function recordBookingEnded(metrics: WorkerMetrics, ended: BookingEnded): void {
  metrics.bookingsEnded.inc({
    status: ended.status,
    failure_type: ended.failureType ?? 'none',
    airline: ended.airline ?? 'none',
  });
  for (const step of ended.steps) {
    if (step.seconds !== undefined)
      metrics.stepDuration.observe({ step: step.name, outcome: step.outcome ?? 'unknown' }, step.seconds);
  }
  if (ended.reshops > 0) metrics.reshops.inc(ended.reshops);
  if (ended.reconciliations > 0) metrics.reconciliations.inc(ended.reconciliations);
}

/** The worker-side `bookingMetrics` sink: calls are not made during replay. */
export function bookingMetricsSinks(metrics: WorkerMetrics): InjectedSinks<BookingMetricsSinks> {
  return {
    bookingMetrics: {
      started: {
        fn: (info) => metrics.bookingsStarted.inc({ workflow_type: info.workflowType }),
        callDuringReplay: false,
      },
      ended: { fn: (_info, ended) => recordBookingEnded(metrics, ended), callDuringReplay: false },
      orderCancel: { fn: (_info, outcome) => metrics.orderCancels.inc({ outcome }), callDuringReplay: false },
    },
  };
}

/** NDC operation of each client method. */
export const NDC_OPERATIONS = {
  airShopping: 'AirShopping',
  offerPrice: 'OfferPrice',
  orderCreate: 'OrderCreate',
  orderRetrieve: 'OrderRetrieve',
  orderCancel: 'OrderCancel',
  customerInput: 'CustomerInput',
  ordersByShoppingResponse: 'OrderList',
  createToken: 'Token',
  orderReshop: 'OrderReshop',
  orderChange: 'OrderChange',
  orderServiceList: 'ServiceList',
  orderSeatAvailability: 'SeatAvailability',
} as const satisfies Partial<Record<keyof NdcHttpClient, string>>;

function outcomeOf(error: unknown): { outcome: string; httpStatus: string } {
  if (error instanceof NdcBusinessError) return { outcome: 'ndc_error', httpStatus: '200' };
  if (error instanceof NdcCircuitOpenError) return { outcome: 'circuit_open', httpStatus: 'none' };
  if (error instanceof NdcHttpError) return { outcome: 'http_error', httpStatus: String(error.status) };
  if (error instanceof NdcTransportError) return { outcome: 'transport_error', httpStatus: 'none' };
  return { outcome: 'invalid_response', httpStatus: 'unknown' };
}

/**
 * `client` of airline `airline` with every call timed into `airline_call_duration_seconds` (same
 * object behaviour: a Proxy forwarding everything else). `around` also sees each call (tracing).
 */
export function instrumentNdcClient<T extends NdcHttpClient>(
  client: T,
  metrics: Pick<WorkerMetrics, 'airlineCallDuration'>,
  airline: string,
  around?: <R>(operation: string, call: () => Promise<R>) => Promise<R>,
): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      const operation = NDC_OPERATIONS[property as keyof typeof NDC_OPERATIONS];
      if (operation === undefined || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const end = metrics.airlineCallDuration.startTimer({ airline, operation });
        const call = async (): Promise<unknown> => {
          try {
            const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            end({ outcome: 'ok', http_status: operation === 'Token' ? '201' : '200' });
            return result;
          } catch (error) {
            const { outcome, httpStatus } = outcomeOf(error);
            end({ outcome, http_status: httpStatus });
            throw error;
          }
        };
        return around !== undefined ? around(operation, call) : call();
      };
    },
  });
}
