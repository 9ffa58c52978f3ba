/**
 * Extras: ServiceList (the services of the selected offers, per passenger type and direction),
 * SeatAvailability (a seat map per segment with each seat's status and zone price), and the
 * pricing of the selected extras into an OfferPrice (seats locked to the transaction).
 */
import type {
  ALaCarteOffer,
  ALaCarteOfferItem,
  SeatAvailabilityRq,
  SeatAvailabilityRs,
  SeatMap,
  SeatMapRow,
  ServiceListRq,
  ServiceListRs,
} from '../../ndc/extras.model';
import { SEAT_STATUS } from '../../ndc/extras.model';
import { add, currencyScale, equals } from '../../common/decimal';
import type { DataLists, MoneyOfferItem, NdcWarning, OrderOffer, Passenger, SelectedOffer } from '../../ndc/ndc.model';
import { requireMoney, requirePtc } from '../../ndc/require-element';
import { AirlineError, ndcWarning } from '../airline.errors';
import type {
  AirlineClock,
  PricedSeat,
  PricingRecord,
  ResponseStore,
  SeatStore,
  ShoppingRecord,
} from '../airline.ports';
import { convert, money, passengerType, zero } from '../pricing/pricing';
import { responseHeader } from '../shopping/shopping.service';
import type { StoredOffer } from '../shopping/shopping.types';
import type { World } from '../world/world';
import { ListsBuilder } from '../world/world.lists';
import type { DatedSegment, Journey, WorldAircraft } from '../world/world.types';
import {
  type ExtraItemKey,
  type SeatSpec,
  aLaCarteOfferId,
  extraItemId,
  findSeat,
  isSeatZone,
  lapHolders,
  layoutColumns,
  parseExtraItemId,
  seatsOf,
  servicePrice,
  zonePrice,
} from './extras.catalogue';

/** Default lock of a priced seat (AIRLINE_SEAT_LOCK_MS): 10 minutes. */
export const DEFAULT_SEAT_LOCK_MS = 600_000;

/** A direction's flights as sold (a shopped offer, or an order's journey): price class, airports, flights, date. */
export type JourneyOffer = Pick<StoredOffer, 'priceClass' | 'from' | 'to' | 'flights' | 'date'>;

/**
 * What extras are sold with: the passengers and currency of a shopping response (or of an order),
 * and the id their ALaCarteOffer answers with (`ALC__<responseId>`).
 */
export type ExtrasScope = Pick<ShoppingRecord, 'responseId' | 'currency' | 'passengers'>;

/** A flight offer being priced (or an order's journey), with its journey. */
export interface PricedDirection {
  offer: JourneyOffer;
  journey: Journey;
}

/** What the selected extras add to an OfferPrice. */
export interface PricedExtras {
  items: MoneyOfferItem[];
  warnings: NdcWarning[];
  seats: PricedSeat[];
}

/** One passenger's selection of an à-la-carte item. */
interface ExtraPick {
  key: ExtraItemKey;
  itemId: string;
  passenger: Passenger;
  direction: PricedDirection;
  segment?: DatedSegment;
  seat?: SeatSpec;
}

const CODES: Record<SeatSpec['position'], string> = { window: 'W', aisle: 'A', middle: '9' };
const POSITION: Record<SeatSpec['position'], string> = { window: 'W', aisle: 'A', middle: 'C' };

export class ExtrasService {
  constructor(
    private readonly world: World,
    private readonly responses: ResponseStore,
    private readonly seats: SeatStore,
    private readonly clock: AirlineClock,
    private readonly lockMs: number = DEFAULT_SEAT_LOCK_MS,
  ) {}

