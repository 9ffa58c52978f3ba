/**
 * The one mapping from a booking intent (and the saga's earlier results) to NDC 17.2 requests.
 * Pure: no clock, no randomness (the caller passes the header's timestamp and transaction id),
 * no I/O. The activities call these builders; the workflow builds the {@link NdcContext}.
 */
import type {
  AirShoppingRq,
  ContactInformation,
  CoreQuery,
  Money,
  OfferPriceRq,
  OrderCancelRq,
  OrderCreateRq,
  OrderRetrieveRq,
  Passenger,
  Qualifier,
  RequestCommon,
  SelectedOfferItem,
} from '../ndc/ndc.model';
import { add, currencyScale } from '../common/decimal';
import type { SeatAvailabilityRq, ServiceListRq } from '../ndc/extras.model';
import type { BookingIntent, CardAuthentication, IntentContact, IntentPassenger } from './booking.model';

/** What every NDC request needs from the intent. No card data. */
export interface NdcContext {
  /** Sent as CorrelationID / X-Correlation-Id: the booking workflow id. */
  correlationId: string;
  agency: BookingIntent['agency'];
  pointOfSale: string;
  currency: string;
  language: string;
  passengers: IntentPassenger[];
  contacts: IntentContact[];
  promotionCode?: string;
  corporate?: BookingIntent['corporate'];
  /**
   * The booking's NDC TransactionIdentifier (at most 32 characters), sent on every message of the
   * booking as the airline asks (its seat locks belong to it). Absent: a fresh one per request.
   */
  transactionId?: string;
}

/** The request context of an intent: everything but the card and the journey. */
export function ndcContextOf(intent: BookingIntent, correlationId: string, transactionId?: string): NdcContext {
  return {
    correlationId,
    ...(transactionId !== undefined ? { transactionId: transactionId.slice(0, 32) } : {}),
    agency: intent.agency,
    pointOfSale: intent.pointOfSale,
    currency: intent.currency,
    language: intent.language,
    passengers: intent.passengers,
    contacts: intent.contacts,
    ...(intent.promotionCode !== undefined ? { promotionCode: intent.promotionCode } : {}),
    ...(intent.corporate !== undefined ? { corporate: intent.corporate } : {}),
  };
}

/** The header values that change per request. */
export interface RequestStamp {
  /** `Target` attribute (the spec's only value is `Test`). */
  target: string;
  /** `YYYY-MM-DDThh:mm:ssZ`. */
  timeStamp: string;
  /** At most 32 characters (17.2 schema). */
  transactionIdentifier: string;
}

/** Header, party and parameters of every request. */
export function requestCommon(ctx: NdcContext, stamp: RequestStamp): RequestCommon {
  return {
    target: stamp.target,
    version: '17.2',
    timeStamp: stamp.timeStamp,
    transactionIdentifier: stamp.transactionIdentifier,
    correlationId: ctx.correlationId,
    pointOfSaleCountry: ctx.pointOfSale,
    party: { name: ctx.agency.name, agencyId: ctx.agency.id },
    parameters: { languages: [ctx.language], overrideCurrency: ctx.currency },
  };
}

/** `PAX__<PTC><nn>` ids, numbered per passenger type in intent order. */
export function passengerIds(passengers: readonly IntentPassenger[]): string[] {
  const counters: Record<string, number> = {};
  return passengers.map((p) => {
    counters[p.type] = (counters[p.type] ?? 0) + 1;
    return `PAX__${p.type}${String(counters[p.type]).padStart(2, '0')}`;
  });
}

/** Shopping passengers: PassengerID and PTC only (spec). */
export function shoppingPassengers(ctx: NdcContext): Passenger[] {
  const ids = passengerIds(ctx.passengers);
  return ctx.passengers.map((p, i) => ({ passengerId: ids[i]!, ptc: p.type }));
}

/**
 * Pricing passengers: PassengerID, PTC and Individual with the birthdate, which the UK under-16
 * rule makes mandatory for every passenger when a child or infant departs from the UK.
 */
export function pricingPassengers(ctx: NdcContext): Passenger[] {
  const ids = passengerIds(ctx.passengers);
  return ctx.passengers.map((p, i) => ({
    passengerId: ids[i]!,
    ptc: p.type,
    individual: { birthdate: p.birthdate, surname: p.surname },
  }));
}

