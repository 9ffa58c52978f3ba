/**
 * Reading the failures that reach the booking saga: what failed, how often it was tried, whether
 * an order may exist, and the error the booking's state shows. Pure (no commands).
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { failureTypeOf, FailureType, type FailureDetails } from '../../src/booking/booking.failures';
import type { BookingError } from '../../src/booking/booking.model';
import { NDC_MAX_ATTEMPTS } from './activity-options';

/** The `ApplicationFailure` behind an error (thrown by an activity or by the workflow), if any. */
export function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) return error.cause;
  if (error instanceof ApplicationFailure) return error;
  return undefined;
}

export function detailsOf(
  failure: ApplicationFailure | undefined,
): Partial<FailureDetails> & Pick<BookingError, 'airlines'> {
  const first = failure?.details?.[0];
  return typeof first === 'object' && first !== null ? (first as Partial<FailureDetails>) : {};
}

/** Attempts an activity made before it failed (see docs/orchestrator.md, "State"). */
export function attemptsOf(error: unknown): number {
  const failure = applicationFailureOf(error);
  const reported = detailsOf(failure).attempt;
  if (typeof reported === 'number') return reported;
  // A retryable failure that reached the workflow exhausted the retry policy.
  if (error instanceof ActivityFailure && failure !== undefined && !failure.nonRetryable) return NDC_MAX_ATTEMPTS;
  return 1;
}

/**
 * True when a call that may change the order (create, customer input, cancel) may or may not have
 * taken effect: thrown *_OUTCOME_UNKNOWN, a timeout of the activity (worker lost), or any
 * transient failure. Classified business failures are not.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  const failure = applicationFailureOf(error);
  if (failure === undefined) return true; // timeout, cancellation by the server, ...
  if (detailsOf(failure).notSent === true) return false; // certainly not sent: nothing to settle
  return failure.type === FailureType.ORDER_OUTCOME_UNKNOWN || !failure.nonRetryable;
}

/** Maps a failure to the state's error; rethrows what is not a business failure (bugs). */
export function toBookingError(error: unknown): BookingError {
  const failure = applicationFailureOf(error);
  if (failure !== undefined && (failure.nonRetryable || error instanceof ActivityFailure)) {
    const { airlineCode, airlines } = detailsOf(failure);
    const type = failure.nonRetryable ? failureTypeOf(failure.type) : FailureType.AIRLINE_UNAVAILABLE;
    return {
      type,
      message: failure.message,
      ...(airlineCode !== undefined ? { airlineCode } : {}),
      ...(airlines !== undefined ? { airlines } : {}),
    };
  }
  if (error instanceof ActivityFailure) {
    return { type: FailureType.AIRLINE_UNAVAILABLE, message: error.cause?.message ?? error.message };
  }
  throw error;
}

/** A definite failure of a step, carried as a value (`{ kind: 'failed', cause }` outcomes). */
export function failed(message: string, type: FailureType): { kind: 'failed'; cause: ApplicationFailure } {
  return { kind: 'failed', cause: ApplicationFailure.nonRetryable(message, type) };
}
