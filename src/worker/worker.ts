/**
 * The booking worker: the workflows of `workflows/` and the activities of `activities/`, on one
 * task queue, with the encrypting data converter and the airline's rate limit; beside it, on the
 * task queue `<taskQueue>-webhooks` without that limit, the webhook deliveries (a POST to an
 * agency's endpoint is not an airline request, and must neither use the airline's quota nor wait
 * behind a burst of bookings). Its observability: the booking-metrics and OpenTelemetry workflow interceptors (bundled with the
 * workflows), the OpenTelemetry activity interceptors, and their sinks.
 */
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type InjectedSinks, type State, type WorkerOptions } from '@temporalio/worker';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import type { Tracing } from '../common/observability';
import type { BookingMetricsSinks } from './booking-metrics.interceptor';
import { bookingMetricsSinks, instrumentWebhookActivities, type WorkerMetrics } from './worker.metrics';
import { createBookingActivities, type BookingActivityDeps } from '../../activities/booking.activities';
import type { BookingActivities } from '../../activities/booking.activities.types';
import { createWebhookActivities } from '../../activities/webhook.activities';
import { createStatusSignalActivities } from '../../activities/status-signal.activities';
import { createDataConverter } from '../temporal/data-converter';
import { webhookTaskQueue } from '../webhooks/webhook.model';

/** Default `maxTaskQueueActivitiesPerSecond`: requests per second the airline accepts. */
export const DEFAULT_AIRLINE_RATE_LIMIT_RPS = 20;
/** Default time in-flight activities get to finish after SIGTERM. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * Whether the code of a prebuilt workflow bundle has the workflow span interceptor (built with
 * `scripts/bundle-workflows.ts --tracing`); webpack names each module by its path.
 */
export function bundleHasWorkflowSpans(code: string): boolean {
  return code.includes('interceptors-opentelemetry/lib/workflow-interceptors');
}

/** Path of the workflow bundle entry (every workflow of `workflows/`). */
export const WORKFLOWS_PATH = require.resolve('../../workflows');

/** The OpenTelemetry workflow interceptor module (workflow and activity-scheduling spans). */
export const WORKFLOW_TRACING_INTERCEPTOR_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/**
 * Workflow interceptor modules bundled with the workflows (also by scripts/bundle-workflows.ts
 * for a prebuilt bundle): booking metrics through a sink, and OpenTelemetry workflow spans only
 * when tracing is on. Off, the span interceptor would still build (and drop) a span for every
 * activation and activity, which was about 15% of the worker's workflow-thread CPU per booking
 * (bench/README.md, "saga"). Leaving it out changes no command, so a workflow may move between
 * workers with and without it.
 */
export function workflowInterceptorModules(tracing: boolean): string[] {
  const modules = [require.resolve('./booking-metrics.interceptor')];
  if (tracing) modules.push(WORKFLOW_TRACING_INTERCEPTOR_MODULE);
  return modules;
}

export interface BookingWorkerOptions {
  connection: NativeConnection;
  /** Default `default`. */
  namespace?: string;
  taskQueue: string;
  /** Dependencies of the real activities; ignored when `activities` is given. */
  activityDeps?: BookingActivityDeps;
  /** Activities to register instead of building them from `activityDeps` (tests). */
  activities?: BookingActivities;
  /**
   * Activities per second across every worker of the task queue (the server enforces it), i.e.
   * the airline's rate limit, since each activity is one airline request. Default 20.
   */
  rateLimitRps?: number;
  /** Grace period of in-flight activities on shutdown, in ms. Default 10000. */
  shutdownGraceMs?: number;
  /** Payload encryption key. Default from PAYLOAD_ENCRYPTION_KEY. */
  payloadKey?: Buffer;
  /**
   * Workflow bundle prebuilt by `scripts/bundle-workflows.ts` (the Docker image builds one at
   * image build time). Default: none, the workflows of `workflows/` are bundled with webpack when
   * the worker is created.
   */
  workflowBundlePath?: string;
  /** Worker metrics fed by the booking-metrics sink. Default: none (the sink drops its calls). */
  metrics?: WorkerMetrics;
  /** Tracing; when off, workflow spans are dropped and activity spans go to the no-op tracer. */
  tracing?: Tracing;
  /** Further worker options (tests: `maxCachedWorkflows`, ...). */
  extra?: Partial<WorkerOptions>;
}

