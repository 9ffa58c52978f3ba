import { loadBookingWorkflowDefaults } from './booking.config';

describe('loadBookingWorkflowDefaults', () => {
  it('returns only what is set', () => {
    expect(loadBookingWorkflowDefaults({})).toEqual({});
    expect(loadBookingWorkflowDefaults({ ORDER_SETTLE_WINDOW_MS: '300000', ORDER_UNSETTLED_POLICY: 'escalate' })).toEqual({
      settleWindowMs: 300_000,
      unsettledPolicy: 'escalate',
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
