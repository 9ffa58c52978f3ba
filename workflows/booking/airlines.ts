/**
 * The airlines of a booking (docs/orchestrator.md, "Airlines"): each airline's activities on its
 * own task queue, one activity per airline when a step runs at every airline (in parallel), an
 * airline that fails left out while another answers.
 *
 * A booking started without airline routes (before airline profiles, or a test) has one airline,
 * whose activities run on the workflow's own task queue, with the commands it always had.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  workflowInfo,
  type ActivityInterfaceFor,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { BookingActivities } from '../../activities/booking.activities.types';
import { FailureType } from '../../src/booking/booking.failures';
import {
  airlineReadsTaskQueue,
  airlineTaskQueue,
  type AirlineRoute,
  type BookingError,
  type BookingStepName,
} from '../../src/booking/booking.model';
import { CREATE_ORDER_ACTIVITY_OPTIONS, NDC_ACTIVITY_OPTIONS } from './activity-options';
import type { Booking } from './context';
import { toBookingError } from './failures';

/** The activities never retried by Temporal: each may change the order at the airline. */
export type OrderActivities = Pick<BookingActivities, 'createOrder' | 'customerInput' | 'cancelOrder' | 'changeOrder'>;

/** The activities of one airline. */
export interface AirlineActivities {
  ndc: ActivityInterfaceFor<BookingActivities>;
  orders: ActivityInterfaceFor<OrderActivities>;
}

const onOwnQueue: AirlineActivities = {
  ndc: proxyActivities<BookingActivities>(NDC_ACTIVITY_OPTIONS),
  orders: proxyActivities<OrderActivities>(CREATE_ORDER_ACTIVITY_OPTIONS),
};

/**
 * Attempts of a shop at one of several airlines: an airline that keeps failing is skipped after
 * about 1.5 s of back-off instead of holding the others' answers for half a minute.
 */
export const MULTI_AIRLINE_SHOP_ATTEMPTS = 3;

/** How a call is scheduled: the booking's first step, or a shop among several airlines. */
interface CallKind {
  /** The first shopping round's calendar or shop (dispatched after later steps of earlier bookings). */
  first?: boolean;
  /** One of several airlines' shops (fewer attempts). */
  several?: boolean;
}

/**
 * The activities at `route`'s airline (its task queue), or, without a route, on the workflow's
 * own queue as before airline profiles.
 *
 * Finish what was started: the first round's calendar and shop go one priority key below the
 * booking's own (a higher number), every later step at the booking's, so within a priority class
 * the later steps of bookings that arrived earlier are dispatched before the first step of those
 * that arrived after them, and a burst confirms in about arrival order instead of in lockstep.
 */
export function activitiesAt(route: AirlineRoute | undefined, kind: CallKind = {}): AirlineActivities {
  if (route === undefined) return onOwnQueue;
  const scheduling: ActivityOptions = { taskQueue: airlineTaskQueue(workflowInfo().taskQueue, route.code) };
  const priority = workflowInfo().priority;
  if (kind.first === true && priority?.priorityKey !== undefined)
    scheduling.priority = { ...priority, priorityKey: priority.priorityKey + 1 };
  const retry =
    kind.several === true ? { ...NDC_ACTIVITY_OPTIONS.retry, maximumAttempts: MULTI_AIRLINE_SHOP_ATTEMPTS } : undefined;
  return {
    ndc: proxyActivities<BookingActivities>({ ...NDC_ACTIVITY_OPTIONS, ...scheduling, ...(retry ? { retry } : {}) }),
    orders: proxyActivities<OrderActivities>({ ...CREATE_ORDER_ACTIVITY_OPTIONS, ...scheduling }),
  };
}

/** Priority key of scheduled order reads: behind every booking and servicing step (1 is the highest). */
export const ORDER_READ_PRIORITY_KEY = 5;

/**
 * The activities of a scheduled order read at `route`'s airline: the permit on its reads queue
 * (the share of the airline's quota reads may take) and the read itself on its own queue, behind
 * every booking and servicing step. Without a route, both on the workflow's own queue.
 */