  /** Answers a ServiceListRQ; a business failure throws its AirlineError. */
  serviceList(rq: ServiceListRq): ServiceListRs {
    const now = this.clock.now();
    if (rq.offers.length === 0) {
      throw new AirlineError('INVALID_REQUEST', 'Query/Offers/Offer is required: name the offers to list extras for');
    }
    const responseId = rq.shoppingResponseId;
    if (responseId === undefined)
      throw new AirlineError('INVALID_REQUEST', 'ShoppingResponseID/ResponseID is required');
    const shopping = this.shopping(responseId, rq.party.agencyId, now);
    const lists = new ListsBuilder(this.world);
    const items: ALaCarteOfferItem[] = [];
    for (const sel of rq.offers) {
      const offer = this.storedOffer(shopping, sel.offerId);
      for (const id of sel.offerItemIds) {
        if (!offer.items.some((i) => i.offerItemId === id))
          throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${id} not found in offer ${sel.offerId}`);
      }
      const journey = this.addJourney(lists, offer);
      items.push(...this.serviceItems(lists, shopping, offer, journey));
    }
    return {
      ...responseHeader(rq, now),
      kind: 'success',
      shoppingResponseId: responseId,
      ...(items.length ? { aLaCarteOffer: this.aLaCarteOffer(responseId, items) } : {}),
      dataLists: lists.dataLists(shopping.passengers),
    };
  }

  /** The ALaCarteOffer items of the services `scope`'s passengers may buy on `journey` (one per service and passenger type). */
  serviceItems(lists: ListsBuilder, scope: ExtrasScope, offer: JourneyOffer, journey: Journey): ALaCarteOfferItem[] {
    const items: ALaCarteOfferItem[] = [];
    const pcRef = lists.addPriceClass(offer.priceClass);
    for (const service of this.world.data.extras?.services ?? []) {
      for (const [ptc, refs] of byType(scope.passengers)) {
        const price = servicePrice(this.world, service.code, offer.priceClass, ptc);
        if (price === undefined) continue;
        const id = extraItemId({ code: service.code, ptc, scope: journey.flightKey });
        items.push({
          offerItemId: id,
          passengerRefs: refs,
          segmentRefs: journey.segments.map((s) => s.segmentKey),
          priceClassRefs: [pcRef],
          unitPrice: money(convert(this.world, price, scope.currency), scope.currency),
          serviceId: `${id}-S`,
          serviceDefinitionRef: lists.addService(service.code),
        });
      }
    }
    return items;
  }

  /** Answers a SeatAvailabilityRQ; a business failure throws its AirlineError. */
  seatAvailability(rq: SeatAvailabilityRq): SeatAvailabilityRs {
    const now = this.clock.now();
    const sel = rq.offer;
    if (sel === undefined) {
      throw new AirlineError('INVALID_REQUEST', 'Query/Offer is required: name the offer whose seat maps you want');
    }
    if (sel.owner !== this.world.airlineCode)
      throw new AirlineError(
        'FOREIGN_OFFER',
        `Offer ${sel.offerId} is owned by ${sel.owner}, not by ${this.world.airlineCode}`,
      );
    const shopping = this.shopping(sel.responseId, rq.party.agencyId, now);
    const offer = this.storedOffer(shopping, sel.offerId);
    const lists = new ListsBuilder(this.world);
    const journey = this.addJourney(lists, offer);
    for (const id of sel.segmentIds) {
      if (!journey.segments.some((s) => s.segmentKey === id))
        throw new AirlineError('UNKNOWN_OFFER', `Segment ${id} is not a segment of offer ${sel.offerId}`);
    }
    const segments = journey.segments.filter(
      (s) => sel.segmentIds.length === 0 || sel.segmentIds.includes(s.segmentKey),
    );
    const items: ALaCarteOfferItem[] = [];
    const seatMaps: SeatMap[] = [];
    for (const segment of segments) {
      const aircraft = this.world.data.aircraft?.[segment.flight.aircraft];
      if (!aircraft) continue;
      const zoneItems = this.zoneItems(lists, shopping, offer, segment, aircraft);
      items.push(...zoneItems);
      const taken = this.seats.takenSeats(segment.inventoryKey, rq.transactionIdentifier, now.toISOString());
      seatMaps.push(this.seatMap(segment, aircraft, zoneItems, taken));
    }
    if (seatMaps.length === 0) {
      throw new AirlineError('NO_OFFERS', `No seat map for ${segments.map((s) => s.flightNumber).join('/')}`);
    }
    return {
      ...responseHeader(rq, now),
      kind: 'success',
      shoppingResponseId: shopping.responseId,
      ...(items.length ? { aLaCarteOffer: this.aLaCarteOffer(shopping.responseId, items) } : {}),
      seatMaps,
      dataLists: lists.dataLists(shopping.passengers),
    };
  }

  /** One item per zone of the aircraft and seated passenger type (of `scope`) whose price class sells it. */
  zoneItems(
    lists: ListsBuilder,
    scope: ExtrasScope,
    offer: JourneyOffer,
    segment: DatedSegment,
    aircraft: WorldAircraft,
  ): ALaCarteOfferItem[] {
    const seated = scope.passengers.filter((p) => passengerType(this.world, requirePtc(p)).takesSeat);
    const pcRef = lists.addPriceClass(offer.priceClass);
    const items: ALaCarteOfferItem[] = [];
    for (const zone of new Set(aircraft.zones.map((z) => z.code))) {
      const price = zonePrice(this.world, zone, offer.priceClass);
      if (price === undefined) continue;
      for (const [ptc, refs] of byType(seated)) {
        const id = extraItemId({ code: zone, ptc, scope: segment.segmentKey });
        items.push({
          offerItemId: id,
          passengerRefs: refs,
          segmentRefs: [segment.segmentKey],
          priceClassRefs: [pcRef],
          unitPrice: money(convert(this.world, price, scope.currency), scope.currency),
          serviceId: `${id}-S`,
          serviceDefinitionRef: lists.addService(zone),
        });
      }
    }
    return items;
  }

  /** The seat map of `segment`: each seat's status (`taken`: sold or locked by another), characteristics and zone items. */
  seatMap(
    segment: DatedSegment,
    aircraft: WorldAircraft,
    zoneItems: ALaCarteOfferItem[],
    taken: ReadonlySet<string>,
  ): SeatMap {
    const rows = new Map<number, SeatMapRow>();
    for (const seat of seatsOf(aircraft)) {
      let row = rows.get(seat.row);
      if (!row) rows.set(seat.row, (row = { number: seat.row, characteristics: seat.exitRow ? ['E'] : [], seats: [] }));
      const refs = zoneItems
        .filter((i) => parseExtraItemId(i.offerItemId)?.code === seat.zone)
        .map((i) => i.offerItemId);
      row.seats.push({
        column: seat.column,
        status: taken.has(seat.label) || refs.length === 0 ? SEAT_STATUS.occupied : SEAT_STATUS.available,
        characteristics: seatCharacteristics(seat),
        offerItemRefs: refs,
      });
    }
    return {
      segmentRef: segment.segmentKey,
      cabins: [
        {
          cabinCode: this.world.data.cabin.code,
          cabinName: this.world.data.cabin.name,
          columns: layoutColumns(aircraft).map((c) => ({ designator: c.designator, position: POSITION[c.position] })),
          rowRange: { first: aircraft.firstRow, last: aircraft.lastRow },
          exitRows: aircraft.exitRows,
          rows: [...rows.values()],
        },
      ],
    };
  }

  /**
   * Prices the selected items of the à-la-carte offers `alcs` of an OfferPriceRQ or OrderCreateRQ
   * (each checked by {@link checkALaCarteOffer} against shopping response `shopping`) for the
   * flight offers being priced, and locks the selected seats to `owner` (see {@link priceSelection}).
   */
  price(
    alcs: readonly SelectedOffer[],
    shopping: ShoppingRecord,
    directions: PricedDirection[],
    passengers: Passenger[],
    lists: ListsBuilder,
    owner: string,
  ): PricedExtras {
    for (const alc of alcs) this.checkALaCarteOffer(alc, shopping);
    return this.priceSelection(alcs, shopping, directions, passengers, lists, owner);
  }

  /**
   * Prices the selected items of the à-la-carte offers `alcs` (already checked to belong to
   * `scope`) for `directions`, and locks the selected seats to `owner`. A seat sold or locked by
   * another owner, or an exit-row seat for an adult holding an infant, is left out with warning
   * 281; anything else wrong is an AirlineError.
   */
  priceSelection(
    alcs: readonly SelectedOffer[],
    scope: ExtrasScope,
    directions: PricedDirection[],
    passengers: Passenger[],
    lists: ListsBuilder,
    owner: string,
  ): PricedExtras {
    // Every offer's items as one selection: an item or seat chosen twice is refused across offers too.
    const alc = { ...alcs[0], offerItems: alcs.flatMap((o) => o.offerItems) };
    const picks = this.picks(alc, directions, passengers);
    const warnings: NdcWarning[] = [];
    const holders = lapHolders(passengers);
    const seatable = picks.filter((p) => {
      if (!p.seat || !p.seat.infantBlocked || !holders.has(p.passenger.passengerId)) return true;
      warnings.push(ndcWarning('SEAT_UNAVAILABLE', `Unable to request seat ${p.seat.label}`));
      return false;
    });
    const now = this.clock.now();
    const holds = seatable.flatMap((p) =>
      p.seat && p.segment ? [{ inventoryKey: p.segment.inventoryKey, seat: p.seat.label }] : [],
    );
    const refused = this.seats.lockSeats(
      holds,
      owner,
      now.toISOString(),
      new Date(now.getTime() + this.lockMs).toISOString(),
    );
    const kept = seatable.filter((p) => {
      const lost =
        p.seat && refused.some((r) => r.seat === p.seat!.label && r.inventoryKey === p.segment!.inventoryKey);
      if (lost) warnings.push(ndcWarning('SEAT_UNAVAILABLE', `Unable to request seat ${p.seat!.label}`));
      return !lost;
    });
    return {
      items: kept.map((p) => this.pricedItem(p, scope.currency, lists)),
      warnings,
      seats: kept.flatMap((p) =>
        p.seat && p.segment
          ? [
              {
                inventoryKey: p.segment.inventoryKey,
                seat: p.seat.label,
                segmentKey: p.segment.segmentKey,
                passengerId: p.passenger.passengerId,
              },
            ]
          : [],
      ),
    };
  }

  /**
   * An OrderCreateRQ's à-la-carte offers `alcs` beside the priced flight offer (17.2 lets an order
   * merge offers of several responses): prices their items for the directions and passengers of
   * `pricing`, locks their seats (with the pricing's own) to `owner`, and returns the pricing with
   * those items added and the total raised by their exact sum. A seat no longer to be had is
   * SOLD_OUT; an offer's TotalOfferPrice, when sent, must be the sum of its items (740).
   */
  priceForOrder(alcs: readonly OrderOffer[], pricing: PricingRecord, owner: string): PricingRecord {
    const shopping = this.responses.getShopping(pricing.shoppingResponseId);
    if (!shopping) throw new AirlineError('UNKNOWN_OFFER', `Shopping response ${pricing.shoppingResponseId} not found`);
    if (pricing.surcharge) {
      throw new AirlineError(
        'PRICE_MISMATCH',
        'The CCF2 credit card surcharge is a share of the whole total: price the à-la-carte offers with the flight offer in the OfferPriceRQ',
      );
    }
    const directions = pricing.requestedOfferIds.map((id) => {
      const offer = this.storedOffer(shopping, id);
      return { offer, journey: this.world.journeyOf(offer.flights, offer.date) };
    });
    const lists = new ListsBuilder(this.world);
    const extras = this.price(alcs, shopping, directions, pricing.passengers, lists, owner);
    const seats = [...(pricing.seats ?? []), ...extras.seats];
    // Locking the new seats released the owner's other locks on those flights: lock all again.
    const now = this.clock.now();
    const lost = extras.seats.length
      ? this.seats.lockSeats(seats, owner, now.toISOString(), new Date(now.getTime() + this.lockMs).toISOString())
      : [];
    const unavailable = [...extras.warnings.map((w) => w.text ?? ''), ...lost.map((l) => `Seat ${l.seat} is taken`)];
    if (unavailable.length) throw new AirlineError('SOLD_OUT', `${unavailable.join('; ')}: choose another seat`);
    const { currency } = pricing.pricedOffer.total;
    const priceOf = new Map(extras.items.map((i) => [i.offerItemId, i.priceDetail.total.value]));
    for (const alc of alcs) checkOfferTotal(alc, priceOf, currency);
    const rs = pricing.response;
    return {
      ...pricing,
      pricedOffer: {
        ...pricing.pricedOffer,
        total: money(add(currencyScale(currency), pricing.pricedOffer.total.value, ...priceOf.values()), currency),
        offerItems: [...pricing.pricedOffer.offerItems, ...extras.items],
      },
      seats,
      seatOwner: owner,
      response: rs.kind === 'success' ? { ...rs, dataLists: withServices(rs.dataLists, lists.dataLists()) } : rs,
    };
  }

  /**
   * An à-la-carte offer goes with flight offers of shopping response `shopping`: it must be this
   * airline's (else 724), name that response as its ResponseID (725 for another response of the
   * agency, 720 for an unknown one) and be its ALaCarteOffer (`ALC__<ResponseID>`, else 720).
   */
  checkALaCarteOffer(alc: SelectedOffer, shopping: ShoppingRecord): void {
    const airline = this.world.airlineCode;
    if (alc.owner !== airline)
      throw new AirlineError('FOREIGN_OFFER', `Offer ${alc.offerId} is owned by ${alc.owner}, not by ${airline}`);
    if (alc.responseId !== shopping.responseId) {
      const known = [this.responses.getShopping(alc.responseId), this.responses.getPricing(alc.responseId)].some(
        (r) => r !== undefined && r.agencyId === shopping.agencyId,
      );
      if (!known)
        throw new AirlineError('UNKNOWN_OFFER', `Offer ${alc.offerId}: ResponseID ${alc.responseId} not found`);
      throw new AirlineError(
        'OFFER_RESPONSE_MISMATCH',
        `Offer ${alc.offerId} comes from response ${alc.responseId}, not from ${shopping.responseId} of the flight offers`,
      );
    }
    if (alc.offerId !== aLaCarteOfferId(shopping.responseId))
      throw new AirlineError('UNKNOWN_OFFER', `Offer ${alc.offerId} not found in response ${alc.responseId}`);
  }

  /** The selection, one pick per passenger and item, checked against the offers and passengers. */
  private picks(alc: SelectedOffer, directions: PricedDirection[], passengers: Passenger[]): ExtraPick[] {
    const picks: ExtraPick[] = [];
    const seen = new Set<string>();
    for (const sel of alc.offerItems) {
      const key = parseExtraItemId(sel.offerItemId);
      if (!key)
        throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${sel.offerItemId} not found in offer ${alc.offerId}`);
      const quantity = sel.aLaCarteSelection?.quantity ?? 1;
      if (quantity !== 1)
        throw new AirlineError(
          'INVALID_REQUEST',
          `OfferItem ${sel.offerItemId}: ALaCarteSelection/Quantity must be 1 (got ${quantity})`,
        );
      const seat = isSeatZone(this.world, key.code);
      if (seat && sel.passengerRefs.length !== 1)
        throw new AirlineError(
          'INVALID_REQUEST',
          `OfferItem ${sel.offerItemId}: select a seat for one passenger at a time`,
        );
      for (const ref of sel.passengerRefs) {
        const passenger = passengers.find((p) => p.passengerId === ref);
        if (!passenger || passenger.ptc !== key.ptc)
          throw new AirlineError(
            'PASSENGER_MISMATCH',
            `Passenger ${ref} does not belong to OfferItem ${sel.offerItemId}`,
          );
        const pick = seat
          ? this.seatPick(key, sel.offerItemId, passenger, directions, sel.seatSelection)
          : this.servicePick(key, sel.offerItemId, passenger, directions);
        const dup = pick.seat ? `${pick.segment!.segmentKey}/${ref}` : `${sel.offerItemId}/${ref}`;
        const seatDup = pick.seat ? `${pick.segment!.segmentKey}/${pick.seat.label}` : undefined;
        if (seen.has(dup) || (seatDup !== undefined && seen.has(seatDup)))
          throw new AirlineError(
            'INVALID_REQUEST',
            `OfferItem ${sel.offerItemId}: ${ref} or the seat is selected twice`,
          );
        seen.add(dup);
        if (seatDup !== undefined) seen.add(seatDup);
        picks.push(pick);
      }
    }
    return picks;
  }

