import { batchAgency, batchWorkflowId } from '../batches/batch.service';
import type { Principal } from '../auth/principal';
import { bookingWorkflowId, fingerprint, MAX_WORKFLOW_ID } from './booking.service';

/** Just the parts of an intent the fingerprint is about (test card number and CVV). */
const body = {
  agency: { id: 'AGENCY1', name: 'Test Travel' },
  currency: 'GBP',
  payment: { card: { number: '4111111111111111', name: 'ADA LOVELACE', verificationCode: '737' } },
  securePayment: { ipAddress: '203.0.113.7' },
};

describe('workflow ids', () => {
  it('are readable when short, and per agency', () => {
    expect(bookingWorkflowId('AGENCY1', 'k-1')).toBe('booking:AGENCY1:k-1');
    expect(batchWorkflowId('AGENCY1', 'b1')).toBe('batch:AGENCY1:b1');
    expect(batchWorkflowId('AGENCY2', 'b1')).not.toBe(batchWorkflowId('AGENCY1', 'b1'));
  });

  it('fit the 64-character NDC CorrelationID when long, deterministically, still per agency', () => {
    const key = 'x'.repeat(100);
    const id = bookingWorkflowId('A'.repeat(64), key);
    expect(id).toMatch(/^booking:[0-9a-f]{40}$/);
    expect(id).toBe(bookingWorkflowId('A'.repeat(64), key));
    expect(id).not.toBe(bookingWorkflowId('A'.repeat(63), key));
    expect(bookingWorkflowId('A'.repeat(20), 'k'.repeat(35)).length).toBe(MAX_WORKFLOW_ID);
    expect(bookingWorkflowId('A'.repeat(20), 'k'.repeat(36))).toMatch(/^booking:[0-9a-f]{40}$/);
    const batch = batchWorkflowId('AG', 'k'.repeat(60));
    expect(batch).toMatch(/^batch:[0-9a-f]{40}$/);
    expect(batch).not.toBe(batchWorkflowId('AH', 'k'.repeat(60)));
    expect(`${batchWorkflowId('AG', 'k'.repeat(51))}-499`.length).toBe(MAX_WORKFLOW_ID);
    expect(batchWorkflowId('AG', 'k'.repeat(52))).toMatch(/^batch:[0-9a-f]{40}$/);
  });

  it('a batch belongs to the caller, or for ops to the one agency its intents name', () => {
    const agency: Principal = { agencyId: 'A', role: 'agency', method: 'api-key', id: 'nsk_x' };
    const ops: Principal = { agencyId: 'OPS', role: 'ops', method: 'api-key', id: 'nsk_y' };
    const intent = (id: string) => ({ agency: { id, name: 'n' } }) as never;
    expect(batchAgency([intent('A')], agency)).toBe('A');
    expect(batchAgency([intent('B'), intent('B')], ops)).toBe('B');
    expect(batchAgency([intent('A'), intent('B')], ops)).toBe('OPS');
  });
});

describe('fingerprint', () => {
  it('ignores key order, depends on the content, and leaves out the card number and CVV', () => {
    const { securePayment, ...rest } = body;
    const reordered = { securePayment, ...rest };
    expect(fingerprint(reordered)).toBe(fingerprint(body));
    expect(fingerprint({ ...body, currency: 'EUR' })).not.toBe(fingerprint(body));
    const otherCvv = { ...body, payment: { card: { ...body.payment.card, verificationCode: '999' } } };
    expect(fingerprint(otherCvv)).toBe(fingerprint(body));
    expect(fingerprint(body)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(body)).not.toContain('4111111111111111');
  });
});
