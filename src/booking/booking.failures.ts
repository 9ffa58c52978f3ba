/**
 * The saga's one failure vocabulary: every `ApplicationFailure` type an activity throws, every
 * `BookingError.type` the workflow reports, and what the API and the docs name. Declared once
 * (const object + derived union, as sdk-typescript's `failure.ts` does); branch on it with an
 * exhaustive `switch` (see {@link assertNever}) so the compiler finds a missing case.
 *
 * Pure: imported by the workflow bundle, the activities and the API.
 */

export const FailureType = {
  // --- from an airline's NDC error codes (its profile's `errorCodes`; the embedded airline's in docs/airline-world.md) ---
  /** 913: no such order (for this agency). */
  ORDER_NOT_FOUND: 'ORDER_NOT_FOUND',
  /** 701: the request is unusable (unknown airport, bad date, ...). */
  INVALID_REQUEST: 'INVALID_REQUEST',
  /** 702: currency not sold. */
  UNSUPPORTED_CURRENCY: 'UNSUPPORTED_CURRENCY',
  /** 710, or no offer in the requested price class: nothing to sell. */
  NO_OFFERS: 'NO_OFFERS',
  /** 711: the price class sold out between shopping and pricing or ordering ("shop again"). */
  NO_SEATS: 'NO_SEATS',
  /** `extras.seats.required` and no seat fits the rules (or none could be had): no order. */
  SEATS_UNAVAILABLE: 'SEATS_UNAVAILABLE',
  /** 720, 721, 741: unknown, expired or superseded offer / response ("shop again"). */
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  /** 722: passengers differ from the shopped ones. */
  PASSENGER_MISMATCH: 'PASSENGER_MISMATCH',
  /** 730: UK under-16 rule without birthdates. */
  BIRTHDATE_REQUIRED: 'BIRTHDATE_REQUIRED',
  /** 731: order without names / birthdates. */
  PASSENGER_DATA_MISSING: 'PASSENGER_DATA_MISSING',
  /** 732: no contact or a dangling contact reference. */
  CONTACT_MISSING: 'CONTACT_MISSING',
  /** 740, 742, 743: total, payment amount or payment currency differ from the offer. */
  PRICE_MISMATCH: 'PRICE_MISMATCH',
  /** 750, or HTTP 400 from the token endpoint: unusable card data. */
  INVALID_CARD: 'INVALID_CARD',
  /** 751, 752: card token expired or unknown ("tokenise again"). */
  TOKEN_EXPIRED: 'TOKEN_EXPIRED',
  /** Any other NDC error code or HTTP 4xx. */
  AIRLINE_ERROR: 'AIRLINE_ERROR',

  // --- from the NDC client (activities) ---
  /** Retryable: network, timeout, HTTP 5xx / 429, NDC 799. Retried by Temporal. */
  AIRLINE_TRANSIENT: 'AIRLINE_TRANSIENT',
  /** HTTP 401 / 403: the airline refused the agency's credentials. */
  AIRLINE_CREDENTIALS_REJECTED: 'AIRLINE_CREDENTIALS_REJECTED',
  /** The body is not the expected message. */
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** createOrder only: the request may have reached the airline; the workflow reconciles. */
  ORDER_OUTCOME_UNKNOWN: 'ORDER_OUTCOME_UNKNOWN',
  /** cancelOrder only: the cancel may have reached the airline; the workflow retrieves the order's status. */
  CANCEL_OUTCOME_UNKNOWN: 'CANCEL_OUTCOME_UNKNOWN',

  // --- decided by the workflow ---
  /** The priced total stayed above `maxTotal` and nobody approved it in time. */
  PRICE_NOT_APPROVED: 'PRICE_NOT_APPROVED',
  /** Order creation failed `maxCreateAttempts` times and no order exists. */
  ORDER_NOT_CREATED: 'ORDER_NOT_CREATED',
  /**
   * `ORDER_UNSETTLED_POLICY=escalate`: the settle window passed without the airline showing an
   * order; whether one exists must be checked by hand (status `ESCALATED`).
   */
  ORDER_UNSETTLED: 'ORDER_UNSETTLED',
  /**
   * 3-D Secure: the cardholder was not authenticated (declined at the issuer, or the airline
   * refused the result: 781 declined, 782 invalid at the embedded airline). No order exists.
   */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** 3-D Secure: no result within `authenticationTimeoutMs` (or 783 expired at the airline). No order exists. */
  AUTHENTICATION_TIMEOUT: 'AUTHENTICATION_TIMEOUT',
  /** Cancelled by the agency before order creation. */
  CANCELLED: 'CANCELLED',
  /** Transient failures that exhausted their retries. */
  AIRLINE_UNAVAILABLE: 'AIRLINE_UNAVAILABLE',
  /** Cancelling a confirmed order did not succeed: the booking stays `CONFIRMED`. */
  CANCEL_FAILED: 'CANCEL_FAILED',
  /**
   * A change of the order (OrderChangeRQ) got no answer and no read of the order answered
   * afterwards: whether it took effect must be checked by hand; the booking keeps its status.
   */
  CHANGE_UNSETTLED: 'CHANGE_UNSETTLED',
  /** A change of the order got no answer, and the order read back without it every time it was sent. */
  CHANGE_NOT_APPLIED: 'CHANGE_NOT_APPLIED',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/** Every failure type, in declaration order (OpenAPI enums, docs, tests). */
export const FAILURE_TYPES: readonly FailureType[] = Object.values(FailureType);

export function isFailureType(value: unknown): value is FailureType {
  return typeof value === 'string' && (FAILURE_TYPES as readonly string[]).includes(value);
}

/** The failure type of an `ApplicationFailure.type` that may be foreign (null, a bug's class name). */
export function failureTypeOf(type: string | null | undefined): FailureType {
  return isFailureType(type) ? type : FailureType.AIRLINE_ERROR;
}

/** The failure types an airline's NDC error code may map to (an airline profile's `errorCodes`). */
export const AIRLINE_FAILURE_TYPES = [
  FailureType.ORDER_NOT_FOUND,
  FailureType.INVALID_REQUEST,
  FailureType.UNSUPPORTED_CURRENCY,
  FailureType.NO_OFFERS,
  FailureType.NO_SEATS,
  FailureType.OFFER_EXPIRED,
  FailureType.PASSENGER_MISMATCH,
  FailureType.BIRTHDATE_REQUIRED,
  FailureType.PASSENGER_DATA_MISSING,
  FailureType.CONTACT_MISSING,
  FailureType.PRICE_MISMATCH,
  FailureType.INVALID_CARD,
  FailureType.TOKEN_EXPIRED,
  FailureType.AUTHENTICATION_FAILED,
  FailureType.AUTHENTICATION_TIMEOUT,
  /** A code meaning "that request may already have been carried out" (784 used result): look the order up. */
  FailureType.ORDER_OUTCOME_UNKNOWN,
  FailureType.AIRLINE_ERROR,
] as const;
export type AirlineFailureType = (typeof AIRLINE_FAILURE_TYPES)[number];

/**
 * The standard NDC error codes (IATA's code list) every airline shares: 913 "Item/data not found
 * or data not existing in processing host". Each airline's own codes are in its profile
 * (`src/ndc-client/airline-profile.ts`).
 */
export const STANDARD_NDC_CODES: Readonly<Record<string, AirlineFailureType>> = {
  '913': FailureType.ORDER_NOT_FOUND,
};

/** Standard codes that mean "try again later": 911 "Unable to process - system error". */
export const STANDARD_TRANSIENT_NDC_CODES: readonly string[] = ['911'];

/** One airline's reading of NDC error codes: failure types and transient codes. */
export interface NdcCodeTable {
  failures: Readonly<Record<string, FailureType>>;
  transient: ReadonlySet<string>;
}

/** The standard codes with an airline's own on top (its own win). */
export function ndcCodeTable(
  own: Readonly<Record<string, FailureType>> = {},
  transient: readonly string[] = [],
): NdcCodeTable {
  return {
    failures: { ...STANDARD_NDC_CODES, ...own },
    transient: new Set([...STANDARD_TRANSIENT_NDC_CODES, ...transient]),
  };
}

/** The failure type of an NDC error code in `table`; a code it does not list is `AIRLINE_ERROR`. */
export function failureForNdcCode(code: string | undefined, table: NdcCodeTable): FailureType {
  return (code !== undefined ? table.failures[code] : undefined) ?? FailureType.AIRLINE_ERROR;
}

/** Details attached to activity `ApplicationFailure`s (`details[0]`). No card data, ever. */
export interface FailureDetails {
  airlineCode?: string;
  text?: string;
  httpStatus?: number;
  attempt: number;
  /**
   * A call that may change the order failed before its request was written (connect refused, the
   * circuit open): it certainly did not reach the airline, so nothing needs settling.
   */
  notSent?: true;
}

/** For the `default` of an exhaustive `switch`: a compile error when a case is missing. */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
