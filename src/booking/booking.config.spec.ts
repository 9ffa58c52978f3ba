import { loadBookingWorkflowDefaults } from './booking.config';

describe('loadBookingWorkflowDefaults', () => {
  it('returns what is set, and servicing with a 2 h payment-due notice unless BOOKING_PAYMENT_DUE_NOTICE_MS says otherwise', () => {
    expect(loadBookingWorkflowDefaults({})).toEqual({ servicing: { paymentDueNoticeMs: 7_200_000 } });
    expect(
      loadBookingWorkflowDefaults({
        ORDER_SETTLE_WINDOW_MS: '300000',
        ORDER_UNSETTLED_POLICY: 'escalate',
        SEAT_SELECTION_TIMEOUT_MS: '60000',
        BOOKING_PAYMENT_DUE_NOTICE_MS: '0',
        BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES: '30',
        BOOKING_AIRLINE_CHANGE_DUE_NOTICE_MS: '3600000',
      }),
    ).toEqual({
      settleWindowMs: 300_000,
      unsettledPolicy: 'escalate',
      seatSelectionTimeoutMs: 60_000,
      servicing: {
        paymentDueNoticeMs: 0,
        airlineChanges: { autoAccept: { maxShiftMinutes: 30 } },
        actionDueNoticeMs: 3_600_000,
      },
    });
  });

  it('BOOKING_CANCEL_WINDOW_MS is no longer read: a serviceable booking is cancellable until departure', () => {
    expect(loadBookingWorkflowDefaults({ BOOKING_CANCEL_WINDOW_MS: '0' })).toEqual({
      servicing: { paymentDueNoticeMs: 7_200_000 },
    });
  });

  it('fails naming the variable', () => {
    expect(() => loadBookingWorkflowDefaults({ ORDER_SETTLE_WINDOW_MS: '2m' })).toThrow(
      'ORDER_SETTLE_WINDOW_MS: must be a whole number of ms >= 0, got "2m"',
    );
    expect(() => loadBookingWorkflowDefaults({ ORDER_UNSETTLED_POLICY: 'retry' })).toThrow(
      'ORDER_UNSETTLED_POLICY: must be one of recreate, escalate, got "retry"',
    );
    expect(() => loadBookingWorkflowDefaults({ BOOKING_PAYMENT_DUE_NOTICE_MS: '2h' })).toThrow(
      'BOOKING_PAYMENT_DUE_NOTICE_MS: must be a whole number of ms >= 0, got "2h"',
    );
    expect(() => loadBookingWorkflowDefaults({ BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES: '1 h' })).toThrow(
      'BOOKING_AIRLINE_CHANGE_AUTO_ACCEPT_MINUTES: must be a whole number of minutes from 0 to 1440, got "1 h"',
    );
  });
});
