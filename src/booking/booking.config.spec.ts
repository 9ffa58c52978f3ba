import { loadBookingWorkflowDefaults } from './booking.config';

describe('loadBookingWorkflowDefaults', () => {
  it('returns what is set, and a 7-day cancel window unless BOOKING_CANCEL_WINDOW_MS says otherwise', () => {
    expect(loadBookingWorkflowDefaults({})).toEqual({ cancelWindowMs: 604_800_000 });
    expect(
      loadBookingWorkflowDefaults({
        ORDER_SETTLE_WINDOW_MS: '300000',
        ORDER_UNSETTLED_POLICY: 'escalate',
        BOOKING_CANCEL_WINDOW_MS: '0',
      }),
    ).toEqual({
      settleWindowMs: 300_000,
      unsettledPolicy: 'escalate',
      cancelWindowMs: 0,
    });
  });

  it('fails naming the variable', () => {
    expect(() => loadBookingWorkflowDefaults({ ORDER_SETTLE_WINDOW_MS: '2m' })).toThrow(
      'ORDER_SETTLE_WINDOW_MS: must be a whole number of ms >= 0, got "2m"',
    );
    expect(() => loadBookingWorkflowDefaults({ ORDER_UNSETTLED_POLICY: 'retry' })).toThrow(
      'ORDER_UNSETTLED_POLICY: must be one of recreate, escalate, got "retry"',
    );
  });
});
