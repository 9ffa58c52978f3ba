/**
 * The booking saga: one intent in, one confirmed order (or a clear outcome) out, in three named
 * phases (docs/orchestrator.md):
 *
 * 1. prepare the offer: [calendar] -> shop -> select -> price -> guard -> [tokenise] ->
 *    repriceWithToken -> guard;
 * 2. place the order: createOrder, and after a create without a definite answer, settle it by
 *    looking the order up (reconcileOrder) until the settle window has passed;
 * 3. confirm: retrieveOrder.
 *
 * A "shop again" answer (sold out, expired offer or token) before or at order time starts a fresh
 * round at phase 1, `maxReshops` times in all. Every decision is a pure function in
 * `booking.decisions.ts` / `offer-selection.ts`.
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
  patched,
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
  OrderSummary,
  PriceResult,
  ShopResult,
} from '../activities/booking.activities.types';
import { failureTypeOf, FailureType, type FailureDetails } from '../src/booking/booking.failures';
import type {
  BookingError,
  BookingIntent,
  BookingResult,
  BookingState,
  BookingStepName,
  BookingWorkflowOptions,
  StepRecord,
  UnsettledPolicy,
} from '../src/booking/booking.model';
import type { BookingStatus } from '../src/booking/booking.status';
import { ndcContextOf, type NdcContext } from '../src/booking/intent-to-ndc';
import { compare } from '../src/common/decimal';
import { AgencyIdKey, BookingReferenceKey, BookingStatusKey, RouteKey } from '../src/temporal/search-attributes';
import {
  chooseTravelDates,
  DEFAULT_SETTLE_WINDOW_MS,
  needsApproval,
  nextSettleStep,
  reshopDecision,
  unsettledOutcome,
} from './booking.decisions';
import { approvePriceSignal, cancelSignal, stateQuery } from './definitions';
import { emitBookingEvent } from './webhook-events';
import { selectOffers } from './offer-selection';

/** Default wait of the price guard for `approvePrice` / `cancel`: 24 h. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Default number of fresh shop-and-price rounds after a "shop again" answer. */
export const DEFAULT_MAX_RESHOPS = 2;
/** Default number of order-create attempts (each retry preceded by a settled lookup). */
export const DEFAULT_MAX_CREATE_ATTEMPTS = 5;
export { DEFAULT_SETTLE_WINDOW_MS } from './booking.decisions';

/**
 * Versions the `SETTLING` search-attribute upserts: histories recorded before them replay without
 * (docs/orchestrator.md, "Tests").
 */
export const SETTLING_STATUS_PATCH = 'settling-status';

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
 * Order creation is never retried by Temporal: the workflow settles (looks the order up) before
 * every retry, so a request that may have reached the airline is never sent twice.
 */
export const CREATE_ORDER_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '60s',
  heartbeatTimeout: '5s',
  retry: { maximumAttempts: 1 },
};

const ndc = proxyActivities<BookingActivities>(NDC_ACTIVITY_OPTIONS);
const orders = proxyActivities<Pick<BookingActivities, 'createOrder'>>(CREATE_ORDER_ACTIVITY_OPTIONS);

interface Settings {
  approvalTimeoutMs: number;
  maxReshops: number;
  maxCreateAttempts: number;
  settleWindowMs: number;
  unsettledPolicy: UnsettledPolicy;
}

function settingsOf(options: BookingWorkflowOptions): Settings {
  return {
    approvalTimeoutMs: options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    maxReshops: options.maxReshops ?? DEFAULT_MAX_RESHOPS,
    maxCreateAttempts: Math.max(1, options.maxCreateAttempts ?? DEFAULT_MAX_CREATE_ATTEMPTS),
    settleWindowMs: Math.max(0, options.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS),
    unsettledPolicy: options.unsettledPolicy ?? 'recreate',
  };
}

/** The booking's visible record: state, status and search attribute, step trail. */
interface Trail {
  readonly state: BookingState;
  setStatus(status: BookingStatus, options?: { upsert?: boolean }): void;
  /** Runs one activity call as a recorded step. */
  step<T extends { attempt: number }>(name: BookingStepName, call: () => Promise<T>, reason?: string): Promise<T>;
  finish(status: BookingStatus, error?: BookingError): BookingResult;
  /** Resolves once every status change has reached the batch and the webhook registry. */
  settled(): Promise<void>;
}

