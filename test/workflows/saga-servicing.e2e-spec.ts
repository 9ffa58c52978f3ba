/**
 * The order after the booking, end to end (issue 26): through the API and the production worker
 * (real activities, real NDC client) in this process on the jest Temporal dev server, against the
 * real embedded airline in a process of its own, started as `npm start` starts it (`npm run
 * airline` with its variables, servicing settings included: scripts/embedded-airlines.ts,
 * test/support/airline-process.ts), its faults armed over HTTP. Every amount is read from the
 * airline's own records of the order (its database, read-only from a still copy of its files) and
 * compared with what the booking shows. The same flows with mocked activities:
 * test/workflows/booking-servicing.e2e-spec.ts, test/api/servicing-api.e2e-spec.ts.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { embeddedAirlines, type SERVICING_VARIABLES } from '../../scripts/embedded-airlines';
import { freePort } from '../../scripts/temporal-dev-server';
import type { StoredOrder } from '../../src/airline/store/airline.store';
import type { ApiConfig } from '../../src/api/config/api.config';
import { API_CONFIG } from '../../src/api/common/api.tokens';
import { BOOKING_WORKFLOW } from '../../src/booking/booking.model';
import { add, percentOf, subtract } from '../../src/common/decimal';
import { createToken } from '../airline/airline-harness';
import { NdcClient, pricedOffer } from '../airline/ndc-client';
import { addDays, CREDIT_CARD, DEBIT_CARD, oneWayIntent } from '../api/intent.fixture';
import { call, pollUntil, startOrchestrator, waitForBooking, type OrchestratorStack } from '../api/stack';
import { startAirlineProcess, type AirlineProcess } from '../support/airline-process';

jest.setTimeout(180_000);

const GBP = (value: string) => ({ value, currency: 'GBP' });
/** The embedded airline's servicing card fee (profile `servicingCardFeePercent`, its default). */
const plusCardFee = (value: string) => add(2, value, percentOf(value, '2', 2));
/** The airline's servicing settings, as `npm start` passes them to it (docs/airline-service.md, "Servicing orders"). */
type Servicing = Record<(typeof SERVICING_VARIABLES)[number], string>;
const LONG: Servicing = {
  AIRLINE_HOLD_MS: '86400000',
  AIRLINE_PRICE_GUARANTEE_MS: '86400000',
  AIRLINE_CHANGE_OFFER_TTL_MS: '900000',
  AIRLINE_CHANGE_ACTION_MS: '172800000',
};

/** `YYYY-MM-DD`: the first date at least `days` from today that falls on `weekday` (0 Sunday). */
function dayOnOrAfter(days: number, weekday: number): string {
  const from = new Date(`${addDays(new Date(), days)}T00:00:00Z`);
  return addDays(from, (weekday - from.getUTCDay() + 7) % 7);
}

const TUESDAY = 2;
const FRIDAY = 5;

type Intent = ReturnType<typeof oneWayIntent>;

/** The worker and the API in this process, the airline in its own. */
interface Stack extends OrchestratorStack {
  airline: AirlineProcess;
}

/** The booking's id and path, and what the API and the airline say of it. */
class Booked {
  constructor(
    private readonly stack: Stack,
    readonly id: string,
  ) {}

  get path(): string {
    return `/bookings/${encodeURIComponent(this.id)}`;
  }

  async view(): Promise<any> {
    const r = await call(this.stack, 'GET', this.path);
    expect(r.status).toBe(200);
    return r.body;
  }

  /** The airline's record of the order. */
  async order(): Promise<StoredOrder> {
    const view = await this.view();
    const stored = this.stack.airline.store((store) => store.getOrder(view.order.orderId));
    expect(stored).toBeDefined();
    return stored!;
  }

  /** Polls the view until the booking's status is `status` (HELD and CONFIRMED are not final here). */
  reaches(status: string): Promise<any> {
    return pollUntil(`${this.id} to reach ${status}`, async () => {
      const view = await this.view();
      return view.status === status ? view : undefined;
    });
  }