  private servicePick(
    key: ExtraItemKey,
    itemId: string,
    passenger: Passenger,
    directions: PricedDirection[],
  ): ExtraPick {
    const direction = directions.find((d) => d.journey.flightKey === key.scope);
    if (!direction || servicePrice(this.world, key.code, direction.offer.priceClass, key.ptc) === undefined)
      throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${itemId} is not sold with the selected offers`);
    return { key, itemId, passenger, direction };
  }

  private seatPick(
    key: ExtraItemKey,
    itemId: string,
    passenger: Passenger,
    directions: PricedDirection[],
    selection: { row: number; column: string } | undefined,
  ): ExtraPick {
    const direction = directions.find((d) => d.journey.segments.some((s) => s.segmentKey === key.scope));
    const segment = direction?.journey.segments.find((s) => s.segmentKey === key.scope);
    const aircraft = segment && this.world.data.aircraft?.[segment.flight.aircraft];
    if (
      !direction ||
      !segment ||
      !aircraft ||
      zonePrice(this.world, key.code, direction.offer.priceClass) === undefined
    )
      throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${itemId} is not sold with the selected offers`);
    if (!selection)
      throw new AirlineError('INVALID_REQUEST', `OfferItem ${itemId}: SeatSelection (Row, Column) is required`);
    const seat = findSeat(aircraft, selection.row, selection.column);
    if (!seat || seat.zone !== key.code) {
      throw new AirlineError(
        'INVALID_REQUEST',
        `OfferItem ${itemId}: seat ${selection.row}${selection.column} is not a ${key.code} seat on ${segment.flightNumber}`,
      );
    }
    return { key, itemId, passenger, direction, segment, seat };
  }

  private pricedItem(p: ExtraPick, currency: string, lists: ListsBuilder): MoneyOfferItem {
    const pc = p.direction.offer.priceClass;
    const base = p.seat ? zonePrice(this.world, p.key.code, pc)! : servicePrice(this.world, p.key.code, pc, p.key.ptc)!;
    const amount = money(convert(this.world, base, currency), currency);
    const id = `${p.itemId}-${p.passenger.passengerId}`;
    const ref = lists.addService(p.key.code);
    const pax = [p.passenger.passengerId];
    return {
      offerItemId: id,
      priceDetail: { total: amount, base: amount, taxes: money(zero(currency), currency) },
      services: [
        p.seat && p.segment
          ? {
              serviceId: `${id}-S1`,
              passengerRefs: pax,
              selectedSeat: {
                row: p.seat.row,
                column: p.seat.column,
                segmentRef: p.segment.segmentKey,
                serviceDefinitionRef: ref,
              },
            }
          : {
              serviceId: `${id}-S1`,
              passengerRefs: pax,
              serviceDefinitionRef: { ref, segmentRefs: p.direction.journey.segments.map((s) => s.segmentKey) },
            },
      ],
      fareDetails: [],
    };
  }

  /** The ALaCarteOffer `ALC__<responseId>` of this airline holding `items`. */
  aLaCarteOffer(responseId: string, items: ALaCarteOfferItem[]): ALaCarteOffer {
    return { offerId: aLaCarteOfferId(responseId), owner: this.world.airlineCode, offerItems: items };
  }

  /** The agency's live shopping response `responseId`. */
  private shopping(responseId: string, agencyId: string | undefined, now: Date): ShoppingRecord {
    const shopping = this.responses.getShopping(responseId);
    if (!shopping || shopping.agencyId !== agencyId)
      throw new AirlineError('UNKNOWN_OFFER', `ResponseID ${responseId} not found`);
    if (Date.parse(shopping.expiresAt) <= now.getTime())
      throw new AirlineError(
        'OFFER_EXPIRED',
        `Shopping response ${responseId} expired at ${shopping.expiresAt}; shop again`,
      );
    return shopping;
  }

  private storedOffer(shopping: ShoppingRecord, offerId: string): StoredOffer {
    const offer = shopping.offers[offerId] as StoredOffer | undefined;
    if (!offer)
      throw new AirlineError('UNKNOWN_OFFER', `Offer ${offerId} not found in response ${shopping.responseId}`);
    return offer;
  }

  /** `offer`'s journey added to `lists` under its origin-destination. */
  addJourney(lists: ListsBuilder, offer: JourneyOffer): Journey {
    const journey = this.world.journeyOf(offer.flights, offer.date);
    lists.addJourney(lists.addOriginDestination(offer.from, offer.to), journey);
    return journey;
  }
}

