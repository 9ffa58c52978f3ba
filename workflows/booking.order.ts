/**
 * Phases 2 and 3 of the booking saga: place the order exactly once (settling a create without a
 * definite answer by lookups until the settle window has passed), then confirm it.
 */
import { ActivityFailure, ApplicationFailure, log, patched, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { OrderSummary } from '../activities/booking.activities.types';
import { FailureType } from '../src/booking/booking.failures';
import type { BookingError, BookingResult } from '../src/booking/booking.model';
import { BookingReferenceKey } from '../src/temporal/search-attributes';
import { nextSettleStep, unsettledOutcome } from './booking.decisions';
import { airlineSettings, chosenAirline } from './booking.airlines';
import { authenticate, securePaymentOf } from './booking.authentication';
import { isOutcomeUnknown, SETTLING_STATUS_PATCH, toBookingError, type ReadyToOrder, type Saga } from './booking.saga';

// ------------------------------------------------------------------ phase 2: place the order

export interface Placed {
  kind: 'placed';
  order: OrderSummary;
  orderViewXml?: string;
}

export type PlaceOutcome =
  | Placed
  /** A definite failure: no order exists. */
  | { kind: 'failed'; cause: unknown }
  /** Whether an order exists is unknown: a person must check. */
  | { kind: 'escalated'; error: BookingError }
  /** Cancelled while waiting for 3-D Secure: no order exists. */
  | { kind: 'cancelled' };

/**
 * Creates the order exactly once. After a create without a definite answer the order is looked
 * up until the settle window has passed; one found is adopted, and only an airline that still
 * shows none after the window gets the create again (or, by policy, a person).
 */
export async function placeOrder(saga: Saga, ready: ReadyToOrder): Promise<PlaceOutcome> {
  const { ctx, intent, trail, settings } = saga;
  const { orders } = chosenAirline(saga);
  const { settleWindowMs, unsettledPolicy } = airlineSettings(saga);
  for (let attempt = 1; ; attempt += 1) {
    let created: Awaited<ReturnType<typeof orders.createOrder>> | undefined;
    try {
      created = await trail.step('createOrder', () =>
        orders.createOrder({
          ctx,
          priced: ready.priced,
          tokenId: ready.tokenId,
          securePayment: securePaymentOf(saga),
          // Added to the input only when present: earlier histories replay with identical inputs.
          ...(intent.payment.card.authentication !== undefined
            ? { authentication: intent.payment.card.authentication }
            : {}),
        }),
      );
    } catch (error) {
      if (!isOutcomeUnknown(error)) return { kind: 'failed', cause: error };
      log.warn('order create outcome unknown: settling before any retry', { attempt });
      created = undefined;
    }
    if (created?.kind === 'challenge') return authenticate(saga, ready, created);
    if (created !== undefined) {
      return {
        kind: 'placed',
        order: created.order,
        ...(created.orderViewXml !== undefined ? { orderViewXml: created.orderViewXml } : {}),
      };
    }
    const settled = await settle(saga, ready);
    if (settled.kind === 'found') return settled.placed;
    const ids = trail.state.settling?.lookupIds.join(', ') ?? '';
    const escalation = (why: string): PlaceOutcome => ({
      kind: 'escalated',
      error: { type: FailureType.ORDER_UNSETTLED, message: `${why}; check by hand with the lookup ids ${ids}` },
    });
    if (settled.kind === 'undecided') return escalation('the airline answered no order lookup after the settle window');
    const next = unsettledOutcome(unsettledPolicy, attempt, settings.maxCreateAttempts);
    switch (next.kind) {
      case 'recreate':
        continue;
      case 'escalate':
        return escalation(`no order found within the settle window of ${settleWindowMs} ms`);
      case 'fail':
        return {
          kind: 'failed',
          cause: ApplicationFailure.nonRetryable(
            `order creation failed ${settings.maxCreateAttempts} times and no order exists for ${ids}`,
            FailureType.ORDER_NOT_CREATED,
          ),
        };
    }
  }
}

export type Settled = { kind: 'found'; placed: Placed } | { kind: 'absent' } | { kind: 'undecided' };

/**
 * Looks the order up by the ResponseID the OrderCreateRQ carried, then by the shopping response
 * id, with backoff until the settle window has passed (`nextSettleStep`); status `SETTLING`
 * meanwhile.
 */
export async function settle(saga: Saga, ready: ReadyToOrder): Promise<Settled> {
  const { ctx, trail } = saga;
  const { ndc } = chosenAirline(saga);
  const { settleWindowMs } = airlineSettings(saga);
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
        return {
          kind: 'found',
          placed: {
            kind: 'placed',
            order: found.order,
            ...(found.orderViewXml !== undefined ? { orderViewXml: found.orderViewXml } : {}),
          },
        };
      }
      absentAfterWindow = Date.now() - since >= settleWindowMs;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      // A lookup that failed is no answer: the order may still exist.
      absentAfterWindow = false;
    }
  }
}

// ------------------------------------------------------------------ phase 3: confirm

/**
 * Records the order and reads it back. The order exists: the booking is CONFIRMED whatever the
 * retrieve says (reporting it FAILED would invite the agency to book again); a failed retrieve
 * leaves `retrieveError` and the OrderViewRS of the create.
 */
export async function confirm(saga: Saga, placed: Placed): Promise<BookingResult> {
  const { ctx, trail } = saga;
  const { ndc } = chosenAirline(saga);
  const { state } = trail;
  const record = (order: OrderSummary): void => {
    state.order = {
      orderId: order.orderId,
      bookingReference: order.bookingReference,
      total: order.total,
      status: order.status,
    };
  };
  record(placed.order);
  upsertSearchAttributes([{ key: BookingReferenceKey, value: placed.order.bookingReference }]);
  try {
    const retrieved = await trail.step('retrieveOrder', () =>
      ndc.retrieveOrder({ ctx, orderId: placed.order.orderId, owner: placed.order.owner }),
    );
    record(retrieved.order);
    return { ...trail.finish('CONFIRMED'), orderViewXml: retrieved.orderViewXml };
  } catch (error) {
    state.retrieveError = toBookingError(error);
    log.warn('order created but not retrieved: confirmed with the OrderViewRS of its creation', {
      orderId: placed.order.orderId,
    });
    const result = trail.finish('CONFIRMED');
    return placed.orderViewXml !== undefined ? { ...result, orderViewXml: placed.orderViewXml } : result;
  }
}
