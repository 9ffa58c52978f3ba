/**
 * Typed model of the NDC 17.2 messages that service an order after the sale: OrderReshopRQ/RS
 * (reshop for a change, a refund quote, a reprice of a held order), OrderChangeRQ (accept a reshop
 * or à-la-carte offer, pay a held order, accept a reprice, delete items) and OrderChangeNotif
 * (the airline's unsolicited notice that it changed an order). Plain interfaces, exact decimal
 * amounts, repeatable elements as arrays (see `ndc.model.ts`).
 */
import type {
  Amount,
  ContactInformation,
  CoreQuery,
  DataLists,
  FareDetail,
  FlightRef,
  Metadata,
  MessageHeader,
  NdcError,
  NonMoneyPrice,
  OfferItem,
  Order,
  OrderOffer,
  OrderPayment,
  Passenger,
  Penalty,
  PriceDetail,
  RequestCommon,
  ResponseCommon,
  SecurePaymentAlert,
} from './ndc.model';

/** A booking reference (`BookingReference`): `ID`, then `AirlineID` or `OtherID` (exactly one when encoding). */
export interface BookingReference {
  id: string;
  airlineId?: string;
  otherId?: string;
}

// ---------------------------------------------------------------- OrderReshopRQ

/**
 * `Query/Reshop/OrderServicing/Add`: what to shop for in place of the deleted items.
 */
export interface ReshopAdd {
  /**
   * `Add/FlightQuery`: the new journey, one entry per direction, as AirShoppingRQ's CoreQuery:
   * `OriginDestinations` (`day`: airports and date) or `Affinity` (`calendar`: a date window).
   * Absent when the Add has no flight query, or one we do not model (`FlightSpecific`).
   */
  flightQuery?: CoreQuery;
  /** `Add/Preference/CabinPreferences/CabinType/Code`: the cabin wanted, e.g. `M`. Default: any. */
  cabin?: string;
  /**
   * The price class (fare family) wanted, e.g. `FLEX`. 17.2 has no price-class preference: it is
   * written and read as `Add/Preference/FarePreferences/FareCodes/Code/Code` (up to 15
   * characters). Default: any.
   */
  priceClass?: string;
  /** `Add/Passengers/PassengerReferences`: the passengers the new flights are for. Default: all. */
  passengerRefs?: string[];
}

/**
 * What an OrderReshopRQ asks (`Query`'s choice):
 * - `servicing` (`Reshop/OrderServicing`): `add` with `deleteOrderItemIds` is a reshop for a
 *   change (offers to replace those items); `deleteOrderItemIds` alone is a refund quote for them
 *   (every item of the order, or one passenger's); nothing is changed by either.
 * - `reprice` (`Reprice`): the price now of a held order (`orderItemIds`: `[]` means every item).
 * - `nameChange` (`Reshop/NameChange`): decoded only (the passenger named), not served by us.
 */
export type OrderReshopAction =
  | { kind: 'servicing'; add?: ReshopAdd; deleteOrderItemIds: string[] }
  | { kind: 'reprice'; orderItemIds: string[] }
  | { kind: 'nameChange'; passengerId: string };

export interface OrderReshopRq extends RequestCommon {
  /** `Query/OrderID` (text: 17.2 gives it no Owner attribute). */
  orderId: string;
  /**
   * The order's owner (airline designator). OrderReshopRQ 17.2 has one place for it,
   * `Add/Qualifier/ExistingOrderQualifier/OrderKeys/OrderID@Owner` (as Iberia's requests write it),
   * so it travels only with an `add` (its `PassengerReferences`: the Add's passengers, else every
   * passenger of `passengers`); the encoder refuses it otherwise. Optional.
   */
  owner?: string;
  /** `Query/BookingReferences/BookingReference`. */
  bookingReferences?: BookingReference[];
  action: OrderReshopAction;
  /** `DataLists/PassengerList` (`[]` when absent). */
  passengers: Passenger[];
}

// ---------------------------------------------------------------- OrderReshopRS

/**
 * `ReshopDue`: what is left to settle for an item after a change: `passenger` (`ByPassenger`: the
 * passenger pays it) or `airline` (`ByAirline`: the airline refunds it). `amount` is
 * `Total/Amount` (optional in the XSD; we always write it).
 */
