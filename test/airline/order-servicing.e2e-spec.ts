/**
 * The order after the sale (docs/airline-service.md, "Servicing orders"): bags and seats added from
 * the order's ServiceList and seat maps; a passenger removed (the infant rule, the refund equal to
 * its quote); an OrderChangeRQ repeated after a lost answer changing the order once; 3-D Secure on
 * a change's payment; the refusals with their codes. Every answer is checked against the XSD.
 */
import { AirlineStore } from '../../src/airline/store/airline.store';
import {
  type CustomerInputRq,
  type Money,
  type OrderChangeRq,
  type OrderViewRs,
  decodeOrderViewRs,
  encodeCustomerInputRs,
  encodeOrderCancelRq,
  encodeOrderChangeRq,
  reshopSummary,
} from '../../src/ndc';
import {
  type RunningAirline,
  armFault,
  clearFaults,
  createToken,
  http,
  postOrderWithin,
  postXml,
  startAirline,
} from './airline-harness';
import { AGENCY, FAMILY, common, inDays } from './ndc-client';
import {
  type Booked,
  DEBIT,
  MovableClock,
  THREE_DS,
  ServicingClient,
  cardPayment,
  changeRq,
  outcome,
  reshopRq,
} from './servicing-client';

const HOURS = 3_600_000;
const money = (value: string): Money => ({ value, currency: 'GBP' });

