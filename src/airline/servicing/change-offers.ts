/**
 * Change offers of an OrderReshopRQ (`Reshop/OrderServicing`: `Add/FlightQuery` with the new
 * dates, `Delete` of the current flight items): which journeys of the order the query replaces,
 * the other flights on those dates in each price class with seats for the party, and for each
 * offer what it costs against what was paid, with the change fee of the fare family given up
 * (docs/airline-world.md, "Changes"; none while the order waits on a schedule change the airline
 * made). Each offer comes with the plan an OrderChangeRQ applies.
 */
import { add, compare, currencyScale, subtract } from '../../common/decimal';
import type { DayOriginDestination, FlightRef, MoneyOfferItem } from '../../ndc/ndc.model';
import type { ReshopAddItem, ReshopDeleteItem, ReshopOffer } from '../../ndc/servicing.model';
import { AirlineError } from '../airline.errors';
import type { SoldSegment } from '../airline.ports';
import type { SegmentBucket } from '../pricing/pricing';
import type { World } from '../world/world';
import { dateOf } from '../world/world.dates';
import type { ListsBuilder } from '../world/world.lists';
import type { Journey, WorldPriceClass } from '../world/world.types';
import type { LoadedOrder } from './order-book';
import {
  type SoldReader,
  bucketsFor,
  fareItemOf,
  journeyOfSold,
  orderFareItems,
  seatsOf,
  soldWithout,
} from './order-fares';
import { itemDifference } from './servicing.rules';
import type { ChangePlan, OrderContent, SoldJourney } from './servicing.types';

/** What a change reshop asks for. */
export interface ChangeQuery {
  /** One leg per direction replaced: its airports (those of the order's journey) and new date. */
  legs: DayOriginDestination[];
  /** Only this price class (code); default: every one. */
  priceClass?: string;
  /** Only this cabin (code); default: any. */
  cabin?: string;
  /** The order items the change gives up: every passenger's fare items of the replaced journeys. */
  deleteItemIds: string[];
}

/** A change offer and the plan accepting it applies. */
export interface ChangeQuote {
  offer: ReshopOffer;
  plan: ChangePlan;
}

/** What change offers are worked out with. */
export interface ChangeContext {
  world: World;
  /** Seats sold now. */
  sold: SoldReader;
  now: Date;
  /** When the offers expire (ISO 8601). */
  expiresAt: string;
  /** The OrderReshopRS's ResponseID: offers are `<ResponseID>-O<n>`. */
  responseId: string;
  /** The response's DataLists. */
  lists: ListsBuilder;
  /** No change fee: the order waits on a schedule change the airline made (involuntary). Default false. */
  feeWaived?: boolean;
}

/** A journey of the order the query replaces, with the leg replacing it. */
interface Replaced {
  leg: DayOriginDestination;
  sold: SoldJourney;
  journey: Journey;
}

/** One new journey of an offer. */
interface NewJourney {
  leg: DayOriginDestination;
  journey: Journey;
  buckets: SegmentBucket[];
}

/**
 * The change offers for `query` on `loaded`: per price class (or the one asked for), every
 * combination of the legs' journeys with seats for the party, except the order's own flights in
 * its own class. None: NO_OFFERS (710).
 */
