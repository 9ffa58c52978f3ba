/**
 * Fares of an order priced again (a change of flights, a reprice of a held order), with the
 * pricing of OfferPrice: the booking classes of a journey for the order's party, each passenger's
 * fare item with its age (the order's birthdates) and the order's qualifier.
 */
import type { MoneyOfferItem, Passenger } from '../../ndc/ndc.model';
import { requirePtc } from '../../ndc/require-element';
import type { SoldSegment } from '../airline.ports';
import { fareItem } from '../pricing/fare-item';
import {
  type AgeInfo,
  type SegmentBucket,
  chooseBuckets,
  evaluateQualifier,
  passengerType,
  priceJourney,
} from '../pricing/pricing';
import type { World } from '../world/world';
import type { ListsBuilder } from '../world/world.lists';
import type { Journey, WorldPriceClass } from '../world/world.types';
import type { OrderContent, SoldJourney } from './servicing.types';

/** Seats sold as a reading function, the seats `released` counted as free (the order's own, given up by a change). */
export type SoldReader = (inventoryKey: string, rbd: string) => number;

/** `sold` with the seats of `released` given back. */
export function soldWithout(sold: SoldReader, released: readonly SoldSegment[]): SoldReader {
  return (key, rbd) =>
    sold(key, rbd) - released.filter((s) => s.inventoryKey === key && s.rbd === rbd).reduce((n, s) => n + s.seats, 0);
}

/** Seats the passengers take (infants on a lap take none), at least one. */
export function seatsOf(world: World, passengers: readonly Passenger[]): number {
  return Math.max(1, passengers.filter((p) => passengerType(world, requirePtc(p)).takesSeat).length);
}

/** The cheapest booking classes of `pc` on `journey` with seats for the order's party; undefined when none. */
export function bucketsFor(
  world: World,
  journey: Journey,
  pc: WorldPriceClass,
  passengers: readonly Passenger[],
  sold: SoldReader,
): SegmentBucket[] | undefined {
  return chooseBuckets(world, journey, pc, seatsOf(world, passengers), sold);
}

/** What one direction's fares are priced for. */
export interface JourneyFares {
  journey: Journey;
  buckets: SegmentBucket[];
  pc: WorldPriceClass;
  /** The qualifier of the order's journey (promotion, corporate account). */
  qualifier?: SoldJourney['qualifier'];
  /** The OrderItemID of a passenger's new item. */
  itemId: (passengerId: string) => string;
}

/**
 * The fare item of each passenger of `content` on `fares.journey` (its DataLists entries added to
 * `lists`): the price of OfferPrice for the passenger's type and age (birthdate when the order has
 * it), the order's currency and qualifier.
 */
export function orderFareItems(
  world: World,
  content: Pick<OrderContent, 'passengers' | 'currency'>,
  fares: JourneyFares,
  lists: ListsBuilder,
): MoneyOfferItem[] {
  const { journey, buckets, pc } = fares;
  const { discounts } = evaluateQualifier(world, fares.qualifier);
  const priceClassRef = lists.addPriceClass(pc.code);
  const bundleRef = pc.bundle ? lists.addService(pc.bundle) : undefined;
  return content.passengers.map((p) =>
    fareItem(world, {
      offerItemId: fares.itemId(p.passengerId),
      passengerRefs: [p.passengerId],
      price: priceJourney(world, buckets, pc, requirePtc(p), ageOf(world, p), content.currency, discounts),
      currency: content.currency,
      journey,
      buckets,
      priceClassRef,
      bundleRef,
    }),
  );
}

/** How the UK rule sees a passenger: by birthdate when known, else by type. */
export function ageOf(world: World, p: Passenger): AgeInfo {
  const birthdate = p.individual?.birthdate;
  return birthdate ? { birthdate } : { assumedUnder16: passengerType(world, requirePtc(p)).under16 };
}

/** The fare item of `passengerId` on the journey `flightKey` of `content`. */
export function fareItemOf(
  content: Pick<OrderContent, 'items'>,
  flightKey: string,
  passengerId: string,
): MoneyOfferItem | undefined {
  return content.items.find(
    (i) =>
      i.fareDetails.length > 0 &&
      i.services.some((s) => s.flightRefs?.includes(flightKey) && s.passengerRefs.includes(passengerId)),
  );
}

/** The journey of `sold` in the world, with its segments on its date. */
export function journeyOfSold(world: World, sold: Pick<SoldJourney, 'flights' | 'date'>): Journey {
  return world.journeyOf(sold.flights, sold.date);
}
