/**
 * Extras of a booking (bags and other services, seats): what an intent may ask for, what the
 * saga learns from the airline (the services on sale and the seat maps, reduced), and what the
 * booking shows. Plain interfaces: they cross HTTP and Temporal. Pure: imported by the workflow
 * bundle, the activities and the API.
 */
import type { Money } from '../ndc/ndc.model';

/** Service codes an intent may ask for in `extras.bags` (the airline's ServiceList encodings). */
export const EXTRA_SERVICE_CODES = [
  'YN1',
  'YN2',
  'CBAG',
  'SPML_VGML',
  'SPML_CHML',
  'SPML_BBML',
  'BIKE',
  'GOLF',
  'SPEQ_SKI',
  'BNDL_PLUS',
  'BNDL_PRIO',
] as const;
export type ExtraServiceCode = (typeof EXTRA_SERVICE_CODES)[number];

export const EXTRA_DIRECTIONS = ['outbound', 'return', 'both'] as const;
export type ExtraDirection = (typeof EXTRA_DIRECTIONS)[number];

export const SEAT_MODES = ['auto', 'choose'] as const;
export const SEAT_PREFERENCES = ['window', 'aisle', 'any'] as const;
export type SeatPreference = (typeof SEAT_PREFERENCES)[number];

/** `intent.extras`: services per passenger and direction, and how seats are chosen. */
export interface BookingExtras {
  bags?: { passenger: number; code: ExtraServiceCode; direction: ExtraDirection }[];
  /** Absent: no seats. */
  seats?: SeatRequest;
}

/** What an intent's extras ask for, as the `Extras` search attribute shows it; undefined for none. */
export function extrasAsked(extras: BookingExtras | undefined): 'bags' | 'seats' | 'bags+seats' | undefined {
  const bags = (extras?.bags?.length ?? 0) > 0;
  const seats = extras?.seats !== undefined;
  if (bags && seats) return 'bags+seats';
  return bags ? 'bags' : seats ? 'seats' : undefined;
}

export interface SeatRequest {
  /** `auto`: the saga picks by the rules; `choose`: the traveller picks (AWAITING_SEAT_SELECTION). */
  mode: 'auto' | 'choose';
  /** Default `any`. */
  preference?: SeatPreference;
  /** Seat the party side by side in one row where a row has room. Default true. */
  together?: boolean;
  /** Decimal string in the booking's currency: no dearer seat is taken. */
  maxPricePerSeat?: string;
  /** Fail the booking (NO_SEATS_AVAILABLE) rather than go on without seats. Default false. */
  required?: boolean;
}

/** A service on sale for the chosen offers (ServiceListRS, reduced). */
export interface ServiceOption {
  /** ALaCarteOfferItemID. */
  itemId: string;
  /** ServiceDefinition Encoding/Code-like code, from the definition id (`SD__YN1` -> `YN1`). */
  code: string;
  passengerIds: string[];
  segmentKeys: string[];
  /** 0 outbound, 1 return. */
  direction: number;
  price: Money;
}

/** A seat of a seat map as the saga and the API show it. */
export interface SeatView {
  /** `12A`. */
  seat: string;
  row: number;
  column: string;
  available: boolean;
  /** Zone (`XST_ZONE3`), when priced. */
  zone?: string;
  price?: string;
  currency?: string;
  /** `window`, `aisle`, `middle`, `exit`, `legroom`, `noInfant`. */
  characteristics: string[];
  /** The à-la-carte item per passenger type pricing this seat, e.g. `{ ADT: 'ALC-...' }`. */
  items: Record<string, string>;
}

/** One segment's seat map. */
export interface SegmentSeatMap {
  segment: string;
  /** Marketing flight, e.g. `ZZ101`. */
  flight: string;
  /** 0 outbound, 1 return. */
  direction: number;
  seats: SeatView[];
}

/** The seat maps of the chosen offers, with the ALaCarteOffer they are priced by. */
export interface SeatMaps {
  aLaCarteOfferId: string;
  owner: string;
  responseId: string;
  segments: SegmentSeatMap[];
}

/** An extra the saga asks to price: one passenger, one à-la-carte item (and a seat). */
export interface ExtraPick {
  itemId: string;
  passengerId: string;
  /** The passenger's index in the intent. */
  passenger: number;
  code: string;
  segmentKeys: string[];
  seat?: string;
  price?: Money;
}

/** A seat chosen by the traveller (`POST /bookings/{id}/seats`). */
export interface SeatChoice {
  passenger: number;
  seat: string;
  /** Segment key; optional when the trip has one segment. */
  segment?: string;
}

/** `state.extras`: what was asked, what is priced, and what the saga had to give up. */
export interface ExtrasState {
  /** Priced extras of the current pricing (each against passenger and segments). */
  priced: ExtraPick[];
  /** Total of the priced extras. */
  total?: Money;
  /** Seats that could not be had, re-picks, seat selection timeouts: one line each. */
  notes: string[];
  /** Seat-map reads (`seatMap` steps) of this booking. */
  seatMapReads: number;
}
