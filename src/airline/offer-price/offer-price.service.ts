/**
 * OfferPrice: prices the offers and items selected from a prior shopping (or
 * pricing) response again from current inventory, merges the directions of a
 * round trip into one PricedOffer (one OfferItem per passenger and direction),
 * applies the UK rule, promotions and corporate fares, and adds the CCF2 card
 * surcharge when a credit-card token is sent. The result is saved as a
 * PricingRecord that OrderCreate must reference.
 */
import { add, currencyScale, percentOf } from '../../common/decimal';
import type {
  MoneyOfferItem,
  NdcWarning,
  OfferPriceRq,
  OfferPriceRs,
  Passenger,
  PricedOffer,
  SelectedOffer,
} from '../../ndc/ndc.model';
import { AGENCY_ID_ELEMENT, requireElement, requirePtc } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type {
  AirlinePricedOffer,
  AirlineClock,
  InventoryStore,
  PricingRecord,
  ResponseStore,
  ShoppingRecord,
  SoldSegment,
  TokenLookup,
} from '../airline.ports';
import {
  AgeInfo,
  birthdatesRequired,
  chooseBuckets,
  type Discounts,
  evaluateQualifier,
  money,
  passengerType,
  priceJourney,
  zero,
} from '../pricing/pricing';
import { responseHeader, seatsFor, validatePassengers } from '../shopping/shopping.service';
import type { StoredOffer } from '../shopping/shopping.types';
import { isALaCarteOfferId } from '../extras/extras.catalogue';
import type { ExtrasService, PricedExtras } from '../extras/extras.service';
import { fareItem } from '../pricing/fare-item';
import { IdSource, randomIds } from '../world/ids';
import type { World } from '../world/world';
import { dateOf, isIsoDate } from '../world/world.dates';
import { ListsBuilder } from '../world/world.lists';
import type { Journey } from '../world/world.types';

/** ServiceID of the card surcharge service (from the spec). */
export const CCF2_SERVICE_ID = 'SERVICE__CCF2';

/** The PricedOffer OfferID for a selection of shopping offers: the ids joined by `_` in direction order (an xs:ID). */
export function pricedOfferId(offerIds: string[]): string {
  return offerIds.join('_');
}

/** OfferItemID of a passenger's item in a direction: `<shopping OfferID>-<PassengerID>`. */
export function pricedItemId(offerId: string, passengerId: string): string {
  return `${offerId}-${passengerId}`;
}

/** OfferItemID of the surcharge item. */
export function surchargeItemId(priced: string): string {
  return `${priced}-CCF2`;
}

/** The selected flight offers, in direction order, and the shopping response they come from. */
interface Selection {
  shopping: ShoppingRecord;
  offers: StoredOffer[];
}

/** What one OfferPriceRQ is priced with, worked out once from its request and selection. */
interface Quote {
  currency: string;
  /** Decimal places of `currency`. */
  scale: number;
  discounts: Discounts;
  warnings: NdcWarning[];
  /** Seats the passengers take (infants on lap take none). */
  seats: number;
  today: string;
  /** The journey of each selected offer. */
  journeys: Journey[];
  ages: Map<string, AgeInfo>;
  lists: ListsBuilder;
}

/** The fares of the selected directions: their items, the inventory they take, their overview. */
interface PricedFares {
  items: MoneyOfferItem[];
  segments: SoldSegment[];
  flightsOverview: PricedOffer['flightsOverview'];
}

/** A pricing as answered: what its record keeps. */
interface PricedResponse {
  responseId: string;
  pricedOffer: AirlinePricedOffer;
  response: OfferPriceRs;
  fares: PricedFares;
  card: CardSurcharge;
  extras?: PricedExtras;
  /** Owner of the locks of the seats priced among the extras. */
  seatOwner: string;
}

/** The card token of an OfferPriceRQ and, for a credit card, its CCF2 surcharge and item. */
interface CardSurcharge {
  tokenId?: string;
  surcharge?: string;
  item?: MoneyOfferItem;
}

export class OfferPriceService {
  constructor(
    private readonly world: World,
    private readonly store: ResponseStore,
    private readonly inventory: InventoryStore,
    private readonly tokens: TokenLookup,
    private readonly clock: AirlineClock,
    private readonly ids: IdSource = randomIds,
    private readonly extras?: ExtrasService,
  ) {}

