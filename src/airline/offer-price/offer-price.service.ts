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
  evaluateQualifier,
  money,
  passengerType,
  priceJourney,
  zero,
} from '../pricing/pricing';
import { responseHeader, seatsFor, validatePassengers } from '../shopping/shopping.service';
import type { StoredOffer } from '../shopping/shopping.types';
import { isALaCarteOfferId } from '../extras/extras.catalogue';
import type { ExtrasService } from '../extras/extras.service';
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

interface Selection {
  shopping: ShoppingRecord;
  offers: StoredOffer[];
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

  private doPrice(rq: OfferPriceRq, now: Date, alc: SelectedOffer[]): OfferPriceRs {
    const selection = this.select(rq, now);
    const { shopping } = selection;
    const currency = shopping.currency;
    const scale = currencyScale(currency);
    validatePassengers(this.world, rq.passengers, true);
    this.checkPassengers(rq.passengers, shopping.passengers);
    const qualifier = rq.qualifier ?? selection.offers[0].qualifier;
    const { discounts, warnings } = evaluateQualifier(this.world, qualifier);
    const seats = seatsFor(this.world, rq.passengers);
    const today = dateOf(now);

    const journeys: Journey[] = selection.offers.map((o) => this.world.journeyOf(o.flights, o.date));
    const ages = this.ages(rq.passengers, journeys);

    const lists = new ListsBuilder(this.world);
    const items: MoneyOfferItem[] = [];
    const segments: SoldSegment[] = [];
    const flightsOverview: PricedOffer['flightsOverview'] = [];
    selection.offers.forEach((offer, i) => {
      const journey = journeys[i];
      const pc = this.world.priceClass(offer.priceClass);
      if (!pc) throw new AirlineError('UNKNOWN_OFFER', `Offer ${offer.offerId} has an unknown price class`);
      const buckets = this.world.operatesOn(offer.date, today)
        ? chooseBuckets(this.world, journey, pc, seats, (k, r) => this.inventory.sold(k, r))
        : undefined;
      if (!buckets) {
        throw new AirlineError(
          'SOLD_OUT',
          `No seats left in ${pc.name} on ${journey.segments.map((s) => s.flightNumber).join('/')} on ${offer.date}`,
        );
      }
      const odRef = lists.addOriginDestination(offer.from, offer.to);
      lists.addJourney(
        odRef,
        journey,
        buckets.map((b) => b.rbd),
      );
      const pcRef = lists.addPriceClass(pc.code);
      const bundleRef = pc.bundle ? lists.addService(pc.bundle) : undefined;
      flightsOverview.push({ odRef, priceClassRef: pcRef, flightKey: journey.flightKey });
      for (const b of buckets) segments.push({ inventoryKey: b.segment.inventoryKey, rbd: b.rbd, seats });
      for (const p of rq.passengers) {
        const ptc = requirePtc(p);
        const price = priceJourney(this.world, buckets, pc, ptc, ages.get(p.passengerId)!, currency, discounts);
        const offerItemId = pricedItemId(offer.offerId, p.passengerId);
        items.push({
          offerItemId,
          priceDetail: {
            total: money(price.total, currency),
            base: money(price.base, currency),
            taxes: money(price.taxes, currency),
          },
          services: [
            { serviceId: `${offerItemId}-S1`, passengerRefs: [p.passengerId], flightRefs: [journey.flightKey] },
            ...(bundleRef
              ? [
                  {
                    serviceId: `${offerItemId}-S2`,
                    passengerRefs: [p.passengerId],
                    serviceDefinitionRef: { ref: bundleRef, segmentRefs: journey.segments.map((s) => s.segmentKey) },
                  },
                ]
              : []),
          ],
          fareDetails: [
            {
              passengerRefs: [p.passengerId],
              total: money(price.total, currency),
              taxes: money(price.taxes, currency),
              base: money(price.base, currency),
              fareComponents: buckets.map((b) => ({
                rbd: b.rbd,
                cabinTypeCode: this.world.data.cabin.code,
                cabinTypeName: this.world.data.cabin.name,
                priceClassRef: pcRef,
                segmentRefs: {
                  onPoint: b.segment.flight.from,
                  offPoint: b.segment.flight.to,
                  segmentKeys: [b.segment.segmentKey],
                },
              })),
            },
          ],
        });
      }
    });

    const seatOwner = rq.transactionIdentifier ?? `RS-${shopping.responseId}`;
    const extras = !alc.length
      ? undefined
      : this.extras?.price(
          alc,
          shopping,
          selection.offers.map((offer, i) => ({ offer, journey: journeys[i] })),
          rq.passengers,
          lists,
          seatOwner,
        );
    if (extras) {
      items.push(...extras.items);
      warnings.push(...extras.warnings);
    }

    const offerId = pricedOfferId(selection.offers.map((o) => o.offerId));
    let total = add(scale, ...items.map((it) => it.priceDetail.total.value));
    const taxes = add(scale, ...items.map((it) => it.priceDetail.taxes.value));

    const tokenId = rq.paymentForms?.[0]?.token;
    let surcharge: string | undefined;
    if (tokenId !== undefined) {
      const token = this.tokens.getToken(tokenId);
      if (!token) throw new AirlineError('UNKNOWN_TOKEN', `Card token ${tokenId} not found`);
      if (Date.parse(token.expiresAt) <= now.getTime())
        throw new AirlineError('TOKEN_EXPIRED', `Card token ${tokenId} expired at ${token.expiresAt}`);
      if (token.funding === 'credit') {
        surcharge = percentOf(total, this.world.data.cardSurcharge.percent, scale);
        const sdRef = lists.addService(this.world.data.cardSurcharge.service);
        items.push({
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
        });
        total = add(scale, total, surcharge);
      }
    }

    const pricedOffer: AirlinePricedOffer = {
      offerId,
      owner: this.world.airlineCode,
      total: money(total, currency),
      taxes: money(taxes, currency),
      flightsOverview,
      offerItems: items,
    };
    const responseId = this.ids.next('PR');
    const response: OfferPriceRs = {
      ...responseHeader(rq, now),
      ...(warnings.length ? { warnings } : {}),
      kind: 'success',
      shoppingResponseId: responseId,
      pricedOffer,
      dataLists: lists.dataLists(rq.passengers),
      metadata: lists.metadata(),
    };
    const record: PricingRecord = {
      responseId,
      shoppingResponseId: shopping.responseId,
      agencyId: requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.world.data.pricingTtlMinutes * 60_000).toISOString(),
      requestedOfferIds: selection.offers.map((o) => o.offerId),
      pricedOffer,
      passengers: rq.passengers,
      ...(tokenId !== undefined ? { tokenId } : {}),
      ...(surcharge !== undefined ? { surcharge: money(surcharge, currency) } : {}),
      segments,
      ...(extras?.seats.length ? { seats: extras.seats, seatOwner } : {}),
      response,
    };
    this.store.savePricing(record);
    return response;
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
    if (shopping && shopping.agencyId === agencyId) {
      if (Date.parse(shopping.expiresAt) <= now.getTime()) {
        throw new AirlineError(
          'OFFER_EXPIRED',
          `Shopping response ${responseId} expired at ${shopping.expiresAt}; shop again`,
        );
      }
      const offers = rq.offers.map((sel) => {
        const stored = shopping.offers[sel.offerId] as StoredOffer | undefined;
        if (!stored)
          throw new AirlineError('UNKNOWN_OFFER', `Offer ${sel.offerId} not found in response ${responseId}`);
        this.checkSelectedItems(sel, stored.items, shopping.passengers);
        return stored;
      });
      const directions = new Set(offers.map((o) => o.direction));
      if (directions.size !== offers.length)
        throw new AirlineError('INVALID_REQUEST', 'Select at most one offer per direction');
      offers.sort((a, b) => a.direction - b.direction);
      return { shopping, offers };
    }
    const pricing = this.store.getPricing(responseId);
    if (pricing && pricing.agencyId === agencyId) {
      if (Date.parse(pricing.expiresAt) <= now.getTime()) {
        throw new AirlineError(
          'OFFER_EXPIRED',
          `Pricing response ${responseId} expired at ${pricing.expiresAt}; shop again`,
        );
      }
      if (rq.offers.length !== 1 || rq.offers[0].offerId !== pricing.pricedOffer.offerId) {
        throw new AirlineError(
          'UNKNOWN_OFFER',
          `Response ${responseId} priced only offer ${pricing.pricedOffer.offerId}`,
        );
      }
      const base = this.store.getShopping(pricing.shoppingResponseId);
      if (!base) throw new AirlineError('UNKNOWN_OFFER', `Shopping response ${pricing.shoppingResponseId} not found`);
      const pricedItems = pricing.pricedOffer.offerItems
        .filter((it) => it.offerItemId !== surchargeItemId(pricing.pricedOffer.offerId))
        .map((it) => ({ offerItemId: it.offerItemId, passengerRefs: it.fareDetails.flatMap((f) => f.passengerRefs) }));
      const sel = rq.offers[0];
      const withoutSurcharge = {
        ...sel,
        offerItems: sel.offerItems.filter((i) => i.offerItemId !== surchargeItemId(sel.offerId)),
      };
      // Every passenger appears once per direction among the priced items.
      for (const stored of pricing.requestedOfferIds) {
        const ofDirection = pricedItems.filter((it) => it.offerItemId.startsWith(`${stored}-`));
        const chosen = {
          ...withoutSurcharge,
          offerItems: withoutSurcharge.offerItems.filter((i) => i.offerItemId.startsWith(`${stored}-`)),
        };
        this.checkSelectedItems(chosen, ofDirection, pricing.passengers);
      }
      const unknown = withoutSurcharge.offerItems.find(
        (i) => !pricedItems.some((p) => p.offerItemId === i.offerItemId),
      );
      if (unknown)
        throw new AirlineError('UNKNOWN_OFFER', `OfferItem ${unknown.offerItemId} not found in response ${responseId}`);
      const offers = pricing.requestedOfferIds.map((id) => {
        const stored = base.offers[id] as StoredOffer | undefined;
        if (!stored) throw new AirlineError('UNKNOWN_OFFER', `Offer ${id} not found`);
        return stored;
      });
      return { shopping: { ...base, passengers: pricing.passengers }, offers };
    }
    throw new AirlineError('UNKNOWN_OFFER', `ResponseID ${responseId} not found`);
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
