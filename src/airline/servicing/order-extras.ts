/**
 * Extras after the sale (docs/airline-service.md, "Servicing orders"): ServiceListRQ and
 * SeatAvailabilityRQ naming an `OrderID` answer the services and seat maps of the order's flights
 * for its passengers, as an ALaCarteOffer `ALC__<OrderID>` (ShoppingResponseID the OrderID); an
 * OrderChangeRQ accepting that offer's items adds them to the order (priced from the world, as at
 * OfferPrice, for the order's price classes).
 */
import { add, currencyScale } from '../../common/decimal';
import type {
  SeatAvailabilityRq,
  SeatAvailabilityRs,
  SeatMap,
  ServiceListRq,
  ServiceListRs,
} from '../../ndc/extras.model';
import type { ALaCarteOfferItem } from '../../ndc/extras.model';
import type { OrderOffer } from '../../ndc/ndc.model';
import { AirlineError } from '../airline.errors';
import type { AirlineClock, ResponseStore, SeatStore } from '../airline.ports';
import { aLaCarteOfferId } from '../extras/extras.catalogue';
import { type ExtrasScope, type ExtrasService, type PricedDirection, checkOfferTotal } from '../extras/extras.service';
import { responseHeader } from '../shopping/shopping.service';
import type { World } from '../world/world';
import { ListsBuilder } from '../world/world.lists';
import type { LoadedOrder, OrderBook } from './order-book';
import { journeyOfSold } from './order-fares';
import type { ChangePlan } from './servicing.types';

/** The seat lock owner of an order's changes (seats chosen for it are locked to it until sold). */
export function orderSeatOwner(orderId: string): string {
  return `ORDER:${orderId}`;
}

export class OrderExtras {
  constructor(
    private readonly world: World,
    private readonly extras: ExtrasService,
    private readonly responses: ResponseStore,
    private readonly seats: SeatStore,
    private readonly book: OrderBook,
    private readonly clock: AirlineClock,
  ) {}

  /** ServiceListRQ for an order (`Query/OrderID`): the services its passengers may add to each journey. */
  serviceList(rq: ServiceListRq): ServiceListRs {
    const ref = rq.order!;
    const loaded = this.book.find(ref.orderId, rq.party.agencyId, ref.owner);
    this.book.requireOpen(loaded.order);
    const lists = new ListsBuilder(this.world);
    const scope = scopeOf(loaded);
    const items = this.directions(loaded).flatMap((d) => {
      this.extras.addJourney(lists, d.offer);
      return this.extras.serviceItems(lists, scope, d.offer, d.journey);
    });
    return {
      ...responseHeader(rq, this.clock.now()),
      kind: 'success',
      shoppingResponseId: scope.responseId,
      ...(items.length ? { aLaCarteOffer: this.extras.aLaCarteOffer(scope.responseId, items) } : {}),
      dataLists: lists.dataLists(loaded.content.passengers),
    };
  }

  /**
   * SeatAvailabilityRQ for an order (`Query/Order`): the seat maps of its segments (or those named),
   * zone prices for its seated passengers (or those named). Seats sold (the order's own too) or
   * locked by another show occupied.
   */
  seatAvailability(rq: SeatAvailabilityRq): SeatAvailabilityRs {
    const ref = rq.order!;
    const now = this.clock.now();
    const loaded = this.book.find(ref.orderId, rq.party.agencyId, ref.owner);
    this.book.requireOpen(loaded.order);
    const unknownPax = ref.passengerIds.filter((id) => !loaded.content.passengers.some((p) => p.passengerId === id));
    if (unknownPax.length > 0)
      throw new AirlineError(
        'PASSENGER_MISMATCH',
        `Passengers ${unknownPax.join(', ')} are not on order ${ref.orderId}`,
      );
    const scope = {
      ...scopeOf(loaded),
      passengers: loaded.content.passengers.filter(
        (p) => ref.passengerIds.length === 0 || ref.passengerIds.includes(p.passengerId),
      ),
    };
    const lists = new ListsBuilder(this.world);
    const directions = this.directions(loaded);
    const segments = directions.flatMap((d) => {
      this.extras.addJourney(lists, d.offer);
      return d.journey.segments.map((segment) => ({ d, segment }));
    });
    const unknown = ref.segmentIds.filter((id) => !segments.some((s) => s.segment.segmentKey === id));
    if (unknown.length > 0)
      throw new AirlineError('UNKNOWN_OFFER', `Segments ${unknown.join(', ')} are not flights of order ${ref.orderId}`);
    const items: ALaCarteOfferItem[] = [];
    const seatMaps: SeatMap[] = [];
    for (const { d, segment } of segments.filter(
      (s) => ref.segmentIds.length === 0 || ref.segmentIds.includes(s.segment.segmentKey),
    )) {
      const aircraft = this.world.data.aircraft?.[segment.flight.aircraft];
      if (!aircraft) continue;
      const zoneItems = this.extras.zoneItems(lists, scope, d.offer, segment, aircraft);
      items.push(...zoneItems);
      const taken = this.seats.takenSeats(segment.inventoryKey, orderSeatOwner(ref.orderId), now.toISOString());
      seatMaps.push(this.extras.seatMap(segment, aircraft, zoneItems, taken));
    }
    if (seatMaps.length === 0)
      throw new AirlineError('NO_OFFERS', `No seat map for the flights of order ${ref.orderId}`);
    return {
      ...responseHeader(rq, now),
      kind: 'success',
      shoppingResponseId: scope.responseId,
      ...(items.length ? { aLaCarteOffer: this.extras.aLaCarteOffer(scope.responseId, items) } : {}),
      seatMaps,
      dataLists: lists.dataLists(loaded.content.passengers),
    };
  }