  /**
   * Answers an OfferPriceRQ; a business failure throws its AirlineError. The
   * ALaCarteOffers among the selected offers (from ServiceListRS / SeatAvailabilityRS, one or
   * several, each checked against its own ResponseID) add their selected extras to the one
   * PricedOffer (`ExtrasService.price`), whose total is then the exact sum of every item.
   */
  price(rq: OfferPriceRq): OfferPriceRs {
    const now = this.clock.now();
    const alc = rq.offers.filter((o) => isALaCarteOfferId(o.offerId));
    if (alc.length > 0 && !this.extras) throw new AirlineError('UNKNOWN_OFFER', `Offer ${alc[0].offerId} not found`);
    const flights = alc.length ? { ...rq, offers: rq.offers.filter((o) => !isALaCarteOfferId(o.offerId)) } : rq;
    return this.doPrice(flights, now, alc);
  }

  /**
   * Prices the selected flight offers `rq` names (and the à-la-carte offers `alc`) into one
   * PricedOffer, in phases: the selection, what it is priced with, the fares, the extras, the
   * card surcharge; then stores the pricing and answers it.
   */
  private doPrice(rq: OfferPriceRq, now: Date, alc: SelectedOffer[]): OfferPriceRs {
    const selection = this.select(rq, now);
    const quote = this.quote(rq, selection, now);
    const fares = this.priceFares(rq, selection, quote);
    const seatOwner = rq.transactionIdentifier ?? `RS-${selection.shopping.responseId}`;
    const directions = selection.offers.map((offer, i) => ({ offer, journey: quote.journeys[i] }));
    const extras = !alc.length
      ? undefined
      : this.extras?.price(alc, selection.shopping, directions, rq.passengers, quote.lists, seatOwner);
    const items = [...fares.items, ...(extras?.items ?? [])];
    const offerId = pricedOfferId(selection.offers.map((o) => o.offerId));
    const subtotal = add(quote.scale, ...items.map((it) => it.priceDetail.total.value));
    const taxes = add(quote.scale, ...items.map((it) => it.priceDetail.taxes.value));
    const card = this.cardSurcharge(rq, offerId, subtotal, quote, now);
    if (card.item) items.push(card.item);
    const total = card.surcharge === undefined ? subtotal : add(quote.scale, subtotal, card.surcharge);
    const pricedOffer: AirlinePricedOffer = {
      offerId,
      owner: this.world.airlineCode,
      total: money(total, quote.currency),
      taxes: money(taxes, quote.currency),
      flightsOverview: fares.flightsOverview,
      offerItems: items,
    };
    const responseId = this.ids.next('PR');
    const response: OfferPriceRs = {
      ...responseHeader(rq, now),
      ...(quote.warnings.length || extras?.warnings.length
        ? { warnings: [...quote.warnings, ...(extras?.warnings ?? [])] }
        : {}),
      kind: 'success',
      shoppingResponseId: responseId,
      pricedOffer,
      dataLists: quote.lists.dataLists(rq.passengers),
      metadata: quote.lists.metadata(),
    };
    const priced = { responseId, pricedOffer, response, fares, card, extras, seatOwner };
    this.store.savePricing(this.pricingRecord(rq, selection, priced, now));
    return response;
  }

  /** Checks the request's passengers against the selection and works out what it is priced with. */
  private quote(rq: OfferPriceRq, selection: Selection, now: Date): Quote {
    const currency = selection.shopping.currency;
    validatePassengers(this.world, rq.passengers, true);
    this.checkPassengers(rq.passengers, selection.shopping.passengers);
    const { discounts, warnings } = evaluateQualifier(this.world, rq.qualifier ?? selection.offers[0].qualifier);
    const journeys = selection.offers.map((o) => this.world.journeyOf(o.flights, o.date));
    return {
      currency,
      scale: currencyScale(currency),
      discounts,
      warnings,
      seats: seatsFor(this.world, rq.passengers),
      today: dateOf(now),
      journeys,
      ages: this.ages(rq.passengers, journeys),
      lists: new ListsBuilder(this.world),
    };
  }

