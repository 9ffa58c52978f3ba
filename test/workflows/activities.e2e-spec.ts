/**
 * The booking activities alone (MockActivityEnvironment) against the real airline service
 * (createAirlineApp, in-memory SQLite, port 0): requests the airline accepts, results, and the
 * classification of its failures, including the fault simulator's http500, reset and
 * commit-then-timeout.
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createBookingActivities } from '../../activities/booking.activities';
import type {
  BookingActivities,
  ChosenOffer,
  NdcContext,
  PriceResult,
  ShopResult,
} from '../../activities/booking.activities.types';
import type { IntentPassenger } from '../../src/booking/booking.model';
import { NdcHttpClient } from '../../src/ndc-client';
import { armFault, clearFaults, embeddedProfile, ndcClientConfig, startAirline } from '../airline/airline-harness';
import { embeddedAirlineCodes } from '../../src/ndc-client/airline-profile';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { oneWayIntent } from './booking.fixtures';
import { inDays } from '../airline/ndc-client';
import { chooseTravelDates } from '../../workflows/booking/decisions';

/** The SDK logs every failed activity at WARN; these tests fail activities on purpose. */
const quiet = (): void => undefined;
const silent = { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet };

const CREDIT_CARD = oneWayIntent().payment.card; // 4111 1111 1111 1111: credit, surcharge
const DEBIT_CARD = { ...CREDIT_CARD, number: '4000056655665556' };

