/**
 * The booking worker: the workflows of `workflows/` on one task queue, with the encrypting data
 * converter; beside it, each airline's activities on the task queue `<taskQueue>-airline-<CODE>`
 * at that airline's rate limit (one slow or failing airline never holds up another), and on the
 * task queue `<taskQueue>-webhooks` without a limit, the webhook deliveries (a POST to an agency's
 * endpoint is not an airline request, and must neither use an airline's quota nor wait behind a
 * burst of bookings). Its observability: the booking-metrics and OpenTelemetry workflow interceptors (bundled with the
 * workflows), the OpenTelemetry activity interceptors, and their sinks.
 */
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { NativeConnection } from '@temporalio/worker';
import {
  Worker,
  type ActivityInterceptorsFactory,
  type InjectedSinks,
  type State,
  type TunerHolder,
  type WorkerOptions,
} from '@temporalio/worker';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import type { Tracing } from '../common/observability';
import type { BookingMetricsSinks } from './booking-metrics.interceptor';
import { bookingMetricsSinks, instrumentWebhookActivities, type WorkerMetrics } from './worker.metrics';
import { createBookingActivities, type BookingActivityDeps } from '../../activities/booking.activities';
import type { BookingActivities } from '../../activities/booking.activities.types';
import type { NdcHttpClient } from '../ndc-client';
import type { AirlineProfile } from '../ndc-client/airline-profile';
import { airlineReadsTaskQueue, airlineTaskQueue } from '../booking/booking.model';
import { createWebhookActivities } from '../../activities/webhook.activities';
import { createStatusSignalActivities } from '../../activities/status-signal.activities';
import { createDataConverter } from '../temporal/data-converter';
import { webhookTaskQueue } from '../webhooks/webhook.model';
import { UnderWayFirstSlots } from './workflow-task-slots';

export { DEFAULT_AIRLINE_RATE_LIMIT_RPS } from '../ndc-client/airline-profile';
import { DEFAULT_AIRLINE_RATE_LIMIT_RPS } from '../ndc-client/airline-profile';
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
  /**
   * The airlines this worker serves: each one's activities on its own task queue
   * (`<taskQueue>-airline-<code>`) at its rate limit. Default none.
   */
  airlines?: AirlineWorker[];
  /**
   * Activities on the workflows' own task queue, for bookings started without airline routes
   * (before airline profiles; tests with mocks). Default the first airline's.
   */
  activities?: BookingActivities;
  /**
   * Activities per second across every worker of the workflows' own task queue (the server
   * enforces it): the rate limit of {@link activities}. Default the first airline's, else 20.
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

/** One airline a worker serves: its activities, on its queue, at its rate limit. */
export interface AirlineWorker {
  code: string;
  /** Airline calls per second across every worker of the airline's queue. */
  rateLimitRps: number;
  /** The share of `rateLimitRps` scheduled order reads may take (their permits' queue). Default 0.1. */
  readsShare?: number;
  activities: BookingActivities;
}

/** The worker side of `profile`'s airline: its activities on `client`, at its rate limit. */
export function airlineWorker(
  profile: AirlineProfile,
  client: NdcHttpClient,
  deps: Omit<BookingActivityDeps, 'client' | 'airline'> = {},
): AirlineWorker {
  return {
    code: profile.code,
    rateLimitRps: profile.rateLimitRps,
    readsShare: profile.orderReads.share,
    activities: createBookingActivities({ ...deps, client, airline: profile }),
  };
}

/**
 * The workers of one booking worker process, run and stopped together: `booking` (workflows),
 * one per airline (its activities, at its rate limit) and `webhooks` (webhook deliveries).
 */
export class BookingWorker {
  readonly all: readonly Worker[];

  constructor(
    readonly booking: Worker,
    readonly webhooks: Worker,
    readonly airlines: readonly Worker[] = [],
  ) {
    this.all = [booking, ...airlines, webhooks];
  }

  /** Runs all until all have stopped; if one fails, the others are shut down and the error thrown. */
  async run(): Promise<void> {
    const runs = this.all.map((worker) => worker.run());
    try {
      await Promise.all(runs);
    } catch (error) {
      this.shutdown();
      await Promise.allSettled(runs);
      throw error;
    }
  }

  /** Starts the graceful shutdown of all (in-flight activities get the grace time). */
  shutdown(): void {
    for (const worker of this.all) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
  }

  /** `RUNNING` when all run; otherwise the state of the first that does not. */
  getState(): State {
    return this.all.map((worker) => worker.getState()).find((state) => state !== 'RUNNING') ?? 'RUNNING';
  }
}

