/**
 * The price guard (docs/orchestrator.md, step 5): a priced total above the intent's
 * `selection.maxTotal` (without one: above what an earlier round was about to book) waits in
 * `AWAITING_APPROVAL` for an `approvePrice` signal, at most `approvalTimeoutMs`; it remembers what
 * was approved and the highest total it let through.
 */
import { ApplicationFailure, condition, log } from '@temporalio/workflow';
import { FailureType } from '../../src/booking/booking.failures';
import type { BookingStatus } from '../../src/booking/booking.status';
import { compare } from '../../src/common/decimal';
import type { Booking, Round } from './context';
import { needsApproval } from './decisions';

/** What the guard let through in this run: written by {@link guardPrice} only. */
export interface GuardMemory {
  /** The last total approved by a person: covers totals up to it. */
  approvedTotal?: string;
  /** The highest total let through (a re-shop's `acceptedBefore`). */
  highestAccepted?: string;
}

/**
 * Lets `total` through, or waits for an approval (then the status goes back to `after`); throws
 * PRICE_NOT_APPROVED when none comes in time.
 */
export async function guardPrice(
  booking: Booking,
  memory: GuardMemory,
  total: string,
  round: Pick<Round, 'acceptedBefore'>,
  after: BookingStatus = 'RUNNING',
): Promise<void> {
  const { intent, trail, inbox, settings } = booking;
  const maxTotal = intent.selection?.maxTotal;
  if (!wouldWait(booking, memory, total, round)) return accept(memory, total);
  const limit = maxTotal ?? round.acceptedBefore;
  const seen = inbox.approvals;
  trail.setStatus('AWAITING_APPROVAL');
  log.info('price above the limit, waiting for approval', { total, limit });
  if (!(await condition(() => inbox.approvals > seen, settings.approvalTimeoutMs))) {
    const what = maxTotal !== undefined ? `maxTotal ${maxTotal}` : `the earlier offer's ${limit}`;
    throw ApplicationFailure.nonRetryable(
      `priced total ${total} ${intent.currency} exceeds ${what} and was not approved within ${settings.approvalTimeoutMs} ms`,
      FailureType.PRICE_NOT_APPROVED,
    );
  }
  memory.approvedTotal = total;
  accept(memory, total);
  trail.setStatus(after);
}

/** True when `total` needs an approval (the guard would wait for one). */
export function wouldWait(
  booking: Booking,
  memory: GuardMemory,
  total: string,
  round: Pick<Round, 'acceptedBefore'>,
): boolean {
  const maxTotal = booking.intent.selection?.maxTotal;
  return needsApproval(total, {
    ...(maxTotal !== undefined ? { maxTotal } : {}),
    ...(round.acceptedBefore !== undefined ? { acceptedBefore: round.acceptedBefore } : {}),
    ...(memory.approvedTotal !== undefined ? { approvedTotal: memory.approvedTotal } : {}),
  });
}

function accept(memory: GuardMemory, total: string): void {
  if (memory.highestAccepted === undefined || compare(total, memory.highestAccepted) > 0)
    memory.highestAccepted = total;
}
