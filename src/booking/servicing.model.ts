/**
 * The order after the booking (docs/orchestrator.md, "Servicing"): what the API asks a serviceable
 * booking for and what it answers, shared by the API, the workflow and the activities. Plain
 * interfaces: they cross HTTP and Temporal. Amounts are exact decimal strings with their currency.
 */
import type { Money, SelectedOfferItem } from '../ndc/ndc.model';
import type { PaymentCard } from '../common/payment-card';
import type { ExtraDirection, ExtraServiceCode, SeatChoice } from './booking.extras';

/** A flight of the order as the booking shows it (one segment). */
export interface OrderFlight {
  /** The segment's key in the airline's order (`FlightSegment/@SegmentKey`). */
  segmentKey: string;
  /** Marketing designator and number, e.g. `ZZ1234`. */
  flight: string;
  origin: string;
  destination: string;
  /** Local date and time of departure, `YYYY-MM-DDTHH:MM` (time `00:00` when the airline gives none). */
  departure: string;
  /** Local date and time of arrival, when the airline gives it. */
  arrival?: string;
}

/** An order as the saga keeps it: what the airline's OrderViewRS says of it, reduced. */
export interface OrderSummary {
  orderId: string;
  owner: string;
  bookingReference: string;
  total: Money;
  status: string;
  /** A cancelled order's cancellation fee (or a removed traveller's), when its view carries one (PenaltyList, `Cancellation`). */
  cancellationFee?: Money;
  /** A cancelled order's refund (or a removed traveller's), when its view carries one (PenaltyList, `Refund`). */
  refund?: Money;
  /** Its flights, in order of departure (absent in results recorded before servicing). */
  flights?: OrderFlight[];
  /** The PassengerIDs still on the order. */
  passengerIds?: string[];
  /** How many items the order has (services added make more). */
  itemCount?: number;
  /** A held order: unpaid until `dueBy`. */
  payment?: { status: 'due' | 'paid'; dueBy?: string; priceGuaranteedUntil?: string };
  /** The airline changed the order's schedule (`Status@ScheduleChangeInd`): it waits for the seller's answer. */
  scheduleChange?: boolean;
  /** By when the airline waits for the seller's answer to its change (then it applies its default). */
  actionBy?: string;
}

/** A held order's payment: due by a deadline, the price guaranteed until an earlier one. */
export interface BookingPayment {
  status: 'due' | 'paid' | 'expired';
  /** What is due (or was paid), card fee excluded until a card is given. */
  amount: Money;
  /** The airline cancels the order unpaid then (`TimeLimits/PaymentTimeLimit`). */
  dueBy?: string;
  /** The price holds until then; a payment after it is repriced first. */
  priceGuaranteedUntil?: string;
  paidAt?: string;
}

/** `POST /bookings/{id}/change-offers`: another date (and class) for the trip. */
export interface ChangeOffersRequest {
  journey: { departureDate: string; returnDate?: string };
  priceClass?: string;
}

/** One way to change the trip, as the airline offered it (OrderReshopRS `ReshopOffers`). */
export interface ChangeOffer {
  id: string;
  journey: { departureDate: string; returnDate?: string };
  flights: OrderFlight[];
  priceClass?: string;
  /** The trip's new total. */
  total: Money;
  /** What the change costs: positive to pay, negative refunded (penalty included). */
  difference: Money;
  /** The change fee of the fare family (0 for FLEX, and for a change the airline made). */
  penalty: Money;
  expiresAt: string;
}

/** A change offer with what accepting it names at the airline (kept by the booking, never shown). */
export interface ChangeOfferFound extends ChangeOffer {
  owner: string;
  /** The OrderReshopRS's ReShoppingResponseID. */
  responseId: string;
  /** The offer's new items (AddOfferItem), each with its passengers: what accepting it selects. */
  offerItems: SelectedOfferItem[];
}

/** `POST /bookings/{id}/changes`: take a change offer. */
export interface ChangeTripRequest {
  offerId: string;
  /** Needed only when something is due. Sensitive. */
  card?: PaymentCard;
  /** Decimal string: a change whose difference is above it is refused (409) and nothing changes. */
  maxDifference?: string;
}

/** A service on sale for the order (ServiceListRS for an OrderID), as `GET /bookings/{id}/services` shows it. */
export interface OrderServiceOffer {
  code: string;
  /** The passenger's index in the intent. */
  passenger: number;
  direction: 'outbound' | 'return';
  /** The segment it applies to (its key). */
  segment: string;
  price: string;
  currency: string;
}

/** `POST /bookings/{id}/services`: bags and seats added to the order. */
export interface AddServicesRequest {
  bags?: { passenger: number; code: ExtraServiceCode; direction: ExtraDirection }[];
  seats?: SeatChoice[];
  /** Needed when anything added has a price. Sensitive. */
  card?: PaymentCard;
}

/** `POST /bookings/{id}/cancel-quote` (and the refund of `POST /bookings/{id}/cancel`). */
export interface RefundQuote {
  /** What the airline would refund now. */
  refund: Money;
  /** What it would keep. */
  penalty: Money;
  /** The quote holds until then (the airline's word). */
  expiresAt?: string;
  /** The passengers (indexes in the intent) the quote is for: all, or those to remove. */
  passengers: number[];
}

