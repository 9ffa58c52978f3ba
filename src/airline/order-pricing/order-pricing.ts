/**
 * The checks OrderCreate makes against the pricing it references, and the
 * OrderView items built from that pricing. Pure: the HTTP helper sells the
 * inventory (`PricingRecord.segments`) and stores the order after `ok: true`.
 *
 * Rules (docs/airline-world.md):
 * - the Offer's ResponseID must be a pricing response of this agency, not expired,
 *   and the most recent pricing of that OfferID;
 * - the OfferItems (ids and passengers) and TotalOfferPrice must equal the priced offer;
 * - exactly one payment, Type `CC`, whose token exists and has not expired; a credit
 *   (surcharge) card must be the token that was priced, and an exempt card cannot pay
 *   a pricing that includes a surcharge; no payment at all is a hold (docs/airline-service.md
 *   "Holds"), refused for a pricing that includes a surcharge;
 * - the payment currency must be the offer currency (no conversion) and the amount the total;
 * - every passenger has Individual with GivenName and Surname; children and infants
 *   a Birthdate; a Birthdate sent at pricing must be sent again unchanged;
 * - at least one contact, every ContactInfoRef points to a provided contact, and at
 *   least one passenger references one.
 */
import { add, currencyScale, equals, percentOf } from '../../common/decimal';
import type {
  Amount,
  ContactInformation,
  Flight,
  Money,
  MoneyOfferItem,
  OrderCreateRq,
  OrderItem,
  OrderItemService,
  OrderOffer,
  Passenger,
} from '../../ndc/ndc.model';
import { requireElement, requireMoney, requirePtc } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type { AirlineClock, PricingRecord, ResponseStore, TokenLookup } from '../airline.ports';
import { isALaCarteOfferId } from '../extras/extras.catalogue';
import { CCF2_SERVICE_ID } from '../offer-price/offer-price.service';

/** Commission paid to the agency: this percentage of the base fares (surcharge excluded). Default 1. */
export const DEFAULT_COMMISSION_PERCENT = '1';

/**
 * Adds an OrderCreateRQ's à-la-carte offers to the pricing of its flight offer (see
 * `ExtrasService.priceForOrder`); absent: the airline sells no extras.
 */
export type ALaCarteOrderPricer = (
  alcs: readonly OrderOffer[],
  pricing: PricingRecord,
  rq: OrderCreateRq,
) => PricingRecord;

/** The offers of an OrderCreateRQ: its one flight offer and its à-la-carte offers. */
export interface OrderedOffers {
  flight: OrderOffer;
  aLaCarte: OrderOffer[];
}

/**
 * The offers an OrderCreateRQ orders. The XSD allows several `Query/Order/Offer`s, merged into
 * one order: this airline makes an order of one priced flight offer (a round trip is priced into
 * one PricedOffer, as the spec says) and any number of its à-la-carte offers (ServiceListRS,
 * SeatAvailabilityRS). A second flight offer is `ONE_OFFER_PER_ORDER` naming it; no flight offer
 * (an order of OrderItems, or of extras alone) is the missing element `Query/Order/Offer`.
 */
export function orderedOffers(rq: OrderCreateRq): OrderedOffers {
  const flights = rq.offers.filter((o) => !isALaCarteOfferId(o.offerId));
  if (flights.length > 1) {
    const i = rq.offers.indexOf(flights[1]) + 1;
    throw new AirlineError(
      'ONE_OFFER_PER_ORDER',
      `The request names ${flights.length} flight Offers (Query/Order/Offer[${i}] is ${flights[1].offerId}); ` +
        'an order is created from one priced offer: price every direction in one OfferPriceRQ and order its PricedOffer',
    );
  }
  return {
    flight: requireElement(flights[0], 'Query/Order/Offer (the priced flight offer)'),
    aLaCarte: rq.offers.filter((o) => isALaCarteOfferId(o.offerId)),
  };
}

/**
 * Checks `rq` against the pricing of its flight offer (the rules above; a failure throws its
 * AirlineError) and returns the pricing to order from, with the à-la-carte offers of the request
 * added by `aLaCarte`.
 */