describe('airline order servicing', () => {
  let airline: RunningAirline;
  let s: ServicingClient;
  let store: AirlineStore;
  const clock = new MovableClock();
  let day = 70;

  beforeAll(async () => {
    airline = await startAirline({}, { clock });
    s = new ServicingClient(airline.url);
    store = airline.app.get(AirlineStore);
  });

  afterEach(async () => {
    clock.offsetMs = 0;
    await clearFaults(airline.url);
  });

  afterAll(() => airline.close());

  /** An OrderChangeRQ adding the first bag (YN1) to the order's only adult, from its ServiceList. */
  async function addBag(booked: Booked, payments: OrderChangeRq['payments'], tx: string): Promise<OrderChangeRq> {
    const list = await s.serviceList(booked.orderId);
    if (list.kind !== 'success' || !list.aLaCarteOffer) throw new Error(JSON.stringify(list));
    expect([list.shoppingResponseId, list.aLaCarteOffer.offerId]).toEqual([booked.orderId, `ALC__${booked.orderId}`]);
    const bag = list.aLaCarteOffer.offerItems.find((i) => i.offerItemId.startsWith('ALC-YN1-ADT-'))!;
    expect(bag.unitPrice).toEqual(money('35.00'));
    const offer = { offerId: list.aLaCarteOffer.offerId, owner: 'ZZ', responseId: booked.orderId };
    const offerItems = [
      { offerItemId: bag.offerItemId, passengerRefs: ['PAX__ADT01'], aLaCarteSelection: { quantity: 1 } },
    ];
    return changeRq(booked.orderId, { acceptOffers: [{ ...offer, offerItems }], payments, tx });
  }

  /** The first free seat of zone 4 on the order's first segment, as an accepted à-la-carte offer. */
  async function seatChange(booked: Booked, token: string, tx: string): Promise<OrderChangeRq> {
    const { orderId } = booked;
    const maps = await s.seatMaps(booked.orderId);
    if (maps.kind !== 'success' || !maps.aLaCarteOffer) throw new Error(JSON.stringify(maps));
    const zone4 = maps.aLaCarteOffer.offerItems.find((i) => i.offerItemId.startsWith('ALC-XST_ZONE4-ADT-'))!;
    const row = maps.seatMaps[0]!.cabins[0]!.rows.find((r) =>
      r.seats.some((x) => x.status === 'F' && x.offerItemRefs.includes(zone4.offerItemId)),
    )!;
    const seat = row.seats.find((x) => x.status === 'F')!;
    const offerItems = [
      {
        offerItemId: zone4.offerItemId,
        passengerRefs: ['PAX__ADT01'],
        seatSelection: { row: row.number, column: seat.column },
      },
    ];
    return changeRq(orderId, {
      acceptOffers: [{ offerId: `ALC__${orderId}`, owner: 'ZZ', responseId: orderId, offerItems }],
      payments: cardPayment(token, money('6.00')),
      tx,
    });
  }

  it('a bag and a seat after the booking, each paid; a bag twice is refused (701), a seat taken since is sold out (711)', async () => {
    const booked = await s.book({ date: inDays(day++) });
    const token = await createToken(airline.url, DEBIT);
    const bagged = await s.changed(await addBag(booked, cardPayment(token, money('35.00')), 'TX-BAG'));
    if (bagged.kind !== 'success') throw new Error(JSON.stringify(bagged));
    const total = Number(booked.view.orders[0].totalOrderPrice!.value) + 35;
    expect(bagged.orders[0].totalOrderPrice).toEqual(money(total.toFixed(2)));
    expect(bagged.orders[0].orderItems.at(-1)?.services[0]).toMatchObject({
      passengerRef: 'PAX__ADT01',
      serviceDefinitionRef: 'SD__YN1',
    });
    expect(outcome(await s.changed(await addBag(booked, cardPayment(token, money('35.00')), 'TX-BAG-AGAIN')))).toBe(
      '701',
    );

    const seat = await seatChange(booked, token, 'TX-SEAT');
    const seated = await s.changed(seat);
    const chosen = seat.acceptOffers[0]!.offerItems[0]!.seatSelection!;
    expect(seated.kind === 'success' && seated.orders[0].orderItems.at(-1)?.services[0]?.selectedSeat).toMatchObject(
      chosen,
    );
    // Two more orders on the flight see the same free seat; the first to change takes it.
    const [first, second] = [await s.book({ date: inDays(day - 1) }), await s.book({ date: inDays(day - 1) })];
    const wins = await seatChange(first, token, 'TX-SEAT-FIRST');
    const loses = await seatChange(second, token, 'TX-SEAT-SECOND');
    expect(loses.acceptOffers[0]!.offerItems[0]!.seatSelection).toEqual(
      wins.acceptOffers[0]!.offerItems[0]!.seatSelection,
    );
    expect(outcome(await s.changed(wins))).toBe('success');
    expect(outcome(await s.changed(loses))).toBe('711');
  });

  it('one passenger removed: the refund of its quote, its seat back on sale; never an infant without an adult (776)', async () => {
    const booked = await s.book({ date: inDays(day++), passengers: FAMILY });
    clock.offsetMs = 48 * HOURS;
    const itemsOf = (pax: string) =>
      booked.view.orders[0].orderItems
        .filter((i) => i.services.every((x) => x.passengerRef === pax))
        .map((i) => i.orderItemId);
    const quote = await s.reshop(
      reshopRq(booked.orderId, { kind: 'servicing', deleteOrderItemIds: itemsOf('PAX__ADT02') }),
    );
    if (quote.kind !== 'success' || quote.result.kind !== 'offers') throw new Error(JSON.stringify(quote));
    // ECONOMY keeps the fare after the void window and refunds the taxes: the UK tax of 13.00.
    expect(reshopSummary(quote.result.offers[0]!, 'GBP')).toMatchObject({ difference: money('-13.00') });
    const [segment] = store.getOrder(booked.orderId)!.content!.segments;
    const sold = store.sold(segment!.inventoryKey, segment!.rbd);
    const removed = await s.changed(
      changeRq(booked.orderId, { deleteOrderItemIds: itemsOf('PAX__ADT02'), tx: 'TX-REMOVE' }),
    );
    if (removed.kind !== 'success') throw new Error(JSON.stringify(removed));
    expect(removed.dataLists.passengers?.map((p) => p.passengerId)).toEqual(['PAX__ADT01', 'PAX__CHD01', 'PAX__INF01']);
    expect(removed.orders[0].orderItems.flatMap((i) => i.services.map((x) => x.passengerRef))).not.toContain(
      'PAX__ADT02',
    );
    expect(removed.dataLists.penalties?.[0]).toMatchObject({
      penaltyId: 'PEN__REMOVE_V2',
      details: [{ type: 'Cancellation' }, { type: 'Refund', amount: money('13.00') }],
    });
    expect(store.sold(segment!.inventoryKey, segment!.rbd)).toBe(sold - 1);
    // The last adult holds the infant: removing it, or both of them and the child, is refused.
    expect(
      outcome(await s.changed(changeRq(booked.orderId, { deleteOrderItemIds: itemsOf('PAX__ADT01'), tx: 'TX-ADT' }))),
    ).toBe('776');
    const everyone = booked.view.orders[0].orderItems
      .map((i) => i.orderItemId)
      .filter((id) => !itemsOf('PAX__ADT02').includes(id));
    expect(outcome(await s.changed(changeRq(booked.orderId, { deleteOrderItemIds: everyone, tx: 'TX-ALL' })))).toBe(
      '776',
    );
    expect(outcome(await s.changed(changeRq(booked.orderId, { deleteOrderItemIds: ['NOPE'], tx: 'TX-NOPE' })))).toBe(
      '701',
    );
  });

  it('regression: an OrderChangeRQ whose answer was lost (commit-then-timeout), sent again, changes the order once', async () => {
    const booked = await s.book({ date: inDays(day++) });
    const token = await createToken(airline.url, DEBIT);
    const rq = await addBag(booked, cardPayment(token, money('35.00')), 'TX-LOST');
    expect((await armFault(airline.url, 'OrderChange', 'commit-then-timeout', 1, 60_000, AGENCY)).status).toBe(201);
    expect(await postOrderWithin(airline.url, encodeOrderChangeRq(rq), 300)).toBe('timed out');
    const again = await s.changed(rq);
    expect(outcome(again)).toBe('success');
    const order = store.getOrder(booked.orderId)!;
    expect([order.version, order.content!.charges.length, order.content!.items.length]).toEqual([2, 2, 2]);
    // The same TransactionIdentifier with other content is another request: refused.
    const other = { ...rq, payments: cardPayment(token, money('36.00')) };
    expect(outcome(await s.changed(other))).toBe('777');
  });

  it('a 3-D Secure card on a change: the challenge, no other change meanwhile (778), then the change once', async () => {
    const booked = await s.book({ date: inDays(day++) });
    const token = await createToken(airline.url, THREE_DS);
    const rq = {
      ...(await addBag(booked, cardPayment(token, money('35.70')), 'TX-3DS')),
      securePayment: { termUrl: 'https://agency.example/done', failUrl: 'https://agency.example/fail' },
    };
    const challenge = await s.change(rq);
    if (!('securePayments' in challenge)) throw new Error(JSON.stringify(challenge));
    expect(challenge.securePayments[0]?.amount).toEqual(money('35.70'));
    const debit = await createToken(airline.url, DEBIT);
    expect(outcome(await s.changed(await seatChange(booked, debit, 'TX-MEANWHILE')))).toBe('778');
    const paRes = await approve(challenge);
    const done = await customerInput(challenge, paRes);
    expect(done.kind === 'success' && done.orders[0].orderItems.length).toBe(3);
    // The same result again (its answer lost): the changed order, changed once.
    expect(await customerInput(challenge, paRes)).toEqual({ ...done, timeStamp: expect.any(String) });
    expect([store.getOrder(booked.orderId)!.version, store.getOrder(booked.orderId)!.content!.charges.length]).toEqual([
      2, 2,
    ]);
  });

  it("a cancelled order is not changed (770); another agency's order is not found (913)", async () => {
    const booked = await s.book({ date: inDays(day++) });
    const token = await createToken(airline.url, DEBIT);
    const theirs = await addBag(booked, cardPayment(token, money('35.00')), 'TX-THEIRS');
    expect(outcome(await s.changed({ ...theirs, party: { ...theirs.party, agencyId: 'AGENCY02' } }))).toBe('913');
    await postXml(
      airline.url,
      '/retail/orders',
      encodeOrderCancelRq({ ...common(AGENCY), order: { orderId: booked.orderId, owner: 'ZZ' } }),
    );
    expect(outcome(await s.changed({ ...theirs, transactionIdentifier: 'TX-AFTER-CANCEL' }))).toBe('770');
  });

  /** The cardholder approves on the issuer page: the signed result the browser brings back. */
  async function approve(ci: CustomerInputRq): Promise<string> {
    const page = await http(ci.securePayments[0]!.acsUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
    });
    return new URL(String(page.headers.location)).searchParams.get('PaRes')!;
  }

  /** The CustomerInputRS with the result `paRes` of challenge `ci`, answered. */
  async function customerInput(ci: CustomerInputRq, paRes: string): Promise<OrderViewRs> {
    const sp = ci.securePayments[0]!;
    const xml = encodeCustomerInputRs({
      target: 'Test',
      version: '17.2',
      transactionIdentifier: 'TX-CI',
      kind: 'success',
      securePayments: [
        { paRes, spmTxnReference: sp.spmTxnReference!, originalTransactionId: sp.originalTransactionId!, status: 'Y' },
      ],
    });
    return decodeOrderViewRs((await postXml(airline.url, '/retail/orders', xml)).text);
  }
});
