/**
 * Typed model of the NDC 17.2 messages used by ndc-saga (see
 * `../shared/spec/airline-retail-ndc-17.2.md`).
 *
 * Every type here is a plain interface so that it serialises unchanged across
 * HTTP and Temporal. Amounts are exact decimal strings (`"123.40"`), never JS
 * numbers, and always travel with their ISO 4217 currency code. Every element
 * that the XSD allows to repeat is an array, even when it holds one entry.
 * Space-separated IDREFS lists are arrays of ids.
 */

/**
 * An amount as a message carries it: an exact decimal (`value` matches /^-?\d+(\.\d+)?$/, kept as
 * written) and its ISO 4217 currency. The 17.2 amount types make the currency attribute `Code`
 * optional; the decoders then take the message's currency metadata
 * (`Metadata/Other/OtherMetadata/CurrencyMetadatas`, when it names exactly one currency), and
 * leave `currency` absent when neither says. Logic that needs money asks for it where it uses it:
 * `requireMoney(amount, element, { currency })` (`require-element.ts`), with the currency it knows
 * from elsewhere (the request's, the offer's) as fallback. Our encoders write `Code` whenever
 * `currency` is set, which it always is in what the project builds.
 */
export interface Amount {
  value: string;
  currency?: string;
  /**
   * Set only on an amount written without `Code` in a message whose `CurrencyMetadata` gives
   * decimal places (`Decimals`) but names no ISO 4217 currency: the places it gives. The amount's
   * currency is then unknown, and `requireMoney` refuses it with `NdcUnknownCurrencyError`.
   */
  decimals?: number;
}

/** An exact decimal amount with its currency: what the project computes with and sends. */
export interface Money extends Amount {
  currency: string;
}

/**
 * A price given in a form of the 17.2 price choice that carries no money total: `AwardPricing`
 * (redemption units only), `CombinationPricing` (partly cash, partly units) or a
 * `DetailCurrencyPrice` with `Equivalent` instead of `Total` (price not known, e.g. IT fares).
 * Decoded from other parties; where money is needed `requireMoney` throws
 * `NdcNoMoneyPriceError` naming the form. Our encoders never write it.
 */
export interface NonMoneyPrice {
  form: 'AwardPricing' | 'CombinationPricing' | 'Equivalent';
  /** `Redemption/Unit` and `Redemption/Quantity` (award and combination). */
  redemption?: { unit: string; quantity: string };
  /** `CombinationPricing/Partial/Currency`: the cash part of a combination. */
  cashPart?: Amount;
  /** Text of `Equivalent`, e.g. `IT`. */
  equivalent?: string;
}

/** Currency metadata (`CurrencyMetadata`): the key is the ISO 4217 code, as IATA's examples write it. */
export interface CurrencyMetadata {
  key: string;
  /** `Decimals`: places normally shown (information only: amounts stay as written). */
  decimals?: number;
  name?: string;
  application?: string;
}

/** Attributes on the root element of every request and response. */
export interface MessageHeader {
  /** `Test` in every message of the spec. */
  target: string;
  /** Always `17.2`. */
  version: string;
  /**
   * ISO 8601 date-time; our requests use UTC with `Z`, our responses a local offset with
   * fractions. Optional in the XSD, so optional here: other parties may leave it out.
   */
  timeStamp?: string;
  transactionIdentifier?: string;
  correlationId?: string;
}

/**
 * The sender of a request. We write a `TravelAgencySender` (AgencyID required
 * to encode); other parties' requests may come from another kind of sender
 * (`ORA_Sender`, `AggregatorSender`, ...), named in `senderKind`, whose agency
 * fields are then absent.
 */
export interface TravelAgencySender {
  /** `TravelAgencySender/Name`: optional in the XSD. */
  name?: string;
  /** `TravelAgencySender/AgencyID`: required in a TravelAgencySender; absent for other sender kinds. */
  agencyId?: string;
  /** The `Sender` child's element name when it is not `TravelAgencySender`, e.g. `ORA_Sender`; absent for a travel agency. */
  senderKind?: string;
}

export interface AggregatorParticipant {
  sequenceNumber: number;
  /** Optional in the XSD. */
  name?: string;
  aggregatorId: string;
}

/**
 * Party of a request. `participants`: absent = element omitted, `[]` = sent
 * as `xsi:nil="true"`. Recipient is always sent as nil.
 */
export interface Party {
  sender: TravelAgencySender;
  participants?: AggregatorParticipant[];
}

export interface Parameters {
  /** Parameters/Languages/LanguageCode, e.g. `EN`. */
  languages?: string[];
  /** Parameters/Pricing/OverrideCurrency, ISO 4217. */
  overrideCurrency?: string;
}

