/**
 * Changing the flights of a paid order (docs/airline-service.md, "Servicing orders"; fees in
 * docs/airline-world.md, "Changes"): OrderReshopRQ change offers with a charge or a refund by fare
 * family, accepted by OrderChangeRQ (inventory moved, version up, penalty listed); expired,
 * unknown and stale offers; the refund quote, equal to what the cancel then gives; every binding.
 * Every answer is checked against the XSD of its root and its references.
 */
import { AirlineStore } from '../../src/airline/store/airline.store';
import { type Money, type NdcBinding, type OrderReshopRs, type ReshopOffer, reshopSummary } from '../../src/ndc';
import { decodeOrderCancelRs, encodeOrderCancelRq } from '../../src/ndc';
import { type RunningAirline, createToken, postXml, startAirline } from './airline-harness';
import { AGENCY, ONE_ADULT, cheapest, common, selectAll, withIndividuals } from './ndc-client';
import {
  type Booked,
  DEBIT,
  MovableClock,
  ServicingClient,
  acceptReshop,
  cardPayment,
  changeRq,
  nextWeekday,
  outcome,
  reshopRq,
} from './servicing-client';

const HOURS = 3_600_000;
const TUESDAY = 2;
const FRIDAY = 5;

describe('airline order changes', () => {
  let airline: RunningAirline;
  let s: ServicingClient;
  let store: AirlineStore;
  const clock = new MovableClock();
  let week = 8;

  beforeAll(async () => {
    airline = await startAirline({}, { clock });
    s = new ServicingClient(airline.url);
    store = airline.app.get(AirlineStore);
  });

  afterEach(() => {
    clock.offsetMs = 0;
  });

  afterAll(() => airline.close());

  /** One adult LGW-JFK in `priceClass` on a `from` weekday of a fresh week, and that week's `to` weekday. */
  async function bookJfk(priceClass: string, from: number, to: number): Promise<{ booked: Booked; newDate: string }> {
    const date = nextWeekday(7 * week++, from);
    const booked = await s.book({ from: 'LGW', to: 'JFK', date, priceClass });
    const newDate = nextWeekday(Date.parse(date) / 86_400_000 - Date.now() / 86_400_000 + 1, to);
    return { booked, newDate };
  }

  /** The change offers of moving `booked` to `date` in `priceClass`. */
  async function changeOffers(
    booked: Booked,
    date: string,
    priceClass?: string,
    binding?: NdcBinding,
  ): Promise<OrderReshopRs> {
    const items = booked.view.orders[0].orderItems.map((i) => i.orderItemId);
    return s.reshop(
      reshopRq(booked.orderId, {
        kind: 'servicing',
        add: {
          flightQuery: { kind: 'day', originDestinations: [{ departureCode: 'LGW', arrivalCode: 'JFK', date }] },
          ...(priceClass ? { priceClass } : {}),
        },
        deleteOrderItemIds: items,
      }),
      binding,
    );
  }

  /** The offer of `rs` in price class `code` on the direct flight. */
  function offerIn(rs: OrderReshopRs, code: string): ReshopOffer {
    if (rs.kind !== 'success' || rs.result.kind !== 'offers') throw new Error(JSON.stringify(rs));
    const offer = rs.result.offers.find((o) => o.flightsOverview[0]?.priceClassRef === `PC__${code}`);
    if (!offer) throw new Error(`no ${code} offer`);
    return offer;
  }

  const money = (value: string): Money => ({ value, currency: 'GBP' });

  it('a dearer date: the new price, the difference and the ECONOMY fee (50.00) to pay; accepted, the flights and seats move', async () => {
    const { booked, newDate } = await bookJfk('ECONOMY', TUESDAY, FRIDAY);
    const rs = await changeOffers(booked, newDate, 'ECONOMY');
    const offer = offerIn(rs, 'ECONOMY');
    // Tuesday O: 229 x 0.95 + 13.00 UK tax = 230.55; Friday O: 229 x 1.15 + 13.00 = 276.35.
    expect([offer.totalPrice, reshopSummary(offer, 'GBP')]).toEqual([
      money('276.35'),
      { difference: money('95.80'), penalty: money('50.00'), original: money('230.55'), newPrice: money('276.35') },
    ]);
    expect(Date.parse(offer.expiresAt!) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(offer.addItems[0]?.replacesOrderItemIds).toEqual([booked.view.orders[0].orderItems[0]!.orderItemId]);
    const oldKey = store.getOrder(booked.orderId)!.content!.segments[0]!.inventoryKey;
    const token = await createToken(airline.url, DEBIT);
    const accept = changeRq(booked.orderId, {
      acceptOffers: [acceptReshop(offer, rs.kind === 'success' ? rs.reshopResponseId! : '')],
      payments: cardPayment(token, money('95.80')),
      tx: 'TX-CHANGE-DEAR',
    });
    const changed = await s.changed(accept);
    if (changed.kind !== 'success') throw new Error(JSON.stringify(changed));
    const order = changed.orders[0];
    expect([order.totalOrderPrice, changed.dataLists.flightSegments?.map((f) => f.departure.date)]).toEqual([
      money('276.35'),
      [newDate],
    ]);
    expect(changed.dataLists.penalties?.[0]).toMatchObject({
      penaltyId: 'PEN__CHANGE_V2',
      changeFee: true,
      details: [
        { type: 'Change', amount: money('50.00') },
        { type: 'Refund', amount: money('0.00') },
      ],
    });
    const newKey = store.getOrder(booked.orderId)!.content!.segments[0]!.inventoryKey;
    expect([store.sold(oldKey, 'O'), store.sold(newKey, 'O'), await s.version(booked.orderId)]).toEqual([0, 1, 2]);
    expect(store.getOrder(booked.orderId)!.content!.paid).toEqual(money('326.35'));
  });

  it('a cheaper date in PLUS: the difference less the fee (25.00) refunded; in FLEX all of it; in ECONOMY the fee still costs', async () => {
    const plus = await bookJfk('PLUS', FRIDAY, TUESDAY);
    const rs = await changeOffers(plus.booked, plus.newDate, 'PLUS');
    const offer = offerIn(rs, 'PLUS');
    // Friday K: 329 x 1.15 + 13.00 = 391.35; Tuesday K: 329 x 0.95 + 13.00 = 325.55.
    expect(reshopSummary(offer, 'GBP')).toMatchObject({ difference: money('-40.80'), penalty: money('25.00') });
    const responseId = rs.kind === 'success' ? rs.reshopResponseId! : '';
    const refunded = await s.changed(
      changeRq(plus.booked.orderId, { acceptOffers: [acceptReshop(offer, responseId)] }),
    );
    if (refunded.kind !== 'success') throw new Error(JSON.stringify(refunded));
    expect(refunded.dataLists.penalties?.[0]?.details).toEqual([
      { type: 'Change', amount: money('25.00') },
      { type: 'Refund', amount: money('40.80') },
    ]);
    expect(store.getOrder(plus.booked.orderId)!.content!.paid).toEqual(money('350.55'));

    const flex = await bookJfk('FLEX', FRIDAY, TUESDAY);
    // Friday B: 699 x 1.15 + 13.00 = 816.85; Tuesday B: 699 x 0.95 + 13.00 = 677.05.
    expect(reshopSummary(offerIn(await changeOffers(flex.booked, flex.newDate, 'FLEX'), 'FLEX'), 'GBP')).toMatchObject({
      difference: money('-139.80'),
      penalty: money('0.00'),
    });
    const economy = await bookJfk('ECONOMY', FRIDAY, TUESDAY);
    // 230.55 + 50.00 fee - 276.35: even a cheaper ECONOMY date costs the fee's rest, and never refunds.
    expect(
      reshopSummary(offerIn(await changeOffers(economy.booked, economy.newDate, 'ECONOMY'), 'ECONOMY'), 'GBP'),
    ).toMatchObject({
      difference: money('4.20'),
      penalty: money('50.00'),
    });
  });

  it('refused acceptances: an expired offer (727), an unknown one (726), a stale one (775), the wrong payment (742)', async () => {
    const { booked, newDate } = await bookJfk('ECONOMY', TUESDAY, FRIDAY);
    const first = await changeOffers(booked, newDate, 'ECONOMY');
    const second = await changeOffers(booked, newDate, 'ECONOMY');
    const idOf = (rs: OrderReshopRs) => (rs.kind === 'success' ? rs.reshopResponseId! : '');
    const token = await createToken(airline.url, DEBIT);
    const accept = (rs: OrderReshopRs, tx: string, amount = '95.80', responseId = idOf(rs)) =>
      s.changed(
        changeRq(booked.orderId, {
          acceptOffers: [acceptReshop(offerIn(rs, 'ECONOMY'), responseId)],
          payments: cardPayment(token, money(amount)),
          tx,
        }),
      );
    expect(outcome(await accept(first, 'TX-UNKNOWN', '95.80', 'RR-NOT-A-RESPONSE'))).toBe('726');
    expect(outcome(await accept(first, 'TX-SHORT', '90.00'))).toBe('742');
    clock.offsetMs = 16 * 60_000;
    expect(outcome(await accept(first, 'TX-LATE'))).toBe('727');
    clock.offsetMs = 0;
    expect(outcome(await accept(first, 'TX-FIRST'))).toBe('success');
    expect(outcome(await accept(second, 'TX-SECOND'))).toBe('775');
    // A payment alone of a paid order: nothing to pay.
    const nothing = await s.changed(
      changeRq(booked.orderId, { payments: cardPayment(token, money('1.00')), tx: 'TX-NOTHING' }),
    );
    expect(outcome(nothing)).toBe('774');
  });

  it('a refund quote changes nothing, and the cancel then refunds exactly the quote (after the void window)', async () => {
    const { booked } = await bookJfk('PLUS', TUESDAY, FRIDAY);
    clock.offsetMs = 48 * HOURS;
    const items = booked.view.orders[0].orderItems.map((i) => i.orderItemId);
    const quote = await s.reshop(reshopRq(booked.orderId, { kind: 'servicing', deleteOrderItemIds: items }));
    if (quote.kind !== 'success' || quote.result.kind !== 'offers') throw new Error(JSON.stringify(quote));
    const offer = quote.result.offers[0]!;
    // PLUS: a 40.00 fee per passenger and journey: 325.55 paid, 285.55 back.
    expect(reshopSummary(offer, 'GBP')).toMatchObject({ difference: money('-285.55'), penalty: money('40.00') });
    expect(store.getOrder(booked.orderId)?.status).toBe('live');
    const res = await postXml(
      airline.url,
      '/retail/orders',
      encodeOrderCancelRq({ ...common(AGENCY), order: { orderId: booked.orderId, owner: 'ZZ' } }),
    );
    const cancelled = decodeOrderCancelRs(res.text);
    expect(cancelled.kind === 'success' && cancelled.cancellations[0]).toMatchObject({
      refund: money('285.55'),
      cancellationFee: money('40.00'),
    });
    // A cancelled order is not reshopped or changed.
    expect(outcome(await s.reshop(reshopRq(booked.orderId, { kind: 'servicing', deleteOrderItemIds: items })))).toBe(
      '770',
    );
  });

  it('within the void window the quote is everything, valid until the window ends at the latest', async () => {
    const { booked } = await bookJfk('ECONOMY', TUESDAY, FRIDAY);
    clock.offsetMs = 24 * HOURS - 5 * 60_000;
    const items = booked.view.orders[0].orderItems.map((i) => i.orderItemId);
    const quote = await s.reshop(reshopRq(booked.orderId, { kind: 'servicing', deleteOrderItemIds: items }));
    if (quote.kind !== 'success' || quote.result.kind !== 'offers') throw new Error(JSON.stringify(quote));
    const offer = quote.result.offers[0]!;
    expect(reshopSummary(offer, 'GBP')).toMatchObject({ difference: money('-230.55'), penalty: money('0.00') });
    expect(Date.parse(offer.expiresAt!)).toBe(Date.parse(store.getOrder(booked.orderId)!.createdAt) + 24 * HOURS);
  });

  it("another agency's order is not found (913); a reshop for another route is refused (701)", async () => {
    const { booked, newDate } = await bookJfk('ECONOMY', TUESDAY, FRIDAY);
    const theirs = await s.reshop(
      reshopRq(booked.orderId, { kind: 'reprice', orderItemIds: [] }, { agencyId: 'AGENCY02' }),
    );
    expect(outcome(theirs)).toBe('913');
    const elsewhere = await s.reshop(
      reshopRq(booked.orderId, {
        kind: 'servicing',
        add: {
          flightQuery: {
            kind: 'day',
            originDestinations: [{ departureCode: 'LGW', arrivalCode: 'OSL', date: newDate }],
          },
        },
        deleteOrderItemIds: booked.view.orders[0].orderItems.map((i) => i.orderItemId),
      }),
    );
    expect(outcome(elsewhere)).toBe('701');
  });

  it('a round trip changes one direction: Delete names only its flight items (the return named too: 701)', async () => {
    const [out, back] = [nextWeekday(7 * week++, TUESDAY), nextWeekday(7 * week - 3, FRIDAY)];
    const legs = [
      { from: 'LGW', to: 'OSL', date: out },
      { from: 'OSL', to: 'LGW', date: back },
    ];
    const rs = await s.c.day(legs, ONE_ADULT);
    const priced = await s.c.price(
      [selectAll(rs, cheapest(rs, 'OD__LGW_OSL')), selectAll(rs, cheapest(rs, 'OD__OSL_LGW'))],
      withIndividuals(ONE_ADULT, false),
    );
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const token = await createToken(airline.url, DEBIT);
    const view = await s.c.orderCreate(priced, token, ONE_ADULT);
    if (view.kind !== 'success') throw new Error(JSON.stringify(view));
    const [outbound, ret] = view.orders[0].orderItems.map((i) => i.orderItemId);
    const reshop = (deleteOrderItemIds: string[]) =>
      s.reshop(
        reshopRq(view.orders[0].orderId, {
          kind: 'servicing',
          add: {
            flightQuery: {
              kind: 'day',
              originDestinations: [
                { departureCode: 'LGW', arrivalCode: 'OSL', date: nextWeekday(7 * week - 7, FRIDAY) },
              ],
            },
          },
          deleteOrderItemIds,
        }),
      );
    const both = await reshop([outbound!, ret!]);
    expect(both.kind === 'error' && both.errors[0]).toMatchObject({ code: '701', text: expect.stringContaining(ret!) });
    const offers = await reshop([outbound!]);
    if (offers.kind !== 'success' || offers.result.kind !== 'offers') throw new Error(JSON.stringify(offers));
    expect(offers.result.offers.every((o) => o.addItems.every((a) => a.replacesOrderItemIds?.[0] === outbound))).toBe(
      true,
    );
  });

  it.each<NdcBinding>(['soap11', 'soap12', 'ndcexchange'])(
    'in %s: change offers and their acceptance',
    async (binding) => {
      const { booked, newDate } = await bookJfk('ECONOMY', TUESDAY, FRIDAY);
      const rs = await changeOffers(booked, newDate, 'ECONOMY', binding);
      const offer = offerIn(rs, 'ECONOMY');
      const token = await createToken(airline.url, DEBIT);
      const accept = changeRq(booked.orderId, {
        acceptOffers: [acceptReshop(offer, rs.kind === 'success' ? rs.reshopResponseId! : '')],
        payments: cardPayment(token, money('95.80')),
        tx: `TX-${binding.toUpperCase()}`,
      });
      expect(outcome(await s.changed(accept, binding))).toBe('success');
    },
  );
});