/** `lists` with the service definitions of `extra` it lacks (by id). */
function withServices(lists: DataLists, extra: DataLists): DataLists {
  const known = lists.serviceDefinitions ?? [];
  const more = (extra.serviceDefinitions ?? []).filter(
    (d) => !known.some((k) => k.serviceDefinitionId === d.serviceDefinitionId),
  );
  return { ...lists, serviceDefinitions: [...known, ...more] };
}

/** An à-la-carte offer's TotalOfferPrice, when sent, is the sum of its priced items (`priceOf`: `<OfferItemID>-<PassengerID>`). */
export function checkOfferTotal(alc: OrderOffer, priceOf: ReadonlyMap<string, string>, currency: string): void {
  if (alc.totalOfferPrice === undefined) return;
  const sent = requireMoney(alc.totalOfferPrice, 'Query/Order/Offer/TotalOfferPrice', { currency });
  const items = alc.offerItems.flatMap((i) => i.passengerRefs.map((p) => priceOf.get(`${i.offerItemId}-${p}`) ?? '0'));
  const sum = add(currencyScale(currency), ...items);
  if (sent.currency !== currency || !equals(sent.value, sum)) {
    throw new AirlineError(
      'PRICE_MISMATCH',
      `TotalOfferPrice ${sent.value} ${sent.currency} of Offer ${alc.offerId} differs from the sum of its items ${sum} ${currency}`,
    );
  }
}

/** Passenger ids grouped by type, in the order the types first appear. */
function byType(passengers: readonly Passenger[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of passengers) {
    const ptc = requirePtc(p);
    out.set(ptc, [...(out.get(ptc) ?? []), p.passengerId]);
  }
  return out;
}

/** PADIS 9825 codes of a seat: W/A/9 (window, aisle, centre), E exit, L legroom, 1A not for infants. */
function seatCharacteristics(seat: SeatSpec): string[] {
  const codes = [CODES[seat.position]];
  if (seat.exitRow) codes.push('E', 'L');
  if (seat.infantBlocked) codes.push('1A');
  return codes;
}