/** What every request carries besides its query. */
export interface RequestCommon extends MessageHeader {
  /** PointOfSale/Location/CountryCode. */
  pointOfSaleCountry?: string;
  party: TravelAgencySender & { participants?: AggregatorParticipant[] };
  parameters?: Parameters;
}

export type PassengerTypeCode = 'ADT' | 'CHD' | 'INF' | (string & {});

export interface Individual {
  /** YYYY-MM-DD */
  birthdate?: string;
  nameTitle?: string;
  givenNames?: string[];
  /** Required by the XSD whenever Individual is present. */
  surname: string;
}

export interface Passenger {
  /** XML ID, e.g. `PAX__ADT01`. */
  passengerId: string;
  /**
   * `PTC`: optional in the XSD (we always write it). Logic that prices or checks passengers reads
   * it with `requirePtc(p)` (`require-element.ts`), which names the element.
   */
  ptc?: PassengerTypeCode;
  individual?: Individual;
  /** ContactID of a ContactInformation entry. */
  contactInfoRef?: string;
}

export interface Phone {
  /** Optional in the XSD (a number written in full, or a local one). Our requests always set it. */
  countryDialingCode?: string;
  /** Optional in the XSD (a phone given only by its label or area code). Our requests always set it. */
  phoneNumber?: string;
}

/** One ContactProvided element: either an e-mail address or a phone. */
export type ContactProvided = { email: string } | { phone: Phone };

export interface ContactInformation {
  /** `@ContactID`: optional in the XSD (we always write it); a contact without it cannot be referred to. */
  contactId?: string;
  provided: ContactProvided[];
}

/** An NDC error (Errors/Error). */
export interface NdcError {
  /** `@Code` (IATA error code, e.g. `913`): optional in the XSD, always written by us. */
  code?: string;
  shortText?: string;
  status?: string;
  text: string;
}

/** An NDC warning (Warnings/Warning). */
export interface NdcWarning {
  code?: string;
  shortText?: string;
  text: string;
}

/**
 * `SpecialFareQualifiers` (FareQualifierType): the airline, an optional `CompanyIndex`, then
 * `Contract` or `Account` (an XSD choice; either may be absent). Our requests send an `Account`.
 */
export interface SpecialFare {
  airlineId: string;
  companyIndex?: string;
  contract?: string;
  account?: string;
}

export interface Qualifier {
  promotionCodes?: string[];
  specialFare?: SpecialFare;
}

// ---------------------------------------------------------------- AirShopping

export interface CalendarOriginDestination {
  departureCode: string;
  /** Preferred date, YYYY-MM-DD. */
  date: string;
  /** LeadDatePeriod, days after and before the preferred date. */
  daysAfter: number;
  daysBefore: number;
  arrivalCode: string;
}

export interface DayOriginDestination {
  departureCode: string;
  date: string;
  arrivalCode: string;
}

export type CoreQuery =
  | { kind: 'calendar'; originDestinations: CalendarOriginDestination[] }
  | { kind: 'day'; originDestinations: DayOriginDestination[] };

export interface AirShoppingRq extends RequestCommon {
  /**
   * The two query shapes we model. Absent when the CoreQuery has another form
   * the XSD allows (FlightSpecific, ShoppingResponseIDs, an origin/destination
   * without airports or date): use `requireElement(rq.coreQuery, 'CoreQuery/OriginDestinations')`.
   */
  coreQuery?: CoreQuery;
  qualifier?: Qualifier;
  passengers: Passenger[];
}

/** A `PriceCalendarDate`: the date and the OriginDestination it departs on. */
export interface PriceCalendarDate {
  date: string;
  /** `@OriginDestinationReference`: optional in the XSD (we always write it). */
  originDestinationRef?: string;
}

/**
 * A `PriceCalendar`: the lowest total for its dates. One date (our airline: one entry per date
 * and direction), or several, one per direction of a combination (e.g. out and back) priced
 * together. `TotalPrice@refs` may name several AugPoint keys (JOURNEYS metadata).
 */
export interface PriceCalendarEntry {
  /** At least one. */
  dates: PriceCalendarDate[];
  totalPrice: Amount;
  /** AugPoint keys of the JOURNEYS metadata (`TotalPrice@refs`). */
  augPointRefs?: string[];
}

export interface CalendarAirlineOffers {
  /**
   * @deprecated NDC 17.2 `AirlineOffers` carries no attributes, so the owner
   * cannot travel in the XML: ignored by the encoder, never set by the decoder.
   */
  owner?: string;
  priceCalendar: PriceCalendarEntry[];
}