export function checkOrderAgainstPricing(
  rq: OrderCreateRq,
  store: ResponseStore,
  tokens: TokenLookup,
  clock: AirlineClock,
  aLaCarte?: ALaCarteOrderPricer,
): PricingRecord {
  const now = clock.now().getTime();
  const { flight: offer, aLaCarte: alcs } = orderedOffers(rq);
  const pricing = latestPricing(rq, offer, store, now);
  checkOrderedItems(rq, offer, pricing);
  const hold = rq.payments.length === 0;
  if (hold) checkHoldable(pricing);
  else checkCard(rq, pricing, tokens, now);
  checkOfferTotal(offer, pricing.pricedOffer.total);
  checkPassengerData(rq, pricing);
  checkContacts(rq);
  let ordered = pricing;
  if (alcs.length > 0) {
    if (!aLaCarte) throw new AirlineError('UNKNOWN_OFFER', `Offer ${alcs[0].offerId} not found`);
    ordered = aLaCarte(alcs, pricing, rq);
  }
  if (!hold) checkPayment(rq.payments[0].amount, ordered.pricedOffer.total);
  return ordered;
}

/** A hold pays nothing yet: its pricing must not include the card surcharge (charged with the payment). */
function checkHoldable(pricing: PricingRecord): void {
  if (pricing.surcharge) {
    throw new AirlineError(
      'HOLD_NOT_ALLOWED',
      `Pricing response ${pricing.responseId} includes the CCF2 card surcharge: price the offer without a card token to hold it; the surcharge is added when the hold is paid`,
    );
  }
}

/** The agency's pricing response `offer` names: it priced that offer, has not expired, and no later one superseded it. */
function latestPricing(rq: OrderCreateRq, offer: OrderOffer, store: ResponseStore, now: number): PricingRecord {
  const pricing = store.getPricing(offer.responseId);
  if (!pricing || pricing.agencyId !== rq.party.agencyId) {
    throw new AirlineError('UNKNOWN_OFFER', `Pricing response ${offer.responseId} not found; send OfferPriceRQ first`);
  }
  const priced = pricing.pricedOffer;
  if (priced.offerId !== offer.offerId || priced.owner !== offer.owner) {
    throw new AirlineError('UNKNOWN_OFFER', `Offer ${offer.offerId} was not priced in response ${offer.responseId}`);
  }
  if (Date.parse(pricing.expiresAt) <= now) {
    throw new AirlineError(
      'OFFER_EXPIRED',
      `Pricing response ${offer.responseId} expired at ${pricing.expiresAt}; price the offer again`,
    );
  }
  const latest = store.latestPricingFor(priced.offerId);
  if (latest !== pricing.responseId) {
    throw new AirlineError(
      'PRICING_SUPERSEDED',
      `Pricing response ${offer.responseId} was superseded by ${latest}; order from the most recent OfferPriceRS`,
    );
  }
  return pricing;
}

/** The OfferItems (ids and passengers) and the passengers (ids and types) are those priced. */
function checkOrderedItems(rq: OrderCreateRq, offer: OrderOffer, pricing: PricingRecord): void {
  const priced = pricing.pricedOffer;
  const key = (items: { offerItemId: string; passengerRefs: string[] }[]) =>
    items
      .map((i) => `${i.offerItemId}:${[...i.passengerRefs].sort().join(',')}`)
      .sort()
      .join(' ');
  const pricedItems = priced.offerItems.map((it) => ({
    offerItemId: it.offerItemId,
    passengerRefs: it.services[0]?.passengerRefs ?? [],
  }));
  if (key(offer.offerItems) !== key(pricedItems)) {
    throw new AirlineError(
      'PRICE_MISMATCH',
      `OfferItems do not match the priced offer ${priced.offerId}; expected ${key(pricedItems)}`,
    );
  }
  const paxKey = (ps: Passenger[]) =>
    ps
      .map((p) => `${p.passengerId}/${requirePtc(p)}`)
      .sort()
      .join(' ');
  if (paxKey(rq.passengers) !== paxKey(pricing.passengers)) {
    throw new AirlineError(
      'PASSENGER_MISMATCH',
      `Passengers ${paxKey(rq.passengers)} do not match the priced passengers ${paxKey(pricing.passengers)}`,
    );
  }
}

/**
 * Exactly one payment, a card (CC) whose token exists and has not expired; a credit card (which
 * carries the surcharge) only from the pricing of its own token, an exempt card only from a
 * pricing without the surcharge.
 */