  /**
   * The plan of adding the items of the order's à-la-carte offers `alcs` (each checked: this
   * airline's, from this order's lists). The seats chosen are locked to the order; one taken (or an
   * exit-row seat for an infant's lap holder) is SOLD_OUT; an item the passenger already has is
   * INVALID_REQUEST; an offer's TotalOfferPrice must be the sum of its items (740).
   */
  plan(alcs: readonly OrderOffer[], loaded: LoadedOrder): ChangePlan {
    const { content, order } = loaded;
    for (const alc of alcs) this.checkOffer(alc, loaded);
    const lists = new ListsBuilder(this.world);
    const owner = orderSeatOwner(order.orderId);
    const priced = this.extras.priceSelection(
      alcs,
      scopeOf(loaded),
      this.directions(loaded),
      content.passengers,
      lists,
      owner,
    );
    if (priced.warnings.length > 0)
      throw new AirlineError('SOLD_OUT', `${priced.warnings.map((w) => w.text ?? '').join('; ')}: choose another seat`);
    const had = priced.items.filter((i) => content.items.some((x) => x.offerItemId === i.offerItemId));
    const seated = priced.seats.filter((s) =>
      content.seats.some((x) => x.passengerId === s.passengerId && x.segmentKey === s.segmentKey),
    );
    if (had.length > 0 || seated.length > 0) {
      const what = [
        ...had.map((i) => i.offerItemId),
        ...seated.map((s) => `a seat for ${s.passengerId} on ${s.segmentKey}`),
      ];
      throw new AirlineError(
        'INVALID_REQUEST',
        `The order already has ${what.join(', ')}; seats and services are added once`,
      );
    }
    const priceOf = new Map(priced.items.map((i) => [i.offerItemId, i.priceDetail.total.value]));
    for (const alc of alcs) checkOfferTotal(alc, priceOf, content.currency);
    const scale = currencyScale(content.currency);
    const zero = { value: add(scale, '0'), currency: content.currency };
    return {
      kind: 'extras',
      version: order.version,
      removeItemIds: [],
      addItems: priced.items,
      removeJourneys: [],
      addJourneys: [],
      release: [],
      sell: [],
      releaseSeats: [],
      sellSeats: priced.seats,
      removePassengerIds: [],
      difference: { value: add(scale, '0', ...priceOf.values()), currency: content.currency },
      penalty: zero,
    };
  }

  /**
   * An à-la-carte offer accepted for an order: this airline's (724), from the order's lists
   * (ResponseID the OrderID: another response of the agency is 725, an unknown one 720), OfferID
   * `ALC__<OrderID>` (720).
   */
  private checkOffer(alc: OrderOffer, loaded: LoadedOrder): void {
    const { orderId, agencyId } = loaded.order;
    if (alc.owner !== this.world.airlineCode)
      throw new AirlineError(
        'FOREIGN_OFFER',
        `Offer ${alc.offerId} is owned by ${alc.owner}, not by ${this.world.airlineCode}`,
      );
    if (alc.responseId !== orderId) {
      const known = [this.responses.getShopping(alc.responseId), this.responses.getPricing(alc.responseId)].some(
        (r) => r !== undefined && r.agencyId === agencyId,
      );
      if (!known)
        throw new AirlineError('UNKNOWN_OFFER', `Offer ${alc.offerId}: ResponseID ${alc.responseId} not found`);
      throw new AirlineError(
        'OFFER_RESPONSE_MISMATCH',
        `Offer ${alc.offerId} comes from response ${alc.responseId}, not from the lists of order ${orderId} (ServiceListRQ / SeatAvailabilityRQ with its OrderID)`,
      );
    }
    if (alc.offerId !== aLaCarteOfferId(orderId))
      throw new AirlineError('UNKNOWN_OFFER', `Offer ${alc.offerId} not found for order ${orderId}`);
  }

  private directions(loaded: LoadedOrder): PricedDirection[] {
    return loaded.content.journeys.map((j) => ({ offer: j, journey: journeyOfSold(this.world, j) }));
  }
}

/** The extras of an order: its passengers, its currency, its id as the lists' response id. */
function scopeOf(loaded: LoadedOrder): ExtrasScope {
  const { content, order } = loaded;
  return { responseId: order.orderId, currency: content.currency, passengers: content.passengers };
}
