import type { ChangeOffer } from '../../src/booking/servicing.model';
import type { IntentPassenger } from '../../src/booking/booking.model';
import {
  flightsChangedTo,
  flyingIndexes,
  nextTimedEvent,
  serviceableUntil,
  servicingRefusal,
  type ServicingClock,
  type ServicingView,
  withCardFee,
} from './servicing.decisions';

const NOW = Date.parse('2027-03-01T10:00:00Z');

const adult = (name: string) => ({ type: 'ADT', givenName: name, surname: 'Nordmann' }) as unknown as IntentPassenger;
const infant = { type: 'INF', givenName: 'Baby', surname: 'Nordmann' } as unknown as IntentPassenger;

const offer: ChangeOffer = {
  id: 'CHG-1',
  expiresAt: '2027-03-01T10:30:00Z',
  difference: { value: '16.98', currency: 'GBP' },
  flights: [],
} as unknown as ChangeOffer;

function view(over: Partial<ServicingView> = {}): ServicingView {
  return {
    status: 'CONFIRMED',
    serviceable: true,
    busy: false,
    passengers: [adult('Ola'), adult('Kari'), infant],
    order: undefined,
    offers: [offer],
    nowMs: NOW,
    ...over,
  };
}

describe('servicingRefusal', () => {
  it('refuses every request before the order exists, and while another runs', () => {
    expect(servicingRefusal(view({ serviceable: false, status: 'RUNNING' }), 'cancelQuote', {})).toEqual({
      type: 'NOT_SERVICEABLE',
      message: 'the booking takes servicing requests only once its order exists (RUNNING)',
    });
    expect(servicingRefusal(view({ busy: true }), 'orderServices', {} as never)).toEqual({
      type: 'BOOKING_BUSY',
      message: 'another servicing action of this booking is running',
    });
  });

  it('takes each action in its statuses only', () => {
    expect(servicingRefusal(view(), 'pay', { card: {} } as never)).toEqual({
      type: 'NOT_SERVICEABLE',
      message: 'pay needs status HELD, not CONFIRMED',
    });
    expect(servicingRefusal(view({ status: 'HELD' }), 'cancelQuote', {})).toBeUndefined();
  });

  it('names the bag or seat whose traveller is not on the order (regression: the field came out as "(body)")', () => {
    expect(
      servicingRefusal(view(), 'addServices', {
        bags: [{ passenger: 0, weightKg: 23 }],
        seats: [{ passenger: 7, segment: 0, seat: '12A' }],
      } as never),
    ).toEqual({
      type: 'INVALID_SERVICING_REQUEST',
      message: 'seats[0].passenger: passenger 7 is not on the order',
    });
    expect(servicingRefusal(view(), 'addServices', {} as never)).toEqual({
      type: 'INVALID_SERVICING_REQUEST',
      message: 'bags, seats: add at least one bag or seat',
    });
  });

  it('checks a trip change against its offer: known, not expired, under the maximum, a card when something is due', () => {
    expect(servicingRefusal(view(), 'changeTrip', { offerId: 'CHG-9' } as never)?.type).toBe('OFFER_UNKNOWN');
    expect(
      servicingRefusal(view({ nowMs: Date.parse(offer.expiresAt) }), 'changeTrip', { offerId: 'CHG-1' } as never),
    ).toEqual({
      type: 'OFFER_EXPIRED',
      message: 'offerId: the change offer CHG-1 expired at 2027-03-01T10:30:00Z',
    });
    expect(servicingRefusal(view(), 'changeTrip', { offerId: 'CHG-1', maxDifference: '16.97' } as never)).toEqual({
      type: 'DIFFERENCE_ABOVE_MAX',
      message: 'maxDifference: the change costs 16.98 GBP, above 16.97',
    });
    expect(servicingRefusal(view(), 'changeTrip', { offerId: 'CHG-1' } as never)).toEqual({
      type: 'CARD_REQUIRED',
      message: 'payment.card: 16.98 GBP is due for this change',
    });
    expect(servicingRefusal(view(), 'changeTrip', { offerId: 'CHG-1', card: {} } as never)).toBeUndefined();
  });

  it("never removes everyone, the last adult, or an infant's adult; a quote may name everyone", () => {
    const refusal = (passengers: number[], action: 'removePassengers' | 'cancelQuote' = 'removePassengers') =>
      servicingRefusal(view(), action, { passengers } as never)?.message;
    expect(refusal([])).toBe('passengers: name at least one traveller');
    expect(refusal([1, 1])).toBe('passengers: a traveller is named twice');
    expect(refusal([3])).toBe('passengers: traveller 3 is not on the order');
    expect(refusal([0, 1, 2])).toBe('passengers: that is everyone; cancel the booking instead');
    expect(refusal([0, 1])).toBe('passengers: the order would be left without an adult');
    expect(refusal([0, 1, 2], 'cancelQuote')).toBeUndefined();
    expect(refusal([1])).toBeUndefined();
  });
});

