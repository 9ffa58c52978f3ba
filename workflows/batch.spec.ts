import {
  atomicChildOptions,
  batchChildIndex,
  isFinal,
  optionsOfChild,
  progressOf,
  recordStatus,
  refundOf,
  type BatchEntry,
} from './batch.workflow';

describe('batch bookkeeping', () => {
  it('finds the index of a child id, and nothing else', () => {
    expect(batchChildIndex('batch:k', 'batch:k-0', 3)).toBe(0);
    expect(batchChildIndex('batch:k', 'batch:k-2', 3)).toBe(2);
    expect(batchChildIndex('batch:k', 'batch:k-3', 3)).toBeUndefined();
    expect(batchChildIndex('batch:k', 'batch:k-01', 3)).toBeUndefined();
    expect(batchChildIndex('batch:k', 'batch:kk-1', 3)).toBeUndefined();
    expect(batchChildIndex('batch:k', 'booking:A:1', 3)).toBeUndefined();
  });

  it('keeps a final status; only a confirmed booking may become cancelled (compensation)', () => {
    const entry: BatchEntry = {};
    expect(recordStatus(entry, 'RUNNING')).toBe(false);
    expect(recordStatus(entry, 'AWAITING_APPROVAL')).toBe(false);
    expect(recordStatus(entry, 'CONFIRMED')).toBe(false);
    expect(recordStatus(entry, 'RUNNING')).toBe(false);
    expect(entry.status).toBe('CONFIRMED');
    expect(recordStatus(entry, 'FAILED')).toBe(false);
    expect(entry.status).toBe('CONFIRMED');
    // The compensation: not a new failure of the group.
    expect(recordStatus(entry, 'CANCELLED', { value: '63.24', currency: 'GBP' })).toBe(false);
    expect(entry).toEqual({ status: 'CANCELLED', refund: { value: '63.24', currency: 'GBP' } });
    const failing: BatchEntry = { status: 'RUNNING' };
    expect(recordStatus(failing, 'FAILED')).toBe(true);
    expect(recordStatus(failing, 'FAILED')).toBe(false);
    expect(recordStatus({ status: 'RUNNING' }, 'CANCELLED')).toBe(true);
  });

  it("takes a held order as the booking's outcome (regression: a batch with a hold intent waited until departure)", () => {
    const held: BatchEntry = { status: 'RUNNING' };
    expect(recordStatus(held, 'HELD')).toBe(false);
    expect(isFinal(held.status)).toBe(true);
    expect(recordStatus(held, 'EXPIRED')).toBe(false);
    expect(held.status).toBe('HELD');
    expect(recordStatus(held, 'CANCELLED')).toBe(false);
    expect(held.status).toBe('CANCELLED');
  });

  it('reports plain batches as before and atomic ones with status, skipped, refunds and compensation', () => {
    const entries: BatchEntry[] = [
      { status: 'CANCELLED', refund: { value: '63.24', currency: 'GBP' }, compensation: 'DONE' },
      { status: 'FAILED' },
      { skipped: true },
      {},
      { status: 'HELD' },
    ];
    expect(progressOf('batch:k', entries, false, 'RUNNING')).toEqual({
      total: 5,
      pending: 1,
      running: 0,
      confirmed: 0,
      held: 1,
      failed: 1,
      cancelled: 1,
      escalated: 0,
      bookings: [
        { id: 'batch:k-0', status: 'CANCELLED', refund: { value: '63.24', currency: 'GBP' }, compensation: 'DONE' },
        { id: 'batch:k-1', status: 'FAILED' },
        { id: 'batch:k-4', status: 'HELD' },
      ],
    });
    expect(progressOf('batch:k', entries, true, 'COMPENSATED')).toMatchObject({
      atomic: true,
      status: 'COMPENSATED',
      skipped: 1,
      pending: 1,
    });
  });
});

describe('atomic batch children', () => {
  it('keep their cancel window open longer than any sibling may wait for approval', () => {
    expect(atomicChildOptions(undefined)).toEqual({ cancelWindowMs: 30 * 3_600_000 });
    expect(atomicChildOptions({ approvalTimeoutMs: 60_000, maxReshops: 1 })).toEqual({
      approvalTimeoutMs: 60_000,
      maxReshops: 1,
      cancelWindowMs: 60_000 + 6 * 3_600_000,
    });
    expect(atomicChildOptions({ cancelWindowMs: 100 * 3_600_000 } as never)).toEqual({
      cancelWindowMs: 100 * 3_600_000,
    });
  });
  it('read the refund of a cancelled order from the state', () => {
    expect(
      refundOf({
        status: 'CANCELLED',
        steps: [],
        cancellation: { refund: { value: '50.00', currency: 'GBP' } },
      } as never),
    ).toEqual({ value: '50.00', currency: 'GBP' });
    expect(refundOf({ status: 'CONFIRMED', steps: [] })).toBeUndefined();
  });
});

describe('3-D Secure return URLs of batch children', () => {
  const urls = { termUrl: 'http://api/bookings/b-0/authentication/return?token=T', failUrl: 'http://api/f' };
  it("each child gets its own URLs on top of the batch's options; without them, the batch's options unchanged", () => {
    const options = { approvalTimeoutMs: 5_000 };
    expect(optionsOfChild(options, urls)).toEqual({ approvalTimeoutMs: 5_000, authenticationReturn: urls });
    expect(optionsOfChild(undefined, urls)).toEqual({ authenticationReturn: urls });
    expect(optionsOfChild(options, undefined)).toBe(options);
    expect(optionsOfChild(undefined, undefined)).toBeUndefined();
  });
});
