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
import {
  FailureType,
  failureForNdcCode,
  type FailureDetails,
  type NdcCodeTable,
} from '../src/booking/booking.failures';
import type { PaymentCard } from '../src/booking/booking.model';
import {
  airShoppingRq,
  calendarQuery,
  dayQuery,
  offerPriceRq,
  orderCancelRq,
  orderCreateRq,
  orderRetrieveRq,
  passengerIds,
  seatAvailabilityRq,
  serviceListRq,
  type NdcContext,
  type RequestStamp,
} from '../src/booking/intent-to-ndc';
import type { SeatMaps } from '../src/booking/booking.extras';
import { pricedExtras, seatMaps, seatWarnings, serviceOptions } from '../src/booking/extras-from-ndc';
import type { DataLists, OfferItem, SelectedOfferItem } from '../src/ndc/ndc.model';
import { cancellationOf } from '../src/ndc/cancellation-penalty';
import { NdcMissingElementError, NdcNoMoneyPriceError, requireElement, requireMoney } from '../src/ndc/require-element';
import { flightOriginDestination } from '../src/ndc/references';
import {
  NdcBusinessError,
  NdcClientError,
  NdcHttpError,
  NdcInvalidResponseError,
  NdcTransportError,
  isAuthenticationChallenge,
  type NdcHttpClient,
  type OfferPriceSuccess,
  type OrderViewSuccess,
} from '../src/ndc-client';
import { airlineAgencyId, type AirlineProfile } from '../src/ndc-client/airline-profile';
import { cardSurcharge, itemPassengers, type CalendarPrice } from '../workflows/booking.decisions';
import type {
  BookingActivities,
  CalendarInput,
  CalendarResult,
  CancelOrderInput,
  AuthenticationChallenge,
  CancelOrderResult,
  CreateOrderInput,
  CustomerInputInput,
  CreateOrderResult,
  OfferSummary,
  OrderSummary,
  PriceInput,
  ExtrasInput,
  SeatMapResult,
  ServiceListResult,
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
  /** The client of this airline. */
  client: NdcHttpClient;
  /**
   * What the activities need of the airline's profile: the agency ids it knows agencies by, and
   * its reading of NDC error codes.
   */
  airline: Pick<AirlineProfile, 'code' | 'agencyIds' | 'codes'>;
  /** Clock for request timestamps and token expiry. Default `() => new Date()`. */
  now?: () => Date;
  /** Lifetime of card tokens, in ms. Default 1 h. */
  tokenTtlMs?: number;
  /** `Target` attribute of requests. Default `Test` (the spec's only value). */
  target?: string;
  /** Heartbeat interval while waiting for the airline, in ms. Default 1000. */
  heartbeatIntervalMs?: number;
}

export { passengerIds } from '../src/booking/intent-to-ndc';

/** Type of the retryable failures (network, timeout, 5xx, 429, NDC 799). */
export const TRANSIENT_FAILURE_TYPE = FailureType.AIRLINE_TRANSIENT;

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

function failure(message: string, type: FailureType, details: FailureDetails, retryable = false): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable: !retryable, details: [details] });
}

/** How to read a failure: the airline's code table, and which call failed. */
export interface ClassifyOptions {
  codes: NdcCodeTable;
  orderCreate?: boolean;
  orderCancel?: boolean;
  card?: PaymentCard;
}

/**
 * Converts a client failure into the `ApplicationFailure` the workflow understands.
 * `orderCreate` turns "may have been sent" failures into ORDER_OUTCOME_UNKNOWN.
 */
