import type { OrderChangeRq } from '../../ndc/servicing.model';
import { requestHash } from './order-change.service';

describe('requestHash (exactly once by TransactionIdentifier)', () => {
  const rq: OrderChangeRq = {
    target: 'Test',
    version: '17.2',
    timeStamp: '2026-11-01T10:00:00Z',
    transactionIdentifier: 'TX1',
    correlationId: 'C1',
    party: { agencyId: 'AGENCY01' },
    order: { orderId: 'ZZ-ORD-1', owner: 'ZZ' },
    acceptOffers: [],
    deleteOrderItemIds: ['I1'],
    payments: [],
    passengers: [],
    contacts: [],
  };

  it('is the same for the same request sent again (another time stamp, correlation id)', () => {
    expect(requestHash({ ...rq, timeStamp: '2026-11-01T10:05:00Z', correlationId: 'C2' })).toBe(requestHash(rq));
  });

  it('differs for other content or another agency', () => {
    expect(requestHash({ ...rq, deleteOrderItemIds: ['I2'] })).not.toBe(requestHash(rq));
    expect(requestHash({ ...rq, party: { agencyId: 'AGENCY02' } })).not.toBe(requestHash(rq));
  });
});