describe('flyingIndexes', () => {
  it('is every traveller until the order names its passengers, then those still on it', () => {
    expect(flyingIndexes(view())).toEqual([0, 1, 2]);
    expect(flyingIndexes(view({ order: { passengerIds: ['PAX__ADT01', 'PAX__INF01'] } }))).toEqual([0, 2]);
  });
});

describe('the booking clock', () => {
  it('keeps a booking serviceable until its last departure read as the latest local time (UTC-12)', () => {
    expect(
      serviceableUntil(
        [
          {
            segmentKey: 'S1',
            flight: 'ZZ1',
            origin: 'LGW',
            destination: 'OSL',
            departure: '2027-04-01T08:00',
            arrival: '2027-04-01T11:00',
          },
          {
            segmentKey: 'S2',
            flight: 'ZZ2',
            origin: 'OSL',
            destination: 'LGW',
            departure: '2027-04-08T18:30',
            arrival: '2027-04-08T19:30',
          },
        ],
        { departureDate: '2027-04-01' },
      ),
    ).toBe('2027-04-09T06:30:00.000Z');
    expect(serviceableUntil(undefined, { departureDate: '2027-04-01', returnDate: '2027-04-08' })).toBe(
      '2027-04-09T11:59:00.000Z',
    );
  });

  const clock = (over: Partial<ServicingClock> = {}): ServicingClock => ({
    until: '2027-04-09T06:30:00.000Z',
    status: 'CONFIRMED',
    paymentNoticeMs: 2 * 3_600_000,
    paymentAnnounced: false,
    holdChecks: 0,
    actionNoticeMs: 3_600_000,
    actionAnnounced: false,
    deadlineChecks: 0,
    ...over,
  });

  it("wakes for a held order's notice, then its deadline, then reads it again backing off", () => {
    const held = { status: 'HELD' as const, payment: { status: 'due', dueBy: '2027-03-02T10:00:00.000Z' } };
    expect(nextTimedEvent(clock(held))).toEqual({ event: 'paymentDue', at: Date.parse('2027-03-02T08:00:00.000Z') });
    expect(nextTimedEvent(clock({ ...held, paymentAnnounced: true }))).toEqual({
      event: 'holdDeadline',
      at: Date.parse('2027-03-02T10:00:00.000Z'),
    });
    expect(nextTimedEvent(clock({ ...held, paymentAnnounced: true, holdChecks: 3 })).at).toBe(
      Date.parse('2027-03-02T10:00:08.000Z'),
    );
  });

  it("wakes for an airline change's deadline, a scheduled read, or the departure, whichever comes first", () => {
    expect(
      nextTimedEvent(clock({ status: 'ACTION_REQUIRED', actionBy: '2027-03-05T12:00:00.000Z', actionAnnounced: true })),
    ).toEqual({ event: 'actionDeadline', at: Date.parse('2027-03-05T12:00:00.000Z') });
    expect(nextTimedEvent(clock({ nextReadAt: NOW }))).toEqual({ event: 'orderRead', at: NOW });
    expect(nextTimedEvent(clock())).toEqual({ event: 'departed', at: Date.parse('2027-04-09T06:30:00.000Z') });
  });
});

describe('withCardFee', () => {
  const due = { value: '16.98', currency: 'GBP' };

  it("adds the profile's percent for a credit card (exact, at the currency's scale), nothing for debit or without a percent", () => {
    expect(withCardFee(due, '2', 'credit')).toEqual({ value: '17.32', currency: 'GBP' });
    expect(withCardFee({ value: '1000', currency: 'JPY' }, '2.5', undefined)).toEqual({
      value: '1025',
      currency: 'JPY',
    });
    expect(withCardFee(due, '2', 'debit')).toBe(due);
    expect(withCardFee(due, undefined, 'credit')).toBe(due);
  });
});

describe('flightsChangedTo', () => {
  const out = { segmentKey: 'S1', flight: 'ZZ101', origin: 'OSL', destination: 'LHR', departure: '2027-03-12T08:30' };
  const back = { segmentKey: 'S2', flight: 'ZZ102', origin: 'LHR', destination: 'OSL', departure: '2027-03-19T18:00' };
  const read = (flights: (typeof out)[]) =>
    ({ orderId: 'O1', owner: 'ZZ', bookingReference: 'ABC123', flights }) as never;

  it('holds when the order has every flight of the offer (a changed outbound beside the kept return)', () => {
    expect(flightsChangedTo(read([out, back]), { ...offer, flights: [out] })).toBe(true);
    expect(flightsChangedTo(read([back]), { ...offer, flights: [out] })).toBe(false);
    expect(flightsChangedTo(read([out]), { ...offer, flights: [{ ...out, departure: '2027-03-13T08:30' }] })).toBe(
      false,
    );
  });
});
