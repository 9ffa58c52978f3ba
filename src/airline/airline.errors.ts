/**
 * NDC error and warning codes of the airline service. Every business failure
 * has a stable name and a distinct code (IATA_CodeType: up to three of
 * `[0-9A-Z]`), so clients such as the booking orchestrator can classify an
 * `Errors/Error` by its Code alone. 913 is the code of the spec; the 7xx codes
 * are this airline's own (the spec shows no others). Documented in
 * docs/airline-world.md.
 */
import type { NdcError, NdcWarning } from '../ndc/ndc.model';

export interface AirlineErrorDef {
  code: string;
  shortText: string;
}

export const AIRLINE_ERRORS = {
  /** No order matches (OrderRetrieve, GET by shopping response id). Text of the spec. */
  ORDER_NOT_FOUND: { code: '913', shortText: 'Item/data not found or data not existing in processing host' },
  /** The request is well-formed XML but its content is unusable (bad date, unknown airport, ...). */
  INVALID_REQUEST: { code: '701', shortText: 'Invalid request' },
  /**
   * NDC Exchange envelope: `NDCMSG_Header/Message` names a SchemaType other than NDC or a
   * SchemaVersion other than 17.2 (e.g. `YY.2017.2`): the payload is not read.
   */
  UNSUPPORTED_SCHEMA: { code: '704', shortText: 'Schema type or version not supported' },
  /**
   * NDC Exchange envelope: `Sender/SellerID` differs from the message's AgencyID, or
   * `Recipient/Company` is not this airline: the hub's header and the message disagree.
   */
  EXCHANGE_HEADER_MISMATCH: { code: '705', shortText: 'Exchange header does not match the message' },
  /** OverrideCurrency names a currency the airline does not sell in. */
  UNSUPPORTED_CURRENCY: { code: '702', shortText: 'Currency not supported' },
  /** The search found no flight with seats (sold out, no route, date outside the schedule). */
  NO_OFFERS: { code: '710', shortText: 'No availability' },
  /** The offer's price class has no seats left any more when priced or ordered. */
  SOLD_OUT: { code: '711', shortText: 'Seats no longer available' },
  /** Unknown ResponseID, OfferID or OfferItemID. */
  UNKNOWN_OFFER: { code: '720', shortText: 'Offer not found' },
  /** The shopping or pricing response has expired. */
  OFFER_EXPIRED: { code: '721', shortText: 'Offer expired' },
  /**
   * OrderCreate naming more than one flight Offer (schema-valid): an order is made of one priced
   * flight offer (a round trip is priced into one PricedOffer), with any à-la-carte offers.
   */
  ONE_OFFER_PER_ORDER: { code: '723', shortText: 'One offer per order' },
  /** An Offer whose Owner is another airline (OfferPrice, OrderCreate, SeatAvailability). */
  FOREIGN_OFFER: { code: '724', shortText: 'Offer of another owner' },
  /** An à-la-carte Offer whose ResponseID is not the shopping response of the flight offers it goes with. */
  OFFER_RESPONSE_MISMATCH: { code: '725', shortText: 'Offer from another response' },
  /** Passengers of the request do not match those of the offer. */
  PASSENGER_MISMATCH: { code: '722', shortText: 'Passengers do not match the offer' },
  /** UK rule: a child or infant departs from the UK and some passenger has no Birthdate. */
  BIRTHDATE_REQUIRED: { code: '730', shortText: 'Birthdate required' },
  /** OrderCreate: a passenger lacks Individual data (surname, given name, birthdate where required). */
  PASSENGER_DATA_MISSING: { code: '731', shortText: 'Passenger data missing' },
  /** OrderCreate: no contact, or a ContactInfoRef that points to no provided contact. */
  CONTACT_MISSING: { code: '732', shortText: 'Contact data missing' },
  /** OrderCreate: total, items or card do not match the latest pricing (e.g. surcharge card without the token-bearing reprice). */
  PRICE_MISMATCH: { code: '740', shortText: 'Price mismatch' },
  /**
   * The payment of a held order whose price guarantee has passed, when the price now differs:
   * reprice it (OrderReshopRQ) and pay with AcceptRepricedOrder.
   */
  PRICE_GUARANTEE_EXPIRED: { code: '744', shortText: 'Price no longer guaranteed' },
  /** OrderCreate from a pricing response that a later pricing of the same offer superseded. */
  PRICING_SUPERSEDED: { code: '741', shortText: 'Pricing superseded by a later OfferPrice' },
  /** Payment amount differs from the priced total. */
  PAYMENT_AMOUNT_MISMATCH: { code: '742', shortText: 'Payment amount does not match the offer total' },
  /** Payment currency differs from the offer currency (no conversion). */
  PAYMENT_CURRENCY_MISMATCH: { code: '743', shortText: 'Payment currency does not match the offer currency' },
  /** Card data unusable (e.g. invalid number, unsupported payment type). */
  INVALID_CARD: { code: '750', shortText: 'Invalid card' },
  /** The card token has expired. */
  TOKEN_EXPIRED: { code: '751', shortText: 'Card token expired' },
  /** The card token is unknown. */
  UNKNOWN_TOKEN: { code: '752', shortText: 'Card token not found' },
  /**
   * An OrderCreateRQ without Payments (a hold) that the airline does not take: the agency may not
   * hold (AIRLINE_HOLD_DENIED_AGENCIES), the first flight leaves within 2 hours, or the offer was
   * priced with a card surcharge.
   */
  HOLD_NOT_ALLOWED: { code: '753', shortText: 'Hold not allowed' },
  /** A reshop offer (or a reprice) named by an OrderChangeRQ that this order never got: unknown id, response or agency. */
  CHANGE_OFFER_NOT_FOUND: { code: '726', shortText: 'Change offer not found' },
  /** A reshop offer or reprice past its expiry (AIRLINE_CHANGE_OFFER_TTL_MS): reshop. */
  CHANGE_OFFER_EXPIRED: { code: '727', shortText: 'Change offer expired' },
  /** OrderCancel of an order that is already cancelled (nothing is refunded again). */
  ORDER_ALREADY_CANCELLED: { code: '770', shortText: 'Order already cancelled' },
  /** OrderCancel whose refund would be lower than the request's ExpectedRefundAmount (not cancelled). */
  REFUND_BELOW_EXPECTED: { code: '771', shortText: 'Refund lower than expected' },
  /** A held order the airline cancelled unpaid at its payment time limit: nothing can be done with it. */
  ORDER_EXPIRED: { code: '772', shortText: 'Order expired unpaid' },
  /** A change (reshop for other flights, extras) of an order not paid yet: pay it first. */
  ORDER_UNPAID: { code: '773', shortText: 'Order not paid' },
  /** A payment or reprice of an order that is already paid. */
  ORDER_ALREADY_PAID: { code: '774', shortText: 'Order already paid' },
  /** The order changed after the reshop offer or reprice was made (its version moved on): reshop. */
  ORDER_CHANGED: { code: '775', shortText: 'Order changed since the offer' },
  /** A Delete that would leave an infant without its adult, or the order without an adult, or part of a passenger. */
  PASSENGER_REMOVAL_REFUSED: { code: '776', shortText: 'Passenger removal refused' },
  /** An OrderChangeRQ repeating the TransactionIdentifier of an earlier change of the order with other content. */
  TRANSACTION_REUSED: { code: '777', shortText: 'TransactionIdentifier already used for another change' },
  /** A change while another change of the order waits for 3-D Secure. */
  CHANGE_IN_PROGRESS: { code: '778', shortText: 'Another change of the order is in progress' },
  /** OrderCreate with a card that needs 3-D Secure but no SecurePaymentAlert (TermURL, FailURL, device). */
  SECURE_PAYMENT_REQUIRED: { code: '780', shortText: 'Secure payment alert required' },
  /** The cardholder declined or failed authentication (CustomerInputRS, or a pre-authenticated result that is not a success). */
  AUTHENTICATION_DECLINED: { code: '781', shortText: 'Authentication declined' },
  /** An authentication result that the airline did not sign, or signed for another transaction. */
  AUTHENTICATION_INVALID: { code: '782', shortText: 'Authentication result invalid' },
  /** An authentication result or hold past its window (AIRLINE_AUTHENTICATION_HOLD_MS): the seats are released. */
  AUTHENTICATION_EXPIRED: { code: '783', shortText: 'Authentication expired' },
  /** A declined result of a hold an order was created from (the approved one sent again answers that order). */
  AUTHENTICATION_USED: { code: '784', shortText: 'Authentication result already used' },
  /** Unexpected failure inside the airline. */
  SYSTEM_ERROR: { code: '799', shortText: 'Unable to process - system error' },
} as const satisfies Record<string, AirlineErrorDef>;