export interface JourneyMetadata {
  key: string;
  transfer: boolean;
}

export interface FlightRef {
  /**
   * `@ODRef`: optional in the XSD (we always write it). Where it is absent, the OriginDestination
   * is the one whose `FlightReferences` name `flightKey`: `flightOriginDestination(ref, dataLists)`
   * (`references.ts`).
   */
  odRef?: string;
  priceClassRef?: string;
  flightKey: string;
}

/**
 * FareComponent/SegmentRefs: one element per fare component (the XSD allows at
 * most one) whose content is a space-separated SegmentKey list, with the
 * ON_Point / OFF_Point airport codes as attributes.
 */
export interface SegmentRef {
  onPoint?: string;
  offPoint?: string;
  segmentKeys: string[];
}

/**
 * A FareComponent. `FareBasis` is optional in the XSD, and so is its `RBD`; when FareBasis is
 * present it has a `CabinType` with `CabinTypeCode` and `CabinTypeName` (untyped, may be empty:
 * empty decodes as absent). Our encoder writes FareBasis when any of the three is set.
 */
export interface FareComponent {
  rbd?: string;
  cabinTypeCode?: string;
  cabinTypeName?: string;
  priceClassRef?: string;
  segmentRefs?: SegmentRef;
}

/**
 * Per-passenger price detail of a FareDetail (`Price`, a FarePriceDetailType). The XSD makes
 * `TotalAmount` and `Taxes` optional and `BaseAmount` required.
 */
export interface FareDetail {
  passengerRefs: string[];
  /**
   * `Price/TotalAmount` in a money form (see {@link PriceDetail}): absent without TotalAmount or in
   * a form without money (then `otherPrice`). Read it with `requireMoney`.
   */
  total?: Amount;
  /** `Price/TotalAmount` in a form without money (award, combination, Equivalent): decoded only. */
  otherPrice?: NonMoneyPrice;
  /** `Price/Taxes/Total`, else `TotalAmount/DetailCurrencyPrice/Taxes/Total`: optional in the XSD. */
  taxes?: Amount;
  /** `Price/BaseAmount`: required by the XSD. */
  base: Amount;
  fareComponents: FareComponent[];
}

/**
 * An OfferItem's `Service`: `PassengerRefs`, then the XSD choice of `FlightRefs`,
 * `ServiceDefinitionRef` or `SelectedSeat`. Exactly one of the three is set (the encoder refuses
 * anything else); the airline writes the first two, `selectedSeat` comes from other parties.
 */
export interface OfferService {
  serviceId: string;
  passengerRefs: string[];
  flightRefs?: string[];
  serviceDefinitionRef?: { ref: string; segmentRefs?: string[] };
  /** `SelectedSeat`: `Seat/Row`, `Seat/Column`, `SegmentRef`, `ServiceDefinitionRef` (all required by the XSD). */
  selectedSeat?: SelectedSeat;
}

/**
 * Per-passenger totals of an offer item (`TotalPriceDetail`). The XSD requires `TotalAmount` (in
 * any of the five price forms) and leaves `BaseAmount` and `Taxes` out, so all three are optional
 * here. Logic that needs one asks for it where it uses it, e.g.
 * `requireMoney(item.priceDetail.total, 'OfferItem/TotalPriceDetail/TotalAmount', { currency, otherPrice: item.priceDetail.otherPrice })`.
 * Our encoders write every amount that is set (the airline always sets all three: `AirlinePriceDetail`).
 */
export interface PriceDetail {
  /**
   * The money amount of `TotalAmount` in whichever form carries one (`SimpleCurrencyPrice`,
   * `DetailCurrencyPrice/Total`, `EncodedCurrencyPrice`); absent for a form without money (then
   * `otherPrice`).
   */
  total?: Amount;
  /** `TotalAmount` in a form without money (award, combination, Equivalent): decoded only. */
  otherPrice?: NonMoneyPrice;
  /** `BaseAmount`: optional in the XSD. */
  base?: Amount;
  /** `Taxes/Total`, else `TotalAmount/DetailCurrencyPrice/Taxes/Total`: optional in the XSD. */
  taxes?: Amount;
}

export interface OfferItem {
  offerItemId: string;
  priceDetail: PriceDetail;
  services: OfferService[];
  fareDetails: FareDetail[];
}

/**
 * An offer item whose prices are all money, as the project builds them (the airline's responses,
 * the fixtures): a `total`, `base` and `taxes` with currency on the item and on each fare detail.
 * Decoded items are {@link OfferItem}s, whose amounts the XSD leaves optional.
 */
