/**
 * The booking saga: one intent in, one confirmed order (or a clear failure) out.
 *
 * Steps, in the order the airline requires (docs/orchestrator.md):
 * [calendar] -> shop -> (select) -> price -> (price guard) -> tokenise -> repriceWithToken ->
 * (price guard) -> createOrder [-> reconcileOrder before any retry] -> retrieveOrder.
 *
 * Deterministic: no I/O, no clock but the workflow's, activities imported as types only.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type {
  BookingActivities,
  ChosenOffer,
  FailureDetails,
  FailureType,
  NdcContext,
  OrderSummary,
  PriceResult,
  RetrieveResult,
  ShopResult,
} from '../activities/booking.activities.types';
import type {
  BookingError,
  BookingIntent,
  BookingResult,
  BookingState,
  BookingStatus,
  BookingStepName,
  BookingWorkflowOptions,
  StepRecord,
} from '../src/booking/booking.model';
import { compare } from '../src/common/decimal';
import { AgencyIdKey, BookingReferenceKey, BookingStatusKey, RouteKey } from '../src/temporal/search-attributes';
import { approvePriceSignal, cancelSignal, stateQuery } from './definitions';
import { selectOffers } from './offer-selection';

/** Default wait of the price guard for `approvePrice` / `cancel`: 24 h. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Default number of fresh shop-and-price rounds after an expired offer, response or token. */
export const DEFAULT_MAX_RESHOPS = 2;
/** Default number of order-create attempts (each retry preceded by a reconciliation). */
export const DEFAULT_MAX_CREATE_ATTEMPTS = 5;

/**
 * Retry policy of the NDC activities: transient failures (network, timeouts, 5xx, 429) are retried
 * with exponential backoff; classified business failures are thrown non-retryable.
 */
export const NDC_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  // Activities heartbeat every second while waiting for the airline: a worker that dies is
  // noticed within seconds and the activity is retried on another (or the restarted) worker.
  heartbeatTimeout: '5s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 8 },
};
/** Maximum attempts of {@link NDC_ACTIVITY_OPTIONS}, used to count attempts of exhausted activities. */
const NDC_MAX_ATTEMPTS = 8;

/**
 * Order creation is never retried by Temporal: the workflow reconciles (GET by shopping response
 * id) before every retry, so a request that may have reached the airline is never sent twice.
 */
export const CREATE_ORDER_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  heartbeatTimeout: '5s',
  retry: { maximumAttempts: 1 },
};

const ndc = proxyActivities<BookingActivities>(NDC_ACTIVITY_OPTIONS);
const orders = proxyActivities<Pick<BookingActivities, 'createOrder'>>(CREATE_ORDER_ACTIVITY_OPTIONS);

/** Failure types after which a fresh shop and price may succeed. */
const EXPIRY_TYPES: ReadonlySet<string> = new Set<FailureType>(['OFFER_EXPIRED', 'TOKEN_EXPIRED']);

/** What the pre-order phase hands to the order phase. */
interface ReadyToOrder {
  shop: ShopResult;
  priced: PriceResult;
  tokenId: string;
}

/**
 * Books one intent. Completes normally for every business outcome (`CONFIRMED`, `FAILED`,
 * `CANCELLED`, see `result.state.status`); only a bug fails the workflow task.
 */