export function changeOffers(ctx: ChangeContext, loaded: LoadedOrder, query: ChangeQuery): ChangeQuote[] {
  const { world } = ctx;
  const { content } = loaded;
  const replaced = replacedJourneys(world, content, query.legs);
  const removeItemIds = checkDeletes(world, content, replaced, query.deleteItemIds);
  const release = replaced.flatMap((r) => segmentsOf(content.segments, r.journey));
  const sold = soldWithout(ctx.sold, release);
  const classes = world.priceClasses.filter((pc) => query.priceClass === undefined || pc.code === query.priceClass);
  const sameCabin = query.cabin === undefined || query.cabin === world.data.cabin.code;
  const quotes: ChangeQuote[] = [];
  for (const pc of sameCabin ? classes : []) {
    for (const combination of combinations(world, ctx, replaced, pc, sold, content)) {
      if (
        combination.every(
          (n, i) => n.journey.flightKey === replaced[i].sold.flightKey && pc.code === replaced[i].sold.priceClass,
        )
      )
        continue;
      const offerId = `${ctx.responseId}-O${quotes.length + 1}`;
      quotes.push(changeQuote(ctx, loaded, { offerId, pc, replaced, combination, removeItemIds, release }));
    }
  }
  if (quotes.length === 0) {
    const legs = query.legs.map((l) => `${l.departureCode}-${l.arrivalCode} on ${l.date}`).join(', ');
    throw new AirlineError(
      'NO_OFFERS',
      `No other flights with seats for this order: ${legs}${query.priceClass ? ` in ${query.priceClass}` : ''}`,
    );
  }
  return quotes;
}

/** The order's journey each leg replaces: the one between the same airports (a change keeps the route). */
function replacedJourneys(world: World, content: OrderContent, legs: readonly DayOriginDestination[]): Replaced[] {
  if (legs.length === 0) throw new AirlineError('INVALID_REQUEST', 'Add/FlightQuery names no OriginDestination');
  const serves = (a: string, b: string) => world.airportsFor(a).some((x) => world.airportsFor(b).includes(x));
  const found = legs.map((leg) => {
    const sold = content.journeys.find((j) => serves(leg.departureCode, j.from) && serves(leg.arrivalCode, j.to));
    if (!sold) {
      throw new AirlineError(
        'INVALID_REQUEST',
        `The order has no journey from ${leg.departureCode} to ${leg.arrivalCode}: a change keeps the order's route (${content.journeys.map((j) => `${j.from}-${j.to}`).join(', ')})`,
      );
    }
    return { leg, sold, journey: journeyOfSold(world, sold) };
  });
  if (new Set(found.map((r) => r.sold.flightKey)).size !== found.length)
    throw new AirlineError('INVALID_REQUEST', 'Add/FlightQuery names one journey of the order twice');
  return found;
}

/**
 * The Delete of a change: every passenger's fare items of the replaced journeys, and nothing of
 * another journey (extras of the replaced journeys may be named: they go with their flights).
 * Returns every item the change removes: those fare items and the replaced journeys' extras.
 */
function checkDeletes(world: World, content: OrderContent, replaced: Replaced[], deleteIds: string[]): string[] {
  const fares = replaced.flatMap((r) =>
    content.passengers.map((p) => fareItemOf(content, r.sold.flightKey, p.passengerId)),
  );
  if (fares.some((f) => f === undefined)) throw new Error('an order journey lacks a passenger fare item');
  const fareIds = fares.map((f) => f!.offerItemId);
  const extraIds = replaced.flatMap((r) => extrasOf(content.items, r.journey)).map((i) => i.offerItemId);
  const missing = fareIds.filter((id) => !deleteIds.includes(id));
  if (missing.length > 0) {
    throw new AirlineError(
      'INVALID_REQUEST',
      `Delete every passenger's flight items of the journeys replaced; missing: ${missing.join(', ')}`,
    );
  }
  const foreign = deleteIds.filter((id) => !fareIds.includes(id) && !extraIds.includes(id));
  if (foreign.length > 0) {
    const known = foreign.filter((id) => content.items.some((i) => i.offerItemId === id));
    throw new AirlineError(
      'INVALID_REQUEST',
      known.length > 0
        ? `Delete names items of journeys the FlightQuery does not replace: ${known.join(', ')}; add a leg for their journey or leave them out`
        : `Delete names order items the order does not have: ${foreign.join(', ')}`,
    );
  }
  return [...fareIds, ...extraIds];
}

/** The extras (bags, meals, seats...) sold for the flights of `journey`. */
export function extrasOf(items: readonly MoneyOfferItem[], journey: Journey): MoneyOfferItem[] {
  const keys = new Set(journey.segments.map((s) => s.segmentKey));
  return items.filter(
    (i) =>
      i.fareDetails.length === 0 &&
      i.services.some(
        (s) =>
          (s.selectedSeat !== undefined && keys.has(s.selectedSeat.segmentRef)) ||
          (s.serviceDefinitionRef?.segmentRefs ?? []).some((k) => keys.has(k)),
      ),
  );
}