export interface MoneyOfferItem extends OfferItem {
  priceDetail: { total: Money; base: Money; taxes: Money };
  fareDetails: (FareDetail & { total: Money; taxes: Money; base: Money })[];
}

export interface Offer {
  offerId: string;
  owner: string;
  /**
   * `TotalPrice` in a form with money (`SimpleCurrencyPrice`, which we write, `DetailCurrencyPrice/Total`
   * or `EncodedCurrencyPrice`). Optional in the XSD: absent without TotalPrice, or with a form
   * without money (then `otherPrice`). Read it with `requireMoney(offer.totalPrice, 'Offer/TotalPrice', ...)`.
   */
  totalPrice?: Amount;
  otherPrice?: NonMoneyPrice;
  flightsOverview: FlightRef[];
  offerItems: OfferItem[];
}

/** `Departure` or `Arrival` of a FlightSegment: `Date` and `Time` are optional in the XSD (but a departure's `Date`). */
export interface Location {
  airportCode: string;
  /** YYYY-MM-DD: required in a {@link DepartureLocation}, optional in an arrival. */
  date?: string;
  /** HH:MM local: optional in the XSD (we always write it). */
  time?: string;
  airportName?: string;
  /** Metadata keys (country and city). */
  refs?: string[];
}

/** A FlightSegment's `Departure`, whose `Date` the XSD requires. */
export interface DepartureLocation extends Location {
  date: string;
}

export interface Carrier {
  airlineId: string;
  flightNumber: string;
  name?: string;
}

/** `FlightSegment/OperatingCarrier`: unlike the marketing carrier's, its `FlightNumber` is optional in the XSD. */
export interface OperatingCarrier {
  /** `AirlineID`: optional in the XSD (a name alone, or a flight number). */
  airlineId?: string;
  flightNumber?: string;
  name?: string;
}

export interface FlightSegment {
  segmentKey: string;
  departure: DepartureLocation;
  arrival: Location;
  marketingCarrier: Carrier;
  operatingCarrier?: OperatingCarrier;
  aircraftCode?: string;
  /** ISO 8601 duration. */
  duration?: string;
  /** Booking class, OfferPriceRS only. */
  classOfService?: string;
}

export interface Flight {
  /** `@FlightKey`: optional in the XSD (we always write it); a flight without it cannot be referred to. */
  flightKey?: string;
  journeyTime?: string;
  segmentRefs: string[];
}

export interface OriginDestination {
  /** `@OriginDestinationKey`: optional in the XSD (we always write it). */
  originDestinationKey?: string;
  departureCode: string;
  arrivalCode: string;
  flightRefs?: string[];
}

export interface ClassOfService {
  /** `@refs`: the SegmentKeys the booking class applies to (several for a connection). */
  segmentRefs?: string[];
  code: string;
  seatsLeft?: number;
}

export interface PriceClass {
  /** `@PriceClassID`: optional in the XSD (we always write it); a price class without it cannot be referred to. */
  priceClassId?: string;
  name: string;
  code?: string;
  classesOfService?: ClassOfService[];
}

/**
 * PieceMeasurements (attribute Quantity). `maximumWeight` and `applicableBag`
 * are written inside one PieceWeightAllowance, which the XSD only allows with a
 * MaximumWeight: `applicableBag` without `maximumWeight` is refused by the encoder.
 */
export interface PieceMeasurement {
  quantity: number;
  maximumWeight?: { value: string; uom: string };
  applicableBag?: string;
}

export interface BaggageAllowance {
  baggageAllowanceId: string;
  category: string;
  pieceAllowance?: {
    applicableParty: string;
    totalQuantity: number;
    measurements: PieceMeasurement[];
  };
}

/**
 * The XSD makes `ServiceBundle` and `BaggageAllowanceRef` a choice: at most one
 * of `bundleRefs` and `baggageAllowanceRef` may be set (the encoder throws otherwise).
 */
export interface ServiceDefinition {
  serviceDefinitionId: string;
  name: string;
  encodingCode?: string;
  descriptions: string[];
  bundleRefs?: string[];
  baggageAllowanceRef?: string;
}

export interface DataLists {
  passengers?: Passenger[];
  contacts?: ContactInformation[];
  baggageAllowances?: BaggageAllowance[];
  flightSegments?: FlightSegment[];
  flights?: Flight[];
  originDestinations?: OriginDestination[];
  /** `PenaltyList` (e.g. the cancellation fee and refund of a cancelled order, see {@link Penalty}). */
  penalties?: Penalty[];
  priceClasses?: PriceClass[];
  serviceDefinitions?: ServiceDefinition[];
}

