/**
 * The booking activities: each builds one NDC request from the intent and earlier results with the
 * codec, calls the airline through {@link NdcHttpClient}, and returns a small plain result.
 *
 * Failure classification (docs/orchestrator.md, "Failures"):
 * - network errors, timeouts, HTTP 5xx / 429, NDC 799 (system error): retryable
 *   `ApplicationFailure` of type `AIRLINE_TRANSIENT` (Temporal retries with backoff);
 * - NDC `Errors`, other 4xx, undecodable responses: non-retryable `ApplicationFailure` with a
 *   stable type ({@link FailureType}) and `details[0]` = {@link FailureDetails};
 * - `createOrder` only: a failure after the request may have reached the airline is
 *   `ORDER_OUTCOME_UNKNOWN`; the workflow reconciles before any retry.
 *
 * Card data reaches only `tokenise`, goes only to the payment interface, and never appears in a
 * log line, an error message or a result.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { IntentPassenger, PaymentCard } from '../src/booking/booking.model';
import { add, compare as compareDecimal, currencyScale, subtract, times } from '../src/common/decimal';
import type {
  AirShoppingRs,
  ContactInformation,
  CoreQuery,
  Money,
  OfferItem,
  Passenger,
  Qualifier,
  RequestCommon,
  SelectedOfferItem,
} from '../src/ndc/ndc.model';
import { requireElement } from '../src/ndc/require-element';
import {
  NdcBusinessError,
  NdcClientError,
  NdcHttpError,
  NdcInvalidResponseError,
  NdcTransportError,
  type NdcHttpClient,
  type OfferPriceSuccess,
  type OrderViewSuccess,
} from '../src/ndc-client';
import type {
  BookingActivities,
  CalendarInput,
  CalendarResult,
  ChosenOffer,
  CreateOrderInput,
  CreateOrderResult,
  FailureDetails,
  NdcContext,
  OfferSummary,
  OrderSummary,
  PriceInput,
  PriceResult,
  ReconcileInput,
  ReconcileResult,
  RepriceInput,
  RetrieveInput,
  RetrieveResult,
  ShopInput,
  ShopResult,
  TokeniseInput,
  TokenResult,
} from './booking.activities.types';

export interface BookingActivityDeps {
  client: NdcHttpClient;
  /** Clock for request timestamps and token expiry. Default `() => new Date()`. */
  now?: () => Date;
  /** Lifetime of card tokens, in ms. Default 1 h. */
  tokenTtlMs?: number;
  /** `Target` attribute of requests. Default `Test` (the spec's only value). */
  target?: string;
  /** Heartbeat interval while waiting for the airline, in ms. Default 1000. */
  heartbeatIntervalMs?: number;
}

/**
 * NDC error codes of the airline (docs/airline-world.md, src/airline/airline.errors.ts) mapped to
 * the stable failure types. Unknown codes are `AIRLINE_ERROR`.
 */
export const NDC_CODE_TO_FAILURE: Readonly<Record<string, string>> = {
  '913': 'ORDER_NOT_FOUND',
  '701': 'INVALID_REQUEST',
  '702': 'UNSUPPORTED_CURRENCY',
  '710': 'NO_OFFERS',
  '711': 'NO_SEATS',
  '720': 'OFFER_EXPIRED',
  '721': 'OFFER_EXPIRED',
  '722': 'PASSENGER_MISMATCH',
  '730': 'BIRTHDATE_REQUIRED',
  '731': 'PASSENGER_DATA_MISSING',
  '732': 'CONTACT_MISSING',
  '740': 'PRICE_MISMATCH',
  '741': 'OFFER_EXPIRED',
  '742': 'PRICE_MISMATCH',
  '743': 'PRICE_MISMATCH',
  '750': 'INVALID_CARD',
  '751': 'TOKEN_EXPIRED',
  '752': 'TOKEN_EXPIRED',
};

/** NDC codes that mean "try again later" rather than a business failure. */
export const TRANSIENT_NDC_CODES: ReadonlySet<string> = new Set(['799']);

