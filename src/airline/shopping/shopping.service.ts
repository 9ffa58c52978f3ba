/**
 * AirShopping: calendar search (lowest adult price per date and direction) and
 * day search (offers per direction, journey and price class). Pure domain
 * logic over the ports; the HTTP shell decodes/encodes the XML.
 */
import { add, compare, currencyScale, times } from '../../common/decimal';
import type {
  AirShoppingRq,
  AirShoppingRs,
  CalendarOriginDestination,
  DayOriginDestination,
  MessageHeader,
  NdcWarning,
  Offer,
  Passenger,
  PriceCalendarEntry,
} from '../../ndc/ndc.model';
import { AGENCY_ID_ELEMENT, requireElement, requirePtc } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type { AirlineClock, InventoryStore, ResponseStore } from '../airline.ports';
import {
  chooseBuckets,
  Discounts,
  evaluateQualifier,
  money,
  passengerType,
  PassengerPrice,
  priceJourney,
  resolveCurrency,
  type SegmentBucket,
} from '../pricing/pricing';
import { fareItem } from '../pricing/fare-item';
import { IdSource, randomIds } from '../world/ids';
import type { World } from '../world/world';
import { addDays, dateOf, isIsoDate, responseTimestamp } from '../world/world.dates';
import { ListsBuilder } from '../world/world.lists';
import type { Journey, WorldPriceClass } from '../world/world.types';
import type { StoredOffer } from './shopping.types';

/** Largest LeadDatePeriod Before/After accepted, in days. */
export const MAX_CALENDAR_DAYS = 31;

/** Response header fields echoed from a request. */
export function responseHeader(rq: MessageHeader, now: Date): MessageHeader {
  return {
    target: rq.target,
    version: '17.2',
    timeStamp: responseTimestamp(now),
    ...(rq.transactionIdentifier !== undefined ? { transactionIdentifier: rq.transactionIdentifier } : {}),
    ...(rq.correlationId !== undefined ? { correlationId: rq.correlationId } : {}),
  };
}

/** Checks passengers of a request: unique ids, a supported type (PTC) each, infants not outnumbering adults. */
export function validatePassengers(world: World, passengers: Passenger[], required: boolean): void {
  if (required && passengers.length === 0)
    throw new AirlineError('INVALID_REQUEST', 'DataLists/PassengerList must list at least one passenger');
  const ids = new Set<string>();
  for (const p of passengers) {
    if (ids.has(p.passengerId)) throw new AirlineError('INVALID_REQUEST', `PassengerID ${p.passengerId} appears twice`);
    ids.add(p.passengerId);
    passengerType(world, requirePtc(p));
  }
  const adults = passengers.filter((p) => p.ptc === 'ADT').length;
  const infants = passengers.filter((p) => p.ptc === 'INF').length;
  if (infants > adults)
    throw new AirlineError('INVALID_REQUEST', 'Each infant (INF) must travel with its own adult (ADT)');
  if (passengers.length > 0 && adults === 0)
    throw new AirlineError('INVALID_REQUEST', 'At least one adult (ADT) must travel');
}

/** Seats a set of passengers takes (infants on lap take none). */
export function seatsFor(world: World, passengers: Passenger[]): number {
  return passengers.filter((p) => passengerType(world, requirePtc(p)).takesSeat).length;
}

/**
 * Seats sold per inventory key and booking class as one search sees them:
 * each key is read from the store once (one query for all its classes), then
 * kept for the rest of that search only.
 */
export function soldReader(inventory: InventoryStore): (inventoryKey: string, rbd: string) => number {
  const byKey = new Map<string, ReadonlyMap<string, number>>();
  return (inventoryKey, rbd) => {
    let sold = byKey.get(inventoryKey);
    if (!sold) {
      sold = inventory.soldOn(inventoryKey);
      byKey.set(inventoryKey, sold);
    }
    return sold.get(rbd) ?? 0;
  };
}

interface PricedGroup {
  ptc: string;
  passengerRefs: string[];
  price: PassengerPrice;
}

