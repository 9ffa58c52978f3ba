/**
 * Errors the API services throw. Each carries a stable `code`; the HTTP status is chosen in one
 * place, `ApiExceptionFilter`, never in services. A wrapped error is kept as the `cause`
 * (ES2022), for logs and debuggers; it never reaches the answer.
 */
import type { FailureType } from '../../booking/booking.failures';
import type { ServicingRefusal } from '../../booking/servicing.model';
import type { FieldError } from './validation';

/**
 * Every code an error answer may carry: the API's own, a servicing request's refusal
 * (`ServicingRefusal`: busy, not serviceable, unknown or expired offer, ...) and the saga's
 * failure types of a servicing action that failed at the airline (`FailureType`), which cross
 * the Temporal boundary as `ApplicationFailure` types.
 */
export type ApiErrorCode = ApiOwnCode | ServicingRefusal | FailureType;

/** The codes the API itself decides. */
export type ApiOwnCode =
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

/** What an {@link ApiError} carries besides its code and message; every part optional. */
export interface ApiErrorOptions extends ErrorOptions {
  /** Bad fields of an invalid request. Default none. */
  fields?: FieldError[];
  /** Extra, non-sensitive details returned with the error (e.g. the current booking status). Default none. */
  details?: Record<string, unknown>;
  /** Response headers to send with the error (`WWW-Authenticate`, `Retry-After`). Default none. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly fields?: FieldError[];
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    { fields, details, headers, ...errorOptions }: ApiErrorOptions = {},
  ) {
    super(message, errorOptions);
    this.name = 'ApiError';
    this.fields = fields;
    this.details = details;
    this.headers = headers;
  }
}
