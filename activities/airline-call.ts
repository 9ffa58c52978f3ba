/**
 * What every booking activity does around its NDC call: the request header stamp, the agency as
 * this airline knows it, a heartbeat while it waits, and the reading of failures (docs/orchestrator.md,
 * "Failures"):
 * - network errors, timeouts, HTTP 5xx / 429, the airline's transient codes: retryable
 *   `ApplicationFailure` of type `AIRLINE_TRANSIENT` (Temporal retries with backoff);
 * - NDC `Errors`, other 4xx, undecodable responses: non-retryable `ApplicationFailure` with a
 *   stable type ({@link FailureType}) and `details[0]` = {@link FailureDetails};
 * - calls that may change the order (create, customer input, cancel): a failure after the request
 *   may have reached the airline is `*_OUTCOME_UNKNOWN`; the workflow settles it before any retry.
 *
 * Card data never appears in a failure: messages, and the causes kept with them, are scrubbed.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  FailureType,
  failureForNdcCode,
  type FailureDetails,
  type NdcCodeTable,
} from '../src/booking/booking.failures';
import type { PaymentCard } from '../src/booking/booking.model';
import type { NdcContext, RequestStamp } from '../src/booking/intent-to-ndc';
import { NdcMissingElementError, NdcNoMoneyPriceError } from '../src/ndc/require-element';
import {
  NdcBusinessError,
  NdcClientError,
  NdcHttpError,
  NdcInvalidResponseError,
  NdcCircuitOpenError,
  NdcTransportError,
  type NdcHttpClient,
} from '../src/ndc-client';
import { airlineAgencyId, type AirlineProfile } from '../src/ndc-client/airline-profile';

export interface BookingActivityDeps {
  /** The client of this airline. */
  client: NdcHttpClient;
  /**
   * What the activities need of the airline's profile: the agency ids it knows agencies by, and
   * its reading of NDC error codes.
   */
  airline: Pick<AirlineProfile, 'code' | 'agencyIds' | 'codes'>;
  /** Clock for request timestamps and token expiry. Default `() => new Date()`. */
  now?: () => Date;
  /** Lifetime of card tokens, in ms. Default 1 h. */
  tokenTtlMs?: number;
  /** `Target` attribute of requests. Default `Test` (the spec's only value). */
  target?: string;
  /** Heartbeat interval while waiting for the airline, in ms. Default 1000. */
  heartbeatIntervalMs?: number;
}

/** Type of the retryable failures (network, timeout, 5xx, 429, the airline's transient codes). */
export const TRANSIENT_FAILURE_TYPE = FailureType.AIRLINE_TRANSIENT;

/** How to read a failure: the airline's code table, and which call failed. */
export interface ClassifyOptions {
  codes: NdcCodeTable;
  orderCreate?: boolean;
  /** An OrderChangeRQ (or its CustomerInputRS): like a create, unknown once it may have been sent. */
  orderChange?: boolean;
  orderCancel?: boolean;
  card?: PaymentCard;
}

/** The calls of one airline, as each activity area uses them. */
export interface AirlineCall {
  readonly client: NdcHttpClient;
  readonly now: () => Date;
  readonly target: string;
  readonly tokenTtlMs: number;
  /**
   * A header stamp: the booking's TransactionIdentifier (`ctx.transactionId`, the same on every
   * message of one booking, as the airline's seat locks need), else a fresh one of 32 hex digits
   * (the 17.2 schema's maximum).
   */
  stamp(ctx?: NdcContext): RequestStamp;
  /** The client call options of a request in `ctx` (its correlation id). */
  options(ctx: NdcContext): { correlationId: string };
  /** Runs `body` with the attempt number, heartbeating while it waits, and classifies its failures. */
  run<T>(body: (attempt: number) => Promise<T>, options?: Omit<ClassifyOptions, 'codes'>): Promise<T>;
}

export function airlineCall(deps: BookingActivityDeps): AirlineCall {
  const now = deps.now ?? (() => new Date());
  const target = deps.target ?? 'Test';
  const heartbeatIntervalMs = deps.heartbeatIntervalMs ?? 1000;
  return {
    client: deps.client,
    now,
    target,
    tokenTtlMs: deps.tokenTtlMs ?? 60 * 60 * 1000,
    stamp: (ctx) => ({
      target,
      timeStamp: `${now().toISOString().slice(0, 19)}Z`,
      transactionIdentifier: ctx?.transactionId ?? randomUUID().replace(/-/g, ''),
    }),
    options: (ctx) => ({ correlationId: ctx.correlationId }),
    /*
     * No heartbeat at the start: the server's heartbeat timeout already runs from the attempt's
     * start, so an attempt that never heartbeats (its worker died) times out just as soon; an
     * immediate heartbeat would only add an RPC and a history-shard write to every activity,
     * nearly all of which answer in milliseconds (docs/orchestrator.md, "Performance").
     */
    async run(body, options = {}) {
      const context = Context.current();
      const attempt = context.info.attempt;
      const timer = setInterval(() => context.heartbeat(), heartbeatIntervalMs);
      try {
        return await body(attempt);
      } catch (error) {
        throw classifyFailure(error, attempt, { ...options, codes: deps.airline.codes });
      } finally {
        clearInterval(timer);
      }
    },
  };
}

/** The request context as this airline knows it: the agency under the AgencyID the airline gave it. */
export function asKnownBy(airline: BookingActivityDeps['airline']) {
  return <I extends { ctx: NdcContext }, R>(activity: (input: I) => Promise<R>) =>
    (input: I): Promise<R> =>
      activity({
        ...input,
        ctx: { ...input.ctx, agency: { ...input.ctx.agency, id: airlineAgencyId(airline, input.ctx.agency.id) } },
      });
}

