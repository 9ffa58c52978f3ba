import { ApplicationFailure } from '@temporalio/common';
import {
  NdcBusinessError,
  NdcCircuitOpenError,
  NdcHttpError,
  NdcInvalidResponseError,
  NdcTransportError,
} from '../src/ndc-client';
import { NdcMissingElementError, NdcNoMoneyPriceError } from '../src/ndc/require-element';
import { offerItemTotalElement } from '../src/booking/card-surcharge';
import { ndcCodeTable } from '../src/booking/booking.failures';
import { embeddedAirlineCodes } from '../src/ndc-client/airline-profile';
import { classifyFailure, passengerIds } from './booking.activities';

/** The embedded airline's codes (its profile): what these cases were written against. */
const codes = embeddedAirlineCodes();

const card = {
  number: '4111111111111111',
  name: 'A',
  expirationYear: 2030,
  expirationMonth: 1,
  verificationCode: '737',
  address: { addressLine1: 'x', postalCode: 'y', cityName: 'z', countryCode: 'GB' },
};

function summary(error: Error): unknown[] {
  expect(error).toBeInstanceOf(ApplicationFailure);
  const failure = error as ApplicationFailure;
  return [failure.type, failure.nonRetryable, failure.message, failure.details?.[0]];
}

describe('classifyFailure', () => {
  it('maps NDC error codes to stable non-retryable types with the airline code and text', () => {
    const error = new NdcBusinessError([{ code: '730', text: 'Birthdate required for PAX__ADT01' }]);
    expect(summary(classifyFailure(error, 1, { codes }))).toEqual([
      'BIRTHDATE_REQUIRED',
      true,
      '730: Birthdate required for PAX__ADT01',
      { attempt: 1, airlineCode: '730', text: 'Birthdate required for PAX__ADT01' },
    ]);
    expect(
      (classifyFailure(new NdcBusinessError([{ code: '721', text: 'x' }]), 2, { codes }) as ApplicationFailure).type,
    ).toBe('OFFER_EXPIRED');
    expect(
      (classifyFailure(new NdcBusinessError([{ code: '740', text: 'x' }]), 1, { codes }) as ApplicationFailure).type,
    ).toBe('PRICE_MISMATCH');
    expect(
      (classifyFailure(new NdcBusinessError([{ code: '913', text: 'x' }]), 1, { codes }) as ApplicationFailure).type,
    ).toBe('ORDER_NOT_FOUND');
    expect(
      (classifyFailure(new NdcBusinessError([{ code: '999', text: 'x' }]), 1, { codes }) as ApplicationFailure).type,
    ).toBe('AIRLINE_ERROR');
  });

  it("reads an airline's codes by its own table, on top of the standard ones", () => {
    const other = ndcCodeTable({ '711': 'OFFER_EXPIRED', '305': 'NO_SEATS' }, ['500']);
    const typeOf = (code: string, table = other) =>
      (classifyFailure(new NdcBusinessError([{ code, text: 'x' }]), 1, { codes: table }) as ApplicationFailure).type;
    expect(typeOf('305')).toBe('NO_SEATS');
    expect(typeOf('711')).toBe('OFFER_EXPIRED');
    expect(typeOf('711', codes)).toBe('NO_SEATS');
    // The embedded airline's own codes mean nothing to another airline...
    expect(typeOf('751')).toBe('AIRLINE_ERROR');
    // ...while the standard ones (913; 911 transient) mean the same to every airline.
    expect(typeOf('913')).toBe('ORDER_NOT_FOUND');
    expect(typeOf('911')).toBe('AIRLINE_TRANSIENT');
    expect(typeOf('500')).toBe('AIRLINE_TRANSIENT');
    expect(typeOf('799')).toBe('AIRLINE_ERROR');
    expect(typeOf('799', codes)).toBe('AIRLINE_TRANSIENT');
  });

  it('treats NDC 799, 5xx, 429 and transport failures as retryable AIRLINE_TRANSIENT', () => {
    expect(
      summary(classifyFailure(new NdcBusinessError([{ code: '799', text: 'system error' }]), 3, { codes })),
    ).toEqual([
      'AIRLINE_TRANSIENT',
      false,
      '799: system error',
      { attempt: 3, airlineCode: '799', text: 'system error' },
    ]);
    expect(summary(classifyFailure(new NdcHttpError(503, 'HTTP 503'), 1, { codes }))).toEqual([
      'AIRLINE_TRANSIENT',
      false,
      'HTTP 503',
      { attempt: 1, httpStatus: 503 },
    ]);
    expect(summary(classifyFailure(new NdcHttpError(429, 'HTTP 429'), 1, { codes }))[0]).toBe('AIRLINE_TRANSIENT');
    expect(summary(classifyFailure(new NdcTransportError('TIMEOUT', 'slow', true), 1, { codes }))).toEqual([
      'AIRLINE_TRANSIENT',
      false,
      'slow',
      { attempt: 1 },
    ]);
  });

  it('makes sent-but-unanswered order creates ORDER_OUTCOME_UNKNOWN, unsent ones plain transient', () => {
    expect(
      summary(classifyFailure(new NdcTransportError('TIMEOUT', 'slow', true), 1, { codes, orderCreate: true })),
    ).toEqual(['ORDER_OUTCOME_UNKNOWN', false, 'order create outcome unknown: slow', { attempt: 1 }]);
    expect(summary(classifyFailure(new NdcHttpError(500, 'HTTP 500'), 1, { codes, orderCreate: true }))[0]).toBe(
      'ORDER_OUTCOME_UNKNOWN',
    );
    // Certainly not sent: said so, so the workflow settles nothing and may book elsewhere.
    expect(
      summary(classifyFailure(new NdcTransportError('CONNECT', 'refused', false), 1, { codes, orderCreate: true })),
    ).toEqual(['AIRLINE_TRANSIENT', false, 'refused', { attempt: 1, notSent: true }]);
    expect(summary(classifyFailure(new NdcTransportError('CONNECT', 'refused', false), 1, { codes }))[3]).toEqual({
      attempt: 1,
    });
    // An unreadable answer after sending is no answer (regression: a 500 with a corrupt gzip body
    // after the airline had committed ended the booking FAILED while its order existed).
    expect(
      summary(
        classifyFailure(new NdcInvalidResponseError('corrupt compressed body'), 1, { codes, orderCreate: true }),
      )[0],
    ).toBe('ORDER_OUTCOME_UNKNOWN');
    expect(summary(classifyFailure(new NdcInvalidResponseError('corrupt compressed body'), 1, { codes }))[0]).toBe(
      'INVALID_RESPONSE',
    );
    // A business answer is an answer: no doubt about the outcome.
    expect(
      summary(classifyFailure(new NdcBusinessError([{ code: '740', text: 'x' }]), 1, { codes, orderCreate: true }))[0],
    ).toBe('PRICE_MISMATCH');
  });

  it('makes sent-but-unanswered order cancels CANCEL_OUTCOME_UNKNOWN, unsent ones plain transient', () => {
    expect(
      summary(classifyFailure(new NdcTransportError('TIMEOUT', 'slow', true), 2, { codes, orderCancel: true })),
    ).toEqual(['CANCEL_OUTCOME_UNKNOWN', false, 'order cancel outcome unknown: slow', { attempt: 2 }]);
    expect(
      summary(classifyFailure(new NdcTransportError('CONNECT', 'refused', false), 1, { codes, orderCancel: true }))[0],
    ).toBe('AIRLINE_TRANSIENT');
    expect(
      summary(classifyFailure(new NdcBusinessError([{ code: '913', text: 'x' }]), 1, { codes, orderCancel: true }))[0],
    ).toBe('ORDER_NOT_FOUND');
  });

  it('classifies other 4xx, 401 and undecodable responses as permanent', () => {
    expect(summary(classifyFailure(new NdcHttpError(401, 'HTTP 401'), 1, { codes }))).toEqual([
      'AIRLINE_CREDENTIALS_REJECTED',
      true,
      'HTTP 401',
      { attempt: 1, httpStatus: 401 },
    ]);
    expect(
      summary(classifyFailure(new NdcHttpError(400, 'HTTP 400', [{ code: '701', text: 'bad' }]), 1, { codes }))[0],
    ).toBe('INVALID_REQUEST');
    expect(summary(classifyFailure(new NdcInvalidResponseError('undecodable OrderViewRS'), 1, { codes }))[0]).toBe(
      'INVALID_RESPONSE',
    );
  });

  it('makes an item price the saga needs but the answer lacks (card surcharge) a permanent INVALID_RESPONSE', () => {
    const element = offerItemTotalElement('PO1-PAX1');
    expect(summary(classifyFailure(new NdcNoMoneyPriceError(element, 'Equivalent'), 2, { codes }))).toEqual([
      'INVALID_RESPONSE',
      true,
      `the message gives ${element} as Equivalent, without a money amount, which this operation needs`,
      { attempt: 2 },
    ]);
    expect(summary(classifyFailure(new NdcMissingElementError(element), 1, { codes }))).toEqual([
      'INVALID_RESPONSE',
      true,
      `the message has no ${element}, which this operation needs`,
      { attempt: 1 },
    ]);
  });

  it('never lets the card number or CVV through a message', () => {
    const error = new NdcHttpError(400, 'POST /payment/tokens: HTTP 400 Bad Request: 4111111111111111 / 737 rejected');
    const message = (classifyFailure(error, 1, { codes, card }) as ApplicationFailure).message;
    expect(message).toBe('POST /payment/tokens: HTTP 400 Bad Request: ****1111 / *** rejected');
  });

  it('makes an open circuit AIRLINE_UNAVAILABLE at once: not retried, not sent', () => {
    const open = new NdcCircuitOpenError('ZZ', Date.parse('2027-01-01T00:00:30Z'));
    expect(summary(classifyFailure(open, 1, { codes, orderCreate: true }))).toEqual([
      'AIRLINE_UNAVAILABLE',
      true,
      'ZZ: circuit open after repeated failures; not called until 2027-01-01T00:00:30.000Z',
      { attempt: 1 },
    ]);
  });

  it('keeps the error it read as the cause, scrubbed of card data, with its own cause', () => {
    const socket = new Error('socket hang up after 4111111111111111');
    const error = new NdcTransportError('NETWORK', 'connection reset', true);
    error.cause = socket;
    const failure = classifyFailure(error, 2, { codes, card }) as ApplicationFailure;
    expect(failure.cause).toBeInstanceOf(Error);
    expect(failure.cause!.name).toBe('NdcTransportError');
    expect(failure.cause!.message).toBe('connection reset');
    const inner = failure.cause!.cause as Error;
    expect(inner.message).toBe('socket hang up after ****1111');
    expect(inner.stack).not.toContain('4111111111111111');
    expect(JSON.stringify({ m: failure.cause!.stack, i: inner.stack })).not.toContain('4111111111111111');
  });
});

describe('passengerIds', () => {
  it('numbers passengers per type in intent order', () => {
    const p = (type: 'ADT' | 'CHD' | 'INF') => ({
      type,
      title: '',
      givenName: '',
      surname: '',
      birthdate: '',
      contactId: '',
    });
    expect(passengerIds([p('ADT'), p('CHD'), p('ADT'), p('INF')])).toEqual([
      'PAX__ADT01',
      'PAX__CHD01',
      'PAX__ADT02',
      'PAX__INF01',
    ]);
  });
});