/** Groups passengers of the same type and the same per-passenger price, in passenger-list order. */
export function groupPassengers(
  passengers: { passengerId: string; ptc: string; price: PassengerPrice }[],
): PricedGroup[] {
  const groups: PricedGroup[] = [];
  for (const p of passengers) {
    const g = groups.find(
      (x) =>
        x.ptc === p.ptc &&
        x.price.base === p.price.base &&
        x.price.taxes === p.price.taxes &&
        x.price.total === p.price.total,
    );
    if (g) g.passengerRefs.push(p.passengerId);
    else groups.push({ ptc: p.ptc, passengerRefs: [p.passengerId], price: p.price });
  }
  return groups;
}

/** What one day search prices with, worked out once from its request. */
interface DaySearch {
  rq: AirShoppingRq;
  responseId: string;
  currency: string;
  discounts: Discounts;
  warnings: NdcWarning[];
  /** Seats the passengers take (infants on lap take none). */
  seats: number;
  /** The search's date (no flight departs before it). */
  today: string;
  lists: ListsBuilder;
  sold: (inventoryKey: string, rbd: string) => number;
  /** The next OfferID of the response (`<ResponseID>-O<n>`, counted across directions). */
  nextOfferId: () => string;
}

/** An offer of a day search and what the shopping record keeps of it. */
interface DayOffer {
  offer: Offer;
  stored: StoredOffer;
}

export class ShoppingService {
  /**
   * @param ids source of ShoppingResponseIDs (default random)
   */
  constructor(
    private readonly world: World,
    private readonly store: ResponseStore,
    private readonly inventory: InventoryStore,
    private readonly clock: AirlineClock,
    private readonly ids: IdSource = randomIds,
  ) {}

  /** Answers an AirShoppingRQ: a calendar or a day search; a business failure throws its AirlineError. */
  shop(rq: AirShoppingRq): AirShoppingRs {
    const now = this.clock.now();
    const coreQuery = requireElement(rq.coreQuery, 'CoreQuery/OriginDestinations');
    return coreQuery.kind === 'calendar'
      ? this.calendar(rq, coreQuery.originDestinations, now)
      : this.day(rq, coreQuery.originDestinations, now);
  }

  private checkDirections(ods: { departureCode: string; arrivalCode: string; date: string }[]): void {
    if (ods.length < 1 || ods.length > 2)
      throw new AirlineError('INVALID_REQUEST', 'Send one OriginDestination (one-way) or two (round trip)');
    const keys = new Set<string>();
    for (const od of ods) {
      for (const code of [od.departureCode, od.arrivalCode]) {
        if (this.world.airportsFor(code).length === 0)
          throw new AirlineError('INVALID_REQUEST', `Unknown airport or city code ${code}`);
      }
      if (od.departureCode === od.arrivalCode)
        throw new AirlineError('INVALID_REQUEST', `Departure and arrival are both ${od.departureCode}`);
      if (!isIsoDate(od.date)) throw new AirlineError('INVALID_REQUEST', `Invalid date ${od.date}; use YYYY-MM-DD`);
      const key = `${od.departureCode}-${od.arrivalCode}`;
      if (keys.has(key)) throw new AirlineError('INVALID_REQUEST', `Direction ${key} requested twice`);
      keys.add(key);
    }
  }