function checkCard(rq: OrderCreateRq, pricing: PricingRecord, tokens: TokenLookup, now: number): void {
  if (rq.payments.length !== 1)
    throw new AirlineError('INVALID_CARD', `Send exactly one Payment (got ${rq.payments.length})`);
  const payment = rq.payments[0];
  if (payment.type !== 'CC')
    throw new AirlineError('INVALID_CARD', `Payment type ${payment.type} is not supported; use CC`);
  const token = tokens.getToken(requireElement(payment.voucherNumber, 'Query/Payments/Payment/Method/Voucher/Number'));
  if (!token) throw new AirlineError('UNKNOWN_TOKEN', 'Card token of the payment not found');
  if (Date.parse(token.expiresAt) <= now)
    throw new AirlineError('TOKEN_EXPIRED', `Card token ${token.id} expired at ${token.expiresAt}`);
  if (token.funding === 'credit' && (pricing.tokenId !== token.id || !pricing.surcharge)) {
    throw new AirlineError(
      'PRICE_MISMATCH',
      `Card ${token.maskedNumber} carries the ${'CCF2'} credit card surcharge: price the offer with this card token (OfferPriceRQ PaymentFormMetadata) before ordering`,
    );
  }
  if (token.funding !== 'credit' && pricing.surcharge) {
    throw new AirlineError(
      'PRICE_MISMATCH',
      `The priced total includes a credit card surcharge, but card ${token.maskedNumber} is exempt; price the offer again`,
    );
  }
}

/**
 * The offer's TotalOfferPrice is the priced total. An amount sent without its currency (Code is
 * optional in the XSD, and the request's CurrencyMetadatas named none) is in the offer's currency.
 */
function checkOfferTotal(offer: OrderOffer, pricedTotal: Money): void {
  const total = requireMoney(offer.totalOfferPrice, 'Query/Order/Offer/TotalOfferPrice', {
    currency: pricedTotal.currency,
  });
  if (total.currency !== pricedTotal.currency || !equals(total.value, pricedTotal.value)) {
    throw new AirlineError(
      'PRICE_MISMATCH',
      `TotalOfferPrice ${total.value} ${total.currency} differs from the priced total ${pricedTotal.value} ${pricedTotal.currency}`,
    );
  }
}

/** The payment is the total to order, in its currency (an amount without Code is in it). */
function checkPayment(amount: Amount | undefined, due: Money): void {
  const paid = requireMoney(amount, 'Query/Payments/Payment/Amount', { currency: due.currency });
  if (paid.currency !== due.currency) {
    throw new AirlineError(
      'PAYMENT_CURRENCY_MISMATCH',
      `Payment currency ${paid.currency} differs from the offer currency ${due.currency}; pay in ${due.currency}`,
    );
  }
  if (!equals(paid.value, due.value)) {
    throw new AirlineError(
      'PAYMENT_AMOUNT_MISMATCH',
      `Payment amount ${paid.value} ${paid.currency} differs from the offer total ${due.value} ${due.currency}`,
    );
  }
}

/** Individual data of every passenger, and birthdates unchanged since pricing. */
function checkPassengerData(rq: OrderCreateRq, pricing: PricingRecord): void {
  const missing: string[] = [];
  for (const p of rq.passengers) {
    const ind = p.individual;
    const lacks: string[] = [];
    if (!ind?.surname?.trim()) lacks.push('Surname');
    if (!ind?.givenNames?.some((g) => g.trim())) lacks.push('GivenName');
    const pricedPax = pricing.passengers.find((x) => x.passengerId === p.passengerId);
    const needsBirthdate = p.ptc === 'CHD' || p.ptc === 'INF' || !!pricedPax?.individual?.birthdate;
    if (needsBirthdate && !ind?.birthdate) lacks.push('Birthdate');
    if (lacks.length) missing.push(`${p.passengerId} (${lacks.join(', ')})`);
    const pricedBirthdate = pricedPax?.individual?.birthdate;
    if (pricedBirthdate && ind?.birthdate && ind.birthdate !== pricedBirthdate) {
      throw new AirlineError(
        'PASSENGER_MISMATCH',
        `Birthdate of ${p.passengerId} differs from the one priced (${pricedBirthdate}); price again`,
      );
    }
  }
  if (missing.length)
    throw new AirlineError('PASSENGER_DATA_MISSING', `Individual data missing: ${missing.join('; ')}`);
}

