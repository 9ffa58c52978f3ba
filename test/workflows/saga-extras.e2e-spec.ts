/**
 * Extras through the whole saga: the booking worker (real activities, real NDC client) on the
 * jest Temporal dev server against the real airline service. Bags, seats picked by the rules for
 * a family, a seat lost to another transaction between the seat map and the pricing (281) and
 * picked again, the traveller's choice by update (a refused one first), no choice in time, the
 * price guard over the total with extras.
 */
import 'reflect-metadata';
import { ExtrasKey } from '../../src/temporal/search-attributes';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { AirlineStore } from '../../src/airline/store/airline.store';
import type { BookingExtras } from '../../src/booking/booking.extras';
import type { BookingIntent, BookingWorkflowOptions, IntentPassenger } from '../../src/booking/booking.model';
import { passengerIds } from '../../src/booking/intent-to-ndc';
import { seatMaps } from '../../src/booking/extras-from-ndc';
import {
  NdcHttpClient,
  type CustomerInputResponse,
  type OrderViewResponse,
  type SeatAvailabilitySuccess,
} from '../../src/ndc-client';
import type { OrderCreateRq } from '../../src/ndc/ndc.model';
import type { SeatAvailabilityRq } from '../../src/ndc/extras.model';
import { compare } from '../../src/common/decimal';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { approvePriceSignal, seatMapQuery, selectSeatsUpdate, stateQuery } from '../../workflows/definitions';
import { paxOf, pickSeats } from '../../workflows/booking/extras.decisions';
import { startSagaStack, type SagaStack } from './saga-stack';
import { inDays } from '../airline/ndc-client';
import { oneWayIntent, pollUntil, type Harness } from './booking.fixtures';

const FAMILY: IntentPassenger[] = [
  { type: 'ADT', title: 'MR', givenName: 'Ada', surname: 'Byron', birthdate: '1985-12-10', contactId: 'CTC1' },
  { type: 'ADT', title: 'MRS', givenName: 'Bea', surname: 'Byron', birthdate: '1986-02-01', contactId: 'CTC1' },
  { type: 'CHD', title: 'MISS', givenName: 'Cy', surname: 'Byron', birthdate: inDays(-8 * 365), contactId: 'CTC1' },
  { type: 'INF', title: 'MSTR', givenName: 'Dot', surname: 'Byron', birthdate: inDays(-300), contactId: 'CTC1' },
];

/**
 * The NDC client of the worker, which can play another agency: after the first seat map of a
 * booking it locks, for another transaction, the seats that booking will pick (so its pricing gets
 * warning 281 for them).
 */
class RacingClient extends NdcHttpClient {
  race?: { store: AirlineStore; passengers: IntentPassenger[]; done: boolean };

  /** Before the next OrderCreate: sells the first seat it orders to another order (the last-seat race). */
  steal?: { store: AirlineStore; done: boolean };

  override async orderCreate(rq: OrderCreateRq, options = {}): Promise<OrderViewResponse | CustomerInputResponse> {
    const steal = this.steal;
    if (steal !== undefined && !steal.done) {
      steal.done = true;
      const pricing = steal.store.getPricing(rq.offers[0]!.responseId)!;
      const seat = pricing.seats![0]!;
      steal.store.transaction(
        () =>
          steal.store.sellSeatsInTransaction([seat], 'TX-RIVAL', 'RIVAL-ORDER', '9999-12-31T00:00:00.000Z') ===
          undefined,
      );
    }
    return super.orderCreate(rq, options);
  }

  override async seatAvailability(rq: SeatAvailabilityRq, options = {}): Promise<SeatAvailabilitySuccess> {
    const rs = await super.seatAvailability(rq, options);
    const race = this.race;
    if (race !== undefined && !race.done) {
      race.done = true;
      const ids = passengerIds(race.passengers);
      const maps = seatMaps(rs, 0, 'GBP', (id) => race.passengers[ids.indexOf(id)]?.type);
      const pax = paxOf(race.passengers);
      const { picks } = pickSeats({ aLaCarteOfferId: '', owner: 'ZZ', responseId: '', segments: maps }, pax, {
        mode: 'auto',
        preference: 'window',
      });
      const key = `ZZ${rs.dataLists.flightSegments![0]!.marketingCarrier.flightNumber}/${rs.dataLists.flightSegments![0]!.departure.date}`;
      const now = new Date();
      race.store.lockSeats(
        picks.map((p) => ({ inventoryKey: key, seat: p.seat! })),
        'TX-RIVAL',
        now.toISOString(),
        new Date(now.getTime() + 600_000).toISOString(),
      );
    }
    return rs;
  }
}

