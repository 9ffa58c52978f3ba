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

  it('shows a servicing action and its money: a hold due, a change running, the last change, the wait until departure', () => {
    const GBP = (value: string) => ({ value, currency: 'GBP' });
    const order = { orderId: 'ZZ-ORD-1', bookingReference: 'ABC123', total: GBP('129.00'), status: 'OK' };
    const held: BookingState = {
      status: 'HELD',
      steps: [],
      order,
      payment: { status: 'due', amount: GBP('129.00'), dueBy: '2027-01-02T10:00:00.000Z' },
    };
    expect(bookingCurrentDetails(held, bookingWait(held))).toBe(
      [
        '**Status**: HELD: 129.00 GBP due by 2027-01-02T10:00:00.000Z',
        '**PNR**: ABC123 (order ZZ-ORD-1)',
        '**Total**: 129.00 GBP',
        '**Waiting for**: the payment (POST /bookings/{id}/payment) until 2027-01-02T10:00:00.000Z',
      ].join('\n'),
    );
    const paying: BookingState = {
      ...held,
      status: 'AWAITING_AUTHENTICATION',
      servicing: { action: 'pay', since: 't' },
    };
    expect(bookingCurrentDetails(paying).split('\n')[0]).toBe(
      '**Status**: AWAITING_AUTHENTICATION: payment of 129.00 GBP due by 2027-01-02T10:00:00.000Z',
    );
    const expired: BookingState = { ...held, status: 'EXPIRED', payment: { ...held.payment!, status: 'expired' } };
    expect(bookingCurrentDetails(expired).split('\n')[0]).toBe(
      '**Status**: EXPIRED: 129.00 GBP was due by 2027-01-02T10:00:00.000Z',
    );
    const flights = [
      { segmentKey: 'S9', flight: 'ZZ1235', origin: 'LGW', destination: 'OSL', departure: '2027-03-12T08:30' },
    ];
    const changing: BookingState = {
      status: 'CHANGING',
      steps: [],
      order,
      flights: [{ ...flights[0]!, flight: 'ZZ1234', departure: '2027-03-10T08:30' }],
      servicing: { action: 'changeTrip', since: 't', amount: { value: '16.98', currency: 'GBP' } },
    };
    expect(bookingCurrentDetails(changing, bookingWait(changing))).toBe(
      [
        '**Status**: CHANGING: trip change +16.98 GBP',
        '**PNR**: ABC123 (order ZZ-ORD-1)',
        '**Total**: 129.00 GBP',
        '**Flights**: ZZ1234 LGW→OSL 2027-03-10T08:30',
        '**Waiting for**: the airline: trip change',
      ].join('\n'),
    );
    const changed: BookingState = {
      status: 'CONFIRMED',
      steps: [],
      order: { ...order, total: GBP('145.98') },
      flights,
      changes: [{ at: '2027-01-01T09:00:00.000Z', kind: 'trip', difference: GBP('16.98'), penalty: GBP('0.00') }],
      serviceableUntil: '2027-03-12T20:30:00.000Z',
    };
    expect(bookingCurrentDetails(changed, bookingWait(changed))).toBe(
      [
        '**Status**: CONFIRMED',
        '**PNR**: ABC123 (order ZZ-ORD-1)',
        '**Total**: 145.98 GBP',
        '**Flights**: ZZ1235 LGW→OSL 2027-03-12T08:30',
        '**Last change**: trip change +16.98 GBP (penalty 0.00 GBP) at 2027-01-01T09:00:00.000Z',
        '**Waiting for**: servicing requests (changes, bags and seats, refund quotes, cancel) until 2027-03-12T20:30:00.000Z',
      ].join('\n'),
    );
    const removed: BookingState = {
      ...changed,
      changes: [{ at: 't2', kind: 'passengers', passengers: [1], difference: GBP('-64.50'), penalty: GBP('10.00') }],
    };
    expect(bookingCurrentDetails(removed)).toContain(
      '**Last change**: travellers removed -64.50 GBP (penalty 10.00 GBP) at t2',
    );
  });
});
