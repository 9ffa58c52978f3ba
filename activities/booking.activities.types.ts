/**
 * Inputs and results of the booking activities: the contract between `workflows/` (which imports
 * this file as types only) and `activities/booking.activities.ts`.
 *
 * Results are small plain objects (ids, amounts, item lists), never whole NDC models, so that
 * workflow histories stay small. Every result carries `attempt`, the Temporal attempt number of
 * the activity execution that produced it (1 = first try), which the workflow adds to its step
 * records.
 */
import type { BookingIntent, CardAuthentication, PaymentCard } from '../src/booking/booking.model';
import type { NdcContext, OfferToPrice } from '../src/booking/intent-to-ndc';
import type { ExtraPick, SeatMaps, ServiceOption } from '../src/booking/booking.extras';
import type { ChangeOfferFound, ChangeOffersRequest, OrderSummary, RefundQuote } from '../src/booking/servicing.model';
export type { ChangeOfferFound } from '../src/booking/servicing.model';
import type { Money, SelectedOfferItem } from '../src/ndc/ndc.model';

export type { NdcContext } from '../src/booking/intent-to-ndc';
export { FailureType, type FailureDetails } from '../src/booking/booking.failures';

/** One price of a calendar search: the cheapest total of a direction on a date. */
export interface CalendarPrice {
  /** 0 = outbound, 1 = return. */
  direction: number;
  /** YYYY-MM-DD */
  date: string;
  /** Decimal string. */
  price: string;
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

/** The calendar's prices per direction and date; the workflow chooses (`chooseTravelDates`). */
export interface CalendarResult {
  prices: CalendarPrice[];
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

/** An offer chosen for pricing (one per direction); `responseId` is the shopping response's. */
export type ChosenOffer = OfferToPrice;

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
  /** The extras priced into the offer (absent: none). */
  extras?: ExtraPick[];
  /** Texts of the airline's seat warnings (281, a seat left out), when it gave any. */
  seatWarnings?: string[];
  attempt: number;
}

export interface TokeniseInput {
  /** Sensitive. Never logged, never part of an error message or a result. */
  card: PaymentCard;
  correlationId: string;
  /**
   * Learn the card's funding even when the token answer does not say it (one more read of the
   * token): a servicing payment, whose card fee depends on it. Default false.
   */
  funding?: boolean;
}

export interface TokenResult {
  tokenId: string;
  /** The card's funding (`credit`, `debit`, ...), when the airline's token answer says it. */
  funding?: string;
  attempt: number;
}

/** The chosen offers (one per direction), for ServiceList or SeatAvailability. */
export interface ExtrasInput {
  ctx: NdcContext;
  offers: ChosenOffer[];
}

/** The services on sale for the chosen offers (one ServiceListRQ per direction). */
export interface ServiceListResult {
  /** The ALaCarteOffer they belong to (absent when nothing is on sale). */
  aLaCarteOfferId?: string;
  owner?: string;
  /** The ServiceListRS's ShoppingResponseID (an order's services: what accepting them names). */
  responseId?: string;
  options: ServiceOption[];
  attempt: number;
}

/** The seat maps of the chosen offers (one SeatAvailabilityRQ per direction); absent: no seat map. */
export interface SeatMapResult {
  maps?: SeatMaps;
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
  /** The most recent, token-bearing pricing (for a hold: the pricing without a token). */
  priced: PriceResult;
  /** Absent: a hold (OrderCreateRQ without Payments; the order is paid later). */
  tokenId?: string;
  securePayment: BookingIntent['securePayment'];
  /** `payment.card.authentication` of the intent: a 3-D Secure result done beforehand. */
  authentication?: CardAuthentication;
}

/** The order as the saga keeps it (src/booking/servicing.model.ts). */
export type { OrderSummary } from '../src/booking/servicing.model';

export interface CreateOrderResult {
  /** Absent in results recorded before 3-D Secure. */
  kind?: 'order';
  order: OrderSummary;
  /** The OrderViewRS XML OrderCreate answered (kept in case the retrieve step fails). */
  orderViewXml?: string;
  attempt: number;
}

/**
 * The airline answered the OrderCreateRQ with a CustomerInputRQ: the card needs 3-D Secure. No
 * order exists yet (the airline holds the seats for its window). No card data.
 */
export interface AuthenticationChallenge {
  kind: 'challenge';
  /** The issuer's page the cardholder's browser must be sent to (`URLs/ACS_URL`). */
  acsUrl: string;
  /** `Reference/SPM_TxnReference`, echoed in the CustomerInputRS. */
  spmTxnReference: string;
  /** `Reference/OriginalTransactionID`, echoed in the CustomerInputRS. */
  originalTransactionId?: string;
  attempt: number;
}

/** CustomerInputRS: the cardholder's result for an {@link AuthenticationChallenge}. */
export interface CustomerInputInput {
  ctx: NdcContext;
  spmTxnReference: string;
  originalTransactionId?: string;
  /** `PayerAuth/PARes` as the browser brought it. Sensitive: never logged. */
  paRes: string;
  /** `Y` (came back through the TermURL) or `N` (through the FailURL). */
  status: 'Y' | 'N';
}

export interface ReconcileInput {
  ctx: NdcContext;
  /**
   * Response ids to look the order up by, in order, until one finds it: the ResponseID the
   * OrderCreateRQ carried (the last OfferPriceRS), then the shopping response id. Airlines index
   * orders by one or the other (docs/orchestrator.md, "Never booking twice").
   */
  lookupIds?: string[];
  /** @deprecated Input of workflows started before `lookupIds`: looked up alone. */
  shoppingResponseId?: string;
}

export interface ReconcileResult {
  /** The order created from those responses, if any. */
  order?: OrderSummary;
  /** The lookup id that found it. */
  foundBy?: string;
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

export interface CancelOrderInput {
  ctx: NdcContext;
  orderId: string;
  owner: string;
}

export interface CancelOrderResult {
  /** The airline's OrderReference of the cancelled order. */
  orderReference: string;
  refund?: Money;
  fee?: Money;
  attempt: number;
}

// ------------------------------------------------------------------ servicing (docs/orchestrator.md, "Servicing")

/** An order named by its id and the airline that owns it. */
export interface OrderRef {
  orderId: string;
  owner: string;
}

export interface ReshopChangeInput {
  ctx: NdcContext;
  order: OrderRef;
  request: ChangeOffersRequest;
  /** The trip's airports (the change keeps them). */
  origin: string;
  destination: string;
  /** A change the airline's own schedule change calls for: no change fee. */
  involuntary?: boolean;
}

export interface ReshopChangeResult {
  offers: ChangeOfferFound[];
  attempt: number;
}

export interface QuoteRefundInput {
  ctx: NdcContext;
  order: OrderRef;
  /** Indexes in the intent of the travellers to remove; absent: the whole order. */
  passengers?: number[];
}

export interface QuoteRefundResult extends RefundQuote {
  attempt: number;
}

export interface RepriceOrderInput {
  ctx: NdcContext;
  order: OrderRef;
  /** With a card token the price includes the card's fee. */
  tokenId?: string;
}

export interface RepriceOrderResult {
  /** What the order costs now (with the card fee when a token was given). */
  total: Money;
  /** The airline says the price stands (`NoPriceChangeInd`). */
  unchanged: boolean;
  /** The ReShoppingResponseID an `AcceptRepricedOrder` names, when the price changed. */
  responseId?: string;
  surcharge?: Money;
  attempt: number;
}

/** What an OrderChangeRQ does. */
export type OrderChange =
  /** Accept change offers or à-la-carte offers (with the payment of what is due). */
  | { kind: 'acceptOffers'; offers: ChosenOffer[]; payment?: { tokenId: string; amount: Money } }
  /** Pay a held order (accepting a reprice first when it changed). */
  | { kind: 'pay'; tokenId: string; amount: Money; acceptRepricedOrder?: string }
  /** Remove travellers (their items). */
  | { kind: 'removePassengers'; passengers: number[] }
  /** Accept the order as the airline changed it (`OrderChangeParameters/Reason`, nothing else changed). */
  | { kind: 'acceptAirlineChange'; reason: string };

export interface ChangeOrderInput {
  ctx: NdcContext;
  order: OrderRef;
  change: OrderChange;
  /** 3-D Secure data of a payment (TermURL / FailURL, the browser). */
  securePayment: BookingIntent['securePayment'];
}

export interface OrderExtrasInput {
  ctx: NdcContext;
  order: OrderRef;
  /** The trip's destination: services of segments departing from it are the return's. */
  destination?: string;
}

/** The activities the booking workflow calls, as built by `createBookingActivities`. */
export interface BookingActivities {
  calendar(input: CalendarInput): Promise<CalendarResult>;
  shop(input: ShopInput): Promise<ShopResult>;
  price(input: PriceInput): Promise<PriceResult>;
  tokenise(input: TokeniseInput): Promise<TokenResult>;
  repriceWithToken(input: RepriceInput): Promise<PriceResult>;
  createOrder(input: CreateOrderInput): Promise<CreateOrderResult | AuthenticationChallenge>;
  /** CustomerInputRS; never retried (a lost answer is settled by looking the order up). */
  customerInput(input: CustomerInputInput): Promise<CreateOrderResult>;
  reconcileOrder(input: ReconcileInput): Promise<ReconcileResult>;
  retrieveOrder(input: RetrieveInput): Promise<RetrieveResult>;
  cancelOrder(input: CancelOrderInput): Promise<CancelOrderResult>;
  /** ServiceListRQ per chosen offer: the services on sale (bags, meals, ...). */
  listServices(input: ExtrasInput): Promise<ServiceListResult>;
  /** SeatAvailabilityRQ per chosen offer: the seat maps. */
  readSeatMaps(input: ExtrasInput): Promise<SeatMapResult>;
  /** OrderReshopRQ: offers to change the trip (changes nothing). */
  reshopChange(input: ReshopChangeInput): Promise<ReshopChangeResult>;
  /** OrderReshopRQ: what cancelling would refund (changes nothing). */
  quoteRefund(input: QuoteRefundInput): Promise<QuoteRefundResult>;
  /** OrderReshopRQ: a held order's price now (changes nothing). */
  repriceOrder(input: RepriceOrderInput): Promise<RepriceOrderResult>;
  /** OrderChangeRQ; never retried (a lost answer is settled by reading the order back). */
  changeOrder(input: ChangeOrderInput): Promise<CreateOrderResult | AuthenticationChallenge>;
  /** ServiceListRQ for the order. */
  listOrderServices(input: OrderExtrasInput): Promise<ServiceListResult>;
  /** SeatAvailabilityRQ for the order. */
  readOrderSeatMaps(input: OrderExtrasInput): Promise<SeatMapResult>;
  /**
   * Nothing but a permit: run on the airline's reads task queue, whose rate limit is the share of
   * the airline's quota that order reads may take, before each scheduled order read.
   */
  orderReadPermit(): Promise<{ attempt: number }>;
}