/** Order passengers: full Individual and ContactInfoRef. */
export function orderPassengers(ctx: NdcContext): Passenger[] {
  const ids = passengerIds(ctx.passengers);
  return ctx.passengers.map((p, i) => ({
    passengerId: ids[i]!,
    ptc: p.type,
    individual: { birthdate: p.birthdate, nameTitle: p.title, givenNames: [p.givenName], surname: p.surname },
    contactInfoRef: p.contactId,
  }));
}

export function orderContacts(ctx: NdcContext): ContactInformation[] {
  return ctx.contacts.map((c) => ({
    contactId: c.id,
    provided: [
      ...c.emails.map((email) => ({ email })),
      ...c.phones.map((phone) => ({
        phone: { countryDialingCode: phone.countryDialingCode, phoneNumber: phone.number },
      })),
    ],
  }));
}

/** Promotion code and corporate account, when the intent has any. */
export function qualifierOf(ctx: NdcContext): Qualifier | undefined {
  const q: Qualifier = {};
  if (ctx.promotionCode !== undefined && ctx.promotionCode !== '') q.promotionCodes = [ctx.promotionCode];
  if (ctx.corporate !== undefined)
    q.specialFare = { airlineId: ctx.corporate.airlineId, account: ctx.corporate.account };
  return q.promotionCodes !== undefined || q.specialFare !== undefined ? q : undefined;
}

/** The journey as a calendar search of +/- `flexibleDays` around each preferred date. */
export function calendarQuery(journey: {
  origin: string;
  destination: string;
  departureDate: string;
  returnDate?: string;
  flexibleDays: number;
}): CoreQuery {
  const days = { daysAfter: journey.flexibleDays, daysBefore: journey.flexibleDays };
  const ods = [
    { departureCode: journey.origin, arrivalCode: journey.destination, date: journey.departureDate, ...days },
  ];
  if (journey.returnDate !== undefined) {
    ods.push({ departureCode: journey.destination, arrivalCode: journey.origin, date: journey.returnDate, ...days });
  }
  return { kind: 'calendar', originDestinations: ods };
}

/** The journey as a day search on the given dates. */
export function dayQuery(journey: {
  origin: string;
  destination: string;
  departureDate: string;
  returnDate?: string;
}): CoreQuery {
  const ods = [{ departureCode: journey.origin, arrivalCode: journey.destination, date: journey.departureDate }];
  if (journey.returnDate !== undefined) {
    ods.push({ departureCode: journey.destination, arrivalCode: journey.origin, date: journey.returnDate });
  }
  return { kind: 'day', originDestinations: ods };
}

export function airShoppingRq(ctx: NdcContext, stamp: RequestStamp, coreQuery: CoreQuery): AirShoppingRq {
  const q = qualifierOf(ctx);
  return {
    ...requestCommon(ctx, stamp),
    coreQuery,
    ...(q !== undefined ? { qualifier: q } : {}),
    passengers: shoppingPassengers(ctx),
  };
}

/** An offer to price: one per direction, from one shopping response. */
export interface OfferToPrice {
  offerId: string;
  owner: string;
  responseId: string;
  offerItems: SelectedOfferItem[];
}

/** OfferPriceRQ for the offers; `tokenId` adds the card token as PaymentFormMetadata. */
export function offerPriceRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  offers: readonly OfferToPrice[],
  tokenId?: string,
): OfferPriceRq {
  const q = qualifierOf(ctx);
  return {
    ...requestCommon(ctx, stamp),
    offers: offers.map((o) => ({
      offerId: o.offerId,
      owner: o.owner,
      responseId: o.responseId,
      offerItems: o.offerItems,
    })),
    ...(q !== undefined ? { qualifier: q } : {}),
    passengers: pricingPassengers(ctx),
    ...(tokenId !== undefined ? { paymentForms: [{ key: 'PAYMENT_FORM_1', token: tokenId }] } : {}),
  };
}

/** The pricing an order is made from: the latest, token-bearing OfferPriceRS. */
export interface PricingToOrder {
  /** ResponseID of that OfferPriceRS: the OrderCreateRQ's ResponseID. */
  responseId: string;
  offerId: string;
  owner: string;
  total: Money;
  offerItems: SelectedOfferItem[];
  /**
   * À-la-carte offers ordered beside the priced offer, each as its ServiceListRS or
   * SeatAvailabilityRS answered it (its own ResponseID) with the selected items and their `total`
   * (the sum of the items' unit prices per passenger). Absent: the priced offer alone.
   */
  aLaCarte?: readonly (OfferToPrice & { total: Money })[];
}