function createTrail(intent: BookingIntent, correlationId: string): Trail {
  const state: BookingState = { status: 'RUNNING', steps: [], correlationId };
  setHandler(stateQuery, () => state);
  upsertSearchAttributes([
    { key: BookingStatusKey, value: 'RUNNING' },
    { key: AgencyIdKey, value: intent.agency.id },
    { key: RouteKey, value: `${intent.journey.origin}-${intent.journey.destination}` },
  ]);
  const events: Promise<void>[] = [];
  const setStatus: Trail['setStatus'] = (status, options = {}) => {
    state.status = status;
    if (options.upsert !== false) upsertSearchAttributes([{ key: BookingStatusKey, value: status }]);
    events.push(emitBookingEvent(intent.agency.id, state));
  };
  return {
    state,
    setStatus,
    settled: () => Promise.all(events).then(() => undefined),
    async step(name, call, reason) {
      const record: StepRecord = { name, startedAt: new Date().toISOString(), attempts: 0 };
      if (reason !== undefined) record.reason = reason;
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
        const failure = applicationFailureOf(error);
        if (failure !== undefined) record.failure = failureTypeOf(failure.type);
        throw error;
      } finally {
        record.endedAt = new Date().toISOString();
      }
    },
    finish(status, error) {
      delete state.currentStep;
      if (error !== undefined) state.error = error;
      setStatus(status);
      return { state };
    },
  };
}

/** Everything the phases share: read-only apart from the trail's state. */
interface Saga {
  intent: BookingIntent;
  ctx: NdcContext;
  settings: Settings;
  trail: Trail;
  guard: PriceGuard;
}

/** One shopping round: its number, why it started, the token it may reuse. */
interface Round {
  number: number;
  reason?: string;
  tokenId?: string;
  /** Highest total the price guard let through in earlier rounds. */
  acceptedBefore?: string;
}

/** What the prepare phase hands to the order phase. */
interface ReadyToOrder {
  shop: ShopResult;
  priced: PriceResult;
  tokenId: string;
}

/** Waits for approval when a total is above the limit; remembers what was approved. */
interface PriceGuard {
  /** Throws PRICE_NOT_APPROVED when nobody approves within the timeout. */
  check(total: string, round: Round): Promise<void>;
  /** The highest total let through in this run. */
  readonly highestAccepted: string | undefined;
}

function createPriceGuard(intent: BookingIntent, trail: Trail, timeoutMs: number): PriceGuard {
  let approved = false;
  let approvedTotal: string | undefined;
  let highestAccepted: string | undefined;
  setHandler(approvePriceSignal, () => {
    approved = true;
  });
  const accept = (total: string): void => {
    if (highestAccepted === undefined || compare(total, highestAccepted) > 0) highestAccepted = total;
  };
  return {
    get highestAccepted() {
      return highestAccepted;
    },
    async check(total, round) {
      const maxTotal = intent.selection?.maxTotal;
      const limits = {
        ...(maxTotal !== undefined ? { maxTotal } : {}),
        ...(round.acceptedBefore !== undefined ? { acceptedBefore: round.acceptedBefore } : {}),
        ...(approvedTotal !== undefined ? { approvedTotal } : {}),
      };
      if (!needsApproval(total, limits)) return accept(total);
      const limit = maxTotal ?? round.acceptedBefore;
      approved = false;
      trail.setStatus('AWAITING_APPROVAL');
      log.info('price above the limit, waiting for approval', { total, limit });
      if (!(await condition(() => approved, timeoutMs))) {
        const what = maxTotal !== undefined ? `maxTotal ${maxTotal}` : `the earlier offer's ${limit}`;
        throw ApplicationFailure.nonRetryable(
          `priced total ${total} ${intent.currency} exceeds ${what} and was not approved within ${timeoutMs} ms`,
          FailureType.PRICE_NOT_APPROVED,
        );
      }
      approvedTotal = total;
      accept(total);
      trail.setStatus('RUNNING');
    },
  };
}

/**
 * Books one intent. Completes normally for every business outcome (`CONFIRMED`, `FAILED`,
 * `CANCELLED`, `ESCALATED`, see `result.state.status`); only a bug fails the workflow task.
 */
