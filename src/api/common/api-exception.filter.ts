/**
 * The one place error codes become HTTP statuses. Bodies look like
 * `{statusCode, error, code, message, fields?, ...details}`; request bodies are never logged or
 * echoed (a malformed JSON body is answered without quoting it).
 */
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ServiceError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { HttpResponse as Response } from './http.types';
import { STATUS_CODES } from 'node:http';
import { ApiError, type ApiErrorCode } from './api-error';

/** HTTP status of each API error code. */
export const STATUS_OF: Readonly<Record<ApiErrorCode, number>> = {
  INVALID_INTENT: 400,
  INVALID_REQUEST: 400,
  BOOKING_NOT_FOUND: 404,
  BATCH_NOT_FOUND: 404,
  ORDER_NOT_READY: 409,
  NOT_AWAITING_APPROVAL: 409,
  BOOKING_NOT_CANCELLABLE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  TEMPORAL_UNAVAILABLE: 503,
  CODEC_UNAVAILABLE: 503,
  INVALID_WEBHOOK: 400,
  WEBHOOK_NOT_FOUND: 404,
};

/** gRPC status codes meaning "Temporal cannot be reached right now". */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** True for a Temporal call that failed because the server (or, for a query, a worker) did not answer in time. */
export function isTemporalUnavailable(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  const grpcCode = (err.cause as { code?: number } | undefined)?.code;
  return grpcCode === GRPC_UNAVAILABLE || grpcCode === GRPC_DEADLINE_EXCEEDED;
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  [extra: string]: unknown;
}

function body(statusCode: number, code: string, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message, ...extra };
}

/** Maps any thrown value to `[status, body]`. Exported for unit tests. */
export function toErrorResponse(exception: unknown): [number, ErrorBody] {
  if (exception instanceof ApiError) {
    const status = STATUS_OF[exception.code];
    const extra: Record<string, unknown> = { ...(exception.details ?? {}) };
    if (exception.fields !== undefined) extra.fields = exception.fields;
    return [status, body(status, exception.code, exception.message, extra)];
  }
  if (exception instanceof WorkflowNotFoundError) {
    return [404, body(404, 'BOOKING_NOT_FOUND', 'No booking or batch with this id')];
  }
  if (exception instanceof WorkflowExecutionAlreadyStartedError) {
    return [409, body(409, 'ALREADY_STARTED', 'A workflow with this id already exists')];
  }
  if (isTemporalUnavailable(exception)) {
    return [503, body(503, 'TEMPORAL_UNAVAILABLE', 'Temporal did not answer in time; retry later')];
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const res = exception.getResponse();
    // body-parser errors (malformed JSON, too large) carry a `type`; never repeat their message,
    // which quotes the body.
    const parserType = (exception.cause as { type?: string } | undefined)?.type;
    if (status === 400 && (parserType === 'entity.parse.failed' || /JSON/.test(exception.message))) {
      return [400, body(400, 'MALFORMED_JSON', 'The request body is not valid JSON')];
    }
    const message = typeof res === 'string' ? res : String((res as { message?: unknown }).message ?? exception.message);
    const code = status === 404 ? 'NOT_FOUND' : (STATUS_CODES[status] ?? 'ERROR').toUpperCase().replace(/[^A-Z]+/g, '_');
    return [status, body(status, code, message)];
  }
  const parser = exception as { type?: string; status?: number } | null;
  if (parser !== null && typeof parser === 'object' && typeof parser.type === 'string' && typeof parser.status === 'number') {
    if (parser.type === 'entity.parse.failed') return [400, body(400, 'MALFORMED_JSON', 'The request body is not valid JSON')];
    if (parser.type === 'entity.too.large') return [413, body(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large')];
    return [parser.status, body(parser.status, 'BAD_BODY', 'The request body could not be read')];
  }
  return [500, body(500, 'INTERNAL', 'Internal server error')];
}

/** Masks runs of 12 to 19 digits (possible card numbers) but their last four. */
export function scrubDigits(text: string): string {
  return text.replace(/\d{12,19}/g, (digits) => `****${digits.slice(-4)}`);
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const [status, payload] = toErrorResponse(exception);
    if (status >= 500) {
      // Name and message only, no request data; digit runs that could be card numbers are masked.
      const e = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(scrubDigits(`${payload.code}: ${e.name}: ${e.message}`), status === 500 ? scrubDigits(e.stack ?? '') : undefined);
    }
    if (res.headersSent) return;
    res.status(status).json(payload);
  }
}

export { HttpStatus };