  private calendar(rq: AirShoppingRq, ods: CalendarOriginDestination[], now: Date): AirShoppingRs {
    this.checkDirections(ods);
    validatePassengers(this.world, rq.passengers, false);
    const currency = resolveCurrency(this.world, rq.parameters?.overrideCurrency, rq.pointOfSaleCountry);
    const { discounts, warnings } = evaluateQualifier(this.world, rq.qualifier);
    const seats = Math.max(1, seatsFor(this.world, rq.passengers));
    const today = dateOf(now);
    const lists = new ListsBuilder(this.world);
    const groups = ods.map((od) => {
      for (const n of [od.daysBefore, od.daysAfter]) {
        if (!Number.isInteger(n) || n < 0 || n > MAX_CALENDAR_DAYS) {
          throw new AirlineError('INVALID_REQUEST', `LeadDatePeriod must be between P0D and P${MAX_CALENDAR_DAYS}D`);
        }
      }
      const key = lists.addOriginDestination(od.departureCode, od.arrivalCode);
      const priceCalendar: PriceCalendarEntry[] = [];
      for (let d = -od.daysBefore; d <= od.daysAfter; d++) {
        const date = addDays(od.date, d);
        const best = this.lowestAdultPrice(od.departureCode, od.arrivalCode, date, today, seats, currency, discounts);
        if (best) {
          priceCalendar.push({
            dates: [{ date, originDestinationRef: key }],
            totalPrice: money(best.total, currency),
            augPointRefs: [lists.addJourneyKind(best.transfer)],
          });
        }
      }
      if (priceCalendar.length === 0) {
        throw new AirlineError(
          'NO_OFFERS',
          `No availability from ${od.departureCode} to ${od.arrivalCode} between ${addDays(od.date, -od.daysBefore)} and ${addDays(od.date, od.daysAfter)}`,
        );
      }
      return { priceCalendar };
    });
    return {
      ...responseHeader(rq, now),
      ...(warnings.length ? { warnings } : {}),
      kind: 'calendar',
      airlineOffers: groups,
      dataLists: lists.dataLists(),
      metadata: lists.metadata(),
    };
  }

  /** Lowest one-adult total over journeys and price classes with `seats` seats on `date`. */
  private lowestAdultPrice(
    from: string,
    to: string,
    date: string,
    today: string,
    seats: number,
    currency: string,
    discounts: Discounts,
  ): { total: string; transfer: boolean } | undefined {
    let best: { total: string; transfer: boolean } | undefined;
    const sold = soldReader(this.inventory);
    for (const journey of this.world.journeys(from, to, date, today)) {
      for (const pc of this.world.priceClasses) {
        const buckets = chooseBuckets(this.world, journey, pc, seats, sold);
        if (!buckets) continue;
        const price = priceJourney(this.world, buckets, pc, 'ADT', { assumedUnder16: false }, currency, discounts);
        if (!best || compare(price.total, best.total) < 0) best = { total: price.total, transfer: journey.transfer };
      }
    }
    return best;
  }

