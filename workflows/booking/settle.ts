/**
 * Step `reconcileOrder`, repeated: after a call that may have made the order without a definite
 * answer, the order is looked up by the ResponseID the OrderCreateRQ carried, then by the shopping
 * response id, with backoff until the settle window has passed (`nextSettleStep`); status
 * `SETTLING` meanwhile (docs/orchestrator.md, "Never booking twice").
 */
import { ActivityFailure, log, patched, sleep } from '@temporalio/workflow';
import { chosenAirline } from './airlines';
import { airlineSettings, placed, SETTLING_STATUS_PATCH, type Booking, type ReadyToOrder } from './context';
import { nextSettleStep } from './decisions';
import type { Settled } from './exactly-once';

export async function settle(booking: Booking, ready: ReadyToOrder): Promise<Settled> {
  const { ctx, trail } = booking;
  const { ndc } = chosenAirline(booking);
  const { settleWindowMs } = airlineSettings(booking);
  const lookupIds = [...new Set([ready.priced.responseId, ready.shop.shoppingResponseId])];
  const since = Date.now();
  const settling = {
    lookupIds,
    since: new Date(since).toISOString(),
    until: new Date(since + settleWindowMs).toISOString(),
    lookups: 0,
  };
  trail.state.settling = settling;
  // Histories recorded before the SETTLING status replay without its upserts.
  const upsert = patched(SETTLING_STATUS_PATCH);
  trail.setStatus('SETTLING', { upsert });
  let absentAfterWindow = false;
  for (;;) {
    const next = nextSettleStep({
      lookups: settling.lookups,
      elapsedMs: Date.now() - since,
      windowMs: settleWindowMs,
      absentAfterWindow,
    });
    if (next.kind !== 'lookup') {
      trail.setStatus('RUNNING', { upsert });
      return next;
    }
    if (next.delayMs > 0) await sleep(next.delayMs);
    settling.lookups += 1;
    try {
      const found = await trail.step('reconcileOrder', () => ndc.reconcileOrder({ ctx, lookupIds }), {
        reason: `settling, lookup ${settling.lookups}`,
      });
      if (found.order !== undefined) {
        log.info('order found by lookup: adopted', { orderId: found.order.orderId, foundBy: found.foundBy });
        trail.setStatus('RUNNING', { upsert });
        return { kind: 'found', placed: placed({ order: found.order, orderViewXml: found.orderViewXml }) };
      }
      absentAfterWindow = Date.now() - since >= settleWindowMs;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      // A lookup that failed is no answer: the order may still exist.
      absentAfterWindow = false;
    }
  }
}

/** The ids the last settle looked the order up by, for a person to check with. */
export function lookupIdsOf(booking: Booking): string {
  return booking.trail.state.settling?.lookupIds.join(', ') ?? '';
}
