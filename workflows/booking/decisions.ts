/**
 * The booking saga's decisions, pure and deterministic: each one a function of its inputs, run
 * inside the workflow, each with its unit test in `decisions.spec.ts`. `offer-selection.ts` and
 * `extras.decisions.ts` beside it pick the offers and the extras.
 */
import type { CalendarPrice } from '../../activities/booking.activities.types';
import { compare } from '../../src/common/decimal';
import { assertNever, type FailureType } from '../../src/booking/booking.failures';
import type { UnsettledPolicy } from '../../src/booking/booking.model';

// ------------------------------------------------------------------ calendar date choice

/**
 * The cheapest date per direction (ties: closest to the preferred date, then the earlier one); a
 * return never before the chosen outbound. A direction without any calendar price keeps its
 * preferred date.
 */
export function chooseTravelDates(
  prices: readonly CalendarPrice[],
  preferred: { departureDate: string; returnDate?: string },
): { departureDate: string; returnDate?: string } {
  const cheapest = (direction: number, wanted: string, notBefore?: string): string => {
    const distance = (date: string): number => Math.abs(Date.parse(date) - Date.parse(wanted));
    let best: CalendarPrice | undefined;
    for (const entry of prices) {
      if (entry.direction !== direction || (notBefore !== undefined && entry.date < notBefore)) continue;
      if (best === undefined) {
        best = entry;
        continue;
      }
      const byPrice = compare(entry.price, best.price);
      const byDistance = distance(entry.date) - distance(best.date);
      if (byPrice < 0 || (byPrice === 0 && (byDistance < 0 || (byDistance === 0 && entry.date < best.date))))
        best = entry;
    }
    return best?.date ?? wanted;
  };
  const departureDate = cheapest(0, preferred.departureDate);
  if (preferred.returnDate === undefined) return { departureDate };
  return { departureDate, returnDate: cheapest(1, preferred.returnDate, departureDate) };
}

// ------------------------------------------------------------------ re-shop decision

/** What a failure of a step means for the saga. */
export type FailureRemedy =
  /** Nothing was booked and a fresh shop-and-price round may succeed. */
  | 'reshop'
  /** The same, and the card token must be made again. */
  | 'reshop-with-new-token'
  /** createOrder / cancelOrder only: the order may exist (or be cancelled); look before anything else. */
  | 'reconcile'
  /** A business outcome: the booking fails with this type. */
  | 'fail';

/**
 * The remedy of each failure type. Exhaustive: a new failure type does not compile until it is
 * given one. "Shop again" answers of the airline's error table (docs/airline-world.md): 711 sold
 * out, 720 unknown offer, 721 expired, 741 pricing superseded; 751/752 need a new token.
 */
export function remedyFor(type: FailureType): FailureRemedy {
  switch (type) {
    case 'NO_SEATS':
    case 'OFFER_EXPIRED':
      return 'reshop';
    case 'TOKEN_EXPIRED':
      return 'reshop-with-new-token';
    case 'ORDER_OUTCOME_UNKNOWN':
    case 'CANCEL_OUTCOME_UNKNOWN':
    case 'AIRLINE_TRANSIENT':
      return 'reconcile';
    case 'ORDER_NOT_FOUND':
    case 'INVALID_REQUEST':
    case 'UNSUPPORTED_CURRENCY':
    case 'NO_OFFERS':
    case 'SEATS_UNAVAILABLE':
    case 'PASSENGER_MISMATCH':
    case 'BIRTHDATE_REQUIRED':
    case 'PASSENGER_DATA_MISSING':
    case 'CONTACT_MISSING':
    case 'PRICE_MISMATCH':
    case 'INVALID_CARD':
    case 'AIRLINE_ERROR':
    case 'AIRLINE_CREDENTIALS_REJECTED':
    case 'AUTHENTICATION_FAILED':
    case 'AUTHENTICATION_TIMEOUT':
    case 'INVALID_RESPONSE':
    case 'PRICE_NOT_APPROVED':
    case 'ORDER_NOT_CREATED':
    case 'ORDER_UNSETTLED':
    case 'CANCELLED':
    case 'AIRLINE_UNAVAILABLE':
    case 'CANCEL_FAILED':
    case 'CHANGE_UNSETTLED':
    case 'CHANGE_NOT_APPLIED':
      return 'fail';
    default:
      return assertNever(type);
  }
}