/** Creates (does not run) the booking worker. */
export async function createBookingWorker(options: BookingWorkerOptions): Promise<BookingWorker> {
  const common = commonOptions(options);
  const webhookActivities = instrumentWebhookActivities(createWebhookActivities(), options.metrics);
  const booking = await workflowsWorker(options, common, webhookActivities);
  const airlines = (
    await Promise.all((options.airlines ?? []).map((airline) => airlineWorkers(options, common, airline)))
  ).flat();
  const webhooks = await Worker.create({
    ...common,
    taskQueue: webhookTaskQueue(options.taskQueue),
    activities: webhookActivities,
    interceptors: { activity: common.activityInterceptors },
  });
  return new BookingWorker(booking, webhooks, airlines);
}

/** What every worker of the process shares. */
interface CommonOptions {
  connection: NativeConnection;
  namespace: string;
  dataConverter: ReturnType<typeof createDataConverter>;
  shutdownGraceTime: number;
  activityInterceptors: NonNullable<NonNullable<WorkerOptions['interceptors']>['activity']>;
}

function commonOptions(options: BookingWorkerOptions): CommonOptions {
  return {
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    dataConverter: createDataConverter(options.payloadKey),
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
  };
}

/** The workflows' worker on the booking task queue. */
function workflowsWorker(
  options: BookingWorkerOptions,
  { activityInterceptors, ...common }: CommonOptions,
  webhookActivities: ReturnType<typeof createWebhookActivities>,
): Promise<Worker> {
  return Worker.create({
    ...common,
    taskQueue: options.taskQueue,
    ...(options.workflowBundlePath !== undefined
      ? { workflowBundle: { codePath: options.workflowBundlePath } }
      : { workflowsPath: WORKFLOWS_PATH }),
    // The webhook and airline activities stay here too, for deliveries and bookings scheduled on
    // this queue before they had queues of their own.
    activities: {
      ...webhookActivities,
      ...createStatusSignalActivities(),
      ...(options.activities ?? options.airlines?.[0]?.activities),
    },
    interceptors: {
      workflowModules: workflowInterceptorModules(options.tracing !== undefined),
      activity: activityInterceptors,
    },
    sinks: observabilitySinks(options.metrics, options.tracing),
    maxTaskQueueActivitiesPerSecond:
      options.rateLimitRps ?? options.airlines?.[0]?.rateLimitRps ?? DEFAULT_AIRLINE_RATE_LIMIT_RPS,
    ...(options.extra?.maxConcurrentWorkflowTaskExecutions === undefined ? { tuner: underWayFirstTuner() } : {}),
    ...options.extra,
  });
}

/**
 * One airline's workers: its activities on its queue at its rate limit, and the permits of its
 * scheduled order reads on its reads queue at their share of that limit (docs/orchestrator.md,
 * "Changes the airline makes").
 */
async function airlineWorkers(
  options: BookingWorkerOptions,
  { activityInterceptors, ...common }: CommonOptions,
  airline: AirlineWorker,
): Promise<Worker[]> {
  const interceptors = { activity: [...activityInterceptors, airlineLogAttributes(airline.code)] };
  const share = airline.readsShare ?? 0.1;
  return Promise.all([
    Worker.create({
      ...common,
      taskQueue: airlineTaskQueue(options.taskQueue, airline.code),
      activities: airline.activities,
      interceptors,
      maxTaskQueueActivitiesPerSecond: airline.rateLimitRps,
    }),
    Worker.create({
      ...common,
      taskQueue: airlineReadsTaskQueue(options.taskQueue, airline.code),
      activities: { orderReadPermit: airline.activities.orderReadPermit },
      interceptors,
      maxTaskQueueActivitiesPerSecond: Math.max(share * airline.rateLimitRps, 0.001),
    }),
  ]);
}

/**
 * The workflows' worker slots: bookings under way first ({@link UnderWayFirstSlots}); activities
 * at the SDK's default of 100 slots.
 */
function underWayFirstTuner(): TunerHolder {
  const fixed = { type: 'fixed-size', numSlots: 100 } as const;
  return {
    workflowTaskSlotSupplier: new UnderWayFirstSlots(),
    activityTaskSlotSupplier: fixed,
    localActivityTaskSlotSupplier: fixed,
    nexusTaskSlotSupplier: fixed,
  };
}

/** Every log line (and metric tag) of an airline's activities names the airline. */
export function airlineLogAttributes(code: string): ActivityInterceptorsFactory {
  return () => ({
    outbound: {
      getLogAttributes: (input, next) => ({ ...next(input), airline: code }),
      getMetricTags: (input, next) => ({ ...next(input), airline: code }),
    },
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