export interface ReshopDue {
  payer: 'passenger' | 'airline';
  amount?: Amount;
}

/**
 * `ReshopDifferential` of a DeleteOfferItem or AddOfferItem: each part is `<Part>/Total/Amount`.
 * `original` what was paid for the order item(s) replaced, `newOffer` the new item's price,
 * `penalty` the change (or cancel) penalty, `fees` other fees, `due` the difference to settle.
 */
export interface ReshopDifferential {
  original?: Amount;
  newOffer?: Amount;
  penalty?: Amount;
  fees?: Amount;
  due: ReshopDue;
}

/** `DeleteOfferItem`: an order item the offer removes (`@OrderItemID`), with its differential (a refund quote's amounts). */
export interface ReshopDeleteItem {
  offerItemId: string;
  orderItemId: string;
  differential?: ReshopDifferential;
}

/** `AddOfferItem`: a new item (an OfferItem: price, services, fare details) and what it costs against the items it replaces. */
export interface ReshopAddItem extends OfferItem {
  /** `@OrderItemIDs`: the order items this one replaces (space-separated in the XML). */
  replacesOrderItemIds?: string[];
  differential?: ReshopDifferential;
}

/**
 * `ReshopOffers/ReshopOffer`: a change offer (new flights in `addItems`, the items they replace in
 * `deleteItems`), or a refund quote (`deleteItems` only). Accepted with an OrderChangeRQ
 * `AcceptOffer` naming `offerId`, `owner` and the response's `reshopResponseId`.
 *
 * Where the money is (what our airline writes, and what `reshopSummary` adds up): each item's
 * `differential`, on the AddOfferItems of a change and on the DeleteOfferItems of a refund quote,
 * once per item; the offer's `totalPrice` is the new items' total.
 */
export interface ReshopOffer {
  offerId: string;
  owner: string;
  /** `TimeLimits/OfferExpiration@DateTime` (ISO 8601): when the offer may no longer be accepted. */
  expiresAt?: string;
  /** `TotalPrice` in a money form (we write `SimpleCurrencyPrice`): the new items' total; absent for a refund quote. */
  totalPrice?: Amount;
  /** `TotalPrice` in a form without money: decoded only. */
  otherPrice?: NonMoneyPrice;
  /** `Penalty`: the change (`ChangeFeeInd`) or cancel penalty and whether anything is refundable, with its details. */
  penalty?: Penalty;
  /** `FlightsOverview/FlightRef`: the new flights (with `@ODRef` and `@PriceClassRef`); `[]` when absent. */
  flightsOverview: FlightRef[];
  deleteItems: ReshopDeleteItem[];
  addItems: ReshopAddItem[];
}

/** `RepricedOffer/RepricedOfferItem`: an order item's price now, beside what it was (`OriginalOrderItem`). */
export interface RepricedOfferItem {
  offerItemId: string;
  /** `TotalPriceDetail`: `total` (TotalAmount, any price form), `base`, `taxes`. */
  priceDetail: PriceDetail;
  fareDetails: FareDetail[];
  /** `OriginalOrderItem@OrderItemID`. */
  originalOrderItemId: string;
  /** `OriginalOrderItem/TotalPriceDetail`. */
  originalPriceDetail: PriceDetail;
}

/** `RepricedOffer`: the held order at today's price, one item per order item repriced. */
export interface RepricedOffer {
  offerId: string;
  owner: string;
  items: RepricedOfferItem[];
}

/**
 * What an OrderReshopRS answers (`Response`'s choice): `offers` (`ReshopOffers`: change offers or a
 * refund quote; possibly none), `repriced` (`RepricedOffer`), or `noPriceChange`
 * (`NoPriceChangeInd`; `indicator` its value, `true` when the price of a reprice stands).
 */
export type OrderReshopResult =
  | { kind: 'offers'; offers: ReshopOffer[] }
  | { kind: 'repriced'; offer: RepricedOffer }
  | { kind: 'noPriceChange'; indicator: boolean };

export type OrderReshopRs =
  | (ResponseCommon & {
      kind: 'success';
      /** `ReShoppingResponseID/ResponseID`: the id an OrderChangeRQ names with an accepted offer or reprice. */
      reshopResponseId?: string;
      result: OrderReshopResult;
      /** `Response/DataLists`: the new flights, segments and price classes of the offers. */
      dataLists: DataLists;
      /** `Response/Metadata` (its `Other` part: currencies, languages, ...). */
      metadata: Metadata;
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });

// ---------------------------------------------------------------- OrderChangeRQ

/**
 * OrderChangeRQ: a change to an order. `Query`'s servicing choice is one of: `OrderServicing`
 * (`acceptOffers` and/or `deleteOrderItemIds`), `AcceptRepricedOrder` (`acceptRepricedOrder`), or
 * none (a payment of a held order: `payments` alone). The encoder refuses `acceptRepricedOrder`
 * together with offers or deletions (an XSD choice).
 */
export interface OrderChangeRq extends RequestCommon {
  /** `Query/OrderID` and its `@Owner` (optional in the XSD; we always write it). */
  order: { orderId: string; owner?: string };
  /** `OrderChangeParameters/Alerts/Alert/SecurePaymentAlert`: 3-D Secure data of the payment, as in OrderCreateRQ. */
  securePayment?: SecurePaymentAlert;
  /** `OrderChangeParameters/Reason` (IATA code, 1-3 of 0-9 A-Z). */
  reason?: string;
  /**
   * `Query/OrderServicing/AcceptOffer/Offer`: reshop offers (OrderReshopRS, `responseId` its
   * `ReShoppingResponseID`) or à-la-carte offers of the order's ServiceListRS / SeatAvailabilityRS,
   * each item with the selections of OfferPriceRQ (`ALaCarteSelection`, `SeatSelection`). `[]`
   * when none.
   */
  acceptOffers: OrderOffer[];
  /** `Query/OrderServicing/Delete/OrderItemID`: items removed (e.g. one passenger's). `[]` when none. */
  deleteOrderItemIds: string[];
  /** `Query/AcceptRepricedOrder/ResponseID`: accepts an OrderReshopRS reprice (its ReShoppingResponseID). */
  acceptRepricedOrder?: string;
  /** `Query/Payments/Payment`: card token as voucher, as in OrderCreateRQ. `[]` when none. */
  payments: OrderPayment[];
  /** `DataLists/PassengerList` (`[]` when absent). */
  passengers: Passenger[];
  /** `DataLists/ContactList` (`[]` when absent). */
  contacts: ContactInformation[];
}

// ---------------------------------------------------------------- OrderChangeNotif

/**
 * The parties of an OrderChangeNotif: the airline that sends it and the agency it is for.
 */
export interface NotifParty {
  /** `Sender/ORA_Sender/AirlineID` (or another airline sender's `AirlineID`). */
  airlineId?: string;
  /** The `Sender` child's element name when it is not `ORA_Sender`, e.g. `POA_Sender` or `TravelAgencySender`. */
  senderKind?: string;
  /** `Recipient/TravelAgencyRecipient/AgencyID`: the agency told (optional in the XSD; we always write it). */
  agencyId?: string;
}

/**
 * `Amendments/Amendment`: what the airline did to the order and why. `actionType` is `ActionType`
 * (IATA action codes as 17.2 names them, e.g. `Update`, `Reprice`, `Cancel`, `Create`, `Delete`;
 * free text up to the schema's limit), `context` its `@Context`, `remarks` the texts of
 * `Remarks/Remark` (the reason, e.g. `Schedule change: ZZ1234 departs 45 min later`).
 */
export interface OrderAmendment {
  actionType: string;
  context?: string;
  remarks: string[];
}

/**
 * OrderChangeNotif: the airline tells the seller an order changed. `order` is the order as it now
 * is (the same Order as OrderViewRS: items, status, time limits; `scheduleChange` from
 * `Status@ScheduleChangeInd`), `dataLists` its passengers, flights and segments (with times).
 * 17.2 gives the order no version: the embedded airline numbers each change of an order in the
 * root's `SequenceNmbr` (`sequenceNumber`), which receivers use to drop a notification they
 * already have.
 */
export interface OrderChangeNotif extends MessageHeader {
  /** Root `@SequenceNmbr` (xsd:nonNegativeInteger): the order's version at the airline. */
  sequenceNumber?: number;
  party: NotifParty;
  order: Order;
  /** `Query/Amendments/Amendment` (`[]` when absent). */
  amendments: OrderAmendment[];
  /** `DataLists` (no list: `{}`). */
  dataLists: DataLists;
}