export function readsAt(route: AirlineRoute | undefined): {
  permit: ActivityInterfaceFor<Pick<BookingActivities, 'orderReadPermit'>>;
  ndc: ActivityInterfaceFor<BookingActivities>;
} {
  if (route === undefined) return { permit: onOwnQueue.ndc, ndc: onOwnQueue.ndc };
  const { taskQueue } = workflowInfo();
  return {
    permit: proxyActivities<Pick<BookingActivities, 'orderReadPermit'>>({
      ...NDC_ACTIVITY_OPTIONS,
      taskQueue: airlineReadsTaskQueue(taskQueue, route.code),
      priority: { priorityKey: ORDER_READ_PRIORITY_KEY },
    }),
    ndc: proxyActivities<BookingActivities>({
      ...NDC_ACTIVITY_OPTIONS,
      taskQueue: airlineTaskQueue(taskQueue, route.code),
      priority: { priorityKey: ORDER_READ_PRIORITY_KEY },
    }),
  };
}

/** The activities at the airline that owns the chosen offer. */
export function chosenAirline(booking: Booking): AirlineActivities {
  return activitiesAt(booking.airline);
}

/** The airlines to run a step at: the routes, or the one airline of a booking without routes. */
export function routesOf(booking: Booking): readonly (AirlineRoute | undefined)[] {
  return booking.routes ?? [undefined];
}

/** One airline's answer to a step run at every airline. */
export type AirlineAnswer<T> = { route: AirlineRoute | undefined; result: T };

/** Why an airline was left out. */
export type AirlineReason = NonNullable<BookingError['airlines']>[number];

/**
 * Runs `call` at every airline of `routes` at once, as steps `name` of the trail. Airlines that
 * fail are left out (their step records say why); when all fail, the booking fails: with the one
 * airline's own failure, or, of several, with each airline's reason.
 */
export async function atEveryAirline<T extends { attempt: number }>(
  booking: Booking,
  routes: readonly (AirlineRoute | undefined)[],
  name: BookingStepName,
  call: (activities: AirlineActivities, route: AirlineRoute | undefined) => Promise<T>,
  options: { first: boolean; reason?: string },
): Promise<{ answers: AirlineAnswer<T>[]; skipped: AirlineReason[] }> {
  if (routes.length === 0) throw noAirline(name, []);
  const several = routes.length > 1;
  const settled = await Promise.allSettled(
    routes.map((route) =>
      booking.trail.step(name, () => call(activitiesAt(route, { first: options.first, several }), route), {
        ...(options.reason !== undefined ? { reason: options.reason } : {}),
        ...(route !== undefined ? { airline: route.code } : {}),
      }),
    ),
  );
  const answers: AirlineAnswer<T>[] = [];
  const skipped: AirlineReason[] = [];
  settled.forEach((outcome, index) => {
    const route = routes[index];
    if (outcome.status === 'fulfilled') {
      answers.push({ route, result: outcome.value });
      return;
    }
    if (!several || !(outcome.reason instanceof ActivityFailure)) throw outcome.reason;
    const error = toBookingError(outcome.reason);
    skipped.push({ airline: route!.code, type: error.type as FailureType, message: error.message });
  });
  if (answers.length === 0) throw noAirline(name, skipped);
  return { answers, skipped };
}

/**
 * The booking's failure when no airline has a usable offer: the airlines' common failure type
 * (NO_OFFERS when they differ), each airline's reason in the message and the details.
 */
export function noAirline(what: string, reasons: readonly AirlineReason[]): ApplicationFailure {
  const types = new Set(reasons.map((reason) => reason.type));
  const type = types.size === 1 ? [...types][0]! : FailureType.NO_OFFERS;
  const list = reasons.map((reason) => `${reason.airline}: ${reason.type} (${reason.message})`).join('; ');
  return ApplicationFailure.create({
    message:
      reasons.length === 0 ? `no configured airline to ${what} at` : `no airline has a usable offer (${what}): ${list}`,
    type,
    nonRetryable: true,
    details: [{ airlines: reasons }],
  });
}