export type AirlineErrorName = keyof typeof AIRLINE_ERRORS;

export const AIRLINE_WARNINGS = {
  /** The promotion code is not known: public fares apply. */
  UNKNOWN_PROMOTION: { code: '760', shortText: 'Promotion code not recognised' },
  /** AirlineID/Account of SpecialFareQualifiers not recognised: public fares apply. */
  UNKNOWN_CORPORATE_ACCOUNT: { code: '761', shortText: 'Corporate account not recognised' },
  /** A selected seat is sold or locked by another transaction (or not for this passenger): left out, the rest is priced. */
  SEAT_UNAVAILABLE: { code: '281', shortText: 'Seat not available' },
} as const satisfies Record<string, AirlineErrorDef>;

export type AirlineWarningName = keyof typeof AIRLINE_WARNINGS;

/** Builds the NDC error `name` with a specific `text`. Status is `Complete`, as in the spec's 913. */
export function ndcError(name: AirlineErrorName, text: string): NdcError {
  const def = AIRLINE_ERRORS[name];
  return { code: def.code, shortText: def.shortText, status: 'Complete', text };
}

export function ndcWarning(name: AirlineWarningName, text: string): NdcWarning {
  const def = AIRLINE_WARNINGS[name];
  return { code: def.code, shortText: def.shortText, text };
}

/** The stable name of an NDC error code, or undefined for codes this airline does not use. */
export function airlineErrorName(code: string): AirlineErrorName | undefined {
  return (Object.keys(AIRLINE_ERRORS) as AirlineErrorName[]).find((n) => AIRLINE_ERRORS[n].code === code);
}

/** A domain failure carrying its NDC error; services return it as an error response. */
export class AirlineError extends Error {
  readonly code: AirlineErrorName;
  readonly ndc: NdcError;
  constructor(name: AirlineErrorName, text: string) {
    super(text);
    this.code = name;
    this.ndc = ndcError(name, text);
  }
}
