/**
 * The saga's one failure vocabulary: every `ApplicationFailure` type an activity throws, every
 * `BookingError.type` the workflow reports, and what the API and the docs name. Declared once
 * (const object + derived union, as sdk-typescript's `failure.ts` does); branch on it with an
 * exhaustive `switch` (see {@link assertNever}) so the compiler finds a missing case.
 *
 * Pure: imported by the workflow bundle, the activities and the API.
 */

export const FailureType = {
  // --- from the airline's NDC error codes (docs/airline-world.md, NDC_CODE_TO_FAILURE) ---
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
  /** HTTP 401 / 403. */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
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
  /** Cancelled by the agency before order creation. */
  CANCELLED: 'CANCELLED',
  /** Transient failures that exhausted their retries. */
  AIRLINE_UNAVAILABLE: 'AIRLINE_UNAVAILABLE',
  /** Cancelling a confirmed order did not succeed: the booking stays `CONFIRMED`. */
  CANCEL_FAILED: 'CANCEL_FAILED',
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

/**
 * NDC error codes of the airline (docs/airline-world.md) mapped to failure types. A code not listed
 * is `AIRLINE_ERROR`; NDC 799 is transient ({@link TRANSIENT_NDC_CODES}).
 */
export const NDC_CODE_TO_FAILURE: Readonly<Record<string, FailureType>> = {
  '913': FailureType.ORDER_NOT_FOUND,
  '701': FailureType.INVALID_REQUEST,
  '702': FailureType.UNSUPPORTED_CURRENCY,
  '710': FailureType.NO_OFFERS,
  '711': FailureType.NO_SEATS,
  '720': FailureType.OFFER_EXPIRED,
  '721': FailureType.OFFER_EXPIRED,
  '722': FailureType.PASSENGER_MISMATCH,
  '730': FailureType.BIRTHDATE_REQUIRED,
  '731': FailureType.PASSENGER_DATA_MISSING,
  '732': FailureType.CONTACT_MISSING,
  '740': FailureType.PRICE_MISMATCH,
  '741': FailureType.OFFER_EXPIRED,
  '742': FailureType.PRICE_MISMATCH,
  '743': FailureType.PRICE_MISMATCH,
  '750': FailureType.INVALID_CARD,
  '751': FailureType.TOKEN_EXPIRED,
  '752': FailureType.TOKEN_EXPIRED,
};

/** The failure type of an NDC error code. */
export function failureForNdcCode(code: string | undefined): FailureType {
  return (code !== undefined ? NDC_CODE_TO_FAILURE[code] : undefined) ?? FailureType.AIRLINE_ERROR;
}

/** NDC codes that mean "try again later" rather than a business failure. */
export const TRANSIENT_NDC_CODES: ReadonlySet<string> = new Set(['799']);

/** Details attached to activity `ApplicationFailure`s (`details[0]`). No card data, ever. */
export interface FailureDetails {
  airlineCode?: string;
  text?: string;
  httpStatus?: number;
  attempt: number;
}

/** For the `default` of an exhaustive `switch`: a compile error when a case is missing. */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