export function classifyFailure(error: unknown, attempt: number, options: ClassifyOptions): Error {
  if (error instanceof NdcMissingElementError || error instanceof NdcNoMoneyPriceError) {
    // A schema-valid answer without what the saga needs (e.g. a total in award miles): asking
    // again gets the same answer. After an order create or cancel the outcome is still unknown.
    if (options.orderCreate || options.orderCancel) {
      const type = options.orderCreate ? FailureType.ORDER_OUTCOME_UNKNOWN : FailureType.CANCEL_OUTCOME_UNKNOWN;
      return failure(`outcome unknown: ${error.message}`, type, { attempt }, true);
    }
    return failure(error.message, FailureType.INVALID_RESPONSE, { attempt });
  }
  if (!(error instanceof NdcClientError)) return error instanceof Error ? error : new Error(String(error));
  const message = scrub(error.message, options.card);
  const ndc = (first: { code?: string; text: string } | undefined): Partial<FailureDetails> =>
    first !== undefined
      ? { ...(first.code !== undefined ? { airlineCode: first.code } : {}), text: scrub(first.text, options.card) }
      : {};
  const http = error instanceof NdcHttpError ? { httpStatus: error.status } : {};

  if (error instanceof NdcBusinessError) {
    const first = error.errors[0];
    if (first?.code !== undefined && options.codes.transient.has(first.code)) {
      return failure(message, FailureType.AIRLINE_TRANSIENT, { attempt, ...ndc(first) }, true);
    }
    return failure(message, failureForNdcCode(first?.code, options.codes), { attempt, ...ndc(first) });
  }
  // On createOrder / cancelOrder only a business answer is definite: a body we cannot read after
  // the request went out (cut, corrupt, not the expected message) leaves the outcome unknown.
  const unanswered = error.requestSent && (error.transient || error instanceof NdcInvalidResponseError);
  if (options.orderCreate && unanswered) {
    return failure(
      `order create outcome unknown: ${message}`,
      FailureType.ORDER_OUTCOME_UNKNOWN,
      { attempt, ...http },
      true,
    );
  }
  if (options.orderCancel && unanswered) {
    return failure(
      `order cancel outcome unknown: ${message}`,
      FailureType.CANCEL_OUTCOME_UNKNOWN,
      { attempt, ...http },
      true,
    );
  }
  if (error instanceof NdcTransportError || (error instanceof NdcHttpError && error.transient)) {
    return failure(message, FailureType.AIRLINE_TRANSIENT, { attempt, ...http }, true);
  }
  if (error instanceof NdcHttpError) {
    const first = error.ndcErrors[0];
    const type =
      error.status === 401 || error.status === 403
        ? FailureType.AIRLINE_CREDENTIALS_REJECTED
        : failureForNdcCode(first?.code, options.codes);
    return failure(message, type, { attempt, ...http, ...ndc(first) });
  }
  if (error instanceof NdcInvalidResponseError) return failure(message, FailureType.INVALID_RESPONSE, { attempt });
  return failure(message, FailureType.AIRLINE_ERROR, { attempt });
}

function selectedItems(items: readonly OfferItem[]): SelectedOfferItem[] {
  return items.map((item) => ({ offerItemId: item.offerItemId, passengerRefs: itemPassengers(item) }));
}

/**
 * The order's summary. `currency` (the one the booking asked for) is that of amounts the airline
 * sent without `Code` and without currency metadata.
 */
function orderSummary(rs: OrderViewSuccess, currency: string): OrderSummary {
  const order = rs.orders[0];
  if (order === undefined) throw new NdcInvalidResponseError('OrderViewRS without an Order');
  const reference = order.bookingReferences[0]?.id;
  if (reference === undefined) throw new NdcInvalidResponseError('OrderViewRS Order without a BookingReference');
  return {
    orderId: order.orderId,
    owner: order.owner,
    bookingReference: reference,
    total: requireMoney(order.totalOrderPrice, 'Order/TotalOrderPrice', { currency, otherPrice: order.otherPrice }),
    status: requireElement(order.statusCode, 'Order/Status'),
    ...cancellationSummary(rs.dataLists, currency),
  };
}

/** The fee and refund a cancelled order's view carries (see `cancellationOf`), as money. */
function cancellationSummary(dataLists: DataLists, currency: string): Pick<OrderSummary, 'cancellationFee' | 'refund'> {
  const { fee, refund } = cancellationOf(dataLists);
  const where = 'DataLists/PenaltyList/Penalty/Details/Detail/Amounts/Amount/CurrencyAmountValue';
  return {
    ...(fee !== undefined ? { cancellationFee: requireMoney(fee, where, { currency }) } : {}),
    ...(refund !== undefined ? { refund: requireMoney(refund, where, { currency }) } : {}),
  };
}

/** The pricing's summary; `currency` as for {@link orderSummary}. A total in award units is `NdcNoMoneyPriceError`. */
function priceResult(rs: OfferPriceSuccess, attempt: number, ctx: NdcContext): PriceResult {
  const { currency } = ctx;
  const priced = rs.pricedOffer;
  const extras = pricedExtras(rs, passengerIds(ctx.passengers), currency);
  const warnings = seatWarnings(rs);
  const total = requireMoney(priced.total, 'PricedOffer/TotalPrice', { currency, otherPrice: priced.otherPrice });
  const surcharge = cardSurcharge({ total, offerItems: priced.offerItems });
  return {
    responseId: requireElement(rs.shoppingResponseId, 'ShoppingResponseID/ResponseID'),
    offerId: priced.offerId,
    owner: priced.owner,
    total,
    ...(surcharge !== undefined ? { surcharge } : {}),
    offerItems: selectedItems(priced.offerItems),
    ...(extras.length > 0 ? { extras } : {}),
    ...(warnings.length > 0 ? { seatWarnings: warnings } : {}),
    attempt,
  };
}