/** `POST /bookings/{id}/payment`: pay a held booking. */
export interface PayRequest {
  /** Sensitive. */
  card: PaymentCard;
}

/** `POST /bookings/{id}/cancel`: cancel the booking, or remove some travellers (`passengers`). */
export interface CancelRequest {
  reason?: string;
  /** Indexes in the intent of the travellers to remove; absent: the whole booking. */
  passengers?: number[];
}

/** What changed the order after the booking, as `state.changes` lists it. */
export interface OrderChangeRecord {
  at: string;
  kind: 'trip' | 'services' | 'passengers' | 'payment' | 'airline';
  /** The flights before and after (trip changes). */
  from?: OrderFlight[];
  to?: OrderFlight[];
  /** Positive: charged; negative: refunded. */
  difference?: Money;
  penalty?: Money;
  /** Passengers removed (indexes in the intent). */
  passengers?: number[];
  /** The order's total after the change. */
  total?: Money;
}

/** Default of {@link ServicingOptions.paymentDueNoticeMs}: 2 h. */
export const DEFAULT_PAYMENT_DUE_NOTICE_MS = 2 * 60 * 60 * 1000;

/** Servicing settings of a booking (workflow option `servicing`); their presence keeps it open until departure. */
export interface ServicingOptions {
  /** How long before a held booking's `dueBy` the `booking.payment_due` event goes out, in ms. Default {@link DEFAULT_PAYMENT_DUE_NOTICE_MS}. */
  paymentDueNoticeMs?: number;
  /** History length after which the booking continues as new (besides the server's suggestion). Default 10 000. */
  maxHistoryEvents?: number;
  /** The agency's policy for changes the airline makes, where the intent has none. Default: none (every change waits for the agency). */
  airlineChanges?: { autoAccept?: { maxShiftMinutes: number } };
  /** How long before an airline change's `actionBy` the `booking.airline_change_due` event goes out, in ms. Default 6 h. */
  actionDueNoticeMs?: number;
}

/**
 * An airline's word that it changed an order (an OrderChangeNotif pushed to the API), or an order
 * read that shows it: handed to the booking by the `airlineChange` signal.
 */
export interface AirlineChangeNotice {
  detectedBy: 'notification' | 'order-read';
  /** The order as the airline now shows it. */
  order: OrderSummary;
  /** The notification's SequenceNmbr (the order's version): one at or below the last taken is a duplicate. */
  sequence?: number;
  /** Why, as the airline says it (its amendment remarks). */
  reason?: string;
  receivedAt: string;
}

/** `POST /bookings/{id}/airline-change`: the agency's answer to a change the airline made. */
export interface AirlineChangeAnswer {
  action: 'accept' | 'rebook' | 'cancel';
  /** `rebook`: an offer of `change-offers` (the change fee waived). */
  offerId?: string;
  /** `rebook`: needed only when something is due. Sensitive. */
  card?: PaymentCard;
}

/** The servicing actions, as `state.servicing.action` names the one running. */
export type ServicingAction =
  | 'changeOffers'
  | 'changeTrip'
  | 'orderServices'
  | 'orderSeatMap'
  | 'addServices'
  | 'cancelQuote'
  | 'removePassengers'
  | 'pay'
  | 'answerAirlineChange';

/**
 * Why a servicing request is refused before anything is sent to the airline (the update's
 * validator, or the action before its first airline call): the `ApplicationFailure` type the API
 * maps to its answer (docs/api.md, "Servicing").
 */
export const ServicingRefusal = {
  /** Another servicing action of this booking is running (HTTP 409). */
  BOOKING_BUSY: 'BOOKING_BUSY',
  /** The booking's status does not allow the action (HTTP 409). */
  NOT_SERVICEABLE: 'NOT_SERVICEABLE',
  /** No such change offer (ask `change-offers` first; HTTP 404). */
  OFFER_UNKNOWN: 'OFFER_UNKNOWN',
  /** The change offer has expired (HTTP 409). */
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  /** The change costs more than `maxDifference` (HTTP 409). */
  DIFFERENCE_ABOVE_MAX: 'DIFFERENCE_ABOVE_MAX',
  /** Something is due and no card was given (HTTP 422). */
  CARD_REQUIRED: 'CARD_REQUIRED',
  /** A passenger, bag code, seat or segment the order does not have, or a seat taken (HTTP 422). */
  INVALID_SERVICING_REQUEST: 'INVALID_SERVICING_REQUEST',
} as const;
export type ServicingRefusal = (typeof ServicingRefusal)[keyof typeof ServicingRefusal];

/** The arguments of each servicing action. */
export interface ServicingArgs {
  changeOffers: ChangeOffersRequest;
  changeTrip: ChangeTripRequest;
  orderServices: Record<string, never>;
  orderSeatMap: Record<string, never>;
  addServices: AddServicesRequest;
  cancelQuote: { passengers?: number[] };
  removePassengers: { passengers: number[]; reason?: string };
  pay: PayRequest;
  answerAirlineChange: AirlineChangeAnswer;
}