export async function bookingWorkflow(
  intent: BookingIntent,
  options: BookingWorkflowOptions = {},
): Promise<BookingResult> {
  const settings = settingsOf(options);
  const correlationId = options.correlationId ?? workflowInfo().workflowId;
  const trail = createTrail(intent, correlationId);
  const saga: Saga = {
    intent,
    ctx: ndcContextOf(intent, correlationId),
    settings,
    trail,
    guard: createPriceGuard(intent, trail, settings.approvalTimeoutMs),
  };

  // Cancel is honoured until order placement starts: an order is never left half-made.
  const preOrder = new CancellationScope();
  let ordering = false;
  setHandler(cancelSignal, () => {
    if (!ordering) preOrder.cancel();
  });

  let round: Round = { number: 0 };
  let travel: Travel | undefined;
  const result = await (async (): Promise<BookingResult> => {
  for (;;) {
    let ready: ReadyToOrder;
    try {
      ready = await preOrder.run(async () => prepareOffer(saga, (travel ??= await travelDates(saga)), round));
    } catch (error) {
      if (isCancellation(error)) {
        return trail.finish('CANCELLED', { type: FailureType.CANCELLED, message: 'booking cancelled before order creation' });
      }
      const next = nextRound(saga, round, error);
      if (next === undefined) return trail.finish('FAILED', toBookingError(error));
      round = next;
      continue;
    }

    ordering = true;
    // From here on nothing cancels: an order is either made and confirmed, or known not to exist.
    const placed = await CancellationScope.nonCancellable(() => placeOrder(saga, ready));
    switch (placed.kind) {
      case 'placed':
        return CancellationScope.nonCancellable(() => confirm(saga, placed));
      case 'escalated':
        return trail.finish('ESCALATED', placed.error);
      case 'failed': {
        // A definite "shop again" answer (sold out, the pricing or token expired while the guard
        // waited): nothing was booked, so a fresh round is safe.
        const next = nextRound(saga, round, placed.cause);
        if (next === undefined) return trail.finish('FAILED', toBookingError(placed.cause));
        round = next;
        ordering = false;
        continue;
      }
    }
  }
  })();
  // Status events (webhooks, the batch) are signals: delivered before the workflow completes.
  await trail.settled();
  return result;
}

/** The next shopping round after a definite failure, or `undefined` when the booking fails. */
function nextRound(saga: Saga, round: Round, error: unknown): Round | undefined {
  const failure = applicationFailureOf(error);
  if (failure === undefined) return undefined;
  const airlineCode = detailsOf(failure).airlineCode;
  const decision = reshopDecision(
    { type: failureTypeOf(failure.type), ...(airlineCode !== undefined ? { airlineCode } : {}) },
    { done: round.number, max: saga.settings.maxReshops },
  );
  if (!decision.reshop) return undefined;
  log.info('shopping again', { reason: decision.reason });
  const accepted = saga.guard.highestAccepted;
  return {
    number: round.number + 1,
    reason: decision.reason,
    ...(!decision.newToken && round.tokenId !== undefined ? { tokenId: round.tokenId } : {}),
    ...(accepted !== undefined ? { acceptedBefore: accepted } : {}),
  };
}

// ------------------------------------------------------------------ phase 1: prepare the offer

interface Travel {
  departureDate: string;
  returnDate?: string;
}

/** The preferred dates, or the cheapest of a calendar search around them (`flexibleDays`). */
async function travelDates({ ctx, intent, trail }: Saga): Promise<Travel> {
  const { journey } = intent;
  const preferred = { departureDate: journey.departureDate, ...(journey.returnDate !== undefined ? { returnDate: journey.returnDate } : {}) };
  const flexibleDays = journey.flexibleDays ?? 0;
  if (flexibleDays <= 0) return preferred;
  const calendar = await trail.step('calendar', () =>
    ndc.calendar({ ctx, origin: journey.origin, destination: journey.destination, ...preferred, flexibleDays }),
  );
  return chooseTravelDates(calendar.prices, preferred);
}