/** `YYYY-MM-DDThh:mm:ss` in UTC (the token resource's date-time form). */
function utcNoZone(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** 0 for the outbound, 1 for a direction departing from the destination. */
function directionOf(departureCode: string | undefined, input: { origin: string; destination: string }): number {
  return departureCode === input.destination && departureCode !== input.origin ? 1 : 0;
}

/** Builds the activities from their dependencies. Functions only, no `this`. */
export function createBookingActivities(deps: BookingActivityDeps): BookingActivities {
  const { client, airline } = deps;
  const now = deps.now ?? (() => new Date());
  const tokenTtlMs = deps.tokenTtlMs ?? 60 * 60 * 1000;
  const target = deps.target ?? 'Test';
  const heartbeatIntervalMs = deps.heartbeatIntervalMs ?? 1000;

  /**
   * A header stamp: the booking's TransactionIdentifier (`ctx.transactionId`, the same on every
   * message of one booking, as the airline's seat locks need), else a fresh one of 32 hex digits
   * (the 17.2 schema's maximum).
   */
  const stamp = (ctx?: NdcContext): RequestStamp => ({
    target,
    timeStamp: `${now().toISOString().slice(0, 19)}Z`,
    transactionIdentifier: ctx?.transactionId ?? randomUUID().replace(/-/g, ''),
  });
  const call = (ctx: NdcContext) => ({ correlationId: ctx.correlationId });

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
    options: Omit<ClassifyOptions, 'codes'> = {},
  ): Promise<T> {
    const context = Context.current();
    const attempt = context.info.attempt;
    const timer = setInterval(() => context.heartbeat(), heartbeatIntervalMs);
    try {
      return await body(attempt);
    } catch (error) {
      throw classifyFailure(error, attempt, { ...options, codes: airline.codes });
    } finally {
      clearInterval(timer);
    }
  }

  async function calendar(input: CalendarInput): Promise<CalendarResult> {
    return run(async (attempt) => {
      const rs = await client.airShopping(
        airShoppingRq(input.ctx, stamp(input.ctx), calendarQuery(input)),
        call(input.ctx),
      );
      if (rs.kind !== 'calendar')
        throw new NdcInvalidResponseError('calendar search answered with a day search response');
      const odCodes = new Map(
        (rs.dataLists.originDestinations ?? []).map((od) => [od.originDestinationKey, od.departureCode]),
      );
      const prices: CalendarPrice[] = [];
      rs.airlineOffers.forEach((group, index) => {
        for (const entry of group.priceCalendar) {
          // A PriceCalendar of several dates prices them together (e.g. out and back): each of its
          // dates is offered at that combined total, so the cheapest combination wins in both directions.
          for (const { date, originDestinationRef } of entry.dates) {
            const departure = originDestinationRef !== undefined ? odCodes.get(originDestinationRef) : undefined;
            const direction = departure !== undefined ? directionOf(departure, input) : index;
            prices.push({ direction, date, price: entry.totalPrice.value });
          }
        }
      });
      return { prices, attempt };
    });
  }

  async function shop(input: ShopInput): Promise<ShopResult> {
    return run(async (attempt) => {
      const rs = await client.airShopping(airShoppingRq(input.ctx, stamp(input.ctx), dayQuery(input)), call(input.ctx));
      if (rs.kind !== 'day') throw new NdcInvalidResponseError('day search answered with a calendar response');
      const odDeparture = new Map(
        (rs.dataLists.originDestinations ?? []).map((od) => [od.originDestinationKey, od.departureCode]),
      );
      const classes = new Map((rs.dataLists.priceClasses ?? []).map((pc) => [pc.priceClassId, pc]));
      const offers: OfferSummary[] = [];
      for (const group of rs.airlineOffers) {
        for (const offer of group.offers) {
          const flight = offer.flightsOverview[0];
          // FlightRef@ODRef is optional in the XSD: else the OriginDestination listing the flight.
          const odKey = flight !== undefined ? flightOriginDestination(flight, rs.dataLists) : undefined;
          const priceClass = flight?.priceClassRef !== undefined ? classes.get(flight.priceClassRef) : undefined;
          const code = priceClass?.code ?? flight?.priceClassRef?.replace(/^PC__/, '');
          offers.push({
            offerId: offer.offerId,
            owner: offer.owner,
            direction: directionOf(odKey !== undefined ? odDeparture.get(odKey) : undefined, input),
            ...(code !== undefined ? { priceClass: code } : {}),
            ...(priceClass?.name !== undefined ? { priceClassName: priceClass.name } : {}),
            total: requireMoney(offer.totalPrice, 'Offer/TotalPrice', {
              currency: input.ctx.currency,
              otherPrice: offer.otherPrice,
            }),
            offerItems: selectedItems(offer.offerItems),
          });
        }
      }
      if (offers.length === 0) {
        throw failure(
          `no offers for ${input.origin}-${input.destination} on ${input.departureDate}`,
          FailureType.NO_OFFERS,
          { attempt },
        );
      }
      return { shoppingResponseId: rs.shoppingResponseId, offers, attempt };
    });
  }

  async function price(input: PriceInput): Promise<PriceResult> {
    return run(async (attempt) =>
      priceResult(
        await client.offerPrice(offerPriceRq(input.ctx, stamp(input.ctx), input.offers), call(input.ctx)),
        attempt,
        input.ctx,
      ),
    );
  }

  async function repriceWithToken(input: RepriceInput): Promise<PriceResult> {
    return run(async (attempt) =>
      priceResult(
        await client.offerPrice(
          offerPriceRq(input.ctx, stamp(input.ctx), input.offers, input.tokenId),
          call(input.ctx),
        ),
        attempt,
        input.ctx,
      ),
    );
  }

  async function tokenise(input: TokeniseInput): Promise<TokenResult> {
    const { card } = input;
    const { addressLine2, stateOrProvince } = card.address;
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
                ...(addressLine2 !== undefined ? { addressLine2 } : {}),
                postalCode: card.address.postalCode,
                cityName: card.address.cityName,
                ...(stateOrProvince !== undefined ? { stateOrProvince } : {}),
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
      if (
        error instanceof ApplicationFailure &&
        error.nonRetryable &&
        (error.details?.[0] as FailureDetails | undefined)?.httpStatus === 400
      ) {
        throw ApplicationFailure.nonRetryable(error.message, FailureType.INVALID_CARD, error.details?.[0]);
      }
      throw error;
    });
  }

  async function createOrder(input: CreateOrderInput): Promise<CreateOrderResult | AuthenticationChallenge> {
    return run(
      async (attempt) => {
        const rq = orderCreateRq(
          input.ctx,
          stamp(input.ctx),
          input.priced,
          input.tokenId,
          input.securePayment,
          input.authentication,
        );
        const answer = await client.orderCreate(rq, call(input.ctx));
        if (isAuthenticationChallenge(answer)) {
          // A definite answer: no order exists yet; the airline holds the seats for its window.
          const { acsUrl, spmTxnReference, originalTransactionId } = answer.payment;
          return {
            kind: 'challenge',
            acsUrl,
            spmTxnReference,
            ...(originalTransactionId !== undefined ? { originalTransactionId } : {}),
            attempt,
          };
        }
        return { order: orderSummary(answer.rs, input.ctx.currency), orderViewXml: answer.xml, attempt };
      },
      { orderCreate: true },
    );
  }

  /** CustomerInputRS; like createOrder, a failure after sending is ORDER_OUTCOME_UNKNOWN. */
  async function customerInput(input: CustomerInputInput): Promise<CreateOrderResult> {
    return run(
      async (attempt) => {
        const { timeStamp, transactionIdentifier } = stamp();
        const { originalTransactionId } = input;
        const { rs, xml } = await client.customerInput(
          {
            target,
            version: '17.2',
            timeStamp,
            transactionIdentifier,
            correlationId: input.ctx.correlationId,
            kind: 'success',
            securePayments: [
              {
                paRes: input.paRes,
                status: input.status,
                spmTxnReference: input.spmTxnReference,
                ...(originalTransactionId !== undefined ? { originalTransactionId } : {}),
              },
            ],
          },
          call(input.ctx),
        );
        return { order: orderSummary(rs, input.ctx.currency), orderViewXml: xml, attempt };
      },
      { orderCreate: true },
    );
  }

  /** Looks the order up by each id in turn; the first found is the answer. */
  async function reconcileOrder(input: ReconcileInput): Promise<ReconcileResult> {
    const ids = input.lookupIds ?? (input.shoppingResponseId !== undefined ? [input.shoppingResponseId] : []);
    return run(async (attempt) => {
      for (const id of ids) {
        const found = await client.ordersByShoppingResponse(id, input.ctx.agency.id, call(input.ctx));
        if (found !== undefined)
          return { order: orderSummary(found.rs, input.ctx.currency), orderViewXml: found.xml, foundBy: id, attempt };
      }
      return { attempt };
    });
  }

  async function retrieveOrder(input: RetrieveInput): Promise<RetrieveResult> {
    return run(async (attempt) => {
      const { rs, xml } = await client.orderRetrieve(
        orderRetrieveRq(input.ctx, stamp(input.ctx), input),
        call(input.ctx),
      );
      return { order: orderSummary(rs, input.ctx.currency), orderViewXml: xml, attempt };
    });
  }

  /** OrderCancelRQ; like createOrder, a failure after sending is CANCEL_OUTCOME_UNKNOWN. */
  async function cancelOrder(input: CancelOrderInput): Promise<CancelOrderResult> {
    return run(
      async (attempt) => {
        const rs = await client.orderCancel(orderCancelRq(input.ctx, stamp(input.ctx), input), call(input.ctx));
        const first = rs.cancellations[0];
        if (first === undefined) throw new NdcInvalidResponseError('OrderCancelRS without a Response');
        const currency = { currency: input.ctx.currency };
        return {
          orderReference: first.orderReference,
          ...(first.refund !== undefined
            ? { refund: requireMoney(first.refund, 'Response/ChangeFees', currency) }
            : {}),
          ...(first.cancellationFee !== undefined
            ? { fee: requireMoney(first.cancellationFee, 'Response/ChangeFees', currency) }
            : {}),
          attempt,
        };
      },
      { orderCancel: true },
    );
  }

  /** ServiceListRQ for each chosen offer (one direction per request, as the airline asks). */
  async function listServices(input: ExtrasInput): Promise<ServiceListResult> {
    return run(async (attempt) => {
      const out: ServiceListResult = { options: [], attempt };
      for (const [direction, offer] of input.offers.entries()) {
        const rq = serviceListRq(input.ctx, stamp(input.ctx), offer.responseId, [offer]);
        const rs = await client.serviceList(rq, call(input.ctx));
        if (rs.aLaCarteOffer !== undefined) {
          out.aLaCarteOfferId = rs.aLaCarteOffer.offerId;
          out.owner = rs.aLaCarteOffer.owner;
        }
        out.options.push(...serviceOptions(rs, direction, input.ctx.currency));
      }
      return out;
    });
  }

  /** SeatAvailabilityRQ for each chosen offer; no seat map at all gives `maps` absent. */
  async function readSeatMaps(input: ExtrasInput): Promise<SeatMapResult> {
    return run(async (attempt) => {
      const ids = passengerIds(input.ctx.passengers);
      const ptcOf = (id: string) => input.ctx.passengers[ids.indexOf(id)]?.type;
      let maps: SeatMaps | undefined;
      for (const [direction, offer] of input.offers.entries()) {
        const rs = await client.seatAvailability(
          seatAvailabilityRq(input.ctx, stamp(input.ctx), offer),
          call(input.ctx),
        );
        const segments = seatMaps(rs, direction, input.ctx.currency, ptcOf);
        if (rs.aLaCarteOffer === undefined || segments.length === 0) continue;
        maps ??= {
          aLaCarteOfferId: rs.aLaCarteOffer.offerId,
          owner: rs.aLaCarteOffer.owner,
          responseId: offer.responseId,
          segments: [],
        };
        maps.segments.push(...segments);
      }
      return { ...(maps !== undefined ? { maps } : {}), attempt };
    });
  }

  /** The request context as this airline knows it: the agency under the AgencyID the airline gave it. */
  const local =
    <I extends { ctx: NdcContext }, R>(activity: (input: I) => Promise<R>) =>
    (input: I): Promise<R> =>
      activity({
        ...input,
        ctx: { ...input.ctx, agency: { ...input.ctx.agency, id: airlineAgencyId(airline, input.ctx.agency.id) } },
      });
  return {
    calendar: local(calendar),
    shop: local(shop),
    price: local(price),
    tokenise,
    repriceWithToken: local(repriceWithToken),
    createOrder: local(createOrder),
    customerInput: local(customerInput),
    reconcileOrder: local(reconcileOrder),
    retrieveOrder: local(retrieveOrder),
    cancelOrder: local(cancelOrder),
    listServices: local(listServices),
    readSeatMaps: local(readSeatMaps),
  };
}

export type { BookingActivities } from './booking.activities.types';
