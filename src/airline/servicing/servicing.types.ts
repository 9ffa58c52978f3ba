/**
 * What an order is made of after the sale, and what a change of it does (docs/airline-service.md,
 * "Servicing orders"): the records the store keeps and the servicing services work on. Plain data
 * (stored as JSON); amounts are exact decimal strings with their currency.
 */
import type { ContactInformation, Money, MoneyOfferItem, Passenger, Penalty, Qualifier } from '../../ndc/ndc.model';
import type { OrderChangeRq } from '../../ndc/servicing.model';
import type { PricedSeat, SoldSegment } from '../airline.ports';

/** One direction of an order as sold: enough to price its flights and extras again. */
export interface SoldJourney {
  /** The offer it was sold from: a shopping OfferID, or a reshop offer's. */
  offerId: string;
  /** 0 outbound, 1 return. */
  direction: number;
  /** OriginDestinationKey (`OD__LGW_OSL`). */
  odKey: string;
  /** The origin and destination codes as shopped (airport or city). */
  from: string;
  to: string;
  /** Departure date, `YYYY-MM-DD`. */
  date: string;
  /** Flight numbers without designator. */
  flights: string[];
  /** FlightKey of the journey (`FLT__ZZ101_20261201`): the fare items' FlightRefs. */
  flightKey: string;
  /** Price class code (`ECONOMY`). */
  priceClass: string;
  /** The qualifier it was priced with (promotion, corporate account), kept for changes. */
  qualifier?: Qualifier;
}

/** A payment the airline charged for the order (a card token as voucher). */
export interface OrderCharge {
  type: string;
  amount: Money;
  voucherNumber: string;
}

/** The time limits of an unpaid (held) order. */
export interface OrderHold {
  /** When the airline cancels it unpaid (ISO 8601 UTC). */
  paymentDue: string;
  /** Until when its price stands (ISO 8601 UTC; at most `paymentDue`). */
  priceGuaranteedUntil: string;
}

/**
 * A change the airline made to the order's flights (docs/airline-service.md, "Schedule changes"),
 * waiting for the seller's answer until `actionBy`: accepting it (OrderChangeRQ) ends the wait; a
 * rebook waives the change fee, a cancel refunds in full; at `actionBy` the airline's default
 * applies (a retime stands, an order off a cancelled flight is cancelled with a full refund).
 */
export interface OrderAirlineChange {
  kind: 'retime' | 'cancelled';
  /** The flight changed: designator and number (`ZZ1234`) and its scheduled date. */
  flight: string;
  date: string;
  /** A retime: how many minutes later it leaves (earlier when negative). */
  shiftMinutes?: number;
  /** A cancelled flight: the flight the travellers were moved to, if any. */
  alternative?: { flight: string; date: string };
  /** Why, as the notification's Remark says it. */
  reason: string;
  changedAt: string;
  /** By when the seller answers (ISO 8601 UTC). */
  actionBy: string;
}

/**
 * What an order holds now: its priced items (fares with their fare details, extras, card
 * surcharges), the journeys, inventory and seats they take, its passengers and contacts, and its
 * money. Every change of the order replaces it as a whole.
 */
export interface OrderContent {
  currency: string;
  items: MoneyOfferItem[];
  /** In direction order. */
  journeys: SoldJourney[];
  /** Seats sold per flight and booking class. */
  segments: SoldSegment[];
  /** Seats of the seat maps assigned to the order's passengers. */
  seats: PricedSeat[];
  /** The passengers on the order (a removed passenger is gone). */
  passengers: Passenger[];
  contacts: ContactInformation[];
  /** What the agency paid, in order. */
  charges: OrderCharge[];
  /** What the airline holds of the agency's money: charges less refunds. Never below zero. */
  paid: Money;
  /** Set while the order is unpaid. */
  hold?: OrderHold;
  /** The fees kept and refunds given by changes and the cancel, newest first (OrderViewRS PenaltyList). */
  penalties: Penalty[];
  /** Set while a change the airline made waits for the seller's answer (`Status@ScheduleChangeInd`). */
  airlineChange?: OrderAirlineChange;
}

/** How a change moves money: the signed difference (positive: due; negative: refunded) and the fee kept. */
export interface ChangeMoney {
  difference: Money;
  penalty: Money;
}

/**
 * A change of an order, worked out and checked against the order's `version`, ready to be applied
 * in one transaction: the items, journeys, inventory, seats and passengers it removes and adds,
 * and its money.
 */
export interface ChangePlan extends ChangeMoney {
  kind: 'flights' | 'extras' | 'passengers' | 'reprice';
  /** The version of the order it was worked out for. */
  version: number;
  removeItemIds: string[];
  /** Added items (an item with the id of a removed one takes its place). */
  addItems: MoneyOfferItem[];
  /** FlightKeys of the journeys given up. */
  removeJourneys: string[];
  addJourneys: SoldJourney[];
  /** Inventory given back and sold. */
  release: SoldSegment[];
  sell: SoldSegment[];
  releaseSeats: PricedSeat[];
  sellSeats: PricedSeat[];
  removePassengerIds: string[];
}

/**
 * An OrderReshopRS kept until it expires: its offers' plans, for an OrderChangeRQ that accepts one
 * (`AcceptOffer`) or the reprice (`AcceptRepricedOrder`).
 */
export interface ReshopRecord {
  responseId: string;
  orderId: string;
  agencyId: string;
  kind: 'change' | 'refund' | 'reprice';
  createdAt: string;
  expiresAt: string;
  /** The plan of each offer, by OfferID (a reprice has one). */
  plans: Record<string, ChangePlan>;
}

/** A change of an order that was applied, by the OrderChangeRQ's TransactionIdentifier (exactly once). */
export interface AppliedChange {
  orderId: string;
  transactionId: string;
  /** Digest of the request's content: the same TransactionIdentifier with other content is refused. */
  requestHash: string;
  /** The order's version after the change. */
  version: number;
  appliedAt: string;
}

/** An OrderChangeRQ waiting for 3-D Secure: applied when the CustomerInputRS approves it. */
export interface PendingChange {
  orderId: string;
  /** The order's version the change was worked out for: the change applies only to it. */
  version: number;
  request: OrderChangeRq;
  requestHash: string;
  plan?: ChangePlan;
  /** The payment it makes (the amount includes any card surcharge); absent when nothing is due. */
  charge?: OrderCharge;
  /** The card surcharge included in `charge`, when the card pays one. */
  surcharge?: Money;
  /** Set when it pays a held order. */
  paysHold: boolean;
  /** Set when it accepts the airline's schedule change as it stands (nothing else changes). */
  acceptsAirlineChange?: boolean;
}
