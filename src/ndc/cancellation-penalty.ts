/**
 * The cancellation fee and refund of a cancelled order as an OrderViewRS `PenaltyList/Penalty`.
 * OrderViewRS 17.2 has no refund element; a cancelled order's view carries the same two
 * `Details/Detail` entries (`Cancellation`, `Refund`) as OrderCancelRS's `ChangeFees`, so a client
 * whose OrderCancel answer was lost reads the refund back from the order.
 */
import type { Amount, DataLists, Penalty } from './ndc.model';
import { CANCELLATION_FEE_TYPE, REFUND_TYPE } from './order-cancel-rs.codec';

/** `@ObjectKey` of the penalty our airline writes on a cancelled order. */
export const CANCELLATION_PENALTY_KEY = 'PEN__CANCEL';

const isZero = (m: Amount) => /^[+-]?0*(?:\.0*)?$/.test(m.value);

/** The `Penalty` holding the fee and refund of a cancellation. */
export function cancellationPenalty(fee: Amount, refund: Amount): Penalty {
  return {
    penaltyId: CANCELLATION_PENALTY_KEY,
    cancelFee: !isZero(fee),
    refundable: !isZero(refund),
    details: [
      { type: CANCELLATION_FEE_TYPE, amount: fee },
      { type: REFUND_TYPE, amount: refund },
    ],
  };
}

/**
 * The fee and refund of a cancelled order, read from the first penalty of `dataLists` with a
 * `Refund` or `Cancellation` detail; `{}` when there is none.
 */
export function cancellationOf(dataLists: DataLists): { fee?: Amount; refund?: Amount } {
  for (const p of dataLists.penalties ?? []) {
    const amountOf = (type: string) => p.details.find((d) => d.type === type && d.amount !== undefined)?.amount;
    const fee = amountOf(CANCELLATION_FEE_TYPE);
    const refund = amountOf(REFUND_TYPE);
    if (fee === undefined && refund === undefined) continue;
    return { ...(fee !== undefined ? { fee } : {}), ...(refund !== undefined ? { refund } : {}) };
  }
  return {};
}
