import { NotFoundException } from '@nestjs/common';
import { ServiceError } from '@temporalio/client';
import { ApiError } from './api-error';
import { STATUS_OF, scrubDigits, toErrorResponse } from './api-exception.filter';

describe('toErrorResponse', () => {
  it('maps every API error code to its status', () => {
    expect(STATUS_OF).toEqual({
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
      // A servicing request the booking refused (ServicingRefusal).
      BOOKING_BUSY: 409,
      NOT_SERVICEABLE: 409,
      OFFER_UNKNOWN: 404,
      OFFER_EXPIRED: 409,
      DIFFERENCE_ABOVE_MAX: 409,
      CARD_REQUIRED: 422,
      INVALID_SERVICING_REQUEST: 422,
      // A servicing action that failed (FailureType).
      ORDER_NOT_FOUND: 409,
      UNSUPPORTED_CURRENCY: 422,
      NO_OFFERS: 409,
      NO_SEATS: 409,
      SEATS_UNAVAILABLE: 409,
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
    });
  });

  it('builds an RFC 9457 problem; details cannot overwrite its members; headers pass through', () => {
    const err = new ApiError('ORDER_NOT_READY', 'not yet', {
      details: { bookingStatus: 'RUNNING', status: 200, type: 'x' },
      headers: { 'X-A': '1' },
    });
    expect(toErrorResponse(err)).toEqual([
      409,
      {
        type: 'urn:ndc-saga:problem:order-not-ready',
        title: 'Conflict',
        status: 409,
        detail: 'not yet',
        code: 'ORDER_NOT_READY',
        bookingStatus: 'RUNNING',
      },
      { 'X-A': '1' },
    ]);
  });

  it('an ApiError keeps the error it wraps as its cause, which never reaches the answer', () => {
    const refused = new Error('update refused for card 4111111111111111');
    const err = new ApiError('SEAT_CHOICE_REFUSED', 'Seat choice refused', { cause: refused });
    expect(err.cause).toBe(refused);
    const [status, problem] = toErrorResponse(err);
    expect([status, JSON.stringify(problem)]).toEqual([
      422,
      JSON.stringify({
        type: 'urn:ndc-saga:problem:seat-choice-refused',
        title: 'Unprocessable Entity',
        status: 422,
        detail: 'Seat choice refused',
        code: 'SEAT_CHOICE_REFUSED',
      }),
    ]);
  });

  it('Temporal unreachable: 503 with Retry-After', () => {
    const err = new ServiceError('Failed to start', {
      cause: Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }),
    });
    expect(toErrorResponse(err)).toEqual([
      503,
      {
        type: 'urn:ndc-saga:problem:temporal-unavailable',
        title: 'Service Unavailable',
        status: 503,
        detail: 'Temporal did not answer in time; retry later',
        code: 'TEMPORAL_UNAVAILABLE',
      },
      { 'Retry-After': '5' },
    ]);
  });

  it('unknown routes: 404; anything else: 500 without details', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /nope'))[1]).toEqual({
      type: 'urn:ndc-saga:problem:not-found',
      title: 'Not Found',
      status: 404,
      detail: 'Cannot GET /nope',
      code: 'NOT_FOUND',
    });
    expect(toErrorResponse(new TypeError('card 4111111111111111 broke'))[1]).toEqual({
      type: 'urn:ndc-saga:problem:internal',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Internal server error',
      code: 'INTERNAL',
    });
  });

  it('body-parser errors never repeat the body', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413 });
    expect(toErrorResponse(tooLarge)[1]).toEqual({
      type: 'urn:ndc-saga:problem:payload-too-large',
      title: 'Payload Too Large',
      status: 413,
      detail: 'The request body is too large',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});

describe('scrubDigits', () => {
  it('masks possible card numbers in logged messages', () => {
    expect(scrubDigits('card 4111111111111111 and order 12345')).toBe('card ****1111 and order 12345');
  });
});
