/**
 * Errors the API services throw. Each carries a stable `code`; the HTTP status is chosen in one
 * place, `ApiExceptionFilter`, never in services.
 */
import type { FieldError } from '../bookings/booking.dto';

export type ApiErrorCode =
  | 'INVALID_INTENT'
  | 'INVALID_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'AGENCY_MISMATCH'
  | 'BOOKING_NOT_FOUND'
  | 'BATCH_NOT_FOUND'
  | 'ORDER_NOT_READY'
  | 'NOT_AWAITING_APPROVAL'
  | 'NOT_AWAITING_SEATS'
  | 'SEAT_CHOICE_REFUSED'
  | 'NOT_AWAITING_AUTHENTICATION'
  | 'BOOKING_NOT_CANCELLABLE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'TEMPORAL_UNAVAILABLE'
  | 'SEARCH_ATTRIBUTES_MISSING'
  | 'CODEC_UNAVAILABLE'
  | 'INVALID_WEBHOOK'
  | 'WEBHOOK_NOT_FOUND';

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    /** Bad fields of an invalid request. */
    readonly fields?: FieldError[],
    /** Extra, non-sensitive details returned with the error (e.g. the current booking status). */
    readonly details?: Record<string, unknown>,
    /** Response headers to send with the error (`WWW-Authenticate`, `Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