/** One `PenaltyList/Penalty/Details/Detail`: its `Type` and first `CurrencyAmountValue` (percentages are not modelled). */
export interface PenaltyDetail {
  type: string;
  amount?: Amount;
}

/**
 * A `PenaltyList/Penalty` (PenaltyType). Our airline writes one on a cancelled order's OrderViewRS
 * (`ObjectKey` `PEN__CANCEL`, `CancelFeeInd`), with a `Cancellation` detail (the fee) and a `Refund`
 * detail (the amount refunded), as OrderCancelRS's ChangeFees does.
 */
export interface Penalty {
  /** `@ObjectKey` (optional in the XSD). */
  penaltyId?: string;
  /** `@CancelFeeInd`. */
  cancelFee?: boolean;
  /** `@ChangeFeeInd`: a change costs a fee (a reshop offer's penalty). */
  changeFee?: boolean;
  /** `@RefundableInd`. */
  refundable?: boolean;
  details: PenaltyDetail[];
}

/** `LanguageMetadata`: everything but the key is optional in the XSD (information only). */
export interface LanguageMetadata {
  key: string;
  codeIso?: string;
  codeNls?: string;
  name?: string;
}

/** `CountryMetadata`: everything but the key is optional in the XSD (information only). */
export interface CountryMetadata {
  key: string;
  icaoCode?: string;
  name?: string;
}

/**
 * `CityMetadata`: the key, and the city's code and name from our extension (`AugmentationPoint/
 * AugPoint/ns2:City`), absent when the message has no such AugPoint (the XSD makes it optional).
 */
export interface CityMetadata {
  key: string;
  code?: string;
  name?: string;
}

export interface Metadata {
  journeys?: JourneyMetadata[];
  languages?: LanguageMetadata[];
  countries?: CountryMetadata[];
  cities?: CityMetadata[];
  /** PaymentFormMetadata: key and ns2:Token/ns2:Number. Requests only. */
  paymentForms?: { key: string; token: string }[];
  /** CurrencyMetadatas (the currency of amounts written without `Code`, see {@link Amount}). */
  currencies?: CurrencyMetadata[];
}

export interface ResponseCommon extends MessageHeader {
  warnings?: NdcWarning[];
}

export type AirShoppingRs =
  | (ResponseCommon & {
      kind: 'calendar';
      airlineOffers: CalendarAirlineOffers[];
      dataLists: DataLists;
      metadata: Metadata;
    })
  | (ResponseCommon & {
      kind: 'day';
      shoppingResponseId: string;
      /** `owner` is deprecated: AirlineOffers has no attributes in NDC 17.2 (see CalendarAirlineOffers). */
      airlineOffers: { owner?: string; offers: Offer[] }[];
      dataLists: DataLists;
      metadata: Metadata;
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });

// ---------------------------------------------------------------- OfferPrice

export interface SelectedOfferItem {
  offerItemId: string;
  passengerRefs: string[];
  /** `ALaCarteSelection`: how many of an à-la-carte item, and for which segment (`SegmentID`). */
  aLaCarteSelection?: { quantity: number; segmentId?: string };
  /** `SeatSelection`: the seat chosen for the item's passenger (`Row`, `Column`). */
  seatSelection?: { row: number; column: string };
}

export interface SelectedOffer {
  offerId: string;
  owner: string;
  responseId: string;
  offerItems: SelectedOfferItem[];
}

export interface OfferPriceRq extends RequestCommon {
  offers: SelectedOffer[];
  qualifier?: Qualifier;
  passengers: Passenger[];
  /** PaymentFormMetadata entries (card tokens). */
  paymentForms?: { key: string; token: string }[];
}

export interface PricedOffer {
  offerId: string;
  owner: string;
  /**
   * `TotalPrice`: the money amount of whichever form carries one (we write `DetailCurrencyPrice`
   * with `Total` and `Taxes/Total`). Optional in the XSD; absent for a form without money (then
   * `otherPrice`). Read it with `requireMoney(pricedOffer.total, 'PricedOffer/TotalPrice', ...)`.
   */
  total?: Amount;
  /** `DetailCurrencyPrice/Taxes/Total`: absent in the other forms. */
  taxes?: Amount;
  otherPrice?: NonMoneyPrice;
  flightsOverview: FlightRef[];
  offerItems: OfferItem[];
}