export type ReshopDecision =
  | { reshop: false }
  | {
      reshop: true;
      /** Make a new card token (the old one expired or is unknown). */
      newToken: boolean;
      /** For the step trail, e.g. `reshop 1/2 after NO_SEATS (711)`. */
      reason: string;
    };

/**
 * Whether a definite failure (nothing was booked) starts a fresh shop-and-price round:
 * only for a "shop again" type, and only while rounds are left (`done` < `max`).
 */
export function reshopDecision(
  failure: { type: FailureType; airlineCode?: string },
  rounds: { done: number; max: number },
): ReshopDecision {
  const remedy = remedyFor(failure.type);
  if ((remedy !== 'reshop' && remedy !== 'reshop-with-new-token') || rounds.done >= rounds.max)
    return { reshop: false };
  const code = failure.airlineCode !== undefined ? ` (${failure.airlineCode})` : '';
  return {
    reshop: true,
    newToken: remedy === 'reshop-with-new-token',
    reason: `reshop ${rounds.done + 1}/${rounds.max} after ${failure.type}${code}`,
  };
}

// ------------------------------------------------------------------ price guard

/**
 * Whether a priced total must wait for the agency's approval: it is above the ceiling, which is
 * `selection.maxTotal` or, without one, the highest total an earlier shopping round was about to
 * book (a re-shop after a sold-out class must not silently book a dearer seat); and it is above
 * what the agency already approved.
 */
export function needsApproval(
  total: string,
  limits: { maxTotal?: string; acceptedBefore?: string; approvedTotal?: string },
): boolean {
  const ceiling = limits.maxTotal ?? limits.acceptedBefore;
  if (ceiling === undefined || compare(total, ceiling) <= 0) return false;
  return limits.approvedTotal === undefined || compare(total, limits.approvedTotal) > 0;
}

// ------------------------------------------------------------------ settling an ambiguous create

/** Default settle window: longer than the airline's longest commit. */
export const DEFAULT_SETTLE_WINDOW_MS = 120_000;
/** First wait before looking an ambiguous order up, then doubled up to {@link SETTLE_MAX_DELAY_MS}. */
export const SETTLE_FIRST_DELAY_MS = 1000;
export const SETTLE_MAX_DELAY_MS = 10_000;

export type SettleStep =
  /** Wait `delayMs` (0: none), then look the order up again. */
  | { kind: 'lookup'; delayMs: number }
  /** The window passed and the last lookup, made after it ended, found no order. */
  | { kind: 'absent' }
  /**
   * The window passed long ago (another window, at least 60 s) and no lookup has answered since:
   * the saga cannot know, a person must check.
   */
  | { kind: 'undecided' };

/**
 * The next move while settling an order create without a definite answer. Lookups back off
 * (1 s, 2 s, 4 s ... 10 s); the last one is made when the window ends, so absence is only
 * concluded from an answer given after the window. A lookup that failed is not an answer.
 */
export function nextSettleStep(progress: {
  /** Lookups made so far. */
  lookups: number;
  /** Workflow time since the create failed. */
  elapsedMs: number;
  windowMs: number;
  /** True when the latest lookup answered "no order" at or after the window's end. */
  absentAfterWindow: boolean;
}): SettleStep {
  if (progress.absentAfterWindow) return { kind: 'absent' };
  if (progress.lookups > 0 && progress.elapsedMs >= progress.windowMs + Math.max(progress.windowMs, 60_000)) {
    return { kind: 'undecided' };
  }
  const backoff = Math.min(SETTLE_FIRST_DELAY_MS * 2 ** progress.lookups, SETTLE_MAX_DELAY_MS);
  const left = Math.max(0, progress.windowMs - progress.elapsedMs);
  return { kind: 'lookup', delayMs: left > 0 ? Math.min(backoff, left) : progress.lookups === 0 ? 0 : backoff };
}

