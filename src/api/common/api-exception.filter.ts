/**
 * The one place error codes become HTTP statuses. Every error answer is an RFC 9457 problem
 * (`application/problem+json`): `type`, `title`, `status`, `detail`, `instance`, plus our stable
 * `code`, `requestId`, `fields` for validation and a few non-sensitive details. Request bodies are
 * never logged or echoed (a malformed JSON body is answered without quoting it).
 */
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ServiceError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { STATUS_CODES } from 'node:http';
import type { HttpResponse as Response } from './http.types';
import type { FailureType } from '../../booking/booking.failures';
import type { ServicingRefusal } from '../../booking/servicing.model';
import { ApiError, type ApiErrorCode, type ApiOwnCode } from './api-error';
import { requestIdOf } from './request-id';
import { noteProblem } from './answer-notes';

/** HTTP status of each code the API decides itself. */
const OWN_STATUS: Readonly<Record<ApiOwnCode, number>> = {
  INVALID_INTENT: 400,
  INVALID_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  AGENCY_MISMATCH: 403,
  BOOKING_NOT_FOUND: 404,
  BATCH_NOT_FOUND: 404,
  ORDER_NOT_READY: 409,
  NOT_AWAITING_APPROVAL: 409,
  NOT_AWAITING_SEATS: 409,
  SEAT_CHOICE_REFUSED: 422,
  NOT_AWAITING_AUTHENTICATION: 409,
  BOOKING_NOT_CANCELLABLE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  TEMPORAL_UNAVAILABLE: 503,
  SEARCH_ATTRIBUTES_MISSING: 503,
  CODEC_UNAVAILABLE: 503,
  INVALID_WEBHOOK: 400,
  WEBHOOK_NOT_FOUND: 404,
};

/** HTTP status of a servicing request the booking refused (docs/api.md, "After the booking"). */
const REFUSAL_STATUS: Readonly<Record<ServicingRefusal, number>> = {
  BOOKING_BUSY: 409,
  NOT_SERVICEABLE: 409,
  OFFER_UNKNOWN: 404,
  OFFER_EXPIRED: 409,
  DIFFERENCE_ABOVE_MAX: 409,
  CARD_REQUIRED: 422,
  INVALID_SERVICING_REQUEST: 422,
};

/**
 * HTTP status of a servicing action that failed (its `FailureType`): what the request asked is
 * not possible now 409, unusable data 422, a payment not authenticated 402, the airline failing
 * or its answer unknown 502 (check the order: `detail` says how), the airline unreachable 503.
 */
const FAILURE_STATUS: Readonly<Record<FailureType, number>> = {
  ORDER_NOT_FOUND: 409,
  INVALID_REQUEST: 400,
  UNSUPPORTED_CURRENCY: 422,
  NO_OFFERS: 409,
  NO_SEATS: 409,
  SEATS_UNAVAILABLE: 409,
  OFFER_EXPIRED: 409,
  PASSENGER_MISMATCH: 422,
  BIRTHDATE_REQUIRED: 422,
  PASSENGER_DATA_MISSING: 422,
  CONTACT_MISSING: 422,
  PRICE_MISMATCH: 409,
  INVALID_CARD: 422,
  TOKEN_EXPIRED: 409,
  AIRLINE_ERROR: 502,
  AIRLINE_TRANSIENT: 503,
  AIRLINE_CREDENTIALS_REJECTED: 502,
  INVALID_RESPONSE: 502,
  ORDER_OUTCOME_UNKNOWN: 502,
  CANCEL_OUTCOME_UNKNOWN: 502,
  PRICE_NOT_APPROVED: 409,
  ORDER_NOT_CREATED: 502,
  ORDER_UNSETTLED: 502,
  AUTHENTICATION_FAILED: 402,
  AUTHENTICATION_TIMEOUT: 402,
  CANCELLED: 409,
  AIRLINE_UNAVAILABLE: 503,
  CANCEL_FAILED: 502,
  CHANGE_UNSETTLED: 502,
  CHANGE_NOT_APPLIED: 502,
};

/**
 * HTTP status of each API error code. `INVALID_REQUEST` (the airline found the request unusable,
 * or the API did) and `OFFER_EXPIRED` (a change offer, or the airline's offer) mean the same in
 * every table.
 */
export const STATUS_OF: Readonly<Record<ApiErrorCode, number>> = {
  ...FAILURE_STATUS,
  ...REFUSAL_STATUS,
  ...OWN_STATUS,
};

/** Media type of every error answer. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/** `type` of a problem: this prefix and the code in lower case with dashes (`urn:ndc-saga:problem:booking-not-found`). */
export const PROBLEM_TYPE_PREFIX = 'urn:ndc-saga:problem:';