/** An `ALaCarteOfferItem`: who and what it applies to, its unit price and its service. */
export interface ALaCarteOfferItem {
  offerItemId: string;
  /** `Eligibility`: passengers, segments and price classes it may be sold with (each optional). */
  eligibility: { passengerRefs?: string[]; segmentRefs?: string[]; priceClassRefs?: string[] };
  /** `UnitPriceDetail`: `TotalAmount` in a money form (`total`) or not (`otherPrice`), `BaseAmount?`, `Taxes/Total?`. */
  unitPrice: { total?: Amount; otherPrice?: NonMoneyPrice; base?: Amount; taxes?: Amount };
  /** `Service@ServiceID`: an optional `ServiceRef` and its `ServiceDefinitionRef`. */
  service: { serviceId: string; serviceRef?: string; serviceDefinitionRef: string };
}

/** `OtherOffers/ALaCarteOffer`: services sold on their own, with their own offer id. */
export interface ALaCarteOffer {
  offerId: string;
  owner: string;
  /** `TotalPrice` in a money form, when given. */
  totalPrice?: Amount;
  otherPrice?: NonMoneyPrice;
  items: ALaCarteOfferItem[];
}

/** `OfferPriceRS/OtherOffers`. */
export interface OtherOffers {
  offers: Offer[];
  aLaCarte?: ALaCarteOffer;
}

export type OfferPriceRs =
  | (ResponseCommon & {
      kind: 'success';
      /** `ShoppingResponseID/ResponseID`: optional in the XSD; the id an OrderCreateRQ names. */
      shoppingResponseId?: string;
      /** The XSD allows exactly one PricedOffer (a round trip merges both directions). */
      pricedOffer: PricedOffer;
      /**
       * `OtherOffers`: further flight offers, and the à-la-carte offer of services and seats priced
       * with the flight offer (the total may include them). Absent when the message has none.
       */
      otherOffers?: OtherOffers;
      dataLists: DataLists;
      metadata: Metadata;
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });

// ---------------------------------------------------------------- OrderCreate

/**
 * `SecurePaymentAlert`: every part is optional in the XSD (`URLs`, `Details/CustomerDevice`). The
 * airline needs the URLs and the device to challenge a card (it asks with `requireElement`); our
 * requests always send all four.
 */
export interface SecurePaymentAlert {
  /** `URLs/FailURL`. */
  failUrl?: string;
  /** `URLs/TermURL`. */
  termUrl?: string;
  /** `Details/CustomerDevice/IP_Address`. */
  ipAddress?: string;
  /** `Details/CustomerDevice/BrowserUserAgentHeader`. */
  userAgent?: string;
  /**
   * A 3-D Secure result obtained before the order (the airline then charges without a
   * challenge). PaymentCard 17.2 has no place for it, so it travels in the same alert:
   * `Reference/ACS_TxnReference` and `ProcessingInfos/ProcessingInfo` (`CAVV`,
   * `CustomerAuthStatus`, `ECI`). Absent: the airline may answer with a CustomerInputRQ.
   */
  authentication?: ThreeDsResult;
}

/**
 * A cardholder authentication done at the issuer (3-D Secure), as the payment carries it. Each part
 * is optional in the XSD (decoded when any is present); our requests send all of them, and the
 * airline asks for the `ECI` it checks with `requireElement`.
 */
export interface ThreeDsResult {
  /** The issuer's (ACS) transaction id: `Reference/ACS_TxnReference`. */
  transactionId?: string;
  /** Cardholder Authentication Verification Value (base64, from the issuer): `ProcessingInfo/CAVV`. */
  cavv?: string;
  /** E-commerce indicator, e.g. `05` (Visa, authenticated): `ProcessingInfo/ECI`. */
  eci?: string;
  /** `ProcessingInfo/CustomerAuthStatus`: `Y` authenticated, `A` attempted (optional in the XSD). */
  status?: string;
}

export interface OrderPayment {
  /** `CC`. */
  type: string;
  /** Card token used as voucher number (`Method/Voucher/Number`); absent for another payment method. */
  voucherNumber?: string;
  amount: Amount;
}

/** One `Query/Order/Offer` of an OrderCreateRQ. */
export interface OrderOffer {
  offerId: string;
  owner: string;
  responseId: string;
  /** Optional in the XSD. */
  totalOfferPrice?: Amount;
  offerItems: SelectedOfferItem[];
}

export interface OrderCreateRq extends RequestCommon {
  securePayment?: SecurePaymentAlert;
  /**
   * `Query/Order/Offer`, in order: empty when the order is given by `OrderItem`s (also valid in
   * the XSD). Several are merged into one order, each with its own ResponseID (e.g. a priced
   * flight offer and à-la-carte offers of ServiceListRS / SeatAvailabilityRS); our encoder writes
   * what it is given (docs/airline-service.md says what the embedded airline accepts).
   */
  offers: OrderOffer[];
  payments: OrderPayment[];
  passengers: Passenger[];
  contacts: ContactInformation[];
}