  /**
   * Day search: the offers of each direction (journeys and price classes with seats, priced per
   * passenger type), stored as a ShoppingRecord for OfferPrice, in one AirShoppingRS.
   */
  private day(rq: AirShoppingRq, ods: DayOriginDestination[], now: Date): AirShoppingRs {
    const search = this.daySearch(rq, ods, now);
    const offers: DayOffer[] = ods.flatMap((od, direction) => {
      const found = this.directionOffers(search, od, direction);
      if (found.length === 0) {
        throw new AirlineError(
          'NO_OFFERS',
          `No availability from ${od.departureCode} to ${od.arrivalCode} on ${od.date}`,
        );
      }
      return found;
    });
    this.store.saveShopping({
      responseId: search.responseId,
      agencyId: requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.world.data.shoppingTtlMinutes * 60_000).toISOString(),
      currency: search.currency,
      passengers: rq.passengers,
      offers: Object.fromEntries(offers.map((o) => [o.offer.offerId, o.stored])),
    });
    return {
      ...responseHeader(rq, now),
      ...(search.warnings.length ? { warnings: search.warnings } : {}),
      kind: 'day',
      shoppingResponseId: search.responseId,
      airlineOffers: [{ offers: offers.map((o) => o.offer) }],
      dataLists: search.lists.dataLists(rq.passengers),
      metadata: search.lists.metadata(),
    };
  }

  /** Checks a day search's request and works out what it prices with. */
  private daySearch(rq: AirShoppingRq, ods: DayOriginDestination[], now: Date): DaySearch {
    this.checkDirections(ods);
    validatePassengers(this.world, rq.passengers, true);
    const currency = resolveCurrency(this.world, rq.parameters?.overrideCurrency, rq.pointOfSaleCountry);
    const { discounts, warnings } = evaluateQualifier(this.world, rq.qualifier);
    const responseId = this.ids.next('SR');
    let offers = 0;
    return {
      rq,
      responseId,
      currency,
      discounts,
      warnings,
      seats: seatsFor(this.world, rq.passengers),
      today: dateOf(now),
      lists: new ListsBuilder(this.world),
      sold: soldReader(this.inventory),
      nextOfferId: () => `${responseId}-O${++offers}`,
    };
  }

  /** The offers of one direction: each journey of the day in each price class that has the seats. */
  private directionOffers(search: DaySearch, od: DayOriginDestination, direction: number): DayOffer[] {
    const key = search.lists.addOriginDestination(od.departureCode, od.arrivalCode);
    const offers: DayOffer[] = [];
    for (const journey of this.world.journeys(od.departureCode, od.arrivalCode, od.date, search.today)) {
      for (const pc of this.world.priceClasses) {
        const buckets = chooseBuckets(this.world, journey, pc, search.seats, search.sold);
        if (buckets) offers.push(this.dayOffer(search, { od, key, direction }, journey, pc, buckets));
      }
    }
    return offers;
  }

  /** The offer of `journey` in price class `pc` (its DataLists entries added), and what is stored of it. */
  private dayOffer(
    search: DaySearch,
    where: { od: DayOriginDestination; key: string; direction: number },
    journey: Journey,
    pc: WorldPriceClass,
    buckets: SegmentBucket[],
  ): DayOffer {
    const { lists, currency, rq } = search;
    lists.addJourney(where.key, journey);
    const priceClassRef = lists.addPriceClass(pc.code);
    for (const b of buckets)
      lists.addPriceClass(pc.code, { segmentRefs: [b.segment.segmentKey], code: b.rbd, seatsLeft: b.seatsLeft });
    const bundleRef = pc.bundle ? lists.addService(pc.bundle) : undefined;
    const offerId = search.nextOfferId();
    const groups = groupPassengers(this.passengerPrices(search, buckets, pc));
    const items = groups.map((g, i) =>
      fareItem(this.world, {
        offerItemId: `${offerId}-I${i + 1}`,
        passengerRefs: g.passengerRefs,
        price: g.price,
        currency,
        journey,
        buckets,
        priceClassRef,
        bundleRef,
      }),
    );
    const scale = currencyScale(currency);
    const total = add(scale, ...groups.map((g) => times(g.price.total, g.passengerRefs.length, scale)));
    const offer: Offer = {
      offerId,
      owner: this.world.airlineCode,
      totalPrice: money(total, currency),
      flightsOverview: [{ odRef: where.key, priceClassRef, flightKey: journey.flightKey }],
      offerItems: items,
    };
    const stored: StoredOffer = {
      offerId,
      direction: where.direction,
      odKey: where.key,
      from: where.od.departureCode,
      to: where.od.arrivalCode,
      date: where.od.date,
      flights: journey.segments.map((s) => s.flight.number),
      flightKey: journey.flightKey,
      priceClass: pc.code,
      items: items.map((it, i) => ({ offerItemId: it.offerItemId, passengerRefs: groups[i].passengerRefs })),
      ...(rq.qualifier ? { qualifier: rq.qualifier } : {}),
    };
    return { offer, stored };
  }

  /**
   * The price of each passenger of the search in `buckets` of `pc`. Without birthdates the price
   * depends on the passenger type only: it is computed once per type.
   */
  private passengerPrices(
    search: DaySearch,
    buckets: SegmentBucket[],
    pc: WorldPriceClass,
  ): { passengerId: string; ptc: string; price: PassengerPrice }[] {
    const byType = new Map<string, PassengerPrice>();
    const priceOf = (ptc: string): PassengerPrice => {
      let price = byType.get(ptc);
      if (!price) {
        const age = { assumedUnder16: passengerType(this.world, ptc).under16 };
        price = priceJourney(this.world, buckets, pc, ptc, age, search.currency, search.discounts);
        byType.set(ptc, price);
      }
      return price;
    };
    return search.rq.passengers.map((p) => {
      const ptc = requirePtc(p);
      return { passengerId: p.passengerId, ptc, price: priceOf(ptc) };
    });
  }
}
