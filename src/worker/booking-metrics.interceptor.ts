/**
 * Workflow interceptor module (bundled with the workflows, so it runs in the workflow sandbox:
 * deterministic, `@temporalio/workflow` only). For each `bookingWorkflow` it reports through the
 * `bookingMetrics` sink that the booking started and, when the booking reaches its outcome
 * (CONFIRMED, FAILED, ESCALATED or CANCELLED, which with a cancel window is days before its
 * workflow closes), how it ended: status, failure type, step durations (workflow time), re-shops
 * and reconciliations. A later cancel of a confirmed booking is reported on its own. The worker
 * side (worker.metrics.ts) turns these into Prometheus metrics; sinks are not called during replay.
 */
import { proxySinks, workflowInfo, type Sinks, type WorkflowInterceptors } from '@temporalio/workflow';
import { onBookingStatus } from '../../workflows/booking-status-listeners';

/** One step of an ended booking. */
export interface EndedStep {
  name: string;
  outcome?: string;
  /** From startedAt to endedAt (workflow time); absent when it did not end. */
  seconds?: number;
}

/** How a booking ended. `status` ERROR: the workflow failed (a bug, not a business outcome). */
export interface BookingEnded {
  status: string;
  failureType?: string;
  /** The airline whose offer was chosen. */
  airline?: string;
  steps: EndedStep[];
  reshops: number;
  reconciliations: number;
}

export interface BookingMetricsSinks extends Sinks {
  bookingMetrics: {
    started(): void;
    ended(ended: BookingEnded): void;
    /** A confirmed booking's order cancel ended: `cancelled`, or `failed` (the booking stays CONFIRMED). */
    orderCancel(outcome: 'cancelled' | 'failed'): void;
  };
}

/** The workflow types reported. */
const BOOKING_WORKFLOW_TYPES = new Set(['bookingWorkflow']);

interface StateLike {
  status?: string;
  airline?: string;
  error?: { type?: string };
  steps?: { name: string; outcome?: string; startedAt?: string; endedAt?: string }[];
}

/** Summary of a booking result (`{ state }`); pure, for tests. */
export function summarise(result: unknown): BookingEnded {
  const state = ((result as { state?: StateLike } | undefined)?.state ?? {}) as StateLike;
  const steps = (state.steps ?? []).map((step): EndedStep => {
    const started = step.startedAt !== undefined ? Date.parse(step.startedAt) : NaN;
    const ended = step.endedAt !== undefined ? Date.parse(step.endedAt) : NaN;
    return {
      name: step.name,
      outcome: step.outcome,
      ...(Number.isFinite(started) && Number.isFinite(ended) ? { seconds: Math.max(0, (ended - started) / 1000) } : {}),
    };
  });
  // A round shops at every airline at once: its shop steps follow each other in the trail.
  const rounds = steps.filter((step, i) => step.name === 'shop' && steps[i - 1]?.name !== 'shop').length;
  return {
    status: state.status ?? 'UNKNOWN',
    ...(state.error?.type !== undefined ? { failureType: state.error.type } : {}),
    ...(state.airline !== undefined ? { airline: state.airline } : {}),
    steps,
    reshops: Math.max(0, rounds - 1),
    reconciliations: steps.filter((step) => step.name === 'reconcileOrder').length,
  };
}

const { bookingMetrics } = proxySinks<BookingMetricsSinks>();

/** Statuses at which a booking has reached its outcome. */
const OUTCOMES = new Set(['CONFIRMED', 'FAILED', 'ESCALATED', 'CANCELLED']);

/**
 * Follows one booking's status changes: `ended` once, at its first outcome; `orderCancel` when a
 * confirmed booking's cancel ends. Returns whether the outcome has been reported.
 */
function followBooking(): () => boolean {
  let reported = false;
  let cancelReported = false;
  onBookingStatus((state) => {
    if (!reported) {
      if (!OUTCOMES.has(state.status)) return;
      reported = true;
      bookingMetrics.ended(summarise({ state }));
      return;
    }
    const cancel = state.cancellation?.status;
    if (!cancelReported && (cancel === 'cancelled' || cancel === 'failed')) {
      cancelReported = true;
      bookingMetrics.orderCancel(cancel);
    }
  });
  return () => reported;
}

export const interceptors = (): WorkflowInterceptors => ({
  inbound: [
    {
      async execute(input, next) {
        if (!BOOKING_WORKFLOW_TYPES.has(workflowInfo().workflowType)) return next(input);
        bookingMetrics.started();
        const reported = followBooking();
        try {
          const result = await next(input);
          if (!reported()) bookingMetrics.ended(summarise(result));
          return result;
        } catch (error) {
          if (!reported())
            bookingMetrics.ended({
              status: 'ERROR',
              failureType: 'WORKFLOW_FAILED',
              steps: [],
              reshops: 0,
              reconciliations: 0,
            });
          throw error;
        }
      },
    },
  ],
});
