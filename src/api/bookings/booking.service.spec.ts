import { batchWorkflowId } from '../batches/batch.service';
import { bookingWorkflowId, fingerprint, MAX_WORKFLOW_ID } from './booking.service';
import { oneWayIntent, CREDIT_CARD, TEST_CVV } from '../../../test/api/intent.fixture';

describe('workflow ids', () => {
  it('are readable when short', () => {
    expect(bookingWorkflowId('AGENCY1', 'k-1')).toBe('booking:AGENCY1:k-1');
    expect(batchWorkflowId('b1')).toBe('batch:b1');
  });

  it('fit the 64-character NDC CorrelationID when long, deterministically', () => {
    const key = 'x'.repeat(100);
    const id = bookingWorkflowId('A'.repeat(64), key);
    expect(id).toMatch(/^booking:[0-9a-f]{40}$/);
    expect(id).toBe(bookingWorkflowId('A'.repeat(64), key));
    expect(id).not.toBe(bookingWorkflowId('A'.repeat(63), key));
    expect(bookingWorkflowId('A'.repeat(20), 'k'.repeat(35)).length).toBe(MAX_WORKFLOW_ID);
    expect(bookingWorkflowId('A'.repeat(20), 'k'.repeat(36))).toMatch(/^booking:[0-9a-f]{40}$/);
    const batch = batchWorkflowId('k'.repeat(60));
    expect(batch).toMatch(/^batch:[0-9a-f]{40}$/);
    expect(`${batchWorkflowId('k'.repeat(54))}-499`.length).toBe(MAX_WORKFLOW_ID);
  });
});

describe('fingerprint', () => {
  it('ignores key order, depends on the content, and leaves out the card number and CVV', () => {
    const a = oneWayIntent({ now: new Date('2026-11-21T00:00:00Z') });
    const { securePayment, ...rest } = a;
    const reordered = { securePayment, ...rest };
    expect(fingerprint(reordered)).toBe(fingerprint(a));
    expect(fingerprint({ ...a, currency: 'EUR' })).not.toBe(fingerprint(a));
    const otherCvv = { ...a, payment: { card: { ...a.payment.card, verificationCode: '999' } } };
    expect(fingerprint(otherCvv)).toBe(fingerprint(a));
    expect(fingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(a)).not.toContain(CREDIT_CARD);
    expect(fingerprint(a)).not.toContain(TEST_CVV);
  });
});
