/**
 * Typed model of the NDC 17.2 messages for extras (seats and services): ServiceListRQ/RS and
 * SeatAvailabilityRQ/RS, and the à-la-carte offer both responses carry. Plain interfaces, exact
 * decimal amounts with their currency, repeatable elements as arrays (see `ndc.model.ts`).
 */
import type {
  Amount,
  DataLists,
  NdcError,
  NonMoneyPrice,
  OrderRef,
  Passenger,
  RequestCommon,
  ResponseCommon,
} from './ndc.model';

/**
 * An `ALaCarteOfferItem` (ALaCarteOfferItemType): one service at a unit price, for the passengers
 * and segments of its `Eligibility`.
 */
export interface ALaCarteOfferItem {
  /** `@OfferItemID`. */
  offerItemId: string;
  /** `Eligibility/PassengerRefs` (optional in the XSD: `[]` when absent). */
  passengerRefs: string[];
  /** `Eligibility/SegmentRefs` (optional in the XSD: `[]` when absent). */
  segmentRefs: string[];
  /** `Eligibility/PriceClassRefs`: the fare families the price applies to. */
  priceClassRefs?: string[];
  /**
   * `UnitPriceDetail/TotalAmount` in a money form (we write `SimpleCurrencyPrice`); absent for a
   * form without money (then `otherPrice`). Read it with `requireMoney`.
   */
  unitPrice?: Amount;
  /** `UnitPriceDetail/TotalAmount` in a form without money: decoded only. */
  otherPrice?: NonMoneyPrice;
  /** `Service/@ServiceID`. */
  serviceId: string;
  /** `Service/ServiceDefinitionRef`. */
  serviceDefinitionRef: string;
}

/** `ALaCarteOffer`: an offer of extras (OfferID, Owner) and its items (at least one). */
export interface ALaCarteOffer {
  offerId: string;
  owner: string;
  offerItems: ALaCarteOfferItem[];
}

/** One offer of a ServiceListRQ `Query/Offers/Offer`: the offer and the items the extras are for. */
export interface ServiceListOffer {
  /** `OfferID` (text) and its `@Owner`. */
  offerId: string;
  owner: string;
  /** `OfferItemIDs/OfferItemID` (at least one in the XSD). */
  offerItemIds: string[];
}

/**
 * ServiceListRQ: the services that can be added to offers (`ShoppingResponseID` and
 * `Query/Offers`) or to an existing order (`Query/OrderID@Owner`, `order`). The query by
 * OriginDestination decodes as `offers: []` without `order`.
 */
export interface ServiceListRq extends RequestCommon {
  /** `ShoppingResponseID/ResponseID`. */
  shoppingResponseId?: string;
  offers: ServiceListOffer[];
  /** `Query/OrderID` and its `@Owner`: the services of an existing order (instead of `offers`, an XSD choice). */
  order?: OrderRef;
  passengers: Passenger[];
}

export type ServiceListRs =
  | (ResponseCommon & {
      kind: 'success';
      shoppingResponseId?: string;
      /** Absent when there is nothing to add. */
      aLaCarteOffer?: ALaCarteOffer;
      dataLists: DataLists;
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });

/** SeatAvailabilityRQ `Query/Offer`: the offer whose seat maps are asked for. */
export interface SeatAvailabilityOffer {
  offerId: string;
  owner: string;
  responseId: string;
  /** `SegmentID`: the segments to map; `[]` means every segment of the offer. */
  segmentIds: string[];
  /** `PassengerID`: the passengers seats are for; `[]` means all of the request's passengers. */
  passengerIds: string[];
}

/** SeatAvailabilityRQ `Query/Order`: the existing order whose seat maps are asked for. */
export interface SeatAvailabilityOrder {
  /** `@OrderID`. */
  orderId: string;
  /** `@Owner`. */
  owner: string;
  /** `PassengerID`: the passengers seats are for; `[]` means every passenger of the order. */
  passengerIds: string[];
  /** `SegmentID`: the segments to map; `[]` means every segment of the order. */
  segmentIds: string[];
}

/**
 * SeatAvailabilityRQ: the seat maps of an offer's flights (`Query/Offer`) or of an existing
 * order's (`Query/Order`, an XSD choice). The form by FlightSegment decodes with both absent.
 */
export interface SeatAvailabilityRq extends RequestCommon {
  shoppingResponseId?: string;
  offer?: SeatAvailabilityOffer;
  /** `Query/Order`: the seats of an existing order (instead of `offer`). */
  order?: SeatAvailabilityOrder;
  passengers: Passenger[];
}

/** Seat status codes we write in `SeatStatus` (IATA_CodeType). */
export const SEAT_STATUS = { available: 'F', occupied: 'O' } as const;

/** A `Seat` of a seat map row. */
export interface SeatMapSeat {
  /** `Column`, e.g. `A`. */
  column: string;
  /** `SeatStatus`: `F` free, `O` occupied (other parties may send other IATA codes). */
  status?: string;
  /** `SeatCharacteristics/Code` (PADIS 9825: `W` window, `A` aisle, `E` exit row, `1A` not for infants, ...). */
  characteristics: string[];
  /** `OfferItemRefs`: the à-la-carte items pricing this seat (`[]` when absent). */
  offerItemRefs: string[];
}

export interface SeatMapRow {
  /** `Number`. */
  number: number;
  /** `RowCharacteristics/Code` (e.g. `E` exit row). */
  characteristics: string[];
  seats: SeatMapSeat[];
}

/** A `Cabin` of a seat map: its code, layout and rows. */
export interface SeatMapCabin {
  /** `CabinType/Code`, e.g. `M`. */
  cabinCode?: string;
  /** `CabinType/Name`. */
  cabinName?: string;
  /** `CabinLayout/Columns` with their `@Position` (`W` window, `A` aisle, `C` centre). Written when `rows` is set. */
  columns: { designator: string; position?: string }[];
  /** `CabinLayout/Rows/First` and `Last`. */
  rowRange?: { first: number; last: number };
  /** `CabinLayout/ExitRowPosition/RowPosition` rows (First = Last = the row). */
  exitRows: number[];
  rows: SeatMapRow[];
}

/** A `SeatMap`: the cabins of one segment. */
export interface SeatMap {
  /** `SegmentRef` (IDREF to a FlightSegment). */
  segmentRef: string;
  cabins: SeatMapCabin[];
}

export type SeatAvailabilityRs =
  | (ResponseCommon & {
      kind: 'success';
      shoppingResponseId?: string;
      /** The seat prices (one item per zone, segment and passenger type). */
      aLaCarteOffer?: ALaCarteOffer;
      seatMaps: SeatMap[];
      dataLists: DataLists;
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });
