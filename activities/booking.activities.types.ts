/**
 * Inputs and results of the booking activities: the contract between `workflows/` (which imports
 * this file as types only) and `activities/booking.activities.ts`.
 *
 * Results are small plain objects (ids, amounts, item lists), never whole NDC models, so that
 * workflow histories stay small. Every result carries `attempt`, the Temporal attempt number of
 * the activity execution that produced it (1 = first try), which the workflow adds to its step
 * records.
 */
import type { BookingIntent, IntentContact, IntentPassenger, PaymentCard } from '../src/booking/booking.model';
import type { Money, SelectedOfferItem } from '../src/ndc/ndc.model';

/** What every NDC request needs from the intent. No card data. */
export interface NdcContext {
  /** Sent as CorrelationID / X-Correlation-Id: the booking workflow id. */
  correlationId: string;
  agency: BookingIntent['agency'];
  pointOfSale: string;
  currency: string;
  language: string;
  passengers: IntentPassenger[];
  contacts: IntentContact[];
  promotionCode?: string;
  corporate?: BookingIntent['corporate'];
}

export interface CalendarInput {
  ctx: NdcContext;
  origin: string;
  destination: string;
  departureDate: string;
  returnDate?: string;
  /** LeadDatePeriod before and after the preferred dates. */
  flexibleDays: number;
}

/** The cheapest date of each direction (the preferred date when the calendar has none). */
export interface CalendarResult {
  departureDate: string;
  returnDate?: string;
  attempt: number;
}

export interface ShopInput {
  ctx: NdcContext;
  origin: string;
  destination: string;
  departureDate: string;
  returnDate?: string;
}

/** One offer of a day search, reduced to what selection and pricing need. */
export interface OfferSummary {
  offerId: string;
  owner: string;
  /** 0 = outbound, 1 = return. */
  direction: number;
  /** Price class code (e.g. `ECONOMY`), from the PriceClassList. */
  priceClass?: string;
  /** Price class name, also accepted by `selection.priceClass`. */
  priceClassName?: string;
  total: Money;
  offerItems: SelectedOfferItem[];
}

export interface ShopResult {
  shoppingResponseId: string;
  offers: OfferSummary[];
  attempt: number;
}

/** An offer chosen for pricing (one per direction). */
export interface ChosenOffer {
  offerId: string;
  owner: string;
  /** ResponseID the offer came from. */
  responseId: string;
  offerItems: SelectedOfferItem[];
}

export interface PriceInput {
  ctx: NdcContext;
  offers: ChosenOffer[];
}

/** A PricedOffer, reduced. */
export interface PriceResult {
  /** ShoppingResponseID/ResponseID of the OfferPriceRS. */
  responseId: string;
  offerId: string;
  owner: string;
  total: Money;
  /** The CCF2 card fee included in `total`, when the token-bearing pricing added one. */
  surcharge?: Money;
  offerItems: SelectedOfferItem[];
  attempt: number;
}

export interface TokeniseInput {
  /** Sensitive. Never logged, never part of an error message or a result. */
  card: PaymentCard;
  correlationId: string;
}

export interface TokenResult {
  tokenId: string;
  attempt: number;
}

export interface RepriceInput {
  ctx: NdcContext;
  /** The offers of the shopping response, as first priced. */
  offers: ChosenOffer[];
  /** The pricing response the token-bearing pricing is based on. */
  previous: PriceResult;
  tokenId: string;
}

export interface CreateOrderInput {
  ctx: NdcContext;
  /** The most recent, token-bearing pricing. */
  priced: PriceResult;
  tokenId: string;
  securePayment: BookingIntent['securePayment'];
}

export interface OrderSummary {
  orderId: string;
  owner: string;
  bookingReference: string;
  total: Money;
  status: string;
}

export interface CreateOrderResult {
  order: OrderSummary;
  /** The OrderViewRS XML OrderCreate answered (kept in case the retrieve step fails). */
  orderViewXml?: string;
  attempt: number;
}

export interface ReconcileInput {
  ctx: NdcContext;
  /** ShoppingResponseID of the day search the ordered offer came from. */
  shoppingResponseId: string;
}

export interface ReconcileResult {
  /** The order created from that shopping response, if any. */
  order?: OrderSummary;
  /** Its OrderViewRS XML as the airline answered the lookup. */
  orderViewXml?: string;
  attempt: number;
}

export interface RetrieveInput {
  ctx: NdcContext;
  orderId: string;
  owner: string;
}

export interface RetrieveResult {
  order: OrderSummary;
  orderViewXml: string;
  attempt: number;
}

/** The activities the booking workflow calls, as built by `createBookingActivities`. */
export interface BookingActivities {
  calendar(input: CalendarInput): Promise<CalendarResult>;
  shop(input: ShopInput): Promise<ShopResult>;
  price(input: PriceInput): Promise<PriceResult>;
  tokenise(input: TokeniseInput): Promise<TokenResult>;
  repriceWithToken(input: RepriceInput): Promise<PriceResult>;
  createOrder(input: CreateOrderInput): Promise<CreateOrderResult>;
  reconcileOrder(input: ReconcileInput): Promise<ReconcileResult>;
  retrieveOrder(input: RetrieveInput): Promise<RetrieveResult>;
}

/**
 * Stable `ApplicationFailure` types thrown by the activities (non-retryable unless noted).
 * `details[0]` is {@link FailureDetails}.
 */
export const FailureType = {
  NO_OFFERS: 'NO_OFFERS',
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  PRICE_MISMATCH: 'PRICE_MISMATCH',
  INVALID_CARD: 'INVALID_CARD',
  BIRTHDATE_REQUIRED: 'BIRTHDATE_REQUIRED',
  ORDER_NOT_FOUND: 'ORDER_NOT_FOUND',
  TOKEN_EXPIRED: 'TOKEN_EXPIRED',
  NO_SEATS: 'NO_SEATS',
  INVALID_REQUEST: 'INVALID_REQUEST',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** Any other NDC error code or 4xx. */
  AIRLINE_ERROR: 'AIRLINE_ERROR',
  /** createOrder only: the request may have reached the airline; reconcile before retrying. */
  ORDER_OUTCOME_UNKNOWN: 'ORDER_OUTCOME_UNKNOWN',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/** Details attached to activity `ApplicationFailure`s. No card data, ever. */
export interface FailureDetails {
  airlineCode?: string;
  text?: string;
  httpStatus?: number;
  attempt: number;
}