describe('booking saga with extras against the real airline service', () => {
  let stack: SagaStack<RacingClient>;
  let harness: Harness;
  let client: RacingClient;
  let store: AirlineStore;
  let sequence = 0;

  beforeAll(async () => {
    stack = await startSagaStack('saga-extras', { client: (config) => new RacingClient(config) });
    ({ harness, client, store } = stack);
  }, 180_000);

  afterAll(async () => {
    await stack.close();
  });

  function intent(extras: BookingExtras, overrides: Parameters<typeof oneWayIntent>[0] = {}): BookingIntent {
    sequence += 1;
    return oneWayIntent({
      agency: { id: `AG-EXTRAS-${sequence}`, name: 'Extras Agency' },
      journey: { origin: 'LGW', destination: 'OSL', departureDate: inDays(30 + sequence) },
      passengers: FAMILY,
      extras,
      ...overrides,
    });
  }

  function start(value: BookingIntent, options?: BookingWorkflowOptions) {
    return harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-${sequence}`,
      args: options !== undefined ? [value, options] : [value],
    });
  }

  it('bags only: a first bag for an adult both ways is priced, ordered and shown; ops find it by Extras', async () => {
    const handle = await start(
      intent(
        { bags: [{ passenger: 0, code: 'YN1', direction: 'both' }] },
        { journey: { origin: 'LGW', destination: 'OSL', departureDate: inDays(31), returnDate: inDays(38) } },
      ),
    );
    const result = await handle.result();
    expect((await handle.describe()).typedSearchAttributes.get(ExtrasKey)).toBe('bags');
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    const extras = result.state.extras!;
    expect(extras.priced.map((p) => [p.code, p.passengerId, p.price?.value])).toStrictEqual([
      ['YN1', 'PAX__ADT01', '35.00'],
      ['YN1', 'PAX__ADT01', '35.00'],
    ]);
    expect(extras.total).toStrictEqual({ value: '70.00', currency: 'GBP' });
    expect(result.state.steps.map((s) => s.name)).toContain('serviceList');
    expect(result.orderViewXml).toContain('<ServiceDefinitionRef SegmentRef=');
    expect(result.state.order?.total).toStrictEqual(result.state.pricedTotal);
  });

  it('seats auto for a family: together, the lap holder out of the exit rows, one TransactionIdentifier', async () => {
    const result = await (
      await start(intent({ seats: { mode: 'auto', preference: 'window', together: true } }))
    ).result();
    expect(result.state.status).toBe('CONFIRMED');
    const seats = result.state.extras!.priced.filter((p) => p.seat !== undefined);
    expect(seats.map((s) => s.passengerId)).toStrictEqual(['PAX__ADT01', 'PAX__ADT02', 'PAX__CHD01']);
    const rows = new Set(seats.map((s) => s.seat!.replace(/[A-Z]$/, '')));
    expect(rows.size).toBe(1);
    const order = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)[0]!;
    const seatServices = order.view.orders[0]!.orderItems.flatMap((i) => i.services).filter((s) => s.selectedSeat);
    expect(seatServices.map((s) => `${s.selectedSeat!.row}${s.selectedSeat!.column}`)).toStrictEqual(
      seats.map((s) => s.seat),
    );
    const pricing = store.getPricing(order.pricingResponseId)!;
    expect(pricing.seatOwner).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a seat lost to another transaction between map and pricing (281) is picked again from a fresh map', async () => {
    client.race = { store, passengers: FAMILY, done: false };
    const result = await (await start(intent({ seats: { mode: 'auto', preference: 'window' } }))).result();
    client.race = undefined;
    expect(result.state.status).toBe('CONFIRMED');
    const extras = result.state.extras!;
    expect(extras.seatMapReads).toBe(2);
    expect(extras.notes.filter((n) => n.includes('(281)'))).toHaveLength(3);
    expect(result.state.steps.filter((s) => s.name === 'price').map((s) => s.reason)).toStrictEqual([
      undefined,
      'seat re-pick 1/2 after 281',
    ]);
    expect(extras.priced.filter((p) => p.seat !== undefined)).toHaveLength(3);
  });

  it("the traveller's choice by update: a taken seat is refused (the booking waits), a free one is priced", async () => {
    const value = intent({ seats: { mode: 'choose' } });
    // Another transaction holds 21A on this flight before the booking reads its seat map.
    const now = new Date();
    const inventoryKey = `ZZ101/${value.journey.departureDate}`;
    store.lockSeats(
      [{ inventoryKey, seat: '21A' }],
      'TX-RIVAL',
      now.toISOString(),
      new Date(now.getTime() + 600_000).toISOString(),
    );
    const handle = await start(value);
    await pollUntil(
      () => handle.query(stateQuery),
      (st) => st.status === 'AWAITING_SEAT_SELECTION',
      60_000,
    );
    const maps = (await handle.query(seatMapQuery))!;
    const seats = maps.segments[0]!.seats;
    expect(seats.find((s) => s.seat === '21A')!.available).toBe(false);
    const free = seats.filter((s) => s.available && !s.characteristics.includes('exit'));
    const refused = handle.executeUpdate(selectSeatsUpdate, { args: [[{ passenger: 0, seat: '21A' }]] });
    await expect(refused).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    await expect(refused).rejects.toMatchObject({ cause: { message: 'seats[0].seat: seat 21A on ZZ101 is taken' } });
    await expect(
      handle.executeUpdate(selectSeatsUpdate, { args: [[{ passenger: 3, seat: free[0]!.seat }]] }),
    ).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    expect((await handle.query(stateQuery)).status).toBe('AWAITING_SEAT_SELECTION');
    await handle.executeUpdate(selectSeatsUpdate, {
      args: [
        [
          { passenger: 0, seat: free[0]!.seat },
          { passenger: 2, seat: free[1]!.seat },
        ],
      ],
    });
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.extras!.priced.map((p) => p.seat)).toStrictEqual([free[0]!.seat, free[1]!.seat]);
  });

  it('a seat sold to another buyer just before the order: 711, the booking shops again and keeps its extras', async () => {
    client.steal = { store, done: false };
    const result = await (
      await start(intent({ bags: [{ passenger: 1, code: 'YN1', direction: 'outbound' }], seats: { mode: 'auto' } }))
    ).result();
    client.steal = undefined;
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    const createOrders = result.state.steps.filter((s) => s.name === 'createOrder');
    expect(createOrders.map((s) => s.outcome)).toStrictEqual(['failed', 'ok']);
    expect(result.state.steps.filter((s) => s.name === 'shop')).toHaveLength(2);
    const extras = result.state.extras!;
    expect(extras.priced.filter((p) => p.code === 'YN1').map((p) => p.passengerId)).toStrictEqual(['PAX__ADT02']);
    expect(extras.priced.filter((p) => p.seat !== undefined)).toHaveLength(3);
    const order = store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)[0]!;
    const sold = order.view.orders[0]!.orderItems.flatMap((i) => i.services).filter((s) => s.selectedSeat);
    expect(sold).toHaveLength(3);
  });

  it('no choice in time: goes on without seats and says so', async () => {
    const result = await (
      await start(intent({ seats: { mode: 'choose' } }), { seatSelectionTimeoutMs: 1500 })
    ).result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.extras!.priced).toStrictEqual([]);
    expect(result.state.extras!.notes).toStrictEqual(['going on without seats: no seats chosen within 1500 ms']);
  });

  it('the price guard covers the total with extras', async () => {
    const handle = await start(
      intent({ bags: [{ passenger: 0, code: 'BIKE', direction: 'outbound' }] }, { selection: { maxTotal: '1.00' } }),
    );
    await pollUntil(
      () => handle.query(stateQuery),
      (st) => st.status === 'AWAITING_APPROVAL',
      60_000,
    );
    const waiting = await handle.query(stateQuery);
    const bike = waiting.extras!.priced.find((p) => p.code === 'BIKE')!;
    expect(bike.price).toStrictEqual({ value: '60.00', currency: 'GBP' });
    // Approved; the token-bearing reprice adds the card fee, above the approved total: approve again.
    await handle.signal(approvePriceSignal);
    const again = await pollUntil(
      () => handle.query(stateQuery),
      (st) =>
        st.status === 'CONFIRMED' ||
        (st.status === 'AWAITING_APPROVAL' && st.steps.some((step) => step.name === 'repriceWithToken')),
      60_000,
    );
    if (again.status === 'AWAITING_APPROVAL') await handle.signal(approvePriceSignal);
    const result = await handle.result();
    expect(result.state.status).toBe('CONFIRMED');
    expect(compare(result.state.pricedTotal!.value, result.state.extras!.total!.value)).toBeGreaterThan(0);
  });
});
