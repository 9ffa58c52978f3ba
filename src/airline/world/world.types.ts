/**
 * Shape of the airline's world data file (`data/airline/world.json`) and of the
 * dated journeys derived from it. Amounts are decimal strings in the base
 * currency of the file (GBP); see `data/airline/README.md` for every field.
 */

export interface WorldLanguage {
  code: string;
  nls: string;
  name: string;
}

export interface WorldCountry {
  /** ISO 3166 alpha-2. */
  code: string;
  /** ICAO location prefix (1 or 2 letters, e.g. `EG`). */
  icao: string;
  name: string;
  /** Currency used when a request from this point of sale has no OverrideCurrency. */
  currency: string;
}

export interface WorldCity {
  code: string;
  name: string;
  country: string;
}

export interface WorldAirport {
  code: string;
  name: string;
  city: string;
  /** IANA time zone of the local times of its flights (e.g. `Europe/London`); absent: UTC. */
  timeZone?: string;
}

export interface WorldPriceClass {
  code: string;
  name: string;
  /** Booking classes from the cheapest to the dearest. */
  rbds: string[];
  /** Seats per booking class and flight, aligned with `rbds`. */
  capacity: number[];
  /** Code of the bundle ServiceDefinition included in this price class, if any. */
  bundle?: string;
}

export interface WorldFlight {
  /** Flight number without the airline designator, e.g. `101`. */
  number: string;
  from: string;
  to: string;
  /** Local departure time HH:MM. */
  departure: string;
  /** Local arrival time HH:MM. */
  arrival: string;
  /** Days between the departure date and the (local) arrival date. */
  arrivalDayOffset: number;
  /** ISO 8601 duration. */
  duration: string;
  aircraft: string;
  /** Base fares (base currency) per price class code, aligned with the class's `rbds`. */
  fares: Record<string, string[]>;
}

export interface WorldConnection {
  from: string;
  to: string;
  /** Flight numbers flown in order, all on the same departure date. */
  flights: string[];
  /** Door-to-door journey time, ISO 8601. */
  journeyTime: string;
}

export interface WorldPassengerType {
  /** Percentage of the adult base fare, e.g. `"75"`. */
  farePercent: string;
  /** False for infants on lap: no seat is sold for them. */
  takesSeat: boolean;
  /** Assumed age under 16 when no birthdate is known (shopping). */
  under16: boolean;
}

export interface WorldTax {
  name: string;
  /** Amount per passenger and departing segment, base currency. */
  amount: string;
  /** Passengers younger than this on the departure date are exempt. */
  exemptUnderAge?: number;
}

export interface WorldServiceDefinition {
  code: string;
  name: string;
  encoding: string;
  description: string;
  /** Codes of the definitions bundled by this one. */
  bundle?: string[];
  /** BaggageAllowanceID. */
  baggageAllowance?: string;
}

export interface WorldBaggageAllowance {
  id: string;
  category: string;
  applicableParty: string;
  totalQuantity: number;
  pieces: { quantity: number; maxWeight: string; uom: string; bag: string }[];
}

export interface WorldData {
  version: number;
  baseCurrency: string;
  /** Units of each currency per one unit of the base currency. */
  exchangeRates: Record<string, string>;
  defaultCurrency: string;
  languages: WorldLanguage[];
  countries: WorldCountry[];
  cities: WorldCity[];
  airports: WorldAirport[];
  cabin: { code: string; name: string };
  priceClasses: WorldPriceClass[];
  flights: WorldFlight[];
  connections: WorldConnection[];
  /** Fare factor per weekday of the departure date (MON..SUN). */
  weekdayFactors: Record<string, string>;
  /** Flights exist from today (service clock, UTC) for this many days. */
  bookingWindowDays: number;
  passengerTypes: Record<string, WorldPassengerType>;
  /** Departure tax per country of the departure airport. */
  departureTaxes: Record<string, WorldTax>;
  promotions: Record<string, { percentOff: string }>;
  corporateAccounts: Record<string, { percentOff: string; priceClasses: string[] }>;
  cardSurcharge: { service: string; percent: string };
  commissionPercent: string;
  cancellation: WorldCancellationRules;
  /** How a paid order's flights are changed (docs/airline-world.md, "Changes"). */
  changes: WorldChangeRules;
  shoppingTtlMinutes: number;
  pricingTtlMinutes: number;
  serviceDefinitions: WorldServiceDefinition[];
  baggageAllowances: WorldBaggageAllowance[];
  /** Services sold à la carte and seat zone prices (ServiceList, SeatAvailability); none when absent. */
  extras?: WorldExtras;
  /** Seat maps per aircraft type of `flights[].aircraft`; a flight whose type is missing has no seat map. */
  aircraft?: Record<string, WorldAircraft>;
}

