import { WorkflowUpdateFailedError } from '@temporalio/client';
import { batchAgency, batchWorkflowId } from '../batches/batch.service';
import { ApiError } from '../common/api-error';
import type { Principal } from '../common/principal';
import { fingerprint, MAX_WORKFLOW_ID } from '../common/intake';
import { BookingService, bookingWorkflowId } from './booking.service';

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

describe('BookingService wraps keep their cause', () => {
  const caller: Principal = { agencyId: 'A', role: 'agency', method: 'api-key', id: 'nsk_x' };
  /** Reads of one running booking in `status`, whose updates fail with `refusal`. */
  const reads = (status: string, refusal: Error, after?: string) => {
    let reads = 0;
    return {
      facts: async () => {
        reads += 1;
        const closed = after !== undefined && reads > 1;
        return {
          description: { status: { name: closed ? 'COMPLETED' : 'RUNNING' } },
          state: { status: closed ? after : status, steps: [], order: { orderId: 'O1' } },
        };
      },
      handle: () => ({
        executeUpdate: async () => {
          throw refusal;
        },
        startUpdate: async () => {
          throw refusal;
        },
      }),
    };
  };
  const client = { withDeadline: <T>(_deadline: number, call: () => Promise<T>) => call() };
  const service = (r: ReturnType<typeof reads>) =>
    new BookingService(client as never, { queryTimeoutMs: 1000 } as never, r as never, {} as never);

  it('regression: a seat choice the workflow refuses is SEAT_CHOICE_REFUSED with the refusal as cause', async () => {
    const refusal = new WorkflowUpdateFailedError('update failed', new Error('seats[0]: 12A is taken'));
    const err = await service(reads('AWAITING_SEAT_SELECTION', refusal))
      .selectSeats('b1', caller, [{ passenger: 0, seat: '12A' }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: 'SEAT_CHOICE_REFUSED',
      message: 'Seat choice refused: seats[0]: 12A is taken',
      fields: [{ path: 'seats[0]', message: '12A is taken' }],
      cause: refusal,
    });
  });

  it('regression: a cancel refused because the booking ended meanwhile keeps the refusal as cause', async () => {
    const refusal = new Error('workflow execution already completed');
    const err = await service(reads('CONFIRMED', refusal, 'CONFIRMED'))
      .cancel('b1', caller)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'BOOKING_NOT_CANCELLABLE',
      details: { bookingStatus: 'CONFIRMED' },
      cause: refusal,
    });
  });
});
