/**
 * Ports between the airline's domain (world, pricing, shopping, offer pricing:
 * pure logic) and its infrastructure (SQLite store, tokens, HTTP).
 * The domain depends on these interfaces only; the store implements them.
 */
import type { Money, MoneyOfferItem, OfferPriceRs, Passenger, PricedOffer } from '../ndc/ndc.model';

/**
 * A priced offer as this airline writes it: always a money total with its taxes, and items whose
 * total, base and taxes are money (the wire model leaves all of them optional).
 */
export interface AirlinePricedOffer extends PricedOffer {
  total: Money;
  taxes: Money;
  offerItems: MoneyOfferItem[];
}

/** A seat priced for a passenger on a flight (`inventoryKey`, label `seat` such as `12A`). */
export interface PricedSeat {
  inventoryKey: string;
  seat: string;
  segmentKey: string;
  passengerId: string;
}

/** A seat on one flight: its inventory key (`ZZ101/2026-12-01`) and label (`12A`). */
export interface SeatHold {
  inventoryKey: string;
  seat: string;
}

/** Seat occupancy and locks (the airline store). */
export interface SeatStore {
  /** Seats of `inventoryKey` that `owner` cannot have: sold, or locked by another owner after `now` (ISO). */
  takenSeats(inventoryKey: string, owner: string | undefined, now: string): Set<string>;
  /** Locks `seats` to `owner` until `expiresAt`; returns those it could not lock. */
  lockSeats(seats: readonly SeatHold[], owner: string, now: string, expiresAt: string): SeatHold[];
}

/** Source of time, injected so tests can move it. */
export interface AirlineClock {
  now(): Date;
}

/** One flown segment of a priced offer: what inventory is sold against. */
export interface SoldSegment {
  /** Inventory key of one flight on one date, e.g. `ZZ101/2026-12-01`. */
  inventoryKey: string;
  /** Booking class letter (RBD). */
  rbd: string;
  /** Seats this segment takes for the passengers of the offer (infants on lap take none). */
  seats: number;
}

/** A shopping (AirShoppingRS day search) response kept for later OfferPriceRQs. */
export interface ShoppingRecord {
  responseId: string;
  agencyId: string;
  createdAt: string;
  expiresAt: string;
  currency: string;
  passengers: Passenger[];
  /**
   * Domain data needed to price offers of this response again, keyed by OfferID.
   * Opaque to the store (stored as JSON).
   */
  offers: Record<string, unknown>;
}

/** An OfferPriceRS kept for OrderCreateRQ (and as the base of a token-bearing reprice). */
export interface PricingRecord {
  responseId: string;
  /** The ShoppingResponseID the priced offers came from (orders are found by it). */
  shoppingResponseId: string;
  agencyId: string;
  createdAt: string;
  expiresAt: string;
  /** OfferIDs sent in the OfferPriceRQ (one per direction). */
  requestedOfferIds: string[];
  pricedOffer: AirlinePricedOffer;
  passengers: Passenger[];
  /** Card token id sent in PaymentFormMetadata, if any. */
  tokenId?: string;
  /** The CCF2 surcharge included in `pricedOffer.total`, if any. */
  surcharge?: Money;
  segments: SoldSegment[];
  /** Seats priced into the offer and locked to `seatOwner` (absent: none). OrderCreate sells them. */
  seats?: PricedSeat[];
  /** The lock owner of `seats`: the OfferPriceRQ's TransactionIdentifier, else `RS-<shopping ResponseID>`. */
  seatOwner?: string;
  /** The full response as sent, for audit and re-sending. */
  response: OfferPriceRs;
}

export interface ResponseStore {
  saveShopping(record: ShoppingRecord): void;
  getShopping(responseId: string): ShoppingRecord | undefined;
  savePricing(record: PricingRecord): void;
  getPricing(responseId: string): PricingRecord | undefined;
  /**
   * ResponseID of the most recent pricing response that priced `offerId`
   * (OrderCreate is accepted only from that one). `offerId` is
   * `PricingRecord.pricedOffer.offerId`: the store indexes each saved pricing by
   * that id, and "most recent" is the last one saved (ties broken by save order,
   * not by `createdAt`). The domain derives that id deterministically from the
   * selected shopping OfferIDs, so repricing the same selection (e.g. with a card
   * token) yields the same id and supersedes the earlier pricing.
   */
  latestPricingFor(offerId: string): string | undefined;
}

/** Seat inventory. Capacity per booking class comes from the world data. */
export interface InventoryStore {
  /** Seats already sold on `inventoryKey` in booking class `rbd`. */
  sold(inventoryKey: string, rbd: string): number;
  /** Seats already sold on `inventoryKey`, by booking class (classes with none sold may be absent). */
  soldOn(inventoryKey: string): ReadonlyMap<string, number>;
  /**
   * Sells all `segments` atomically if every one still has room under
   * `capacity(inventoryKey, rbd)`; returns false and sells nothing otherwise.
   */
  sellAll(segments: SoldSegment[], capacity: (inventoryKey: string, rbd: string) => number): boolean;
}

export type CardFunding = 'credit' | 'debit';

/** Non-sensitive view of a stored card token. */
export interface TokenInfo {
  id: string;
  brand: string;
  funding: CardFunding;
  /** Masked number, e.g. `411111******1111`. */
  maskedNumber: string;
  expiresAt: string;
}

export interface TokenLookup {
  /** The token, or undefined when unknown. Expiry is checked by the caller against the clock. */
  getToken(id: string): TokenInfo | undefined;
}