/** Shop, select, price, guard, tokenise (once per token), reprice with the token, guard. */
async function prepareOffer(saga: Saga, travel: Travel, round: Round): Promise<ReadyToOrder> {
  const { ctx, intent, trail, guard } = saga;
  const { journey } = intent;
  const shop = await trail.step(
    'shop',
    () => ndc.shop({ ctx, origin: journey.origin, destination: journey.destination, ...travel }),
    round.reason,
  );
  const chosen = chooseOffers(saga, shop, travel);

  const firstPrice = await trail.step('price', () => ndc.price({ ctx, offers: chosen }));
  showPrice(trail.state, firstPrice);
  await guard.check(firstPrice.total.value, round);

  if (round.tokenId === undefined) {
    const token = await trail.step('tokenise', () => ndc.tokenise({ card: intent.payment.card, correlationId: ctx.correlationId }));
    round.tokenId = token.tokenId;
  }
  const tokenId = round.tokenId;
  const priced = await trail.step('repriceWithToken', () =>
    ndc.repriceWithToken({ ctx, offers: chosen, previous: firstPrice, tokenId }),
  );
  showPrice(trail.state, priced);
  await guard.check(priced.total.value, round);
  return { shop, priced, tokenId };
}

/** One offer per direction by the selection rules; NO_OFFERS when a direction has none. */
function chooseOffers({ intent, trail }: Saga, shop: ShopResult, travel: Travel): ChosenOffer[] {
  const directions = travel.returnDate !== undefined ? 2 : 1;
  const priceClass = intent.selection?.priceClass;
  const selected = selectOffers(shop.offers, directions, priceClass);
  const missing = selected.findIndex((offer) => offer === undefined);
  if (missing >= 0) {
    const what = priceClass !== undefined ? ` in price class ${priceClass}` : '';
    throw ApplicationFailure.nonRetryable(
      `no ${missing === 0 ? 'outbound' : 'return'} offer${what} on ${missing === 0 ? travel.departureDate : travel.returnDate}`,
      FailureType.NO_OFFERS,
    );
  }
  const offers = selected.map((offer) => offer!);
  trail.state.chosenOffer = {
    offerIds: offers.map((offer) => offer.offerId),
    ...(offers[0]!.priceClass !== undefined ? { priceClass: offers[0]!.priceClass } : {}),
    ...travel,
    shoppingResponseId: shop.shoppingResponseId,
  };
  return offers.map((offer) => ({
    offerId: offer.offerId,
    owner: offer.owner,
    responseId: shop.shoppingResponseId,
    offerItems: offer.offerItems,
  }));
}

function showPrice(state: BookingState, priced: PriceResult): void {
  state.pricedTotal = priced.total;
  if (priced.surcharge !== undefined) state.surcharge = priced.surcharge;
  else delete state.surcharge;
}

// ------------------------------------------------------------------ phase 2: place the order

interface Placed {
  kind: 'placed';
  order: OrderSummary;
  orderViewXml?: string;
}

type PlaceOutcome =
  | Placed
  /** A definite failure: no order exists. */
  | { kind: 'failed'; cause: unknown }
  /** Whether an order exists is unknown: a person must check. */
  | { kind: 'escalated'; error: BookingError };

/**
 * Creates the order exactly once. After a create without a definite answer the order is looked
 * up until the settle window has passed; one found is adopted, and only an airline that still
 * shows none after the window gets the create again (or, by policy, a person).
 */