export type UnsettledOutcome =
  { kind: 'recreate' } | { kind: 'fail'; type: 'ORDER_NOT_CREATED' } | { kind: 'escalate'; type: 'ORDER_UNSETTLED' };

/**
 * What follows a settle window that found no order: create again (policy `recreate`, while
 * attempts are left; after the last one the booking fails, which is safe: the airline said
 * "no order" after the window), or end `ESCALATED` (policy `escalate`).
 */
export function unsettledOutcome(
  policy: UnsettledPolicy,
  attempt: number,
  maxCreateAttempts: number,
): UnsettledOutcome {
  switch (policy) {
    case 'escalate':
      return { kind: 'escalate', type: 'ORDER_UNSETTLED' };
    case 'recreate':
      return attempt < maxCreateAttempts ? { kind: 'recreate' } : { kind: 'fail', type: 'ORDER_NOT_CREATED' };
    default:
      return assertNever(policy);
  }
}

export type CustomerInputAfterAbsent = { kind: 'resend' } | { kind: 'fail'; type: 'ORDER_NOT_CREATED' };

/**
 * What follows a CustomerInputRS without an answer whose order a settle window did not find
 * (sent `sends` times so far): under policy `recreate`, while attempts are left
 * ({@link unsettledOutcome}) and the cardholder's authentication window (`expiresAtMs`, workflow
 * time) has not passed, send it again; otherwise fail `ORDER_NOT_CREATED` (no order exists).
 * Policy `escalate` fails too: the lookup proved there is no order. Pure; unit-tested.
 */
export function customerInputAfterAbsent(
  policy: UnsettledPolicy,
  sends: number,
  maxAttempts: number,
  window: { nowMs: number; expiresAtMs: number },
): CustomerInputAfterAbsent {
  const inWindow = window.nowMs < window.expiresAtMs;
  return inWindow && unsettledOutcome(policy, sends, maxAttempts).kind === 'recreate'
    ? { kind: 'resend' }
    : { kind: 'fail', type: 'ORDER_NOT_CREATED' };
}

// ------------------------------------------------------------------ an airline that stopped answering

/** Default of `BookingWorkflowOptions.unavailableBudgetMs`: how long every allowed airline may keep failing. */
export const DEFAULT_UNAVAILABLE_BUDGET_MS = 10 * 60 * 1000;

/** What a booking does when airlines stopped answering before any order could exist. */
export type UnavailableDecision =
  /** Shop again at the other airlines the intent allows, without `exclude`. */
  | { kind: 'elsewhere'; exclude: string; reason: string }
  /** Every allowed airline failed: try them all again after `delayMs`. */
  | { kind: 'wait'; delayMs: number; reason: string }
  /** The budget is spent. */
  | { kind: 'fail' };

/**
 * The chosen airline stopped answering and another is allowed: shop there. Otherwise (no airline
 * answered, or the only one did not) try them all again with backoff (1 s doubling to 30 s) while
 * the budget since the first such failure lasts.
 */
export function unavailableDecision(input: {
  /** The airline the booking had chosen, when it failed after choosing. */
  chosen?: string;
  /** The airlines still allowed in this round (the intent's, less those left out). */
  allowed: readonly string[];
  /** When the first failure of this kind came (ms), and now. */
  sinceMs: number;
  nowMs: number;
  budgetMs: number;
  /** Waits already made. */
  waits: number;
}): UnavailableDecision {
  const others = input.allowed.filter((code) => code !== input.chosen);
  if (input.chosen !== undefined && others.length > 0) {
    return {
      kind: 'elsewhere',
      exclude: input.chosen,
      reason: `${input.chosen} stopped answering before an order existed: shopping ${others.join(', ')}`,
    };
  }
  const delayMs = Math.min(1000 * 2 ** input.waits, 30_000);
  if (input.nowMs + delayMs - input.sinceMs > input.budgetMs) return { kind: 'fail' };
  const spent = Math.round((input.nowMs - input.sinceMs) / 1000);
  return {
    kind: 'wait',
    delayMs,
    reason: `no airline answering (${spent} s of ${input.budgetMs / 1000} s): trying again`,
  };
}