  post(route: string, body?: unknown, headers?: Record<string, string>) {
    return call(this.stack, 'POST', `${this.path}/${route}`, body, headers);
  }

  get(route: string) {
    return call(this.stack, 'GET', `${this.path}/${route}`);
  }
}

/** The last charge the airline took for the order. */
function lastCharge(order: StoredOrder) {
  const charges = order.content!.charges;
  return charges[charges.length - 1]!.amount;
}

/** The ids of the items `after` has that `before` had not. */
function addedItems(before: StoredOrder, after: StoredOrder): string[] {
  const had = new Set(before.content!.items.map((i) => i.offerItemId));
  return after.content!.items.map((i) => i.offerItemId).filter((id) => !had.has(id));
}

/** The total of the order's items without the card surcharge items (what a reprice prices). */
function fareTotal(order: StoredOrder): string {
  return add(
    2,
    '0',
    ...order.content!.items.filter((i) => !i.offerItemId.includes('CCF2')).map((i) => i.priceDetail.total.value),
  );
}

/** `value` as a hold: `payment: { hold: true }`, no card. */
function held(value: Intent) {
  const { card: _card, ...rest } = value.payment;
  return { ...value, payment: { ...rest, hold: true } };
}

/** The offers of `change-offers` for `body`. */
async function changeOffers(booking: Booked, body: object): Promise<any[]> {
  const offers = await booking.post('change-offers', body);
  expect(offers.status).toBe(200);
  return offers.body.offers;
}

/**
 * The embedded airline ZZ of `npm start` with `servicing` (its database in a folder of its own), once
 * it answers; then the worker and the API against it. `close` stops them, then the airline.
 */