/** What the airline sells besides the fare (docs/airline-world.md, "Extras"). */
export interface WorldExtras {
  /** Services of ServiceListRS, priced per passenger and direction (journey). */
  services: WorldExtraService[];
  /** Seat zones (`XST_ZONE1`..`4`, ServiceDefinition codes), priced per passenger and segment. */
  seatZones: { code: string; prices: Record<string, string> }[];
}

export interface WorldExtraService {
  /** A `serviceDefinitions[].code`. */
  code: string;
  /** Passenger types that may buy it (an infant on a lap gets no bag and no seat). */
  passengerTypes: string[];
  /** Price in the base currency per price class code; a price class not listed cannot buy it. `0.00` = included. */
  prices: Record<string, string>;
}

/** One aircraft type's economy cabin. */
export interface WorldAircraft {
  name: string;
  /** Seat letters left to right, a space for each aisle, e.g. `ABC DEF`. */
  layout: string;
  firstRow: number;
  lastRow: number;
  /** Exit rows: extra legroom, and no seat there for an adult holding an infant. */
  exitRows: number[];
  /** Seat zones by rows; the first zone whose rows hold a row is its zone. */
  zones: { code: string; firstRow: number; lastRow: number }[];
}

/**
 * What the airline changed of one flight on one date after it was scheduled
 * (docs/airline-service.md, "Schedule changes"): it leaves `shiftMinutes` later (earlier when
 * negative), or it is cancelled.
 */
export type FlightChange = { kind: 'retime'; shiftMinutes: number } | { kind: 'cancelled' };

/** The schedule changes the world applies when it dates a flight (held by the airline's store). */
export interface ScheduleChanges {
  /** The change of flight `number` (without designator) on `date` (`YYYY-MM-DD`), if any. */
  changeOf(number: string, date: string): FlightChange | undefined;
}

/** One flight on one date. */
export interface DatedSegment {
  /** SegmentKey, e.g. `SEG__ZZ101_20261201`. */
  segmentKey: string;
  /** Inventory key, e.g. `ZZ101/2026-12-01`. */
  inventoryKey: string;
  flight: WorldFlight;
  /** Marketing flight number with designator, e.g. `ZZ101`. */
  flightNumber: string;
  /** Local departure date: the scheduled date, or the day a retime moved it into. */
  departureDate: string;
  arrivalDate: string;
}

/** A bookable journey (one direction) on a date: one or more segments. */
export interface Journey {
  /** FlightKey, e.g. `FLT__ZZ101_20261201` or `FLT__ZZ101_ZZ301_20261201`. */
  flightKey: string;
  from: string;
  to: string;
  date: string;
  segments: DatedSegment[];
  transfer: boolean;
  journeyTime: string;
}

/** How a confirmed order is cancelled (docs/airline-world.md, "OrderCancel"). */
export interface WorldCancellationRules {
  /** Within this many hours of the order's creation a cancel is a void: everything is refunded. */
  voidHours: number;
  /** Fee in the base currency per passenger and journey (order item) of a price class, after the void window. */
  feePerPassengerAndJourney: Record<string, string>;
  /** Price classes whose fares are not refunded after the void window (taxes only). */
  taxesOnly: string[];
  /** Whether the card surcharge (CCF2) is refunded after the void window. */
  surchargeRefundedAfterVoid: boolean;
}

/** How a paid order's flights are changed (docs/airline-world.md, "Changes"). */
export interface WorldChangeRules {
  /**
   * Change fee in the base currency per passenger and journey changed, by the price class of the
   * item given up (at most that item's base fare). A class not listed changes for free.
   */
  feePerPassengerAndJourney: Record<string, string>;
  /**
   * Price classes whose cheaper change refunds the difference (less the fee); in the others a
   * cheaper trip refunds nothing.
   */
  refundsDifference: string[];
}