/** Masks what a message might echo of the card (defence in depth: the airline should not). */
function scrub(message: string, card?: PaymentCard): string {
  let text = message.replace(/\d{12,19}/g, (digits) => `****${digits.slice(-4)}`);
  if (card !== undefined) {
    if (card.number !== '') text = text.split(card.number).join('****');
    if (/^\d{3,4}$/.test(card.verificationCode)) {
      text = text.replace(new RegExp(`\\b${card.verificationCode}\\b`, 'g'), '***');
    }
  }
  return text;
}

/** `error` and its causes as plain errors whose messages and stacks are scrubbed of card data. */
function scrubbedCause(error: unknown, card: PaymentCard | undefined, depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 4) return undefined;
  const copy = new Error(scrub(error.message, card));
  copy.name = error.name;
  copy.stack = error.stack !== undefined ? scrub(error.stack, card) : undefined;
  const cause = scrubbedCause(error.cause, card, depth + 1);
  if (cause !== undefined) copy.cause = cause;
  return copy;
}

/** A failure of `type`, carrying the (scrubbed) error it was read from as its cause. */
export function failure(
  message: string,
  type: FailureType,
  details: FailureDetails,
  options: { retryable?: boolean; cause?: unknown; card?: PaymentCard } = {},
): ApplicationFailure {
  const cause = scrubbedCause(options.cause, options.card);
  return ApplicationFailure.create({
    message,
    type,
    nonRetryable: options.retryable !== true,
    details: [details],
    ...(cause !== undefined ? { cause } : {}),
  });
}

/**
 * Converts a client failure into the `ApplicationFailure` the workflow understands.
 * `orderCreate` / `orderCancel` turn "may have been sent" failures into *_OUTCOME_UNKNOWN.
 */
export function classifyFailure(error: unknown, attempt: number, options: ClassifyOptions): Error {
  if (error instanceof NdcMissingElementError || error instanceof NdcNoMoneyPriceError)
    return unusableAnswer(error, attempt, options);
  if (!(error instanceof NdcClientError)) return error instanceof Error ? error : new Error(String(error));
  const message = scrub(error.message, options.card);
  // Not sent, and not worth a retry now: the booking leaves the airline for the others (or waits).
  if (error instanceof NdcCircuitOpenError)
    return failure(message, FailureType.AIRLINE_UNAVAILABLE, { attempt }, { cause: error });
  const from = { cause: error, card: options.card };
  const ndc = (first: { code?: string; text: string } | undefined): Partial<FailureDetails> =>
    first !== undefined
      ? { ...(first.code !== undefined ? { airlineCode: first.code } : {}), text: scrub(first.text, options.card) }
      : {};
  const http = error instanceof NdcHttpError ? { httpStatus: error.status } : {};

  if (error instanceof NdcBusinessError) {
    const first = error.errors[0];
    if (first?.code !== undefined && options.codes.transient.has(first.code))
      return failure(message, FailureType.AIRLINE_TRANSIENT, { attempt, ...ndc(first) }, { ...from, retryable: true });
    return failure(message, failureForNdcCode(first?.code, options.codes), { attempt, ...ndc(first) }, from);
  }
  // On calls that may change the order only a business answer is definite: a body we cannot read
  // after the request went out (cut, corrupt, not the expected message) leaves the outcome unknown.
  const unanswered = error.requestSent && (error.transient || error instanceof NdcInvalidResponseError);
  if ((options.orderCreate || options.orderChange || options.orderCancel) && unanswered) {
    const [what, type] = options.orderCreate
      ? ['order create', FailureType.ORDER_OUTCOME_UNKNOWN]
      : options.orderChange
        ? ['order change', FailureType.ORDER_OUTCOME_UNKNOWN]
        : ['order cancel', FailureType.CANCEL_OUTCOME_UNKNOWN];
    return failure(`${what} outcome unknown: ${message}`, type, { attempt, ...http }, { ...from, retryable: true });
  }
  if (error instanceof NdcTransportError || (error instanceof NdcHttpError && error.transient)) {
    const changes = options.orderCreate || options.orderChange || options.orderCancel;
    const notSent = changes && !error.requestSent ? { notSent: true as const } : {};
    return failure(
      message,
      FailureType.AIRLINE_TRANSIENT,
      { attempt, ...http, ...notSent },
      { ...from, retryable: true },
    );
  }
  if (error instanceof NdcHttpError) {
    const first = error.ndcErrors[0];
    const type =
      error.status === 401 || error.status === 403
        ? FailureType.AIRLINE_CREDENTIALS_REJECTED
        : failureForNdcCode(first?.code, options.codes);
    return failure(message, type, { attempt, ...http, ...ndc(first) }, from);
  }
  if (error instanceof NdcInvalidResponseError)
    return failure(message, FailureType.INVALID_RESPONSE, { attempt }, from);
  return failure(message, FailureType.AIRLINE_ERROR, { attempt }, from);
}

/**
 * A schema-valid answer without what the saga needs (e.g. a total in award miles): asking again
 * gets the same answer. After an order create or cancel the outcome is still unknown.
 */
function unusableAnswer(error: Error, attempt: number, options: ClassifyOptions): ApplicationFailure {
  if (options.orderCreate || options.orderChange || options.orderCancel) {
    const type = options.orderCancel ? FailureType.CANCEL_OUTCOME_UNKNOWN : FailureType.ORDER_OUTCOME_UNKNOWN;
    return failure(`outcome unknown: ${error.message}`, type, { attempt }, { retryable: true, cause: error });
  }
  return failure(error.message, FailureType.INVALID_RESPONSE, { attempt }, { cause: error });
}