export interface OrderRetrieveRq extends RequestCommon {
  /** `Query/Filters/OrderID`: optional in the XSD (other filters exist), so optional here. */
  orderId?: string;
  /** `Query/Filters/OrderID/@Owner`, present whenever `orderId` is. */
  owner?: string;
}

// ---------------------------------------------------------------- OrderView

/**
 * OrderItem/Service. The XSD choice is `SegmentRef` or `ServiceDefinitionRef`
 * (which may carry a `SegmentRef` attribute): `serviceDefinitionRef` alone or
 * with `segmentRef` writes ServiceDefinitionRef, `segmentRef` alone writes
 * SegmentRef; at least one must be set.
 */
/** A seat chosen for a passenger (`SelectedSeat`): row, column, segment and the seat's service definition. */
export interface SelectedSeat {
  row: number;
  column: string;
  segmentRef: string;
  serviceDefinitionRef: string;
}

/**
 * `OrderItem/Service`: `PassengerRef`, then `SegmentRef`, `ServiceDefinitionRef` (with an optional
 * `@SegmentRef`) or `SelectedSeat` (a paid seat). The encoder writes `selectedSeat` when set, else
 * `serviceDefinitionRef` and/or `segmentRef`. `passengerRef` is required by the 17.2 XSD; decoded
 * liberally, it is absent when another party leaves it out.
 */
export interface OrderItemService {
  serviceId: string;
  passengerRef?: string;
  serviceDefinitionRef?: string;
  segmentRef?: string;
  selectedSeat?: SelectedSeat;
}

export interface OrderItem {
  orderItemId: string;
  /** `@Owner`: optional in the XSD (we always write it). */
  owner?: string;
  base: Amount;
  /** `PriceDetail/Taxes/Total`: optional in the XSD (we always write it). */
  taxes?: Amount;
  services: OrderItemService[];
  /**
   * `TimeLimits/PaymentTimeLimit@Timestamp` (ISO 8601): by when an unpaid (held) item must be
   * paid. Absent for a paid item, or when the airline gives the limit on the order only.
   */
  paymentTimeLimit?: string;
  /** `TimeLimits/PriceGuaranteeTimeLimits@Timestamp` (ISO 8601): until when the item's price is guaranteed. */
  priceGuaranteeTimeLimit?: string;
}

/** `BilateralTimeLimit/Name` of the deadline of a schedule change (`Order.scheduleChangeActionBy`). */
export const SCHEDULE_CHANGE_ACTION_LIMIT = 'ScheduleChangeAction';

export interface Order {
  orderId: string;
  owner: string;
  webAddressId?: string;
  /** `BookingReference`: `ID`, then `AirlineID` or (from other parties) `OtherID`, so `airlineId` may be absent when decoding. */
  bookingReferences: { id: string; airlineId?: string }[];
  /** `TotalOrderPrice` in a money form (we write `SimpleCurrencyPrice`): optional in the XSD. */
  totalOrderPrice?: Amount;
  /** TotalOrderPrice in a form without money (award, combination, Equivalent): decoded only. */
  otherPrice?: NonMoneyPrice;
  /** `Status/StatusCode`, e.g. `OK`: optional in the XSD (we always write it). Use `requireElement(o.statusCode, 'Order/Status')`. */
  statusCode?: string;
  /** `Status@ScheduleChangeInd`: the order cannot be flown as sold because the airline changed its schedule. */
  scheduleChange?: boolean;
  /**
   * `TimeLimits/PaymentTimeLimit@DateTime` (ISO 8601; read from `@Timestamp` or `@ShortDate` too):
   * by when a held (unpaid) order must be paid, else the airline cancels it. Absent for a paid
   * order. See `orderTimeLimits` for the limits of the order and its items together.
   */
  paymentTimeLimit?: string;
  /**
   * `TimeLimits/BilateralTimeLimits/BilateralTimeLimit` named {@link SCHEDULE_CHANGE_ACTION_LIMIT}
   * (`@DateTime`, ISO 8601): by when the airline waits for the seller's answer to its schedule
   * change (`scheduleChange`), after which it applies its default. 17.2 has no element of its own
   * for it; absent when nothing waits.
   */
  scheduleChangeActionBy?: string;
  /**
   * `voucherNumber` is `Method/VoucherMethod/Number`, absent for another payment method or when the
   * voucher has no number. `Amount` is a price choice: `amount` in a money form (we write
   * `SimpleCurrencyPrice`), `otherPrice` in award or combination pricing.
   */
  payments: { type: string; amount?: Amount; otherPrice?: NonMoneyPrice; voucherNumber?: string }[];
  orderItems: OrderItem[];
}