describe('booking activities against the real airline service', () => {
  let airline: INestApplication;
  let baseUrl: string;
  let client: NdcHttpClient;
  let shortClient: NdcHttpClient;
  let activities: BookingActivities;
  let impatient: BookingActivities;
  let sequence = 0;

  beforeAll(async () => {
    const started = await startAirline();
    airline = started.app;
    baseUrl = started.url;
    client = new NdcHttpClient(ndcClientConfig(started, 10_000));
    shortClient = new NdcHttpClient(ndcClientConfig(started, 400));
    activities = createBookingActivities({ client, airline: embeddedProfile(started), heartbeatIntervalMs: 50 });
    impatient = createBookingActivities({
      client: shortClient,
      airline: embeddedProfile(started),
      heartbeatIntervalMs: 50,
    });
  });

  afterAll(async () => {
    client.close();
    shortClient.close();
    await airline.close();
  });

  afterEach(async () => {
    await clearFaults(baseUrl);
  });

  function ctx(passengers: IntentPassenger[] = oneWayIntent().passengers): NdcContext {
    sequence += 1;
    const intent = oneWayIntent();
    return {
      correlationId: `activities-${sequence}`,
      agency: { id: `AG-ACT-${sequence}`, name: 'Activity Test Agency' },
      pointOfSale: 'GB',
      currency: 'GBP',
      language: 'EN',
      passengers,
      contacts: intent.contacts,
    };
  }

  async function fault(operation: string, mode: string, count = 1, delayMs = 0): Promise<void> {
    expect((await armFault(baseUrl, operation, mode, count, delayMs)).status).toBeLessThan(300);
  }

  const run = <A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A): Promise<R> =>
    new MockActivityEnvironment(undefined, { logger: silent }).run(fn, ...args);

  async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(ApplicationFailure);
      return error as ApplicationFailure;
    }
    throw new Error('expected a failure');
  }

  async function shopAndPrice(
    context: NdcContext,
    origin = 'LGW',
    destination = 'OSL',
  ): Promise<{ shop: ShopResult; priced: PriceResult; offers: ChosenOffer[] }> {
    const shop = await run(activities.shop, { ctx: context, origin, destination, departureDate: inDays(30) });
    const cheapest = shop.offers
      .filter((o) => o.direction === 0)
      .sort((a, b) => Number(a.total.value) - Number(b.total.value))[0]!;
    const offers = [
      {
        offerId: cheapest.offerId,
        owner: cheapest.owner,
        responseId: shop.shoppingResponseId,
        offerItems: cheapest.offerItems,
      },
    ];
    const priced = await run(activities.price, { ctx: context, offers });
    return { shop, priced, offers };
  }

  it('books with a credit card: shop, price, tokenise, reprice with CCF2, create, reconcile, retrieve', async () => {
    const context = ctx();
    const { shop, priced, offers } = await shopAndPrice(context);
    expect(shop.shoppingResponseId).toMatch(/^SR[0-9A-F]{20}(K[0-9A-F]{15})?$/);
    expect(new Set(shop.offers.map((o) => o.priceClass))).toEqual(new Set(['ECONOMY', 'FLEX', 'PLUS']));
    expect(priced.surcharge).toBeUndefined();
    expect(priced.attempt).toBe(1);

    const token = await run(activities.tokenise, { card: CREDIT_CARD, correlationId: context.correlationId });
    // The creation answer has no funding, and a booking's own token does not ask for it.
    expect(Object.keys(token).sort()).toEqual(['attempt', 'tokenId']);
    // A servicing payment asks: the funding is read from the token's self link.
    const servicing = await run(activities.tokenise, {
      card: CREDIT_CARD,
      correlationId: context.correlationId,
      funding: true,
    });
    expect(servicing.funding).toBe('credit');
    expect(JSON.stringify(token)).not.toContain(CREDIT_CARD.number);

    const repriced = await run(activities.repriceWithToken, {
      ctx: context,
      offers,
      previous: priced,
      tokenId: token.tokenId,
    });
    // 2 % of the offer total, counted once.
    const expectedFee = (Math.round(Number(priced.total.value) * 2) / 100).toFixed(2);
    expect(repriced.surcharge).toEqual({ value: expectedFee, currency: 'GBP' });
    expect(repriced.total.value).toBe((Number(priced.total.value) + Number(expectedFee)).toFixed(2));
    expect(repriced.responseId).not.toBe(priced.responseId);

    expect(await run(activities.reconcileOrder, { ctx: context, shoppingResponseId: shop.shoppingResponseId })).toEqual(
      { attempt: 1 },
    );
    const created = await run(activities.createOrder, {
      ctx: context,
      priced: repriced,
      tokenId: token.tokenId,
      securePayment: oneWayIntent().securePayment,
    });
    if (created.kind === 'challenge') throw new Error('unexpected 3-D Secure challenge');
    expect(created.order.status).toBe('OK');
    expect(created.order.bookingReference).toMatch(/^[A-Z0-9]{6}$/);
    expect(created.order.total).toEqual(repriced.total);

    const found = await run(activities.reconcileOrder, { ctx: context, shoppingResponseId: shop.shoppingResponseId });
    expect(found.order).toEqual(created.order);
    // Another agency does not see it (913 -> no order).
    expect(
      (await run(activities.reconcileOrder, { ctx: ctx(), shoppingResponseId: shop.shoppingResponseId })).order,
    ).toBeUndefined();

    const retrieved = await run(activities.retrieveOrder, {
      ctx: context,
      orderId: created.order.orderId,
      owner: created.order.owner,
    });
    expect(retrieved.order).toEqual(created.order);
    expect(retrieved.orderViewXml).toContain(`OrderID="${created.order.orderId}"`);
    expect(retrieved.orderViewXml).not.toContain(CREDIT_CARD.number);
  });

  /** Chooses at the issuer page; the browser's next stop (TermURL or FailURL) with PaRes. */
  async function decide(acsUrl: string, decision: 'approve' | 'decline'): Promise<URL> {
    const res = await fetch(acsUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `decision=${decision}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return new URL(res.headers.get('location')!);
  }

  async function challenged(context: NdcContext) {
    const { shop, priced, offers } = await shopAndPrice(context);
    const card = { ...CREDIT_CARD, number: '4000000000003220' };
    const token = await run(activities.tokenise, { card, correlationId: context.correlationId });
    const repriced = await run(activities.repriceWithToken, {
      ctx: context,
      offers,
      previous: priced,
      tokenId: token.tokenId,
    });
    const answer = await run(activities.createOrder, {
      ctx: context,
      priced: repriced,
      tokenId: token.tokenId,
      securePayment: oneWayIntent().securePayment,
    });
    if (answer.kind !== 'challenge') throw new Error('expected a 3-D Secure challenge');
    return { shop, answer };
  }

  it('a card that needs 3-D Secure: createOrder answers a typed challenge (no order); customerInput orders once, a second send answers the same order', async () => {
    const context = ctx();
    const { shop, answer } = await challenged(context);
    expect(answer).toEqual({
      kind: 'challenge',
      acsUrl: expect.stringMatching(/\/acs\//),
      spmTxnReference: expect.stringMatching(/^SPM-/),
      originalTransactionId: expect.any(String),
      attempt: 1,
    });
    // No card data: the full number (its last four digits alone may turn up in a random id or port).
    expect(JSON.stringify(answer)).not.toMatch(/4000000000003220|card|verification/i);
    expect(
      (await run(activities.reconcileOrder, { ctx: context, shoppingResponseId: shop.shoppingResponseId })).order,
    ).toBeUndefined();

    const back = await decide(answer.acsUrl, 'approve');
    const input = {
      ctx: context,
      spmTxnReference: answer.spmTxnReference,
      originalTransactionId: answer.originalTransactionId!,
      paRes: back.searchParams.get('PaRes')!,
      status: 'Y' as const,
    };
    const placed = await run(activities.customerInput, input);
    expect(placed.order.status).toBe('OK');
    const found = await run(activities.reconcileOrder, { ctx: context, shoppingResponseId: shop.shoppingResponseId });
    expect(found.order).toEqual(placed.order);
    // The same result again (what the saga does after a lost answer and no order found): the
    // order it already made, never a second one.
    const again = await run(activities.customerInput, input);
    expect(again.order).toEqual(placed.order);
    expect(airline.get(AirlineStore).ordersByShoppingResponse(shop.shoppingResponseId)).toHaveLength(1);
  });

  it('3-D Secure declined at the issuer: customerInput fails AUTHENTICATION_FAILED (781), no order', async () => {
    const context = ctx();
    const { shop, answer } = await challenged(context);
    const back = await decide(answer.acsUrl, 'decline');
    const failure = await failureOf(
      run(activities.customerInput, {
        ctx: context,
        spmTxnReference: answer.spmTxnReference,
        originalTransactionId: answer.originalTransactionId!,
        paRes: back.searchParams.get('PaRes')!,
        status: 'N',
      }),
    );
    expect([failure.type, failure.nonRetryable]).toEqual(['AUTHENTICATION_FAILED', true]);
    expect(
      (await run(activities.reconcileOrder, { ctx: context, shoppingResponseId: shop.shoppingResponseId })).order,
    ).toBeUndefined();
  });

  it('picks the cheapest calendar date per direction within the window, the return not before the outbound', async () => {
    const context = ctx();
    const result = await run(activities.calendar, {
      ctx: context,
      origin: 'LGW',
      destination: 'OSL',
      departureDate: inDays(30),
      returnDate: inDays(33),
      flexibleDays: 3,
    });
    expect(result.attempt).toBe(1);
    const dates = chooseTravelDates(result.prices, { departureDate: inDays(30), returnDate: inDays(33) });
    expect(dates.departureDate >= inDays(27) && dates.departureDate <= inDays(33)).toBe(true);
    expect(dates.returnDate! >= dates.departureDate && dates.returnDate! <= inDays(36)).toBe(true);
    expect(new Set(result.prices.map((p) => p.direction))).toEqual(new Set([0, 1]));

    // Cross-check the outbound against the airline's own calendar: no date is cheaper.
    const rs = await client.airShopping({
      target: 'Test',
      version: '17.2',
      timeStamp: new Date().toISOString().slice(0, 19) + 'Z',
      pointOfSaleCountry: 'GB',
      party: { name: 'x', agencyId: context.agency.id },
      parameters: { languages: ['EN'], overrideCurrency: 'GBP' },
      coreQuery: {
        kind: 'calendar',
        originDestinations: [
          { departureCode: 'LGW', arrivalCode: 'OSL', date: inDays(30), daysAfter: 3, daysBefore: 3 },
        ],
      },
      passengers: [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }],
    });
    if (rs.kind !== 'calendar') throw new Error('expected a calendar response');
    const prices = rs.airlineOffers[0]!.priceCalendar.map((entry) => ({
      date: entry.dates[0]!.date,
      price: Number(entry.totalPrice.value),
    }));
    const chosen = prices.find((entry) => entry.date === dates.departureDate)!;
    expect(chosen.price).toBe(Math.min(...prices.map((entry) => entry.price)));
  });

  it('reprices a debit card without surcharge', async () => {
    const context = ctx();
    const { priced, offers } = await shopAndPrice(context);
    const token = await run(activities.tokenise, { card: DEBIT_CARD, correlationId: context.correlationId });
    const repriced = await run(activities.repriceWithToken, {
      ctx: context,
      offers,
      previous: priced,
      tokenId: token.tokenId,
    });
    expect(repriced.surcharge).toBeUndefined();
    expect(repriced.total).toEqual(priced.total);
  });

  it('classifies an invalid card as INVALID_CARD without echoing the card', async () => {
    const bad = { ...CREDIT_CARD, number: '4111111111111112' };
    const failure = await failureOf(run(activities.tokenise, { card: bad, correlationId: 'bad-card' }));
    expect(failure.type).toBe('INVALID_CARD');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).not.toContain(bad.number);
    expect(failure.message).not.toContain(bad.verificationCode);
    expect(failure.details?.[0]).toMatchObject({ httpStatus: 400, attempt: 1 });
  });

  it('maps an NDC error to its stable type: unknown offer (720) is OFFER_EXPIRED, so the saga shops again', async () => {
    const context = ctx();
    const unknown = await failureOf(
      run(activities.price, {
        ctx: context,
        offers: [
          {
            offerId: 'NOPE',
            owner: 'ZZ',
            responseId: 'SR00000000000000000000',
            offerItems: [{ offerItemId: 'X', passengerRefs: ['PAX__ADT01'] }],
          },
        ],
      }),
    );
    expect([
      unknown.type,
      unknown.nonRetryable,
      (unknown.details?.[0] as { airlineCode?: string }).airlineCode,
    ]).toEqual(['OFFER_EXPIRED', true, '720']);
  });

  it('turns http500 and reset into retryable AIRLINE_TRANSIENT failures', async () => {
    const context = ctx();
    await fault('AirShopping', 'http500');
    const http500 = await failureOf(
      run(activities.shop, { ctx: context, origin: 'LGW', destination: 'OSL', departureDate: inDays(30) }),
    );
    expect([http500.type, http500.nonRetryable, (http500.details?.[0] as { httpStatus?: number }).httpStatus]).toEqual([
      'AIRLINE_TRANSIENT',
      false,
      500,
    ]);

    await fault('AirShopping', 'reset');
    const reset = await failureOf(
      run(activities.shop, { ctx: context, origin: 'LGW', destination: 'OSL', departureDate: inDays(30) }),
    );
    expect([reset.type, reset.nonRetryable]).toEqual(['AIRLINE_TRANSIENT', false]);
    expect(reset.message).toMatch(/ECONNRESET|socket hang up|connection failed|interrupted/);

    // The fault is used up: the next call succeeds.
    const shop = await run(activities.shop, {
      ctx: context,
      origin: 'LGW',
      destination: 'OSL',
      departureDate: inDays(30),
    });
    expect(shop.offers.length).toBeGreaterThan(0);
  });

  it('reports commit-then-timeout on OrderCreate as ORDER_OUTCOME_UNKNOWN, and reconciliation finds the one order', async () => {
    const context = ctx();
    const { shop, priced, offers } = await shopAndPrice(context);
    const token = await run(activities.tokenise, { card: DEBIT_CARD, correlationId: context.correlationId });
    const repriced = await run(activities.repriceWithToken, {
      ctx: context,
      offers,
      previous: priced,
      tokenId: token.tokenId,
    });
    await fault('OrderCreate', 'commit-then-timeout', 1, 3000);
    const failure = await failureOf(
      run(impatient.createOrder, {
        ctx: context,
        priced: repriced,
        tokenId: token.tokenId,
        securePayment: oneWayIntent().securePayment,
      }),
    );
    expect([failure.type, failure.nonRetryable]).toEqual(['ORDER_OUTCOME_UNKNOWN', false]);
    const found = await run(activities.reconcileOrder, { ctx: context, shoppingResponseId: shop.shoppingResponseId });
    expect(found.order?.status).toBe('OK');
    expect(found.order?.total).toEqual(repriced.total);
  });

  it('reports a refused connection as retryable, not as an unknown order outcome', async () => {
    const dead = new NdcHttpClient({
      retailBaseUrl: 'http://127.0.0.1:1',
      paymentBaseUrl: 'http://127.0.0.1:1',
      username: 'u',
      password: 'p',
      timeoutMs: 2000,
    });
    try {
      const failure = await failureOf(
        run(
          createBookingActivities({
            client: dead,
            airline: { code: 'ZZ', agencyIds: {}, codes: embeddedAirlineCodes() },
          }).createOrder,
          {
            ctx: ctx(),
            priced: {
              responseId: 'PR1',
              offerId: 'O1',
              owner: 'ZZ',
              total: { value: '1.00', currency: 'GBP' },
              offerItems: [],
              attempt: 1,
            },
            tokenId: 'T1',
            securePayment: oneWayIntent().securePayment,
          },
        ),
      );
      expect([failure.type, failure.nonRetryable]).toEqual(['AIRLINE_TRANSIENT', false]);
      expect(failure.message).toContain('cannot connect (ECONNREFUSED)');
    } finally {
      dead.close();
    }
  });
});
