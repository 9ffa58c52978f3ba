/**
 * The price now of a held order (OrderReshopRQ `Reprice`; docs/airline-service.md "Holds"). While
 * its price guarantee lasts, the held price stands. Afterwards each journey is priced as the
 * airline would sell it to the same party now: in the cheapest booking class of its price class
 * with seats on sale, the order's own held seats counted as taken (as they are for every other
 * customer); when that class has no room left, the held class stays. Accepting the reprice
 * (`AcceptRepricedOrder`) moves the order into those classes.
 */
import { add, currencyScale, equals, subtract } from '../../common/decimal';
import type { MoneyOfferItem } from '../../ndc/ndc.model';
import type { SegmentBucket } from '../pricing/pricing';
import type { World } from '../world/world';
import type { ListsBuilder } from '../world/world.lists';
import type { Journey } from '../world/world.types';
import { segmentsOf } from './change-offers';
import type { LoadedOrder } from './order-book';
import { type SoldReader, bucketsFor, fareItemOf, journeyOfSold, orderFareItems } from './order-fares';
import type { ChangePlan, OrderContent, SoldJourney } from './servicing.types';

/** A held order priced now: the plan accepting the new price applies, and each changed item old and new. */
export interface Repricing {
  plan: ChangePlan;
  /** Items whose price changed: the order's item and its price now (same OrderItemID). */
  changed: { original: MoneyOfferItem; now: MoneyOfferItem }[];
}

/**
 * `loaded` (a held order) priced at `now` against seats `sold` (see the file's comment); DataLists
 * entries of the new fares go to `lists`.
 */
export function repriceHeld(
  world: World,
  loaded: LoadedOrder,
  sold: SoldReader,
  now: Date,
  lists: ListsBuilder,
): Repricing {
  const { content, order } = loaded;
  const guaranteed = content.hold !== undefined && now.getTime() <= Date.parse(content.hold.priceGuaranteedUntil);
  const moved = guaranteed ? [] : content.journeys.map((j) => repriceJourney(world, content, j, sold, lists));
  const changed = moved.flatMap((m) => m.changed);
  const scale = currencyScale(content.currency);
  const difference = subtract(
    add(scale, '0', ...changed.map((c) => c.now.priceDetail.total.value)),
    add(scale, '0', ...changed.map((c) => c.original.priceDetail.total.value)),
    scale,
  );
  const zero = add(scale, '0');
  const plan: ChangePlan = {
    kind: 'reprice',
    version: order.version,
    removeItemIds: changed.map((c) => c.original.offerItemId),
    addItems: changed.map((c) => c.now),
    removeJourneys: [],
    addJourneys: [],
    release: moved.flatMap((m) => m.release),
    sell: moved.flatMap((m) => m.sell),
    releaseSeats: [],
    sellSeats: [],
    removePassengerIds: [],
    difference: { value: difference, currency: content.currency },
    penalty: { value: zero, currency: content.currency },
  };
  return { plan, changed };
}

/** One journey priced now: its passengers' items that changed, and the inventory to move when the class did. */
function repriceJourney(
  world: World,
  content: OrderContent,
  sold: SoldJourney,
  reader: SoldReader,
  lists: ListsBuilder,
) {
  const journey = journeyOfSold(world, sold);
  const pc = world.priceClass(sold.priceClass);
  if (!pc) throw new Error(`unknown price class ${sold.priceClass}`);
  const held = heldBuckets(content, journey);
  const buckets = bucketsFor(world, journey, pc, content.passengers, reader) ?? held;
  const originals = content.passengers.map((p) => fareItemOf(content, sold.flightKey, p.passengerId)!);
  const itemId = (pax: string) => originals.find((o) => o.services[0]?.passengerRefs.includes(pax))!.offerItemId;
  const priced = orderFareItems(world, content, { journey, buckets, pc, qualifier: sold.qualifier, itemId }, lists);
  const changed = priced.flatMap((now, i) =>
    equals(now.priceDetail.total.value, originals[i].priceDetail.total.value) ? [] : [{ original: originals[i], now }],
  );
  const classMoved = buckets.some((b, i) => b.rbd !== held[i]?.rbd);
  if (!classMoved) return { changed, release: [], sell: [] };
  const release = segmentsOf(content.segments, journey);
  const seats = release[0]?.seats ?? 0;
  return {
    changed,
    release,
    sell: buckets.map((b) => ({ inventoryKey: b.segment.inventoryKey, rbd: b.rbd, seats })),
  };
}

/** The booking classes the order holds on `journey`'s segments. */
function heldBuckets(content: OrderContent, journey: Journey): SegmentBucket[] {
  return journey.segments.map((segment) => {
    const rbd = content.segments.find((s) => s.inventoryKey === segment.inventoryKey)?.rbd;
    if (rbd === undefined) throw new Error(`the order holds no seat on ${segment.inventoryKey}`);
    return { segment, rbd, seatsLeft: 0 };
  });
}