/**
 * The two workers of one booking worker process, run and stopped together: `booking` (workflows
 * and airline activities, rate limited) and `webhooks` (webhook deliveries).
 */
export class BookingWorker {
  constructor(
    readonly booking: Worker,
    readonly webhooks: Worker,
  ) {}

  /** Runs both until both have stopped; if one fails, the other is shut down and the error thrown. */
  async run(): Promise<void> {
    const runs = [this.booking.run(), this.webhooks.run()];
    try {
      await Promise.all(runs);
    } catch (error) {
      this.shutdown();
      await Promise.allSettled(runs);
      throw error;
    }
  }

  /** Starts the graceful shutdown of both (in-flight activities get the grace time). */
  shutdown(): void {
    for (const worker of [this.booking, this.webhooks]) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
  }

  /** `RUNNING` when both run; otherwise the state of the one that does not. */
  getState(): State {
    const booking = this.booking.getState();
    return booking !== 'RUNNING' ? booking : this.webhooks.getState();
  }
}

/** Creates (does not run) the booking worker. */
export async function createBookingWorker(options: BookingWorkerOptions): Promise<BookingWorker> {
  const namespace = options.namespace ?? 'default';
  const dataConverter = createDataConverter(options.payloadKey);
  const activityInterceptors: NonNullable<WorkerOptions['interceptors']>['activity'] = [
    (ctx) => ({
      inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
      outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
    }),
  ];
  const shutdownGraceTime = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const webhookActivities = instrumentWebhookActivities(createWebhookActivities(), options.metrics);
  const booking = await Worker.create({
    connection: options.connection,
    namespace,
    taskQueue: options.taskQueue,
    ...(options.workflowBundlePath !== undefined
      ? { workflowBundle: { codePath: options.workflowBundlePath } }
      : { workflowsPath: WORKFLOWS_PATH }),
    // The webhook activities stay here too, for deliveries scheduled on this queue before
    // deliveries had a queue of their own.
    activities: {
      ...webhookActivities,
      ...createStatusSignalActivities(),
      ...(options.activities ?? createActivities(options.activityDeps)),
    },
    dataConverter,
    interceptors: {
      workflowModules: workflowInterceptorModules(options.tracing !== undefined),
      activity: activityInterceptors,
    },
    sinks: observabilitySinks(options.metrics, options.tracing),
    maxTaskQueueActivitiesPerSecond: options.rateLimitRps ?? DEFAULT_AIRLINE_RATE_LIMIT_RPS,
    shutdownGraceTime,
    ...options.extra,
  });
  const webhooks = await Worker.create({
    connection: options.connection,
    namespace,
    taskQueue: webhookTaskQueue(options.taskQueue),
    activities: webhookActivities,
    dataConverter,
    interceptors: { activity: activityInterceptors },
    shutdownGraceTime,
  });
  return new BookingWorker(booking, webhooks);
}

/** The sinks the interceptor modules call; no-ops for what is not configured. */
function observabilitySinks(metrics: WorkerMetrics | undefined, tracing: Tracing | undefined): WorkerOptions['sinks'] {
  const exporter: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }> =
    tracing !== undefined
      ? { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) }
      : { exporter: { export: { fn: () => undefined, callDuringReplay: false } } };
  const booking: InjectedSinks<BookingMetricsSinks> =
    metrics !== undefined
      ? bookingMetricsSinks(metrics)
      : {
          bookingMetrics: {
            started: { fn: () => undefined },
            ended: { fn: () => undefined },
            orderCancel: { fn: () => undefined },
          },
        };
  return { ...exporter, ...booking };
}

function createActivities(deps: BookingActivityDeps | undefined): BookingActivities {
  if (deps === undefined) throw new Error('createBookingWorker needs activityDeps or activities');
  return createBookingActivities(deps);
}