/** What an order of `priced` costs: its total plus that of each à-la-carte offer ordered with it. */
export function orderTotal(priced: Pick<PricingToOrder, 'total' | 'aLaCarte'>): Money {
  // Alone, the priced total goes back exactly as the airline wrote it.
  if (!priced.aLaCarte?.length) return priced.total;
  const { currency } = priced.total;
  const others = (priced.aLaCarte ?? []).map((o) => {
    if (o.total.currency !== currency)
      throw new Error(`à-la-carte offer ${o.offerId} is in ${o.total.currency}, the priced offer in ${currency}`);
    return o.total.value;
  });
  return { value: add(currencyScale(currency), priced.total.value, ...others), currency };
}

/**
 * OrderCreateRQ from the pricing (and the à-la-carte offers ordered with it, as further
 * `Query/Order/Offer`s), paid by card token (`CC`, the token as voucher) for the whole total.
 */
export function orderCreateRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  priced: PricingToOrder,
  tokenId: string | undefined,
  securePayment: BookingIntent['securePayment'],
  authentication?: CardAuthentication,
): OrderCreateRq {
  return {
    ...requestCommon(ctx, stamp),
    securePayment: {
      failUrl: securePayment.failUrl,
      termUrl: securePayment.termUrl,
      ipAddress: securePayment.ipAddress,
      userAgent: securePayment.userAgent,
      // A result done beforehand: the airline charges without a challenge (status Y: authenticated).
      ...(authentication !== undefined
        ? {
            authentication: {
              transactionId: authentication.transactionId,
              cavv: authentication.cavv,
              eci: authentication.eci,
              status: 'Y',
            },
          }
        : {}),
    },
    offers: [
      {
        offerId: priced.offerId,
        owner: priced.owner,
        responseId: priced.responseId,
        totalOfferPrice: priced.total,
        offerItems: priced.offerItems,
      },
      ...(priced.aLaCarte ?? []).map((o) => ({
        offerId: o.offerId,
        owner: o.owner,
        responseId: o.responseId,
        totalOfferPrice: o.total,
        offerItems: o.offerItems,
      })),
    ],
    // No token: a hold (no Payments), paid later with an OrderChangeRQ.
    payments: tokenId !== undefined ? [{ type: 'CC', voucherNumber: tokenId, amount: orderTotal(priced) }] : [],
    passengers: orderPassengers(ctx),
    contacts: orderContacts(ctx),
  };
}

export function orderRetrieveRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  order: { orderId: string; owner: string },
): OrderRetrieveRq {
  return { ...requestCommon(ctx, stamp), orderId: order.orderId, owner: order.owner };
}

/** OrderCancelRQ for the order (by OrderID and owner). */
export function orderCancelRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  order: { orderId: string; owner: string },
): OrderCancelRq {
  return { ...requestCommon(ctx, stamp), order: { orderId: order.orderId, owner: order.owner } };
}

/** ServiceListRQ for the chosen offers of shopping response `shoppingResponseId`. */
export function serviceListRq(
  ctx: NdcContext,
  stamp: RequestStamp,
  shoppingResponseId: string,
  offers: readonly OfferToPrice[],
): ServiceListRq {
  return {
    ...requestCommon(ctx, stamp),
    shoppingResponseId,
    offers: offers.map((o) => ({
      offerId: o.offerId,
      owner: o.owner,
      offerItemIds: o.offerItems.map((i) => i.offerItemId),
    })),
    passengers: shoppingPassengers(ctx),
  };
}

/** SeatAvailabilityRQ for one chosen offer (every segment of it). */
export function seatAvailabilityRq(ctx: NdcContext, stamp: RequestStamp, offer: OfferToPrice): SeatAvailabilityRq {
  return {
    ...requestCommon(ctx, stamp),
    shoppingResponseId: offer.responseId,
    offer: {
      offerId: offer.offerId,
      owner: offer.owner,
      responseId: offer.responseId,
      segmentIds: [],
      passengerIds: [],
    },
    passengers: shoppingPassengers(ctx),
  };
}