export type OrderViewRs =
  | (ResponseCommon & {
      kind: 'success';
      orders: Order[];
      commission?: Amount;
      dataLists: DataLists;
      metadata: Metadata;
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });

// ---------------------------------------------------------------- OrderCancel

/** An order named by its airline-assigned id and the airline that owns it. */
export interface OrderRef {
  /** `@OrderID`. */
  orderId: string;
  /** `@Owner`, the airline designator. */
  owner: string;
}

/**
 * OrderCancelRQ: cancel the order named in `Query/Order`. The XSD makes
 * `Query/Order` optional (a query by `BookingReferences` alone is valid), so
 * `order` is optional here; logic that needs it uses `requireElement`.
 */
export interface OrderCancelRq extends RequestCommon {
  /** `Query/Order/@OrderID` and `@Owner`. */
  order?: OrderRef;
  /** `Query/BookingReferences/BookingReference`: `ID`, then `AirlineID` or `OtherID` (exactly one when encoding). */
  bookingReferences?: { id: string; airlineId?: string; otherId?: string }[];
  /** `OrderCancelParameters/Reason` (IATA Padis codeset REA). */
  reason?: string;
  /** `ExpectedRefundAmount/Total`: the requester refuses a cancel refunding less than this. */
  expectedRefundAmount?: Amount;
}

/** One `Response` of an OrderCancelRS. */
export interface OrderCancellation {
  /** `OrderReference`: the cancelled order's id. */
  orderReference: string;
  /**
   * The cancellation fee: `ChangeFees/Details/Detail` with `Type` `Cancellation`
   * (`ChangeFees@CancelFeeInd="true"`). Absent when none was stated.
   */
  cancellationFee?: Amount;
  /**
   * The amount refunded. OrderCancelRS 17.2 has no refund element (its only
   * extension point is deep inside a TaxExemptionNotice rule), so it is written
   * as a `ChangeFees/Details/Detail` with `Type` `Refund` (the type is a union
   * with free text up to 50 characters), beside the fee.
   */
  refund?: Amount;
}

export type OrderCancelRs =
  | (ResponseCommon & {
      kind: 'success';
      /** One per `Response` element (at least one). */
      cancellations: OrderCancellation[];
    })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });

// ---------------------------------------------------------------- CustomerInput (3-D Secure)

/** The transaction ids of a 3-D Secure exchange: SecurePaymentAlertType's `Reference`. */
export interface SecurePaymentReference {
  /** `Reference/SPM_TxnReference`: the airline's (secure payment merchant's) transaction reference. */
  spmTxnReference?: string;
  /** `Reference/OriginalTransactionID`: the transaction that asked for authentication. */
  originalTransactionId?: string;
}

/** One `Query/SecurePayments/SecurePayment` of a CustomerInputRQ: where to send the cardholder. */
export interface SecurePaymentChallenge extends SecurePaymentReference {
  /** `TransactionType`, e.g. `Authorize`. */
  transactionType?: string;
  /** `URLs/ACS_URL`: the issuer's page the cardholder's browser goes to. */
  acsUrl?: string;
  /** `URLs/FailURL` and `URLs/TermURL`, echoed from the OrderCreateRQ. */
  failUrl?: string;
  termUrl?: string;
  /** `Amount`: what is to be authorised. */
  amount?: Amount;
}

/**
 * CustomerInputRQ: the airline's answer to an OrderCreateRQ whose card needs 3-D Secure
 * (docs/airline-service.md). A "request" in IATA's naming because it asks the customer for
 * input; the client answers with a CustomerInputRS. Root children: `Document`, `Party` (the
 * agency concerned), `Query/SecurePayments`; there is no root `PointOfSale`.
 */
export interface CustomerInputRq extends MessageHeader {
  party: RequestCommon['party'];
  securePayments: SecurePaymentChallenge[];
}

/** One `Response/SecurePayments/SecurePayment` of a CustomerInputRS: the authentication result. */
export interface SecurePaymentOutcome extends SecurePaymentReference {
  /** `PayerAuth/PARes`: the issuer's signed result, exactly as the browser brought it back. */
  paRes?: string;
  /** `Status`: `Y` authenticated, `N` not, `A` attempted, `U` unable. */
  status?: string;
}

/** CustomerInputRS: the client's answer to a CustomerInputRQ (success form), or `Errors`. */
export type CustomerInputRs =
  | (ResponseCommon & { kind: 'success'; securePayments: SecurePaymentOutcome[] })
  | (ResponseCommon & { kind: 'error'; errors: NdcError[] });