async function placeOrder(saga: Saga, ready: ReadyToOrder): Promise<PlaceOutcome> {
  const { ctx, intent, trail, settings } = saga;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const created = await trail.step('createOrder', () =>
        orders.createOrder({ ctx, priced: ready.priced, tokenId: ready.tokenId, securePayment: intent.securePayment }),
      );
      return { kind: 'placed', order: created.order, ...(created.orderViewXml !== undefined ? { orderViewXml: created.orderViewXml } : {}) };
    } catch (error) {
      if (!isOutcomeUnknown(error)) return { kind: 'failed', cause: error };
      log.warn('order create outcome unknown: settling before any retry', { attempt });
    }
    const settled = await settle(saga, ready);
    if (settled.kind === 'found') return settled.placed;
    const ids = trail.state.settling?.lookupIds.join(', ') ?? '';
    const escalation = (why: string): PlaceOutcome => ({
      kind: 'escalated',
      error: { type: FailureType.ORDER_UNSETTLED, message: `${why}; check by hand with the lookup ids ${ids}` },
    });
    if (settled.kind === 'undecided') return escalation('the airline answered no order lookup after the settle window');
    const next = unsettledOutcome(settings.unsettledPolicy, attempt, settings.maxCreateAttempts);
    switch (next.kind) {
      case 'recreate':
        continue;
      case 'escalate':
        return escalation(`no order found within the settle window of ${settings.settleWindowMs} ms`);
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

type Settled = { kind: 'found'; placed: Placed } | { kind: 'absent' } | { kind: 'undecided' };

/**
 * Looks the order up by the ResponseID the OrderCreateRQ carried, then by the shopping response
 * id, with backoff until the settle window has passed (`nextSettleStep`); status `SETTLING`
 * meanwhile.
 */
async function settle({ ctx, trail, settings }: Saga, ready: ReadyToOrder): Promise<Settled> {
  const lookupIds = [...new Set([ready.priced.responseId, ready.shop.shoppingResponseId])];
  const since = Date.now();
  const settling = {
    lookupIds,
    since: new Date(since).toISOString(),
    until: new Date(since + settings.settleWindowMs).toISOString(),
    lookups: 0,
  };
  trail.state.settling = settling;
  // Histories recorded before the SETTLING status replay without its upserts.
  const upsert = patched(SETTLING_STATUS_PATCH);
  trail.setStatus('SETTLING', { upsert });
  let absentAfterWindow = false;
  for (;;) {
    const next = nextSettleStep({ lookups: settling.lookups, elapsedMs: Date.now() - since, windowMs: settings.settleWindowMs, absentAfterWindow });
    if (next.kind !== 'lookup') {
      trail.setStatus('RUNNING', { upsert });
      return next;
    }
    if (next.delayMs > 0) await sleep(next.delayMs);
    settling.lookups += 1;
    try {
      const found = await trail.step('reconcileOrder', () => ndc.reconcileOrder({ ctx, lookupIds }), `settling, lookup ${settling.lookups}`);
      if (found.order !== undefined) {
        log.info('order found by lookup: adopted', { orderId: found.order.orderId, foundBy: found.foundBy });
        trail.setStatus('RUNNING', { upsert });
        return { kind: 'found', placed: { kind: 'placed', order: found.order, ...(found.orderViewXml !== undefined ? { orderViewXml: found.orderViewXml } : {}) } };
      }
      absentAfterWindow = Date.now() - since >= settings.settleWindowMs;
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
async function confirm({ ctx, trail }: Saga, placed: Placed): Promise<BookingResult> {
  const { state } = trail;
  const record = (order: OrderSummary): void => {
    state.order = { orderId: order.orderId, bookingReference: order.bookingReference, total: order.total, status: order.status };
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
    log.warn('order created but not retrieved: confirmed with the OrderViewRS of its creation', { orderId: placed.order.orderId });
    const result = trail.finish('CONFIRMED');
    return placed.orderViewXml !== undefined ? { ...result, orderViewXml: placed.orderViewXml } : result;
  }
}

// ------------------------------------------------------------------ failures

/** The `ApplicationFailure` behind an error (thrown by an activity or by the workflow), if any. */
function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) return error.cause;
  if (error instanceof ApplicationFailure) return error;
  return undefined;
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
  return failure.type === FailureType.ORDER_OUTCOME_UNKNOWN || !failure.nonRetryable;
}

/** Maps a failure to the state's error; rethrows what is not a business failure (bugs). */
function toBookingError(error: unknown): BookingError {
  const failure = applicationFailureOf(error);
  if (failure !== undefined && (failure.nonRetryable || error instanceof ActivityFailure)) {
    const { airlineCode } = detailsOf(failure);
    const type = failure.nonRetryable ? failureTypeOf(failure.type) : FailureType.AIRLINE_UNAVAILABLE;
    return { type, message: failure.message, ...(airlineCode !== undefined ? { airlineCode } : {}) };
  }
  if (error instanceof ActivityFailure) {
    return { type: FailureType.AIRLINE_UNAVAILABLE, message: error.cause?.message ?? error.message };
  }
  throw error;
}