/** Type of the retryable failures (network, timeout, 5xx, 429, NDC 799). */
export const TRANSIENT_FAILURE_TYPE = 'AIRLINE_TRANSIENT';

/** Masks what a message might echo of the card (defence in depth: the airline should not). */
function scrub(message: string, card?: PaymentCard): string {
  let text = message.replace(/\d{12,19}/g, (digits) => `****${digits.slice(-4)}`);
  if (card !== undefined) {
    if (card.number !== '') text = text.split(card.number).join('****');
    if (/^\d{3,4}$/.test(card.verificationCode)) {
      text = text.replace(new RegExp(`\\b${card.verificationCode}\\b`, 'g'), '***');
    }
  }
  return text;
}

/**
 * Converts a client failure into the `ApplicationFailure` the workflow understands.
 * `orderCreate` turns "may have been sent" failures into ORDER_OUTCOME_UNKNOWN.
 */
export function classifyFailure(
  error: unknown,
  attempt: number,
  options: { orderCreate?: boolean; card?: PaymentCard } = {},
): Error {
  if (!(error instanceof NdcClientError)) return error instanceof Error ? error : new Error(String(error));
  const message = scrub(error.message, options.card);
  const details = (extra: Partial<FailureDetails> = {}): FailureDetails => ({ attempt, ...extra });

  if (error instanceof NdcBusinessError) {
    const first = error.errors[0];
    const code = first?.code;
    if (code !== undefined && TRANSIENT_NDC_CODES.has(code)) {
      return ApplicationFailure.retryable(message, TRANSIENT_FAILURE_TYPE, details({ airlineCode: code, text: first?.text }));
    }
    const type = (code !== undefined ? NDC_CODE_TO_FAILURE[code] : undefined) ?? 'AIRLINE_ERROR';
    return ApplicationFailure.nonRetryable(
      message,
      type,
      details({ ...(code !== undefined ? { airlineCode: code } : {}), ...(first?.text !== undefined ? { text: scrub(first.text, options.card) } : {}) }),
    );
  }
  if (options.orderCreate && error.requestSent && error.transient) {
    return ApplicationFailure.create({
      message: `order create outcome unknown: ${message}`,
      type: 'ORDER_OUTCOME_UNKNOWN',
      nonRetryable: false,
      details: [details(error instanceof NdcHttpError ? { httpStatus: error.status } : {})],
    });
  }
  if (error instanceof NdcTransportError || (error instanceof NdcHttpError && error.transient)) {
    return ApplicationFailure.retryable(
      message,
      TRANSIENT_FAILURE_TYPE,
      details(error instanceof NdcHttpError ? { httpStatus: error.status } : {}),
    );
  }
  if (error instanceof NdcHttpError) {
    const first = error.ndcErrors[0];
    let type = first !== undefined ? NDC_CODE_TO_FAILURE[first.code ?? ''] ?? 'AIRLINE_ERROR' : 'AIRLINE_ERROR';
    if (error.status === 401 || error.status === 403) type = 'AUTHENTICATION_FAILED';
    return ApplicationFailure.nonRetryable(
      message,
      type,
      details({
        httpStatus: error.status,
        ...(first !== undefined ? { airlineCode: first.code, text: scrub(first.text, options.card) } : {}),
      }),
    );
  }
  if (error instanceof NdcInvalidResponseError) {
    return ApplicationFailure.nonRetryable(message, 'INVALID_RESPONSE', details());
  }
  return ApplicationFailure.nonRetryable(message, 'AIRLINE_ERROR', details());
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
function shoppingPassengers(ctx: NdcContext): Passenger[] {
  const ids = passengerIds(ctx.passengers);
  return ctx.passengers.map((p, i) => ({ passengerId: ids[i]!, ptc: p.type }));
}

/**
 * Pricing passengers: PassengerID, PTC and Individual with the birthdate, which the UK under-16
 * rule makes mandatory for every passenger when a child or infant departs from the UK.
 */
function pricingPassengers(ctx: NdcContext): Passenger[] {
  const ids = passengerIds(ctx.passengers);
  return ctx.passengers.map((p, i) => ({
    passengerId: ids[i]!,
    ptc: p.type,
    individual: { birthdate: p.birthdate, surname: p.surname },
  }));
}

/** Order passengers: full Individual and ContactInfoRef. */
function orderPassengers(ctx: NdcContext): Passenger[] {
  const ids = passengerIds(ctx.passengers);
  return ctx.passengers.map((p, i) => ({
    passengerId: ids[i]!,
    ptc: p.type,
    individual: { birthdate: p.birthdate, nameTitle: p.title, givenNames: [p.givenName], surname: p.surname },
    contactInfoRef: p.contactId,
  }));
}

function orderContacts(ctx: NdcContext): ContactInformation[] {
  return ctx.contacts.map((c) => ({
    contactId: c.id,
    provided: [
      ...c.emails.map((email) => ({ email })),
      ...c.phones.map((phone) => ({ phone: { countryDialingCode: phone.countryDialingCode, phoneNumber: phone.number } })),
    ],
  }));
}

function qualifier(ctx: NdcContext): Qualifier | undefined {
  const q: Qualifier = {};
  if (ctx.promotionCode !== undefined && ctx.promotionCode !== '') q.promotionCodes = [ctx.promotionCode];
  if (ctx.corporate !== undefined) q.specialFare = { airlineId: ctx.corporate.airlineId, account: ctx.corporate.account };
  return q.promotionCodes !== undefined || q.specialFare !== undefined ? q : undefined;
}

/** Distinct passenger refs of an offer item (from its fare details, else its services). */
function itemPassengers(item: OfferItem): string[] {
  const refs = new Set<string>();
  for (const detail of item.fareDetails) detail.passengerRefs.forEach((r) => refs.add(r));
  if (refs.size === 0) for (const service of item.services) service.passengerRefs.forEach((r) => refs.add(r));
  return [...refs];
}

function selectedItems(items: readonly OfferItem[]): SelectedOfferItem[] {
  return items.map((item) => ({ offerItemId: item.offerItemId, passengerRefs: itemPassengers(item) }));
}

/** True for the CCF2 credit card fee item of a token-bearing OfferPriceRS. */
function isCardFeeItem(item: OfferItem): boolean {
  return item.services.some(
    (s) => /CCF2/.test(s.serviceId) || (s.serviceDefinitionRef !== undefined && /CCF2/.test(s.serviceDefinitionRef.ref)),
  );
}

function orderSummary(rs: OrderViewSuccess): OrderSummary {
  const order = rs.orders[0];
  if (order === undefined) throw new NdcInvalidResponseError('OrderViewRS without an Order');
  const reference = order.bookingReferences[0]?.id;
  if (reference === undefined) throw new NdcInvalidResponseError('OrderViewRS Order without a BookingReference');
  return {
    orderId: order.orderId,
    owner: order.owner,
    bookingReference: reference,
    total: requireElement(order.totalOrderPrice, 'Order/TotalOrderPrice'),
    status: requireElement(order.statusCode, 'Order/Status'),
  };
}

/** `YYYY-MM-DDThh:mm:ss` in UTC (the token resource's date-time form). */
function utcNoZone(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Builds the activities from their dependencies. Functions only, no `this`. */
export function createBookingActivities(deps: BookingActivityDeps): BookingActivities {
  const { client } = deps;
  const now = deps.now ?? (() => new Date());
  const tokenTtlMs = deps.tokenTtlMs ?? 60 * 60 * 1000;
  const target = deps.target ?? 'Test';
  const heartbeatIntervalMs = deps.heartbeatIntervalMs ?? 1000;

  const common = (ctx: NdcContext): RequestCommon => ({
    target,
    version: '17.2',
    timeStamp: `${now().toISOString().slice(0, 19)}Z`,
    // 32 hex digits: the 17.2 schema allows TransactionIdentifier at most 32 characters.
    transactionIdentifier: randomUUID().replace(/-/g, ''),
    correlationId: ctx.correlationId,
    pointOfSaleCountry: ctx.pointOfSale,
    party: { name: ctx.agency.name, agencyId: ctx.agency.id },
    parameters: { languages: [ctx.language], overrideCurrency: ctx.currency },
  });

  /**
   * Runs `body` with the activity's attempt number, heartbeating every `heartbeatIntervalMs`
   * while it waits so that a lost worker is noticed within the heartbeat timeout, and classifies
   * its failures.
   *
   * No heartbeat at the start: the server's heartbeat timeout already runs from the attempt's
   * start, so an attempt that never heartbeats (its worker died) times out just as soon; an
   * immediate heartbeat would only add an RPC and a history-shard write to every activity,
   * nearly all of which answer in milliseconds (docs/orchestrator.md, "Performance").
   */
  async function run<T>(
    body: (attempt: number) => Promise<T>,
    options: { orderCreate?: boolean; card?: PaymentCard } = {},
  ): Promise<T> {
    const context = Context.current();
    const attempt = context.info.attempt;
    const timer = setInterval(() => context.heartbeat(), heartbeatIntervalMs);
    try {
      return await body(attempt);
    } catch (error) {
      throw classifyFailure(error, attempt, options);
    } finally {
      clearInterval(timer);
    }
  }

  /** AirShoppingRQ for `coreQuery` with the context's header, qualifier and passengers. */
  function airShopping(ctx: NdcContext, coreQuery: CoreQuery): Promise<AirShoppingRs> {
    const q = qualifier(ctx);
    return client.airShopping(
      {
        ...common(ctx),
        coreQuery,
        ...(q !== undefined ? { qualifier: q } : {}),
        passengers: shoppingPassengers(ctx),
      },
      { correlationId: ctx.correlationId },
    );
  }

  function directionOf(departureCode: string | undefined, input: { origin: string; destination: string }): number {
    return departureCode === input.destination && departureCode !== input.origin ? 1 : 0;
  }

  async function calendar(input: CalendarInput): Promise<CalendarResult> {
    return run(async (attempt) => {
      const { ctx } = input;
      const ods = [
        { departureCode: input.origin, arrivalCode: input.destination, date: input.departureDate, daysAfter: input.flexibleDays, daysBefore: input.flexibleDays },
      ];
      if (input.returnDate !== undefined) {
        ods.push({ departureCode: input.destination, arrivalCode: input.origin, date: input.returnDate, daysAfter: input.flexibleDays, daysBefore: input.flexibleDays });
      }
      const rs = await airShopping(ctx, { kind: 'calendar', originDestinations: ods });
      if (rs.kind !== 'calendar') throw new NdcInvalidResponseError('calendar search answered with a day search response');
      const odCodes = new Map((rs.dataLists.originDestinations ?? []).map((od) => [od.originDestinationKey, od.departureCode]));
      const entries: { direction: number; date: string; price: string }[] = [];
      rs.airlineOffers.forEach((group, index) => {
        for (const entry of group.priceCalendar) {
          const departure = odCodes.get(entry.originDestinationRef);
          const direction = departure !== undefined ? directionOf(departure, input) : index;
          entries.push({ direction, date: entry.date, price: entry.totalPrice.value });
        }
      });
      const cheapest = (direction: number, preferred: string, notBefore?: string): string => {
        let best: { date: string; price: string } | undefined;
        const distance = (date: string): number => Math.abs(Date.parse(date) - Date.parse(preferred));
        for (const entry of entries) {
          if (entry.direction !== direction || (notBefore !== undefined && entry.date < notBefore)) continue;
          if (best === undefined) {
            best = entry;
            continue;
          }
          const cmp = compareDecimal(entry.price, best.price);
          if (cmp < 0 || (cmp === 0 && (distance(entry.date) < distance(best.date) || (distance(entry.date) === distance(best.date) && entry.date < best.date)))) {
            best = entry;
          }
        }
        return best?.date ?? preferred;
      };
      const departureDate = cheapest(0, input.departureDate);
      const result: CalendarResult = { departureDate, attempt };
      if (input.returnDate !== undefined) result.returnDate = cheapest(1, input.returnDate, departureDate);
      return result;
    });
  }

  async function shop(input: ShopInput): Promise<ShopResult> {
    return run(async (attempt) => {
      const { ctx } = input;
      const ods = [{ departureCode: input.origin, arrivalCode: input.destination, date: input.departureDate }];
      if (input.returnDate !== undefined) ods.push({ departureCode: input.destination, arrivalCode: input.origin, date: input.returnDate });
      const rs = await airShopping(ctx, { kind: 'day', originDestinations: ods });
      if (rs.kind !== 'day') throw new NdcInvalidResponseError('day search answered with a calendar response');
      const odDeparture = new Map((rs.dataLists.originDestinations ?? []).map((od) => [od.originDestinationKey, od.departureCode]));
      const classes = new Map((rs.dataLists.priceClasses ?? []).map((pc) => [pc.priceClassId, pc]));
      const offers: OfferSummary[] = [];
      for (const group of rs.airlineOffers) {
        for (const offer of group.offers) {
          const flight = offer.flightsOverview[0];
          const priceClass = flight?.priceClassRef !== undefined ? classes.get(flight.priceClassRef) : undefined;
          const code = priceClass?.code ?? flight?.priceClassRef?.replace(/^PC__/, '');
          offers.push({
            offerId: offer.offerId,
            owner: offer.owner,
            direction: directionOf(flight !== undefined ? odDeparture.get(flight.odRef) : undefined, input),
            ...(code !== undefined ? { priceClass: code } : {}),
            ...(priceClass?.name !== undefined ? { priceClassName: priceClass.name } : {}),
            total: offer.totalPrice,
            offerItems: selectedItems(offer.offerItems),
          });
        }
      }
      if (offers.length === 0) {
        throw ApplicationFailure.nonRetryable(`no offers for ${input.origin}-${input.destination} on ${input.departureDate}`, 'NO_OFFERS', { attempt });
      }
      return { shoppingResponseId: rs.shoppingResponseId, offers, attempt };
    });
  }

  function priceResult(rs: OfferPriceSuccess, attempt: number): PriceResult {
    const priced = rs.pricedOffer;
    const currency = priced.total.currency;
    const scale = currencyScale(currency);
    // The card fee is what the total holds beyond the per-passenger fares of the other items.
    // Computed this way it does not matter whether the airline prices the fee item once or per
    // passenger (the spec's items are per passenger; this airline counts the fee once).
    let surcharge: Money | undefined;
    if (priced.offerItems.some(isCardFeeItem)) {
      const fares = priced.offerItems
        .filter((item) => !isCardFeeItem(item))
        .map((item) => times(item.priceDetail.total.value, Math.max(1, itemPassengers(item).length), scale));
      const fee = subtract(priced.total.value, add(scale, '0', ...fares), scale);
      if (compareDecimal(fee, '0') > 0) surcharge = { value: fee, currency };
    }
    return {
      responseId: requireElement(rs.shoppingResponseId, 'ShoppingResponseID/ResponseID'),
      offerId: priced.offerId,
      owner: priced.owner,
      total: priced.total,
      ...(surcharge !== undefined ? { surcharge } : {}),
      offerItems: selectedItems(priced.offerItems),
      attempt,
    };
  }

  /**
   * OfferPriceRQ for the chosen offers with the context's header, qualifier and passengers, and
   * `tokenId` as the payment form when given; the answer as a PriceResult.
   */
  async function offerPrice(ctx: NdcContext, offers: ChosenOffer[], attempt: number, tokenId?: string): Promise<PriceResult> {
    const q = qualifier(ctx);
    const rs = await client.offerPrice(
      {
        ...common(ctx),
        offers: offers.map((o) => ({ offerId: o.offerId, owner: o.owner, responseId: o.responseId, offerItems: o.offerItems })),
        ...(q !== undefined ? { qualifier: q } : {}),
        passengers: pricingPassengers(ctx),
        ...(tokenId !== undefined ? { paymentForms: [{ key: 'PAYMENT_FORM_1', token: tokenId }] } : {}),
      },
      { correlationId: ctx.correlationId },
    );
    return priceResult(rs, attempt);
  }

  async function price(input: PriceInput): Promise<PriceResult> {
    return run((attempt) => offerPrice(input.ctx, input.offers, attempt));
  }

  async function tokenise(input: TokeniseInput): Promise<TokenResult> {
    const card = input.card;
    return run(
      async (attempt) => {
        const token = await client.createToken(
          {
            expiryDateTimeUTC: utcNoZone(new Date(now().getTime() + tokenTtlMs)),
            card: {
              number: card.number,
              name: card.name,
              address: {
                addressLine1: card.address.addressLine1,
                ...(card.address.addressLine2 !== undefined ? { addressLine2: card.address.addressLine2 } : {}),
                postalCode: card.address.postalCode,
                cityName: card.address.cityName,
                ...(card.address.stateOrProvince !== undefined ? { stateOrProvince: card.address.stateOrProvince } : {}),
                countryCode: card.address.countryCode,
              },
              expirationYear: card.expirationYear,
              expirationMonth: card.expirationMonth,
              verificationCode: card.verificationCode,
            },
          },
          { correlationId: input.correlationId },
        );
        return { tokenId: token.id, attempt };
      },
      { card },
    ).catch((error: unknown) => {
      // A 400 from the token endpoint is invalid card data.
      if (error instanceof ApplicationFailure && error.nonRetryable && (error.details?.[0] as FailureDetails | undefined)?.httpStatus === 400) {
        throw ApplicationFailure.nonRetryable(error.message, 'INVALID_CARD', error.details?.[0]);
      }
      throw error;
    });
  }

  async function repriceWithToken(input: RepriceInput): Promise<PriceResult> {
    return run((attempt) => offerPrice(input.ctx, input.offers, attempt, input.tokenId));
  }

  async function createOrder(input: CreateOrderInput): Promise<CreateOrderResult> {
    return run(
      async (attempt) => {
        const { ctx, priced } = input;
        const { rs, xml } = await client.orderCreate(
          {
            ...common(ctx),
            securePayment: {
              failUrl: input.securePayment.failUrl,
              termUrl: input.securePayment.termUrl,
              ipAddress: input.securePayment.ipAddress,
              userAgent: input.securePayment.userAgent,
            },
            offer: {
              offerId: priced.offerId,
              owner: priced.owner,
              responseId: priced.responseId,
              totalOfferPrice: priced.total,
              offerItems: priced.offerItems,
            },
            payments: [{ type: 'CC', voucherNumber: input.tokenId, amount: priced.total }],
            passengers: orderPassengers(ctx),
            contacts: orderContacts(ctx),
          },
          { correlationId: ctx.correlationId },
        );
        return { order: orderSummary(rs), orderViewXml: xml, attempt };
      },
      { orderCreate: true },
    );
  }

  async function reconcileOrder(input: ReconcileInput): Promise<ReconcileResult> {
    return run(async (attempt) => {
      const found = await client.ordersByShoppingResponse(input.shoppingResponseId, input.ctx.agency.id, {
        correlationId: input.ctx.correlationId,
      });
      return found === undefined ? { attempt } : { order: orderSummary(found.rs), orderViewXml: found.xml, attempt };
    });
  }

  async function retrieveOrder(input: RetrieveInput): Promise<RetrieveResult> {
    return run(async (attempt) => {
      const { rs, xml } = await client.orderRetrieve(
        { ...common(input.ctx), orderId: input.orderId, owner: input.owner },
        { correlationId: input.ctx.correlationId },
      );
      return { order: orderSummary(rs), orderViewXml: xml, attempt };
    });
  }

  return { calendar, shop, price, tokenise, repriceWithToken, createOrder, reconcileOrder, retrieveOrder };
}

export type { BookingActivities } from './booking.activities.types';