async function startServicingStack(prefix: string, servicing: Servicing, airlineTimeoutMs = 20_000): Promise<Stack> {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  // ZZ alone is started (YY's port is never listened on).
  const ports = { zz: await freePort(), yy: 0, zzMetrics: 'off', yyMetrics: 'off' };
  const zz = embeddedAirlines(ports, dir, servicing).find((embedded) => embedded.code === 'ZZ')!;
  const airline = await startAirlineProcess(zz, dir, { AIRLINE_DB_PATH: path.join(dir, 'airline-zz.db') });
  const stop = async (): Promise<void> => {
    await airline.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const orchestrator = await startOrchestrator({ prefix, airlineTimeoutMs }, airline);
    return {
      ...orchestrator,
      airline,
      async close() {
        await orchestrator.close().finally(stop);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

describe('servicing against the real airline (API, worker, airline)', () => {
  let stack: Stack;
  let sequence = 0;

  beforeAll(async () => {
    // A short airline timeout: an OrderChange whose answer the airline withholds is given up soon.
    stack = await startServicingStack('saga-servicing', { ...LONG, AIRLINE_PRICE_GUARANTEE_MS: '1000' }, 8000);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  afterEach(async () => {
    await stack.airline.clearFaults();
  });

  /** A one-way LGW-OSL intent of AGENCY1 on a date of its own (no two bookings share a flight). */
  function intent(options: { card?: string; weekday?: number } = {}): Intent {
    sequence += 1;
    const value = oneWayIntent({ card: options.card ?? CREDIT_CARD });
    value.journey.departureDate = dayOnOrAfter(14 + sequence * 7, options.weekday ?? TUESDAY);
    return value;
  }

  async function book(value: object, status: string): Promise<Booked> {
    const accepted = await call(stack, 'POST', '/bookings', value);
    expect(accepted.status).toBe(202);
    await waitForBooking(stack, accepted.body.id, status);
    return new Booked(stack, accepted.body.id);
  }

  /** Waits until the held booking's price guarantee has passed (the airline's word, from the view). */
  async function guaranteeLapsed(booking: Booked): Promise<void> {
    const until = Date.parse((await booking.view()).payment.priceGuaranteedUntil);
    await pollUntil('the price guarantee to lapse', async () => (Date.now() > until + 50 ? true : undefined));
  }

  /**
   * Sells every seat left in the order's booking class on its first flight (LGW-OSL) to another
   * agency, over NDC (AirShopping, OfferPrice, OrderCreate): the cheapest class with seats for all.
   */
  async function sellOutClassOf(order: StoredOrder): Promise<void> {
    const { inventoryKey, rbd } = order.content!.segments[0]!;
    const capacity = { O: 4, N: 8 }[rbd as 'O' | 'N'];
    const left = capacity - stack.airline.store((store) => store.sold(inventoryKey, rbd));
    const passengers = Array.from({ length: left }, (_, i) => ({ passengerId: `PAX__ADT0${i + 1}`, ptc: 'ADT' }));
    const ndc = new NdcClient(stack.airlineUrl);
    const date = inventoryKey.slice(inventoryKey.indexOf('/') + 1);
    const { priced } = await pricedOffer(ndc, { from: 'LGW', to: 'OSL', date, passengers, agencyId: 'AGENCY2' });
    const sold = await ndc.orderCreate(priced, await createToken(stack.airlineUrl, DEBIT_CARD), passengers, 'AGENCY2');
    expect([sold.kind, stack.airline.store((store) => store.sold(inventoryKey, rbd))]).toEqual(['success', capacity]);
  }

  it('hold, then pay after the price guarantee (no price change): CONFIRMED, the price plus the 2 % card fee (a debit card: none)', async () => {
    for (const [card, fee] of [
      [CREDIT_CARD, true],
      [DEBIT_CARD, false],
    ] as const) {
      const value = intent({ card });
      const booking = await book(held(value), 'HELD');
      const before = await booking.order();
      const view = await booking.view();
      expect([before.status, before.version, before.content!.charges]).toEqual(['held', 1, []]);
      expect(view.payment).toEqual({
        status: 'due',
        amount: before.view.orders[0]!.totalOrderPrice,
        dueBy: before.paymentDueAt,
        priceGuaranteedUntil: before.content!.hold!.priceGuaranteedUntil,
      });
      await guaranteeLapsed(booking);
      const price = view.payment.amount.value;
      const due = fee ? plusCardFee(price) : price;
      const paid = await booking.post('payment', { card: value.payment.card });
      expect([paid.status, paid.body.status, paid.body.payment.status]).toEqual([200, 'CONFIRMED', 'paid']);
      expect(paid.text).not.toContain(card);
      const after = await booking.order();
      expect([after.status, after.version, fareTotal(after), lastCharge(after)]).toEqual(['live', 2, price, GBP(due)]);
      // The order's total now has the surcharge item: what was paid.
      expect([paid.body.payment.amount, after.view.orders[0]!.totalOrderPrice]).toEqual([GBP(due), GBP(due)]);
      expect(paid.body.changes).toEqual([
        { at: expect.any(String), kind: 'payment', difference: GBP(due), total: paid.body.order.total },
      ]);
    }
  });

  it('pay after the price guarantee at a higher price: waits for approval, then pays the price now', async () => {
    const value = intent();
    const booking = await book(held(value), 'HELD');
    const before = await booking.order();
    await sellOutClassOf(before);
    await guaranteeLapsed(booking);
    const paying = booking.post('payment', { card: value.payment.card }, { 'idempotency-key': 'pay-repriced' });
    const waiting = await booking.reaches('AWAITING_APPROVAL');
    // The price now, as the airline repriced it: what the person approves.
    const now = waiting.servicing.amount.value;
    expect(Number(now)).toBeGreaterThan(Number(fareTotal(before)));
    expect((await booking.post('approve-price')).status).toBe(202);
    let paid = await paying;
    if (paid.status === 202)
      paid = await booking.post('payment', { card: value.payment.card }, { 'idempotency-key': 'pay-repriced' });
    expect([paid.status, paid.body.status, paid.body.payment.status]).toEqual([200, 'CONFIRMED', 'paid']);
    const after = await booking.order();
    expect([fareTotal(after), after.version, after.content!.segments[0]!.rbd, lastCharge(after)]).toEqual([
      now,
      2,
      'N',
      GBP(plusCardFee(now)),
    ]);
    expect(paid.body.changes).toEqual([
      { at: expect.any(String), kind: 'payment', difference: GBP(plusCardFee(now)), total: paid.body.order.total },
    ]);
  });

  it('changes the trip to another date with a charge: the difference plus the card fee charged, the new flight sold', async () => {
    const value = intent();
    const booking = await book(value, 'CONFIRMED');
    const before = await booking.order();
    const date = addDays(new Date(`${value.journey.departureDate}T00:00:00Z`), 3);
    const { flights } = await booking.view();
    const offers = await changeOffers(booking, { journey: { departureDate: date }, priceClass: 'ECONOMY' });
    // Economy O, Tuesday (46.55 + 13.00 tax) to Friday (56.35 + 13.00): 9.80 more and the 46.55 fee
    // (50.00, at most the base fare); docs/airline-world.md, "Changes".
    expect(offers).toEqual([
      expect.objectContaining({
        priceClass: 'ECONOMY',
        total: GBP('69.35'),
        difference: GBP('56.35'),
        penalty: GBP('46.55'),
      }),
    ]);
    const offer = offers[0];
    const changed = await booking.post('changes', { offerId: offer.id, payment: { card: value.payment.card } });
    expect([changed.status, changed.body.status, changed.body.flights]).toEqual([200, 'CONFIRMED', offer.flights]);
    const after = await booking.order();
    expect([after.version, after.content!.journeys.length, lastCharge(after)]).toEqual([
      before.version + 1,
      1,
      GBP(plusCardFee(offer.difference.value)),
    ]);
    expect(after.content!.segments.map((s) => s.inventoryKey)).toEqual([`ZZ101/${date}`]);
    expect(fareTotal(after)).toBe(offer.total.value);
    expect(changed.body.changes).toEqual([
      {
        at: expect.any(String),
        kind: 'trip',
        from: flights,
        to: offer.flights,
        // What the card was charged, as the airline's record says.
        difference: GBP(plusCardFee(offer.difference.value)),
        penalty: offer.penalty,
        total: changed.body.order.total,
      },
    ]);
  });

  it('a change that refunds: Flex, Friday to Tuesday, the fare difference given back, no card needed', async () => {
    const value = { ...intent({ weekday: FRIDAY }), selection: { priceClass: 'FLEX' } };
    const booking = await book(value, 'CONFIRMED');
    const before = await booking.order();
    const date = addDays(new Date(`${value.journey.departureDate}T00:00:00Z`), 4);
    const offers = await changeOffers(booking, { journey: { departureDate: date }, priceClass: 'FLEX' });
    // Flex B, Friday (182.85 + 13.00) to Tuesday (151.05 + 13.00): 31.80 back, no fee.
    expect(offers).toEqual([
      expect.objectContaining({
        priceClass: 'FLEX',
        total: GBP('164.05'),
        difference: GBP('-31.80'),
        penalty: GBP('0.00'),
      }),
    ]);
    const changed = await booking.post('changes', { offerId: offers[0].id });
    expect([changed.status, changed.body.status, changed.body.flights]).toEqual([200, 'CONFIRMED', offers[0].flights]);
    const after = await booking.order();
    expect([after.version, after.content!.charges, after.content!.paid, fareTotal(after)]).toEqual([
      before.version + 1,
      before.content!.charges,
      GBP(subtract(before.content!.paid.value, '31.80', 2)),
      '164.05',
    ]);
    expect(changed.body.changes).toEqual([
      expect.objectContaining({ kind: 'trip', difference: GBP('-31.80'), penalty: GBP('0.00') }),
    ]);
  });

  it('an outbound-only change of a round trip keeps the return flight', async () => {
    const value = intent();
    value.journey.returnDate = addDays(new Date(`${value.journey.departureDate}T00:00:00Z`), 7);
    const booking = await book(value, 'CONFIRMED');
    const { flights } = await booking.view();
    expect(flights).toHaveLength(2);
    const date = addDays(new Date(`${value.journey.departureDate}T00:00:00Z`), 3);
    const [offer] = await changeOffers(booking, { journey: { departureDate: date }, priceClass: 'ECONOMY' });
    expect([offer.flights.length, offer.flights[0].departure.slice(0, 10)]).toEqual([1, date]);
    const changed = await booking.post('changes', { offerId: offer.id, payment: { card: value.payment.card } });
    expect([changed.status, changed.body.flights]).toEqual([200, [offer.flights[0], flights[1]]]);
    const after = await booking.order();
    expect(after.content!.segments.map((s) => s.inventoryKey).sort()).toEqual([
      `ZZ101/${date}`,
      `ZZ102/${value.journey.returnDate}`,
    ]);
    expect(lastCharge(after)).toEqual(GBP(plusCardFee(offer.difference.value)));
  });

  it('adds a bag and a seat after the sale: both on the order, their prices plus the card fee charged', async () => {
    const value = intent();
    const booking = await book(value, 'CONFIRMED');
    const before = await booking.order();
    const services = await booking.get('services');
    expect(services.status).toBe(200);
    const bag = services.body.services.find(
      (s: any) => s.code === 'YN1' && s.passenger === 0 && s.direction === 'outbound',
    );
    expect(bag).toEqual(expect.objectContaining({ currency: 'GBP', price: expect.stringMatching(/^\d+\.\d\d$/) }));
    const map = await booking.get('seat-map');
    expect(map.status).toBe(200);
    const seat = map.body.segments[0].seats.find((s: any) => s.available && s.price !== undefined);
    const added = await booking.post('services', {
      bags: [{ passenger: 0, code: 'YN1', direction: 'outbound' }],
      seats: [{ passenger: 0, seat: seat.seat }],
      payment: { card: value.payment.card },
    });
    expect([added.status, added.body.status]).toEqual([200, 'CONFIRMED']);
    const after = await booking.order();
    const sum = add(2, bag.price, seat.price);
    const { orderId } = after;
    expect([after.version, addedItems(before, after), lastCharge(after)]).toEqual([
      before.version + 1,
      [
        expect.stringMatching(/^ALC-YN1-ADT-FLT__ZZ101_\d{8}-PAX__ADT01$/),
        expect.stringMatching(new RegExp(`^ALC-${seat.zone}-ADT-SEG__ZZ101_\\d{8}-PAX__ADT01$`)),
        `${orderId}-CCF2-V2`,
      ],
      GBP(plusCardFee(sum)),
    ]);
    expect(after.content!.seats.map((s) => [s.seat, s.passengerId])).toEqual([[seat.seat, 'PAX__ADT01']]);
    expect(added.body.changes).toEqual([
      expect.objectContaining({ kind: 'services', difference: GBP(plusCardFee(sum)) }),
    ]);
    const taken = await booking.get('seat-map');
    expect(taken.body.segments[0].seats.find((s: any) => s.seat === seat.seat).available).toBe(false);
  });

  it('a refund quote, then the cancel refunds exactly the quote', async () => {
    const booking = await book(intent(), 'CONFIRMED');
    const before = await booking.order();
    const quote = await booking.post('cancel-quote', {});
    // Within the airline's 24 h void window: everything paid comes back, the card surcharge too.
    expect([quote.status, quote.body.refund, quote.body.penalty, quote.body.passengers]).toEqual([
      200,
      before.content!.paid,
      GBP('0.00'),
      [0],
    ]);
    expect((await booking.order()).version).toBe(before.version);
    const cancel = await booking.post('cancel');
    expect(cancel.status).toBe(202);
    const view = await waitForBooking(stack, booking.id, 'CANCELLED');
    const after = await booking.order();
    expect([after.cancellation?.refund, view.cancellation?.refund]).toEqual([quote.body.refund, quote.body.refund]);
  });

  it('removes one of two travellers: the other keeps flying, the refund is the quote', async () => {
    const value = intent();
    value.passengers.push({ ...value.passengers[0]!, givenName: 'Charles', surname: 'Babbage' });
    const booking = await book(value, 'CONFIRMED');
    const before = await booking.order();
    const quote = await booking.post('cancel-quote', { passengers: [1] });
    // Their own items (the shared card surcharge item stays with the order).
    const theirs = before.content!.items.filter((i) => i.offerItemId.endsWith('-PAX__ADT02'));
    expect([quote.status, quote.body.passengers, quote.body.refund]).toEqual([
      200,
      [1],
      GBP(add(2, '0', ...theirs.map((i) => i.priceDetail.total.value))),
    ]);
    const removed = await booking.post('cancel', { passengers: [1] });
    expect([removed.status, removed.body.status, removed.body.refund]).toEqual([200, 'CONFIRMED', quote.body.refund]);
    const after = await booking.order();
    expect([after.version, after.content!.passengers.map((p) => p.passengerId)]).toEqual([
      before.version + 1,
      ['PAX__ADT01'],
    ]);
    expect(after.content!.paid).toEqual(GBP(subtract(before.content!.paid.value, quote.body.refund.value, 2)));
    const order = await booking.get('order');
    expect([order.status, order.text.includes('PAX__ADT02'), order.text.includes('PAX__ADT01')]).toEqual([
      200,
      false,
      true,
    ]);
  });

  it('a lost OrderChange answer: one change at the airline; a second request meanwhile is refused BOOKING_BUSY', async () => {
    const value = intent();
    const booking = await book(value, 'CONFIRMED');
    const before = await booking.order();
    const services = await booking.get('services');
    const bag = services.body.services.find(
      (s: any) => s.code === 'YN1' && s.passenger === 0 && s.direction === 'outbound',
    );
    // The airline makes the change and withholds its answer until the client gives up (8 s).
    await stack.fault('OrderChange', 'commit-then-timeout', 1, 600_000);
    const body = {
      bags: [{ passenger: 0, code: 'YN1', direction: 'outbound' }],
      payment: { card: value.payment.card },
    };
    const adding = booking.post('services', body, { 'idempotency-key': 'lost-answer' });
    await pollUntil('the change to run', async () => {
      const view = await booking.view();
      return view.status === 'CHANGING' && view.servicing?.action === 'addServices' ? true : undefined;
    });
    const busy = await booking.post('change-offers', { journey: { departureDate: addDays(new Date(), 60) } });
    expect([busy.status, busy.body.code]).toEqual([409, 'BOOKING_BUSY']);
    let added = await adding;
    if (added.status === 202) added = await booking.post('services', body, { 'idempotency-key': 'lost-answer' });
    expect([added.status, added.body.status]).toEqual([200, 'CONFIRMED']);
    const after = await booking.order();
    expect([after.version, addedItems(before, after), after.content!.charges.length]).toEqual([
      before.version + 1,
      [expect.stringMatching(/^ALC-YN1-ADT-FLT__ZZ101_\d{8}-PAX__ADT01$/), `${after.orderId}-CCF2-V2`],
      before.content!.charges.length + 1,
    ]);
    expect(added.body.changes).toHaveLength(1);
    // The answer was lost (the client gave up), the order read back showed the change: not sent again.
    expect(
      added.body.steps.slice(-2).map((step: any) => [step.name, step.outcome, step.failure ?? step.reason]),
    ).toEqual([
      ['changeOrder', 'failed', 'ORDER_OUTCOME_UNKNOWN'],
      ['retrieveOrder', 'ok', 'change check 1'],
    ]);
    expect(lastCharge(after)).toEqual(GBP(plusCardFee(bag.price)));
  });

  it('continue-as-new keeps the booking serviceable: a change on the next run', async () => {
    const value = intent();
    const id = `booking:AGENCY1:saga-can-${stack.taskQueue}`;
    // Started as the API starts a booking, with a history limit no API setting gives (the minimum, 100).
    const config = stack.api.get<ApiConfig>(API_CONFIG);
    const handle = await stack.client.workflow.start(BOOKING_WORKFLOW, {
      workflowId: id,
      taskQueue: stack.taskQueue,
      args: [
        value,
        { ...config.workflowDefaults, servicing: { ...config.workflowDefaults.servicing, maxHistoryEvents: 100 } },
      ],
      searchAttributes: { BookingStatus: ['RUNNING'], AgencyId: ['AGENCY1'], Route: ['LGW-OSL'] },
    });
    const booking = new Booked(stack, id);
    await booking.reaches('CONFIRMED');
    const date = addDays(new Date(`${value.journey.departureDate}T00:00:00Z`), 3);
    // Each reshop adds events: the run continues as new past 100 (a real history, not a threshold of 10 000).
    for (let i = 0; i < 40 && (await handle.describe()).runId === handle.firstExecutionRunId; i += 1) {
      await changeOffers(booking, { journey: { departureDate: date }, priceClass: 'ECONOMY' });
    }
    expect((await handle.describe()).runId).not.toBe(handle.firstExecutionRunId);
    const offers = await changeOffers(booking, { journey: { departureDate: date }, priceClass: 'ECONOMY' });
    const changed = await booking.post('changes', { offerId: offers[0].id, payment: { card: value.payment.card } });
    expect([changed.status, changed.body.status, changed.body.flights]).toEqual([200, 'CONFIRMED', offers[0].flights]);
    expect((await booking.order()).version).toBe(2);
    await handle.terminate();
  });
});

describe('servicing against an airline with short holds and change offers', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startServicingStack('saga-servicing-short', {
      ...LONG,
      AIRLINE_HOLD_MS: '4000',
      AIRLINE_PRICE_GUARANTEE_MS: '1000',
      AIRLINE_CHANGE_OFFER_TTL_MS: '1000',
    });
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('a hold left unpaid: EXPIRED once the airline cancelled it, its seats back on sale', async () => {
    const value = oneWayIntent();
    value.journey.departureDate = dayOnOrAfter(20, TUESDAY);
    const sold = () => stack.airline.store((store) => store.sold(`ZZ101/${value.journey.departureDate}`, 'O'));
    const soldBefore = sold();
    const accepted = await call(stack, 'POST', '/bookings', held(value));
    const booking = new Booked(stack, accepted.body.id);
    const view = await booking.reaches('EXPIRED');
    const order = await booking.order();
    expect([order.status, order.version, view.payment.status]).toEqual(['expired', 2, 'expired']);
    expect(order.content!.segments).toEqual([
      { inventoryKey: `ZZ101/${value.journey.departureDate}`, rbd: 'O', seats: 1 },
    ]);
    expect(Date.parse(view.payment.dueBy)).toBeLessThanOrEqual(Date.now());
    expect(sold()).toBe(soldBefore);
  });

  it('an expired change offer is refused OFFER_EXPIRED and nothing changes', async () => {
    const value = oneWayIntent();
    value.journey.departureDate = dayOnOrAfter(27, TUESDAY);
    const accepted = await call(stack, 'POST', '/bookings', value);
    await waitForBooking(stack, accepted.body.id, 'CONFIRMED');
    const booking = new Booked(stack, accepted.body.id);
    const before = await booking.view();
    const date = addDays(new Date(`${value.journey.departureDate}T00:00:00Z`), 3);
    const [offer] = await changeOffers(booking, { journey: { departureDate: date } });
    await pollUntil('the offer to expire', async () =>
      Date.now() > Date.parse(offer.expiresAt) + 50 ? true : undefined,
    );
    const refused = await booking.post('changes', { offerId: offer.id, payment: { card: value.payment.card } });
    expect([refused.status, refused.body.code]).toEqual([409, 'OFFER_EXPIRED']);
    const after = await booking.view();
    expect([after.status, after.flights, after.changes, (await booking.order()).version]).toEqual([
      'CONFIRMED',
      before.flights,
      undefined,
      1,
    ]);
  });
});