  /** The fares of every selected direction from current inventory: one item per passenger and direction. */
  private priceFares(rq: OfferPriceRq, selection: Selection, quote: Quote): PricedFares {
    const fares: PricedFares = { items: [], segments: [], flightsOverview: [] };
    selection.offers.forEach((offer, i) => {
      const journey = quote.journeys[i];
      const pc = this.world.priceClass(offer.priceClass);
      if (!pc) throw new AirlineError('UNKNOWN_OFFER', `Offer ${offer.offerId} has an unknown price class`);
      const buckets = this.world.operatesOn(offer.date, quote.today)
        ? chooseBuckets(this.world, journey, pc, quote.seats, (k, r) => this.inventory.sold(k, r))
        : undefined;
      if (!buckets) {
        const flights = journey.segments.map((s) => s.flightNumber).join('/');
        throw new AirlineError('SOLD_OUT', `No seats left in ${pc.name} on ${flights} on ${offer.date}`);
      }
      const { lists } = quote;
      const odRef = lists.addOriginDestination(offer.from, offer.to);
      lists.addJourney(
        odRef,
        journey,
        buckets.map((b) => b.rbd),
      );
      const priceClassRef = lists.addPriceClass(pc.code);
      const bundleRef = pc.bundle ? lists.addService(pc.bundle) : undefined;
      fares.flightsOverview.push({ odRef, priceClassRef, flightKey: journey.flightKey });
      for (const b of buckets)
        fares.segments.push({ inventoryKey: b.segment.inventoryKey, rbd: b.rbd, seats: quote.seats });
      for (const p of rq.passengers) {
        const ptc = requirePtc(p);
        const age = quote.ages.get(p.passengerId)!;
        fares.items.push(
          fareItem(this.world, {
            offerItemId: pricedItemId(offer.offerId, p.passengerId),
            passengerRefs: [p.passengerId],
            price: priceJourney(this.world, buckets, pc, ptc, age, quote.currency, quote.discounts),
            currency: quote.currency,
            journey,
            buckets,
            priceClassRef,
            bundleRef,
          }),
        );
      }
    });
    return fares;
  }

  /**
   * The card token of `PaymentFormMetadata`, if any (unknown: 752, expired: 751), and for a
   * credit card the CCF2 surcharge on `subtotal` with its OfferItem.
   */
  private cardSurcharge(rq: OfferPriceRq, offerId: string, subtotal: string, quote: Quote, now: Date): CardSurcharge {
    const tokenId = rq.paymentForms?.[0]?.token;
    if (tokenId === undefined) return {};
    const token = this.tokens.getToken(tokenId);
    if (!token) throw new AirlineError('UNKNOWN_TOKEN', `Card token ${tokenId} not found`);
    if (Date.parse(token.expiresAt) <= now.getTime())
      throw new AirlineError('TOKEN_EXPIRED', `Card token ${tokenId} expired at ${token.expiresAt}`);
    if (token.funding !== 'credit') return { tokenId };
    const { currency } = quote;
    const surcharge = percentOf(subtotal, this.world.data.cardSurcharge.percent, quote.scale);
    const sdRef = quote.lists.addService(this.world.data.cardSurcharge.service);
    const item: MoneyOfferItem = {
      offerItemId: surchargeItemId(offerId),
      priceDetail: {
        total: money(surcharge, currency),
        base: money(surcharge, currency),
        taxes: money(zero(currency), currency),
      },
      services: [
        {
          serviceId: CCF2_SERVICE_ID,
          passengerRefs: rq.passengers.map((p) => p.passengerId),
          serviceDefinitionRef: { ref: sdRef },
        },
      ],
      fareDetails: [],
    };
    return { tokenId, surcharge, item };
  }

