/**
 * The booking worker: the workflows of `workflows/` and the activities of `activities/`, on one
 * task queue, with the encrypting data converter and the airline's rate limit, and its
 * observability: the booking-metrics and OpenTelemetry workflow interceptors (bundled with the
 * workflows), the OpenTelemetry activity interceptors, and their sinks.
 */
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type InjectedSinks, type WorkerOptions } from '@temporalio/worker';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import type { Tracing } from '../common/observability';
import type { BookingMetricsSinks } from './booking-metrics.interceptor';
import { bookingMetricsSinks, type WorkerMetrics } from './worker.metrics';
import { createBookingActivities, type BookingActivityDeps } from '../../activities/booking.activities';
import type { BookingActivities } from '../../activities/booking.activities.types';
import { createWebhookActivities } from '../../activities/webhook.activities';
import { createDataConverter } from '../temporal/data-converter';

/** Default `maxTaskQueueActivitiesPerSecond`: requests per second the airline accepts. */
export const DEFAULT_AIRLINE_RATE_LIMIT_RPS = 20;
/** Default time in-flight activities get to finish after SIGTERM. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** Path of the workflow bundle entry (every workflow of `workflows/`). */
export const WORKFLOWS_PATH = require.resolve('../../workflows');

/**
 * Workflow interceptor modules bundled with the workflows (also by scripts/bundle-workflows.ts
 * for a prebuilt bundle): booking metrics through a sink, OpenTelemetry workflow spans.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('./booking-metrics.interceptor'),
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
];

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

/** Creates (does not run) the booking worker. */
export async function createBookingWorker(options: BookingWorkerOptions): Promise<Worker> {
  // Webhook deliveries (one signed POST each) run beside the booking activities.
  const activities = {
    ...createWebhookActivities(),
    ...(options.activities ?? createActivities(options.activityDeps)),
  };
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.taskQueue,
    ...(options.workflowBundlePath !== undefined
      ? { workflowBundle: { codePath: options.workflowBundlePath } }
      : { workflowsPath: WORKFLOWS_PATH }),
    activities,
    dataConverter: createDataConverter(options.payloadKey),
    interceptors: {
      workflowModules: WORKFLOW_INTERCEPTOR_MODULES,
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: observabilitySinks(options.metrics, options.tracing),
    maxTaskQueueActivitiesPerSecond: options.rateLimitRps ?? DEFAULT_AIRLINE_RATE_LIMIT_RPS,
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    ...options.extra,
  });
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
