/**
 * Temporal's floor for the saga bench (issue 28): the shape of our simplest booking with nothing
 * of ours in it. Six activities in sequence (shop, price, tokenise, reprice, order, retrieve),
 * each a no-op echoing a 2 KB payload, on the default data converter. Run by the bench's floor
 * worker (`bench/saga-child.ts --floor-worker`) on a queue of its own, never by the product.
 */
import { proxyActivities } from '@temporalio/workflow';

/** The floor's activities: one no-op that gives its payload back. */
export interface FloorActivities {
  echo(payload: string): Promise<string>;
}

/** Steps of the simplest booking: shop, price, tokenise, reprice with token, order create, retrieve. */
export const FLOOR_STEPS = 6;

const { echo } = proxyActivities<FloorActivities>({ startToCloseTimeout: '30 seconds' });

/** Runs {@link FLOOR_STEPS} no-op activities in sequence and returns the payload. */
export async function floorWorkflow(payload: string): Promise<string> {
  let carried = payload;
  for (let step = 0; step < FLOOR_STEPS; step++) carried = await echo(carried);
  return carried;
}
