import type { BookingIntent, BookingState } from './booking.model';
import { bookingCurrentDetails, bookingStaticDetails, bookingSummary, bookingWait } from './booking.summary';

const intent = {
  agency: { id: 'AG1', name: 'Test Travel' },
  currency: 'GBP',
  journey: { origin: 'LGW', destination: 'JFK', departureDate: '2027-03-10', returnDate: '2027-03-17' },
  passengers: [
    { type: 'ADT', givenName: 'Ada', surname: 'Lovelace' },
    { type: 'CHD', givenName: 'Byron', surname: 'Lovelace' },
    { type: 'ADT', givenName: 'William', surname: 'King' },
  ],
  selection: { maxTotal: '900.00' },
  payment: { card: { number: '4111111111111111', verificationCode: '737' } },
} as unknown as BookingIntent;

describe('booking summary and details (Temporal UI metadata)', () => {
  it('summarises route, dates, agency and passenger count, never names or cards', () => {
    expect(bookingSummary(intent)).toBe('LGW⇄JFK 2027-03-10/2027-03-17 · agency AG1 · 3 passengers');
    expect(
      bookingSummary({
        ...intent,
        journey: { origin: 'LGW', destination: 'OSL', departureDate: '2027-01-02' },
        passengers: [intent.passengers[0]!],
      }),
    ).toBe('LGW→OSL 2027-01-02 · agency AG1 · 1 passenger');
    const details = bookingStaticDetails(intent);
    expect(details).toBe(
      [
        '**Journey**: LGW → JFK on 2027-03-10, back on 2027-03-17',
        '**Agency**: AG1 (Test Travel)',
        '**Passengers**: 3 (2 ADT, 1 CHD)',
        '**Currency**: GBP, at most 900.00',
      ].join('\n'),
    );
    expect(`${bookingSummary(intent)}${details}`).not.toMatch(/Lovelace|King|4111|737/);
  });

  it('says what a booking waits for and until when, with PNR and total', () => {
    const awaiting: BookingState = {
      status: 'AWAITING_APPROVAL',
      steps: [],
      pricedTotal: { value: '950.00', currency: 'GBP' },
    };
    expect(bookingCurrentDetails(awaiting, bookingWait(awaiting, '2027-01-01T10:00:00.000Z'))).toBe(
      [
        '**Status**: AWAITING_APPROVAL',
        '**Total**: 950.00 GBP',
        '**Waiting for**: the agency to approve the new price (approvePrice) or cancel until 2027-01-01T10:00:00.000Z',
      ].join('\n'),
    );
    const confirmed: BookingState = {
      status: 'CONFIRMED',
      steps: [],
      pricedTotal: { value: '950.00', currency: 'GBP' },
      order: {
        orderId: 'ZZ-ORD-1',
        bookingReference: 'ABC123',
        total: { value: '969.69', currency: 'GBP' },
        status: 'OK',
      },
    };
    expect(bookingCurrentDetails(confirmed, bookingWait(confirmed, '2027-01-08T10:00:00.000Z'))).toBe(
      [
        '**Status**: CONFIRMED',
        '**PNR**: ABC123 (order ZZ-ORD-1)',
        '**Total**: 969.69 GBP',
        '**Waiting for**: a possible cancel (cancel window) until 2027-01-08T10:00:00.000Z',
      ].join('\n'),
    );
    expect(bookingWait(confirmed)).toBeUndefined();
    const settling: BookingState = {
      status: 'SETTLING',
      steps: [],
      settling: { lookupIds: ['R1'], since: 'a', until: '2027-01-01T10:02:00.000Z', lookups: 2 },
    };
    expect(bookingWait(settling)).toEqual({
      what: 'the airline: looking up an order of unknown outcome',
      until: '2027-01-01T10:02:00.000Z',
    });
    const failed: BookingState = {
      status: 'FAILED',
      steps: [],
      error: { type: 'PRICE_NOT_APPROVED', message: 'not approved in time' },
    };
    expect(bookingCurrentDetails(failed, bookingWait(failed))).toBe(
      '**Status**: FAILED\n**Error**: PRICE_NOT_APPROVED: not approved in time',
    );
  });
});