export async function bookingWorkflow(
  intent: BookingIntent,
  options: BookingWorkflowOptions = {},
): Promise<BookingResult> {
  const approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const maxReshops = options.maxReshops ?? DEFAULT_MAX_RESHOPS;
  const maxCreateAttempts = Math.max(1, options.maxCreateAttempts ?? DEFAULT_MAX_CREATE_ATTEMPTS);
  const { workflowId } = workflowInfo();
  const journey = intent.journey;
  const directions = journey.returnDate !== undefined ? 2 : 1;
  const ctx: NdcContext = {
    correlationId: options.correlationId ?? workflowId,
    agency: intent.agency,
    pointOfSale: intent.pointOfSale,
    currency: intent.currency,
    language: intent.language,
    passengers: intent.passengers,
    contacts: intent.contacts,
    ...(intent.promotionCode !== undefined ? { promotionCode: intent.promotionCode } : {}),
    ...(intent.corporate !== undefined ? { corporate: intent.corporate } : {}),
  };

  const state: BookingState = { status: 'RUNNING', steps: [], correlationId: ctx.correlationId };
  setHandler(stateQuery, () => state);

  let orderPhase = false;
  let cancelRequested = false;
  let approved = false;
  /** Highest total the agency approved so far (a later guard accepts up to this). */
  let approvedTotal: string | undefined;
  const preOrder = new CancellationScope();
  setHandler(cancelSignal, () => {
    if (orderPhase || cancelRequested) return;
    cancelRequested = true;
    preOrder.cancel();
  });
  setHandler(approvePriceSignal, () => {
    approved = true;
  });

  const setStatus = (status: BookingStatus): void => {
    state.status = status;
    upsertSearchAttributes([{ key: BookingStatusKey, value: status }]);
  };
  upsertSearchAttributes([
    { key: BookingStatusKey, value: 'RUNNING' },
    { key: AgencyIdKey, value: intent.agency.id },
    { key: RouteKey, value: `${journey.origin}-${journey.destination}` },
  ]);

  /** Runs one activity call as a recorded step. */
  async function step<T extends { attempt: number }>(name: BookingStepName, call: () => Promise<T>): Promise<T> {
    const record: StepRecord = { name, startedAt: new Date().toISOString(), attempts: 0 };
    state.steps.push(record);
    state.currentStep = name;
    try {
      const result = await call();
      record.attempts = result.attempt;
      record.outcome = 'ok';
      return result;
    } catch (error) {
      record.attempts = attemptsOf(error);
      record.outcome = 'failed';
      throw error;
    } finally {
      record.endedAt = new Date().toISOString();
    }
  }

  /** Waits for approval when `total` is above the limit; throws PRICE_NOT_APPROVED on timeout. */
  async function priceGuard(total: string): Promise<void> {
    const limit = intent.selection?.maxTotal;
    if (limit === undefined || compare(total, limit) <= 0) return;
    if (approvedTotal !== undefined && compare(total, approvedTotal) <= 0) return;
    approved = false;
    setStatus('AWAITING_APPROVAL');
    log.info('price above maxTotal, waiting for approval', { total, maxTotal: limit });
    const gotApproval = await condition(() => approved, approvalTimeoutMs);
    if (!gotApproval) {
      throw ApplicationFailure.nonRetryable(
        `priced total ${total} ${intent.currency} exceeds maxTotal ${limit} and was not approved within ${approvalTimeoutMs} ms`,
        'PRICE_NOT_APPROVED',
      );
    }
    approvedTotal = total;
    setStatus('RUNNING');
  }

  async function dates(): Promise<{ departureDate: string; returnDate?: string }> {
    const flexibleDays = journey.flexibleDays ?? 0;
    if (flexibleDays <= 0) return { departureDate: journey.departureDate, returnDate: journey.returnDate };
    const cheapest = await step('calendar', () =>
      ndc.calendar({
        ctx,
        origin: journey.origin,
        destination: journey.destination,
        departureDate: journey.departureDate,
        ...(journey.returnDate !== undefined ? { returnDate: journey.returnDate } : {}),
        flexibleDays,
      }),
    );
    return { departureDate: cheapest.departureDate, returnDate: cheapest.returnDate };
  }

  let tokenId: string | undefined;

  async function shopAndPrice(travel: { departureDate: string; returnDate?: string }): Promise<ReadyToOrder> {
    const shop = await step('shop', () =>
      ndc.shop({
        ctx,
        origin: journey.origin,
        destination: journey.destination,
        departureDate: travel.departureDate,
        ...(travel.returnDate !== undefined ? { returnDate: travel.returnDate } : {}),
      }),
    );
    const selected = selectOffers(shop.offers, directions, intent.selection?.priceClass);
    const missing = selected.findIndex((offer) => offer === undefined);
    if (missing >= 0) {
      const what = intent.selection?.priceClass !== undefined ? ` in price class ${intent.selection.priceClass}` : '';
      throw ApplicationFailure.nonRetryable(
        `no ${missing === 0 ? 'outbound' : 'return'} offer${what} on ${missing === 0 ? travel.departureDate : travel.returnDate}`,
        'NO_OFFERS',
      );
    }
    const chosen: ChosenOffer[] = selected.map((offer) => ({
      offerId: offer!.offerId,
      owner: offer!.owner,
      responseId: shop.shoppingResponseId,
      offerItems: offer!.offerItems,
    }));
    state.chosenOffer = {
      offerIds: chosen.map((offer) => offer.offerId),
      ...(selected[0]!.priceClass !== undefined ? { priceClass: selected[0]!.priceClass } : {}),
      departureDate: travel.departureDate,
      ...(travel.returnDate !== undefined ? { returnDate: travel.returnDate } : {}),
      shoppingResponseId: shop.shoppingResponseId,
    };

    const firstPrice = await step('price', () => ndc.price({ ctx, offers: chosen }));
    showPrice(firstPrice);
    await priceGuard(firstPrice.total.value);

    if (tokenId === undefined) {
      const token = await step('tokenise', () =>
        ndc.tokenise({ card: intent.payment.card, correlationId: ctx.correlationId }),
      );
      tokenId = token.tokenId;
    }
    const currentToken = tokenId;
    const priced = await step('repriceWithToken', () =>
      ndc.repriceWithToken({ ctx, offers: chosen, previous: firstPrice, tokenId: currentToken }),
    );
    showPrice(priced);
    await priceGuard(priced.total.value);
    return { shop, priced, tokenId: currentToken };
  }

  function showPrice(priced: PriceResult): void {
    state.pricedTotal = priced.total;
    if (priced.surcharge !== undefined) state.surcharge = priced.surcharge;
    else delete state.surcharge;
  }

  let reshops = 0;
  let travel: { departureDate: string; returnDate?: string } | undefined;

  /**
   * True (and counts it) when `error` is an expiry after which a fresh shop-and-price round may
   * succeed, and rounds are left.
   */
  function mayReshop(error: unknown): boolean {
    const type = failureType(error);
    if (type === undefined || !EXPIRY_TYPES.has(type) || reshops >= maxReshops) return false;
    reshops += 1;
    if (type === 'TOKEN_EXPIRED') tokenId = undefined;
    log.info('offer, response or token expired: shopping again', { type, round: reshops });
    return true;
  }

  /** Shop, price, guard, tokenise, reprice; a fresh round after an expiry, `maxReshops` times in all. */
  async function prepare(): Promise<ReadyToOrder> {
    travel ??= await dates();
    for (;;) {
      try {
        return await shopAndPrice(travel);
      } catch (error) {
        if (!mayReshop(error)) throw error;
      }
    }
  }

  /** Creates the order exactly once: reconciles before every retry and adopts an order found. */
  async function placeOrder(ready: ReadyToOrder): Promise<{ order: OrderSummary; orderViewXml?: string }> {
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 1) {
        const found = await step('reconcileOrder', () =>
          ndc.reconcileOrder({ ctx, shoppingResponseId: ready.shop.shoppingResponseId }),
        );
        if (found.order !== undefined) {
          log.info('order found by reconciliation: adopted', { orderId: found.order.orderId });
          return { order: found.order, orderViewXml: found.orderViewXml };
        }
        if (attempt > maxCreateAttempts) {
          throw ApplicationFailure.nonRetryable(
            `order creation failed ${maxCreateAttempts} times and no order exists for shopping response ${ready.shop.shoppingResponseId}`,
            'ORDER_NOT_CREATED',
          );
        }
      }
      try {
        const created = await step('createOrder', () =>
          orders.createOrder({
            ctx,
            priced: ready.priced,
            tokenId: ready.tokenId,
            securePayment: intent.securePayment,
          }),
        );
        return { order: created.order, orderViewXml: created.orderViewXml };
      } catch (error) {
        if (!isOutcomeUnknown(error)) throw error;
        log.warn('order create outcome unknown: reconciling before any retry', { attempt });
        await sleep(Math.min(1000 * 2 ** (attempt - 1), 10_000));
      }
    }
  }

  const finish = (status: BookingStatus, error?: BookingError): BookingResult => {
    delete state.currentStep;
    if (error !== undefined) state.error = error;
    setStatus(status);
    return { state };
  };

  for (;;) {
    let ready: ReadyToOrder;
    try {
      ready = await preOrder.run(prepare);
    } catch (error) {
      if (isCancellation(error)) {
        return finish('CANCELLED', { type: 'CANCELLED', message: 'booking cancelled before order creation' });
      }
      return finish('FAILED', toBookingError(error));
    }

    orderPhase = true;
    // From here on nothing cancels: an order is either made and confirmed, or known not to exist.
    const outcome = await CancellationScope.nonCancellable(async (): Promise<BookingResult | undefined> => {
      let placed: { order: OrderSummary; orderViewXml?: string };
      try {
        placed = await placeOrder(ready);
      } catch (error) {
        // The airline answered that the pricing or token expired (e.g. while the price guard
        // waited): nothing was booked, so a fresh round is safe.
        if (mayReshop(error)) return undefined;
        return finish('FAILED', toBookingError(error));
      }
      const { order } = placed;
      state.order = {
        orderId: order.orderId,
        bookingReference: order.bookingReference,
        total: order.total,
        status: order.status,
      };
      upsertSearchAttributes([{ key: BookingReferenceKey, value: order.bookingReference }]);
      let retrieved: RetrieveResult;
      try {
        retrieved = await step('retrieveOrder', () =>
          ndc.retrieveOrder({ ctx, orderId: order.orderId, owner: order.owner }),
        );
      } catch (error) {
        // The order exists: the booking is confirmed whatever the retrieve says. Reporting it
        // FAILED would invite the agency to book again.
        state.retrieveError = toBookingError(error);
        log.warn('order created but not retrieved: confirmed with the OrderViewRS of its creation', {
          orderId: order.orderId,
        });
        const result = finish('CONFIRMED');
        return placed.orderViewXml !== undefined ? { ...result, orderViewXml: placed.orderViewXml } : result;
      }
      state.order = {
        orderId: retrieved.order.orderId,
        bookingReference: retrieved.order.bookingReference,
        total: retrieved.order.total,
        status: retrieved.order.status,
      };
      const result = finish('CONFIRMED');
      return { ...result, orderViewXml: retrieved.orderViewXml };
    });
    if (outcome !== undefined) return outcome;
    orderPhase = false;
  }
}