  /** What is kept of a pricing for OrderCreate (and for a later reprice of the same selection). */
  private pricingRecord(rq: OfferPriceRq, selection: Selection, priced: PricedResponse, now: Date): PricingRecord {
    const { card, extras, pricedOffer } = priced;
    return {
      responseId: priced.responseId,
      shoppingResponseId: selection.shopping.responseId,
      agencyId: requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.world.data.pricingTtlMinutes * 60_000).toISOString(),
      requestedOfferIds: selection.offers.map((o) => o.offerId),
      pricedOffer,
      passengers: rq.passengers,
      ...(card.tokenId !== undefined ? { tokenId: card.tokenId } : {}),
      ...(card.surcharge !== undefined ? { surcharge: money(card.surcharge, pricedOffer.total.currency) } : {}),
      segments: priced.fares.segments,
      ...(extras?.seats.length ? { seats: extras.seats, seatOwner: priced.seatOwner } : {}),
      response: priced.response,
    };
  }

  /** Resolves the selected offers from a shopping response, or from a prior pricing response. */
  private select(rq: OfferPriceRq, now: Date): Selection {
    if (rq.offers.length === 0) throw new AirlineError('INVALID_REQUEST', 'Select at least one Offer');
    const responseIds = new Set(rq.offers.map((o) => o.responseId));
    if (responseIds.size > 1)
      throw new AirlineError('INVALID_REQUEST', 'All selected offers must come from the same ResponseID');
    const responseId = rq.offers[0].responseId;
    for (const o of rq.offers) {
      if (o.owner !== this.world.airlineCode)
        throw new AirlineError(
          'FOREIGN_OFFER',
          `Offer ${o.offerId} is owned by ${o.owner}, not by ${this.world.airlineCode}`,
        );
    }
    const agencyId = rq.party.agencyId;
    const shopping = this.store.getShopping(responseId);
    if (shopping && shopping.agencyId === agencyId) return this.selectShopped(rq, shopping, now);
    const pricing = this.store.getPricing(responseId);
    if (pricing && pricing.agencyId === agencyId) return this.selectPriced(rq, pricing, now);
    throw new AirlineError('UNKNOWN_OFFER', `ResponseID ${responseId} not found`);
  }

  /** The offers selected from shopping response `shopping`: at most one per direction, in direction order. */
  private selectShopped(rq: OfferPriceRq, shopping: ShoppingRecord, now: Date): Selection {
    const responseId = shopping.responseId;
    if (Date.parse(shopping.expiresAt) <= now.getTime()) {
      throw new AirlineError(
        'OFFER_EXPIRED',
        `Shopping response ${responseId} expired at ${shopping.expiresAt}; shop again`,
      );
    }
    const offers = rq.offers.map((sel) => {
      const stored = shopping.offers[sel.offerId] as StoredOffer | undefined;
      if (!stored) throw new AirlineError('UNKNOWN_OFFER', `Offer ${sel.offerId} not found in response ${responseId}`);
      this.checkSelectedItems(sel, stored.items, shopping.passengers);
      return stored;
    });
    const directions = new Set(offers.map((o) => o.direction));
    if (directions.size !== offers.length)
      throw new AirlineError('INVALID_REQUEST', 'Select at most one offer per direction');
    offers.sort((a, b) => a.direction - b.direction);
    return { shopping, offers };
  }

  /**
   * The PricedOffer of pricing response `pricing`, selected again (e.g. with a card token): its
   * shopping offers, every passenger once per direction among its items (the surcharge item aside).
   */
  private selectPriced(rq: OfferPriceRq, pricing: PricingRecord, now: Date): Selection {
    const responseId = pricing.responseId;
    const priced = pricing.pricedOffer;
    if (Date.parse(pricing.expiresAt) <= now.getTime()) {
      throw new AirlineError(
        'OFFER_EXPIRED',
        `Pricing response ${responseId} expired at ${pricing.expiresAt}; shop again`,
      );
    }
    if (rq.offers.length !== 1 || rq.offers[0].offerId !== priced.offerId) {
      throw new AirlineError('UNKNOWN_OFFER', `Response ${responseId} priced only offer ${priced.offerId}`);
    }
    const base = this.store.getShopping(pricing.shoppingResponseId);
    if (!base) throw new AirlineError('UNKNOWN_OFFER', `Shopping response ${pricing.shoppingResponseId} not found`);
    const pricedItems = priced.offerItems
      .filter((it) => it.offerItemId !== surchargeItemId(priced.offerId))
      .map((it) => ({ offerItemId: it.offerItemId, passengerRefs: it.fareDetails.flatMap((f) => f.passengerRefs) }));
    const sel = rq.offers[0];
    const chosen = sel.offerItems.filter((i) => i.offerItemId !== surchargeItemId(sel.offerId));
    // Every passenger appears once per direction among the priced items.
    for (const stored of pricing.requestedOfferIds) {
      const ofDirection = <T extends { offerItemId: string }>(items: T[]) =>
        items.filter((i) => i.offerItemId.startsWith(`${stored}-`));
      this.checkSelectedItems(
        { ...sel, offerItems: ofDirection(chosen) },
        ofDirection(pricedItems),
        pricing.passengers,
      );
    }
    const unknown = chosen.find((i) => !pricedItems.some((p) => p.offerItemId === i.offerItemId));
    if (unknown)
      throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${unknown.offerItemId} not found in response ${responseId}`);
    const offers = pricing.requestedOfferIds.map((id) => {
      const stored = base.offers[id] as StoredOffer | undefined;
      if (!stored) throw new AirlineError('UNKNOWN_OFFER', `Offer ${id} not found`);
      return stored;
    });
    return { shopping: { ...base, passengers: pricing.passengers }, offers };
  }

  /** Every selected item exists and every passenger is covered exactly once by items that hold them. */
  private checkSelectedItems(
    sel: SelectedOffer,
    items: { offerItemId: string; passengerRefs: string[] }[],
    passengers: Passenger[],
  ): void {
    const covered = new Map<string, number>();
    for (const chosen of sel.offerItems) {
      const item = items.find((i) => i.offerItemId === chosen.offerItemId);
      if (!item)
        throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${chosen.offerItemId} not found in offer ${sel.offerId}`);
      for (const ref of chosen.passengerRefs) {
        if (!item.passengerRefs.includes(ref)) {
          throw new AirlineError(
            'PASSENGER_MISMATCH',
            `Passenger ${ref} does not belong to OfferItem ${chosen.offerItemId}`,
          );
        }
        covered.set(ref, (covered.get(ref) ?? 0) + 1);
      }
    }
    const missing = passengers.filter((p) => covered.get(p.passengerId) !== 1).map((p) => p.passengerId);
    if (missing.length) {
      throw new AirlineError(
        'PASSENGER_MISMATCH',
        `Offer ${sel.offerId}: every passenger must be selected exactly once; not so for ${missing.join(', ')}`,
      );
    }
  }

  /** The request's passengers must be those that were shopped (same PassengerIDs and PTCs). */
  private checkPassengers(requested: Passenger[], shopped: Passenger[]): void {
    const key = (ps: Passenger[]) =>
      ps
        .map((p) => `${p.passengerId}/${p.ptc}`)
        .sort()
        .join(' ');
    if (key(requested) !== key(shopped)) {
      throw new AirlineError(
        'PASSENGER_MISMATCH',
        `Passengers ${key(requested) || '(none)'} do not match the shopped passengers ${key(shopped)}`,
      );
    }
  }

  /** Age information per passenger; enforces the UK rule on birthdates. */
  private ages(passengers: Passenger[], journeys: Journey[]): Map<string, AgeInfo> {
    for (const p of passengers) {
      const b = p.individual?.birthdate;
      if (b !== undefined && !isIsoDate(b))
        throw new AirlineError('INVALID_REQUEST', `Birthdate ${b} of ${p.passengerId} is not a YYYY-MM-DD date`);
    }
    if (birthdatesRequired(this.world, journeys, passengers.map(requirePtc))) {
      const missing = passengers.filter((p) => !p.individual?.birthdate).map((p) => p.passengerId);
      if (missing.length) {
        throw new AirlineError(
          'BIRTHDATE_REQUIRED',
          `Individual/Birthdate is required for every passenger when a child or infant departs from the United Kingdom; missing for ${missing.join(', ')}`,
        );
      }
    }
    return new Map(
      passengers.map((p): [string, AgeInfo] => [
        p.passengerId,
        p.individual?.birthdate
          ? { birthdate: p.individual.birthdate }
          : { assumedUnder16: passengerType(this.world, requirePtc(p)).under16 },
      ]),
    );
  }
}
