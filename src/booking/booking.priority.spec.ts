import { bookingPriority, DEFAULT_BOOKING_PRIORITIES, loadBookingPriorities } from './booking.priority';

describe('loadBookingPriorities', () => {
  it('defaults to interactive 2, batch 4', () => {
    expect(loadBookingPriorities({})).toEqual({ interactive: 2, batch: 4 });
    expect(DEFAULT_BOOKING_PRIORITIES).toEqual({ interactive: 2, batch: 4 });
    expect(loadBookingPriorities({ BOOKING_PRIORITY_INTERACTIVE: ' ', BOOKING_PRIORITY_BATCH: '' })).toEqual({
      interactive: 2,
      batch: 4,
    });
  });

  it('reads BOOKING_PRIORITY_INTERACTIVE and BOOKING_PRIORITY_BATCH, equal keys allowed', () => {
    expect(loadBookingPriorities({ BOOKING_PRIORITY_INTERACTIVE: '1', BOOKING_PRIORITY_BATCH: '5' })).toEqual({
      interactive: 1,
      batch: 5,
    });
    expect(loadBookingPriorities({ BOOKING_PRIORITY_INTERACTIVE: '3', BOOKING_PRIORITY_BATCH: '3' })).toEqual({
      interactive: 3,
      batch: 3,
    });
    expect(loadBookingPriorities({ BOOKING_PRIORITY_BATCH: '60' })).toEqual({ interactive: 2, batch: 60 });
  });

  it.each(['0', '-1', '1.5', 'high', '61', '2e0'])('refuses BOOKING_PRIORITY_BATCH=%s, naming the variable', (raw) => {
    expect(() => loadBookingPriorities({ BOOKING_PRIORITY_BATCH: raw })).toThrow(
      `BOOKING_PRIORITY_BATCH: must be a whole number from 1 (highest) to 60, got "${raw}"`,
    );
  });

  it('refuses interactive bookings behind batches', () => {
    expect(() => loadBookingPriorities({ BOOKING_PRIORITY_INTERACTIVE: '5' })).toThrow(
      'BOOKING_PRIORITY_INTERACTIVE: must not be a lower priority (a higher number) than BOOKING_PRIORITY_BATCH (4), got "5"',
    );
  });
});

describe('bookingPriority', () => {
  it("is the kind's key with the agency as fairness key", () => {
    const priorities = { interactive: 1, batch: 5 };
    expect(bookingPriority('interactive', 'AG1', priorities)).toEqual({ priorityKey: 1, fairnessKey: 'AG1' });
    expect(bookingPriority('batch', 'AG2', priorities)).toEqual({ priorityKey: 5, fairnessKey: 'AG2' });
  });
});