/** The inventory the order holds on the segments of `journey`. */
export function segmentsOf(segments: readonly SoldSegment[], journey: Journey): SoldSegment[] {
  const keys = new Set(journey.segments.map((s) => s.inventoryKey));
  return segments.filter((s) => keys.has(s.inventoryKey));
}

/** Every choice of one journey per leg, on the leg's date, with seats in `pc` for the party. */
function combinations(
  world: World,
  ctx: ChangeContext,
  replaced: Replaced[],
  pc: WorldPriceClass,
  sold: SoldReader,
  content: OrderContent,
): NewJourney[][] {
  const today = dateOf(ctx.now);
  let out: NewJourney[][] = [[]];
  for (const { leg } of replaced) {
    const options = world.journeys(leg.departureCode, leg.arrivalCode, leg.date, today).flatMap((journey) => {
      const buckets = bucketsFor(world, journey, pc, content.passengers, sold);
      return buckets ? [{ leg, journey, buckets }] : [];
    });
    out = out.flatMap((prefix) => options.map((o) => [...prefix, o]));
  }
  return out;
}

/** What one offer is made of. */
interface OfferParts {
  offerId: string;
  pc: WorldPriceClass;
  replaced: Replaced[];
  combination: NewJourney[];
  removeItemIds: string[];
  release: SoldSegment[];
}

/** The new journeys of one offer: their fare items against those they replace, their flights. */
interface NewFares {
  addItems: ReshopAddItem[];
  addJourneys: SoldJourney[];
  flightsOverview: FlightRef[];
}

/** One change offer: its new fare items against the ones they replace, and its plan. */
function changeQuote(ctx: ChangeContext, loaded: LoadedOrder, parts: OfferParts): ChangeQuote {
  const { world } = ctx;
  const { content } = loaded;
  const scale = currencyScale(content.currency);
  const fares = newFares(ctx, content, parts);
  const { addItems } = fares;
  const money = (value: string) => ({ value, currency: content.currency });
  const difference = money(add(scale, '0', ...addItems.map((a) => signedDue(a, scale))));
  const penalty = money(add(scale, '0', ...addItems.map((a) => a.differential!.penalty!.value)));
  const offer: ReshopOffer = {
    offerId: parts.offerId,
    owner: world.airlineCode,
    expiresAt: ctx.expiresAt,
    totalPrice: money(add(scale, '0', ...addItems.map((a) => a.priceDetail.total!.value!))),
    penalty: {
      changeFee: compare(penalty.value, '0') > 0,
      refundable: compare(difference.value, '0') < 0,
      details: [{ type: 'Change', amount: penalty }],
    },
    flightsOverview: fares.flightsOverview,
    deleteItems: deletedExtras(parts, content),
    addItems,
  };
  return { offer, plan: flightsPlan(world, loaded, parts, fares, { difference, penalty }) };
}

/** The fare items of each new journey of an offer (their DataLists entries added), and its flights. */
function newFares(ctx: ChangeContext, content: OrderContent, parts: OfferParts): NewFares {
  const { world, lists } = ctx;
  const fares: NewFares = { addItems: [], addJourneys: [], flightsOverview: [] };
  parts.combination.forEach((n, i) => {
    const old = parts.replaced[i].sold;
    const journeyOfferId = `${parts.offerId}-J${i + 1}`;
    const odRef = lists.addOriginDestination(n.leg.departureCode, n.leg.arrivalCode);
    lists.addJourney(
      odRef,
      n.journey,
      n.buckets.map((b) => b.rbd),
    );
    const priced = { journey: n.journey, buckets: n.buckets, pc: parts.pc, qualifier: old.qualifier };
    const items = orderFareItems(world, content, { ...priced, itemId: (pax) => `${journeyOfferId}-${pax}` }, lists);
    const priceClassRef = lists.addPriceClass(parts.pc.code);
    fares.flightsOverview.push({ odRef, priceClassRef, flightKey: n.journey.flightKey });
    fares.addJourneys.push(soldJourney(old, journeyOfferId, n, odRef, parts.pc));
    items.forEach((item, p) =>
      fares.addItems.push(addItem(ctx, content, old, item, content.passengers[p].passengerId)),
    );
  });
  return fares;
}

