import { NotFoundException } from '@nestjs/common';
import { ServiceError } from '@temporalio/client';
import { ApiError } from './api-error';
import { STATUS_OF, scrubDigits, toErrorResponse } from './api-exception.filter';

describe('toErrorResponse', () => {
  it('maps every API error code to its status', () => {
    expect(STATUS_OF).toEqual({
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
    });
    expect(toErrorResponse(new ApiError('ORDER_NOT_READY', 'not yet', undefined, { status: 'RUNNING' }))).toEqual([
      409,
      { statusCode: 409, error: 'Conflict', code: 'ORDER_NOT_READY', message: 'not yet', status: 'RUNNING' },
    ]);
  });

  it('Temporal unreachable: 503', () => {
    const err = new ServiceError('Failed to start', { cause: Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }) });
    expect(toErrorResponse(err)).toEqual([
      503,
      { statusCode: 503, error: 'Service Unavailable', code: 'TEMPORAL_UNAVAILABLE', message: 'Temporal did not answer in time; retry later' },
    ]);
  });

  it('unknown routes: 404; anything else: 500 without details', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /nope'))).toEqual([
      404,
      { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Cannot GET /nope' },
    ]);
    expect(toErrorResponse(new TypeError('card 4111111111111111 broke'))).toEqual([
      500,
      { statusCode: 500, error: 'Internal Server Error', code: 'INTERNAL', message: 'Internal server error' },
    ]);
  });

  it('body-parser errors never repeat the body', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413 });
    expect(toErrorResponse(tooLarge)).toEqual([
      413,
      { statusCode: 413, error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
    ]);
  });
});

describe('scrubDigits', () => {
  it('masks possible card numbers in logged messages', () => {
    expect(scrubDigits('card 4111111111111111 and order 12345')).toBe('card ****1111 and order 12345');
  });
});