/** At least one provided contact, referenced by a passenger, and no dangling reference. */
function checkContacts(rq: OrderCreateRq): void {
  const provided = new Set(
    rq.contacts.filter((c: ContactInformation) => c.provided.length > 0).map((c) => c.contactId),
  );
  if (provided.size === 0)
    throw new AirlineError(
      'CONTACT_MISSING',
      'ContactList must hold at least one contact with an e-mail address or phone',
    );
  const dangling = rq.passengers.filter((p) => p.contactInfoRef !== undefined && !provided.has(p.contactInfoRef));
  if (dangling.length) {
    throw new AirlineError(
      'CONTACT_MISSING',
      `ContactInfoRef of ${dangling.map((p) => `${p.passengerId} (${p.contactInfoRef})`).join(', ')} points to no provided contact`,
    );
  }
  if (!rq.passengers.some((p) => p.contactInfoRef !== undefined)) {
    throw new AirlineError('CONTACT_MISSING', 'At least one passenger must reference a contact with ContactInfoRef');
  }
}

/**
 * OrderView OrderItems from a pricing: one OrderItem per priced OfferItem (OrderItemID =
 * OfferItemID); see {@link orderItemsOf}.
 */
export function buildOrderItems(pricing: PricingRecord): OrderItem[] {
  const flights = pricing.response.kind === 'success' ? (pricing.response.dataLists.flights ?? []) : [];
  return orderItemsOf(pricing.pricedOffer.offerItems, flights, pricing.pricedOffer.owner);
}

/**
 * OrderView OrderItems of priced `items` (OrderItemID = OfferItemID), `flights` giving each
 * flight's segments: the amounts of the item (per passenger; the CCF2 item holds the whole fee),
 * and one Service per passenger and segment for flights, per passenger and segment for bundles and
 * extras, per passenger for CCF2, and a SelectedSeat per seat.
 */
export function orderItemsOf(items: readonly MoneyOfferItem[], flights: readonly Flight[], owner: string): OrderItem[] {
  const segmentsOf = new Map(flights.map((f) => [f.flightKey ?? '', f.segmentRefs]));
  return items.map((item) => ({
    orderItemId: item.offerItemId,
    owner,
    base: item.priceDetail.base,
    taxes: item.priceDetail.taxes,
    services: itemServices(item, segmentsOf),
  }));
}

/** The OrderItem Services of one priced item (see {@link orderItemsOf}). */
function itemServices(item: MoneyOfferItem, segmentsOf: ReadonlyMap<string, string[]>): OrderItemService[] {
  const services: OrderItemService[] = [];
  const add = (s: Omit<OrderItemService, 'serviceId'>) =>
    services.push({ serviceId: `${item.offerItemId}-OS${services.length + 1}`, ...s });
  for (const s of item.services) {
    for (const pax of s.passengerRefs) {
      if (s.flightRefs) {
        for (const flight of s.flightRefs)
          for (const seg of segmentsOf.get(flight) ?? []) add({ passengerRef: pax, segmentRef: seg });
      } else if (s.selectedSeat) {
        add({ passengerRef: pax, selectedSeat: s.selectedSeat });
      } else if (s.serviceDefinitionRef) {
        const ref = s.serviceDefinitionRef.ref;
        const segs = s.serviceDefinitionRef.segmentRefs ?? [];
        if (segs.length === 0 || s.serviceId === CCF2_SERVICE_ID) add({ passengerRef: pax, serviceDefinitionRef: ref });
        else for (const seg of segs) add({ passengerRef: pax, serviceDefinitionRef: ref, segmentRef: seg });
      }
    }
  }
  return services;
}

/** Agency commission: `percent` (default 1) of the base fares of the order (fare items: surcharge and extras excluded). */
export function orderCommission(pricing: PricingRecord, percent: string = DEFAULT_COMMISSION_PERCENT): Money {
  return commissionOf(pricing.pricedOffer.offerItems, pricing.pricedOffer.total.currency, percent);
}

/** `percent` of the base fares of the fare `items` (those with fare details), in `currency`. */
export function commissionOf(items: readonly MoneyOfferItem[], currency: string, percent: string): Money {
  const scale = currencyScale(currency);
  const bases = items.filter((i) => i.fareDetails.length > 0).map((i) => i.priceDetail.base.value);
  return { value: percentOf(add(scale, '0', ...bases), percent, scale), currency };
}
