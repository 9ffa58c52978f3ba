/**
 * Failures of the NDC HTTP client, classified so that callers (the activities) can decide between
 * "retry with backoff" and "give up with a stable reason" without looking at messages.
 *
 * None of them ever carries a request body: card data cannot leak through an error. A failure
 * that wraps another (a socket error, a decode error, a JSON parse error) keeps it as `cause`.
 */
import type { NdcError } from '../ndc/ndc.model';

export type NdcClientErrorKind =
  /** TCP connect failed (refused, unreachable, DNS): the request was certainly not sent. */
  | 'CONNECT'
  /** The connection broke (reset, closed early) after it was established. */
  | 'NETWORK'
  /** No complete response within `timeoutMs`. */
  | 'TIMEOUT'
  /** HTTP status other than the expected success status. */
  | 'HTTP'
  /** HTTP 200 whose body is an NDC `Errors` response. */
  | 'NDC'
  /** The body could not be decoded (not the expected message, malformed XML or JSON). */
  | 'INVALID_RESPONSE'
  /** Not sent: the airline's circuit breaker is open after repeated failures (`circuit-breaker.ts`). */
  | 'CIRCUIT_OPEN';

/** Base class of every client failure. */
export class NdcClientError extends Error {
  override readonly name: string = 'NdcClientError';

  constructor(
    readonly kind: NdcClientErrorKind,
    message: string,
    /** True when retrying the same request later may succeed (network, timeout, 5xx, 429). */
    readonly transient: boolean,
    /**
     * True when the request may have reached the server (it was fully written before the
     * failure): for a non-idempotent request the outcome is unknown.
     */
    readonly requestSent: boolean,
    /** `cause`: the error this one wraps (default none). */
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Connect, network or timeout failure. Always transient. */
export class NdcTransportError extends NdcClientError {
  override readonly name = 'NdcTransportError';

  constructor(
    kind: 'CONNECT' | 'NETWORK' | 'TIMEOUT',
    message: string,
    requestSent: boolean,
    readonly causeCode?: string,
    /** `cause`: the socket or stream error (default none). */
    options?: ErrorOptions,
  ) {
    super(kind, message, true, requestSent, options);
  }
}

/** Unexpected HTTP status. 5xx and 429 are transient, other 4xx permanent. */
export class NdcHttpError extends NdcClientError {
  override readonly name = 'NdcHttpError';

  constructor(
    readonly status: number,
    message: string,
    /** NDC errors found in an XML error body, if any. */
    readonly ndcErrors: NdcError[] = [],
    /** `cause`: e.g. the error that made the body unreadable (default none). */
    options?: ErrorOptions,
  ) {
    super('HTTP', message, status >= 500 || status === 429, true, options);
  }
}

/** The airline answered with NDC `Errors` (business failure). Permanent. */
export class NdcBusinessError extends NdcClientError {
  override readonly name = 'NdcBusinessError';

  constructor(readonly errors: NdcError[]) {
    super(
      'NDC',
      errors.map((e) => `${e.code}: ${e.text}`).join('; ') || 'NDC error response without errors',
      false,
      true,
    );
  }

  /** The first error's code. */
  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/** The body was not the expected message. Permanent. */
export class NdcInvalidResponseError extends NdcClientError {
  override readonly name = 'NdcInvalidResponseError';

  /** `options.cause`: the decode or parse error (default none). */
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_RESPONSE', message, false, true, options);
  }
}

/**
 * True when a failure of a request that changes something at the airline (OrderCreate,
 * CustomerInput, OrderCancel, OrderChange) leaves its outcome unknown: the request was fully
 * written (`requestSent`) and no definite answer came back (a broken connection or timeout, a 5xx
 * or 429, or an answer that could not be read). A definite answer (NDC `Errors`:
 * {@link NdcBusinessError}; another 4xx) and a failure before the request went out are not: then
 * nothing changed. Settle an unknown outcome by reading the order back before sending again.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  return (
    error instanceof NdcClientError &&
    error.requestSent &&
    (error.transient || error instanceof NdcInvalidResponseError)
  );
}