/** The `ApplicationFailure` behind an error (thrown by an activity or by the workflow), if any. */
function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) return error.cause;
  if (error instanceof ApplicationFailure) return error;
  return undefined;
}

function failureType(error: unknown): string | undefined {
  return applicationFailureOf(error)?.type ?? undefined;
}

function detailsOf(failure: ApplicationFailure | undefined): Partial<FailureDetails> {
  const first = failure?.details?.[0];
  return typeof first === 'object' && first !== null ? (first as Partial<FailureDetails>) : {};
}

/** Attempts an activity made before it failed (see docs/orchestrator.md, "State"). */
function attemptsOf(error: unknown): number {
  const failure = applicationFailureOf(error);
  const reported = detailsOf(failure).attempt;
  if (typeof reported === 'number') return reported;
  // A retryable failure that reached the workflow exhausted the retry policy.
  if (error instanceof ActivityFailure && failure !== undefined && !failure.nonRetryable) return NDC_MAX_ATTEMPTS;
  return 1;
}

/**
 * True when an order create may or may not have happened: thrown ORDER_OUTCOME_UNKNOWN, a timeout
 * of the activity (worker lost), or any transient failure. Classified business failures are not.
 */
function isOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  const failure = applicationFailureOf(error);
  if (failure === undefined) return true; // timeout, cancellation by the server, ...
  return failure.type === 'ORDER_OUTCOME_UNKNOWN' || !failure.nonRetryable;
}

/** Maps a failure to the state's error; rethrows what is not a business failure (bugs). */
function toBookingError(error: unknown): BookingError {
  const failure = applicationFailureOf(error);
  if (failure !== undefined && (failure.nonRetryable || error instanceof ActivityFailure)) {
    const details = detailsOf(failure);
    const type = failure.nonRetryable ? failure.type ?? 'AIRLINE_ERROR' : 'AIRLINE_UNAVAILABLE';
    return {
      type,
      message: failure.message,
      ...(details.airlineCode !== undefined ? { airlineCode: details.airlineCode } : {}),
    };
  }
  if (error instanceof ActivityFailure) {
    return { type: 'AIRLINE_UNAVAILABLE', message: error.cause?.message ?? error.message };
  }
  throw error;
}