/** What accepting an offer does: the journeys, items, inventory and seats given up and taken, its money. */
function flightsPlan(
  world: World,
  loaded: LoadedOrder,
  parts: OfferParts,
  fares: NewFares,
  money: Pick<ChangePlan, 'difference' | 'penalty'>,
): ChangePlan {
  const { content, order } = loaded;
  const seats = seatsOf(world, content.passengers);
  const onReplaced = (segmentKey: string) =>
    parts.replaced.some((r) => r.journey.segments.some((x) => x.segmentKey === segmentKey));
  return {
    kind: 'flights',
    version: order.version,
    removeItemIds: parts.removeItemIds,
    addItems: fares.addItems.map(({ replacesOrderItemIds: _r, differential: _d, ...item }) => item as MoneyOfferItem),
    removeJourneys: parts.replaced.map((r) => r.sold.flightKey),
    addJourneys: fares.addJourneys,
    release: parts.release,
    sell: parts.combination.flatMap((n) =>
      n.buckets.map((b) => ({ inventoryKey: b.segment.inventoryKey, rbd: b.rbd, seats })),
    ),
    releaseSeats: content.seats.filter((s) => onReplaced(s.segmentKey)),
    sellSeats: [],
    removePassengerIds: [],
    ...money,
  };
}

/** A new fare item replacing the passenger's item of journey `old`, with what it costs against it. */
function addItem(
  ctx: Pick<ChangeContext, 'world' | 'feeWaived'>,
  content: OrderContent,
  old: SoldJourney,
  item: MoneyOfferItem,
  passengerId: string,
): ReshopAddItem {
  const given = fareItemOf(content, old.flightKey, passengerId)!;
  const d = itemDifference(ctx.world, given, item.priceDetail.total.value, content.currency, ctx.feeWaived);
  const currency = content.currency;
  const owed = compare(d.due, '0') >= 0;
  return {
    ...item,
    replacesOrderItemIds: [given.offerItemId],
    differential: {
      original: { value: d.original, currency },
      newOffer: { value: d.newPrice, currency },
      penalty: { value: d.penalty, currency },
      due: { payer: owed ? 'passenger' : 'airline', amount: { value: owed ? d.due : d.due.slice(1), currency } },
    },
  };
}

function signedDue(a: ReshopAddItem, scale: number): string {
  const due = a.differential!.due;
  const value = due.amount!.value!;
  return due.payer === 'passenger' ? value : subtract('0', value, scale);
}

/** The extras of the replaced journeys, removed with their flights (listed without money: they are not refunded). */
function deletedExtras(parts: OfferParts, content: OrderContent): ReshopDeleteItem[] {
  const extras = parts.replaced.flatMap((r) => extrasOf(content.items, r.journey));
  return extras.map((item, i) => ({ offerItemId: `${parts.offerId}-DEL${i + 1}`, orderItemId: item.offerItemId }));
}

/** The new journey as the order will hold it (direction and qualifier of the one it replaces). */
function soldJourney(
  old: SoldJourney,
  offerId: string,
  n: NewJourney,
  odKey: string,
  pc: WorldPriceClass,
): SoldJourney {
  return {
    offerId,
    direction: old.direction,
    odKey,
    from: n.leg.departureCode,
    to: n.leg.arrivalCode,
    date: n.leg.date,
    flights: n.journey.segments.map((s) => s.flight.number),
    flightKey: n.journey.flightKey,
    priceClass: pc.code,
    ...(old.qualifier !== undefined ? { qualifier: old.qualifier } : {}),
  };
}
