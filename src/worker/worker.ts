/**
 * The booking worker: the workflows of `workflows/` and the activities of `activities/`, on one
 * task queue, with the encrypting data converter and the airline's rate limit.
 */
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
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
  /** Further worker options (tests: `maxCachedWorkflows`, ...). */
  extra?: Partial<WorkerOptions>;
}

/** Creates (does not run) the booking worker. */
export async function createBookingWorker(options: BookingWorkerOptions): Promise<Worker> {
  // Webhook deliveries (one signed POST each) run beside the booking activities.
  const activities = { ...createWebhookActivities(), ...(options.activities ?? createActivities(options.activityDeps)) };
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities,
    dataConverter: createDataConverter(options.payloadKey),
    maxTaskQueueActivitiesPerSecond: options.rateLimitRps ?? DEFAULT_AIRLINE_RATE_LIMIT_RPS,
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    ...options.extra,
  });
}

function createActivities(deps: BookingActivityDeps | undefined): BookingActivities {
  if (deps === undefined) throw new Error('createBookingWorker needs activityDeps or activities');
  return createBookingActivities(deps);
}
