import { orderViewRs } from '../../ndc/fixtures/order-view-rs.fixtures';
import type { OrderViewRs } from '../../ndc/ndc.model';
import { orderStateEtag } from './orders.service';

type View = Extract<OrderViewRs, { kind: 'success' }>;

describe('orderStateEtag', () => {
  const view = orderViewRs as View;

  it('regression: ignores the time stamp and the echoed TransactionIdentifier / CorrelationID', () => {
    const echoed: View = {
      ...view,
      timeStamp: '2031-01-01T00:00:00.000Z',
      transactionIdentifier: 'TX-OTHER',
      correlationId: 'CORR-OTHER',
    };
    const bare: View = { ...view };
    delete bare.transactionIdentifier;
    delete bare.correlationId;
    expect(orderStateEtag(echoed)).toBe(orderStateEtag(bare));
    expect(orderStateEtag(view)).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  });

  it('changes when an order changes (cancelled status)', () => {
    const cancelled: View = { ...view, orders: view.orders.map((o) => ({ ...o, statusCode: 'XX' })) };
    expect(orderStateEtag(cancelled)).not.toBe(orderStateEtag(view));
  });
});