/** gRPC status codes meaning "Temporal cannot be reached right now". */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** True for a Temporal call that failed because the server did not answer in time. */
export function isTemporalUnavailable(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  const grpcCode = (err.cause as { code?: number } | undefined)?.code;
  return grpcCode === GRPC_UNAVAILABLE || grpcCode === GRPC_DEADLINE_EXCEEDED;
}

/** An RFC 9457 problem as the API sends it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: string;
  requestId?: string;
  fields?: { path: string; message: string }[];
  [extra: string]: unknown;
}

const RESERVED = new Set(['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId', 'fields']);

/** The problem `type` URI of a code. */
export function problemType(code: string): string {
  return `${PROBLEM_TYPE_PREFIX}${code.toLowerCase().replace(/_/g, '-')}`;
}

function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  const safeExtra = Object.fromEntries(Object.entries(extra).filter(([k]) => !RESERVED.has(k)));
  return {
    type: problemType(code),
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(Array.isArray(extra.fields) ? { fields: extra.fields as Problem['fields'] } : {}),
    ...safeExtra,
  };
}

/** Maps any thrown value to `[status, problem, headers]` (without instance and requestId). Exported for unit tests. */
export function toErrorResponse(exception: unknown): [number, Problem, Record<string, string>] {
  if (exception instanceof ApiError) {
    const status = STATUS_OF[exception.code];
    const extra: Record<string, unknown> = { ...(exception.details ?? {}) };
    if (exception.fields !== undefined) extra.fields = exception.fields;
    return [status, problem(status, exception.code, exception.message, extra), exception.headers ?? {}];
  }
  if (exception instanceof WorkflowNotFoundError) {
    return [404, problem(404, 'BOOKING_NOT_FOUND', 'No booking or batch with this id'), {}];
  }
  if (exception instanceof WorkflowExecutionAlreadyStartedError) {
    return [409, problem(409, 'ALREADY_STARTED', 'A workflow with this id already exists'), {}];
  }
  if (isTemporalUnavailable(exception)) {
    return [
      503,
      problem(503, 'TEMPORAL_UNAVAILABLE', 'Temporal did not answer in time; retry later'),
      { 'Retry-After': '5' },
    ];
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const res = exception.getResponse();
    // body-parser errors (malformed JSON, too large) carry a `type`; never repeat their message,
    // which quotes the body.
    const parserType = (exception.cause as { type?: string } | undefined)?.type;
    if (status === 400 && (parserType === 'entity.parse.failed' || /JSON/.test(exception.message))) {
      return [400, problem(400, 'MALFORMED_JSON', 'The request body is not valid JSON'), {}];
    }
    const message = typeof res === 'string' ? res : String((res as { message?: unknown }).message ?? exception.message);
    const code =
      status === 404 ? 'NOT_FOUND' : (STATUS_CODES[status] ?? 'ERROR').toUpperCase().replace(/[^A-Z]+/g, '_');
    return [status, problem(status, code, message), {}];
  }
  const parser = exception as { type?: string; status?: number } | null;
  if (
    parser !== null &&
    typeof parser === 'object' &&
    typeof parser.type === 'string' &&
    typeof parser.status === 'number'
  ) {
    if (parser.type === 'entity.parse.failed')
      return [400, problem(400, 'MALFORMED_JSON', 'The request body is not valid JSON'), {}];
    if (parser.type === 'entity.too.large')
      return [413, problem(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'), {}];
    return [parser.status, problem(parser.status, 'BAD_BODY', 'The request body could not be read'), {}];
  }
  return [500, problem(500, 'INTERNAL', 'Internal server error'), {}];
}

/** Masks runs of 12 to 19 digits (possible card numbers) but their last four. */
export function scrubDigits(text: string): string {
  return text.replace(/\d{12,19}/g, (digits) => `****${digits.slice(-4)}`);
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<{ path?: string; originalUrl?: string }>();
    const [status, payload, headers] = toErrorResponse(exception);
    const requestId = requestIdOf(req);
    noteProblem(res, payload.code);
    if (status >= 500) {
      // Name and message only, no request data; digit runs that could be card numbers are masked.
      const e = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(
        scrubDigits(`${payload.code} (request ${requestId ?? '-'}): ${e.name}: ${e.message}`),
        status === 500 ? scrubDigits(e.stack ?? '') : undefined,
      );
    }
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const body: Problem = {
      ...payload,
      ...(req?.path !== undefined ? { instance: req.path } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
    };
    res.status(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }
}

export { HttpStatus };
