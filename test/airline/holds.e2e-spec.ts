/**
 * Holds (docs/airline-service.md, "Holds"): an OrderCreateRQ without Payments makes an unpaid
 * order with its time limits; an OrderChangeRQ with Payments pays it (the card surcharge and 3-D
 * Secure of OrderCreate); the price guarantee, the reprice and AcceptRepricedOrder; the agencies
 * that may not hold; the airline cancelling it unpaid at its payment time limit, also across a
 * restart. Every answer is checked against the XSD of its root.
 */
import { AirlineStore } from '../../src/airline/store/airline.store';
import { add } from '../../src/common/decimal';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localInstant } from '../../src/airline/world/world.dates';
import {
  type CustomerInputRq,
  type Money,
  type OrderViewRs,
  decodeOrderViewRs,
  encodeCustomerInputRs,
  encodeOrderCreateRq,
  encodeOrderReshopRq,
  orderTimeLimits,
} from '../../src/ndc';
import { type RunningAirline, createToken, eventually, http, postXml, startAirline } from './airline-harness';
import { ONE_ADULT, cheapest, inDays, selectAll, withIndividuals } from './ndc-client';
import {
  CREDIT,
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

/** The order of a successful OrderViewRS. */
function orderOf(rs: OrderViewRs | CustomerInputRq) {
  if ('securePayments' in rs || rs.kind !== 'success') throw new Error(`not an order: ${JSON.stringify(rs)}`);
  return rs.orders[0];
}

describe('airline holds', () => {
  let airline: RunningAirline;
  let s: ServicingClient;
  let store: AirlineStore;
  const clock = new MovableClock();

  beforeAll(async () => {
    airline = await startAirline(
      {
        servicing: {
          holdMs: 24 * HOURS,
          priceGuaranteeMs: HOURS,
          changeOfferTtlMs: 900_000,
          holdDeniedAgencies: ['AGENCY09'],
          changeActionMs: 172_800_000,
        },
      },
      { clock },
    );
    s = new ServicingClient(airline.url);
    store = airline.app.get(AirlineStore);
  });

  afterEach(() => {
    clock.offsetMs = 0;
  });

  afterAll(() => airline.close());

  it('a hold: unpaid order with seats sold, payment time limit and price guarantee, version 1', async () => {
    const before = Date.now();
    const held = await s.book({ date: inDays(40), card: 'hold' });
    const order = held.view.orders[0];
    expect([order.statusCode, order.payments, await s.version(held.orderId)]).toEqual(['OK', [], 1]);
    const limits = orderTimeLimits(order);
    expect(Date.parse(limits.paymentDue!) - before).toBeGreaterThanOrEqual(24 * HOURS);
    expect(Date.parse(limits.priceGuaranteedUntil!) - Date.parse(limits.paymentDue!)).toBe(-23 * HOURS);
    expect(order.orderItems.every((i) => i.paymentTimeLimit === limits.paymentDue)).toBe(true);
    expect(store.getOrder(held.orderId)).toMatchObject({ status: 'held', version: 1, paymentDueAt: limits.paymentDue });
  });

  it('paid with a debit card: the total, once; the order is live at version 2 without time limits', async () => {
    const held = await s.book({ date: inDays(41), card: 'hold' });
    const total = held.view.orders[0].totalOrderPrice! as Money;
    const token = await createToken(airline.url, DEBIT);
    const pay = changeRq(held.orderId, { payments: cardPayment(token, total), tx: 'TX-PAY-DEBIT' });
    const paid = orderOf(await s.changed(pay));
    expect([paid.statusCode, paid.totalOrderPrice, paid.paymentTimeLimit]).toEqual(['OK', total, undefined]);
    expect(paid.payments).toEqual([{ type: 'CC', amount: total, voucherNumber: token }]);
    expect(paid.orderItems.every((i) => i.paymentTimeLimit === undefined)).toBe(true);
    expect([store.getOrder(held.orderId)?.status, await s.version(held.orderId)]).toEqual(['live', 2]);
    // The same request again (its answer lost): the same order, paid once.
    expect(orderOf(await s.changed(pay))).toEqual(paid);
    expect([store.getOrder(held.orderId)?.version, store.getOrder(held.orderId)?.content?.charges.length]).toEqual([
      2, 1,
    ]);
    // Paid: a second payment or a reprice is refused.
    const again = changeRq(held.orderId, { payments: cardPayment(token, total), tx: 'TX-PAY-AGAIN' });
    expect(outcome(await s.changed(again))).toBe('774');
    expect(outcome(await s.reshop(reshopRq(held.orderId, { kind: 'reprice', orderItemIds: [] })))).toBe('774');
  });

  it('paid with a credit card: the total plus the 2 % CCF2 surcharge, which becomes an order item', async () => {
    const held = await s.book({ date: inDays(42), card: 'hold' });
    const total = held.view.orders[0].totalOrderPrice! as Money;
    const token = await createToken(airline.url, CREDIT);
    const short = await s.changed(changeRq(held.orderId, { payments: cardPayment(token, total), tx: 'TX-PAY-SHORT' }));
    expect(outcome(short)).toBe('742');
    const surcharge = (Number(total.value) * 0.02).toFixed(2);
    const due = add(2, total.value, surcharge);
    expect(short.kind === 'error' && short.errors[0].text).toContain(
      `amount to pay ${due} GBP (${total.value} due and the ${surcharge} CCF2 surcharge`,
    );
    expect(store.getOrder(held.orderId)?.status).toBe('held');
    const paid = orderOf(
      await s.changed(changeRq(held.orderId, { payments: cardPayment(token, { value: due, currency: 'GBP' }) })),
    );
    expect(paid.totalOrderPrice).toEqual({ value: due, currency: 'GBP' });
    expect(paid.orderItems.at(-1)).toMatchObject({
      orderItemId: `${held.orderId}-CCF2-V2`,
      base: { value: surcharge, currency: 'GBP' },
      services: [{ passengerRef: 'PAX__ADT01', serviceDefinitionRef: 'SD__CCF2' }],
    });
  });

  it('the price now: NoPriceChangeInd while guaranteed; with a credit card named, the surcharge as a repriced item', async () => {
    const held = await s.book({ date: inDays(43), card: 'hold' });
    const total = held.view.orders[0].totalOrderPrice! as Money;
    const plain = await s.reshop(reshopRq(held.orderId, { kind: 'reprice', orderItemIds: [] }));
    expect(plain.kind === 'success' && plain.result).toEqual({ kind: 'noPriceChange', indicator: true });
    const withCard = await s.reshop(cardReprice(held.orderId, '411111'));
    if (withCard.kind !== 'success' || withCard.result.kind !== 'repriced') throw new Error(JSON.stringify(withCard));
    const items = withCard.result.offer.items;
    const surcharge = (Number(total.value) * 0.02).toFixed(2);
    expect(items.map((i) => [i.originalOrderItemId, i.priceDetail.total])).toEqual([
      [held.view.orders[0].orderItems[0].orderItemId, total],
      [`${held.orderId}-CCF2`, { value: surcharge, currency: 'GBP' }],
    ]);
    // A debit card's IIN: no surcharge, nothing changes.
    const debit = await s.reshop(cardReprice(held.orderId, '400005'));
    expect(debit.kind === 'success' && debit.result.kind).toBe('noPriceChange');
  });

  it('after the price guarantee the price is the one on sale now: 744 until AcceptRepricedOrder, then moved to that class', async () => {
    const date = inDays(44);
    const held = await s.book({ date, card: 'hold' });
    const total = held.view.orders[0].totalOrderPrice! as Money;
    for (let i = 0; i < 3; i++) await s.book({ date }); // the rest of booking class O
    const key = store.getOrder(held.orderId)!.content!.segments[0]!.inventoryKey;
    expect([store.sold(key, 'O'), store.sold(key, 'N')]).toEqual([4, 0]);
    clock.offsetMs = HOURS + 60_000;
    const reprice = await s.reshop(reshopRq(held.orderId, { kind: 'reprice', orderItemIds: [] }));
    if (reprice.kind !== 'success' || reprice.result.kind !== 'repriced') throw new Error(JSON.stringify(reprice));
    const now = reprice.result.offer.items[0]!;
    expect(now.fareDetails[0]!.fareComponents[0]!.rbd).toBe('N');
    expect(Number(now.priceDetail.total!.value)).toBeGreaterThan(Number(total.value));
    const token = await createToken(airline.url, DEBIT);
    const stale = await s.changed(changeRq(held.orderId, { payments: cardPayment(token, total), tx: 'TX-STALE' }));
    expect(outcome(stale)).toBe('744');
    expect(stale.kind === 'error' && stale.errors[0].text).toContain(`it is now ${now.priceDetail.total!.value} GBP`);
    const accept = changeRq(held.orderId, {
      acceptRepricedOrder: reprice.reshopResponseId!,
      payments: cardPayment(token, now.priceDetail.total!),
      tx: 'TX-ACCEPT',
    });
    const paid = orderOf(await s.changed(accept));
    expect([paid.totalOrderPrice, store.sold(key, 'O'), store.sold(key, 'N')]).toEqual([now.priceDetail.total, 3, 1]);
  });

  it('refused holds: an agency that may not hold, an offer priced with a card surcharge, a flight leaving within 2 hours', async () => {
    await expect(s.book({ date: inDays(45), card: 'hold', agencyId: 'AGENCY09' })).rejects.toThrow('"code":"753"');
    const token = await createToken(airline.url, CREDIT);
    const rs = await s.c.day(
      [{ from: 'LGW', to: 'OSL', date: inDays(45) }],
      [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }],
    );
    const priced = await s.c.price([selectAll(rs, cheapest(rs, 'OD__LGW_OSL'))], withIndividuals(ONE_ADULT, false), {
      token,
    });
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const surcharged = await s.c.orderXml(
      encodeOrderCreateRq({ ...s.c.orderCreateModel(priced, token, ONE_ADULT), payments: [] }),
    );
    expect(outcome(surcharged)).toBe('753');
    // ZZ101 leaves Gatwick at 07:00 London time: at 05:30 it cannot be held any more.
    const day = inDays(2);
    clock.offsetMs = localInstant(day, '05:30', 'Europe/London').getTime() - Date.now();
    await expect(s.book({ date: day, card: 'hold' })).rejects.toThrow(/within 2 hours.*"code":"753"/);
  });

  it('held orders are not changed: change offers and extras wait for the payment (773)', async () => {
    const held = await s.book({ date: inDays(46), card: 'hold' });
    const items = held.view.orders[0].orderItems.map((i) => i.orderItemId);
    const reshop = await s.reshop(
      reshopRq(held.orderId, {
        kind: 'servicing',
        add: {
          flightQuery: {
            kind: 'day',
            originDestinations: [{ departureCode: 'LGW', arrivalCode: 'OSL', date: inDays(47) }],
          },
        },
        deleteOrderItemIds: items,
      }),
    );
    expect(outcome(reshop)).toBe('773');
  });

  it('a 3-D Secure card pays a hold through the CustomerInputRQ challenge, once', async () => {
    const held = await s.book({ date: inDays(48), card: 'hold' });
    const total = held.view.orders[0].totalOrderPrice! as Money;
    const token = await createToken(airline.url, THREE_DS);
    const surcharged = { value: add(2, total.value, (Number(total.value) * 0.02).toFixed(2)), currency: 'GBP' };
    const pay = changeRq(held.orderId, {
      payments: cardPayment(token, surcharged),
      securePayment: {
        termUrl: 'https://agency.example/done',
        failUrl: 'https://agency.example/fail',
        ipAddress: '203.0.113.9',
      },
      tx: 'TX-PAY-3DS',
    });
    const challenge = await s.change(pay);
    if (!('securePayments' in challenge)) throw new Error(JSON.stringify(challenge));
    expect(challenge.securePayments[0]).toMatchObject({ amount: surcharged, originalTransactionId: 'TX-PAY-3DS' });
    expect(await s.change(pay)).toEqual({ ...challenge, timeStamp: expect.any(String) });
    expect(store.getOrder(held.orderId)?.status).toBe('held');
    const done = await approve(challenge);
    expect([orderOf(done).payments[0]?.amount, store.getOrder(held.orderId)?.status]).toEqual([surcharged, 'live']);
    expect(orderOf(await s.changed(pay))).toEqual(orderOf(done));
  });

  /** The cardholder approves on the issuer page; the CustomerInputRS with the result, answered. */
  async function approve(ci: CustomerInputRq): Promise<OrderViewRs> {
    const sp = ci.securePayments[0]!;
    const page = await http(sp.acsUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
    });
    expect(page.status).toBe(303);
    const paRes = new URL(String(page.headers.location)).searchParams.get('PaRes')!;
    const xml = encodeCustomerInputRs({
      target: 'Test',
      version: '17.2',
      transactionIdentifier: 'TX-CI',
      kind: 'success',
      securePayments: [
        { paRes, spmTxnReference: sp.spmTxnReference!, originalTransactionId: sp.originalTransactionId!, status: 'Y' },
      ],
    });
    const res = await postXml(airline.url, '/retail/orders', xml);
    return decodeOrderViewRs(res.text);
  }
});

/** Iberia's reprice (an Add with the order's qualifier) naming a payment card by its IIN. */
function cardReprice(orderId: string, iin: string): string {
  const xml = encodeOrderReshopRq({
    ...reshopRq(orderId, { kind: 'servicing', add: {}, deleteOrderItemIds: [] }),
    owner: 'ZZ',
    passengers: ONE_ADULT,
  });
  const card = `<PaymentCardQualifiers><Type>VI</Type><IIN_Number>${iin}</IIN_Number></PaymentCardQualifiers>`;
  return xml.replace('</ExistingOrderQualifier>', `</ExistingOrderQualifier>${card}`);
}

describe('airline holds expire', () => {
  it('the airline cancels an unpaid order at its payment time limit by itself, and its seats go back on sale', async () => {
    const airline = await startAirline({
      servicing: {
        holdMs: 1500,
        priceGuaranteeMs: 1000,
        changeOfferTtlMs: 900_000,
        holdDeniedAgencies: [],
        changeActionMs: 172_800_000,
      },
    });
    try {
      const s = new ServicingClient(airline.url);
      const store = airline.app.get(AirlineStore);
      const held = await s.book({ date: inDays(50), card: 'hold' });
      const [segment] = store.getOrder(held.orderId)!.content!.segments;
      expect(store.sold(segment!.inventoryKey, segment!.rbd)).toBe(1);
      // No request: the airline's own timer.
      await eventually(() => store.getOrder(held.orderId)?.status === 'expired', 20_000);
      expect([store.sold(segment!.inventoryKey, segment!.rbd), store.getOrder(held.orderId)?.version]).toEqual([0, 2]);
      const view = await s.c.retrieve(held.orderId);
      expect(view.kind === 'success' && [view.orders[0].statusCode, view.orders[0].paymentTimeLimit]).toEqual([
        'XX',
        undefined,
      ]);
      const token = await createToken(airline.url, DEBIT);
      const late = await s.changed(
        changeRq(held.orderId, { payments: cardPayment(token, held.view.orders[0].totalOrderPrice!) }),
      );
      expect(outcome(late)).toBe('772');
    } finally {
      await airline.close();
    }
  });

  it('regression: a hold past its time limit while the airline was down is cancelled at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'airline-holds-'));
    const dbPath = join(dir, 'airline.db');
    const clock = new MovableClock();
    const servicing = {
      holdMs: 24 * HOURS,
      priceGuaranteeMs: HOURS,
      changeOfferTtlMs: 900_000,
      holdDeniedAgencies: [],
      changeActionMs: 172_800_000,
    };
    try {
      const first = await startAirline({ dbPath, servicing }, { clock });
      const held = await new ServicingClient(first.url).book({ date: inDays(51), card: 'hold' });
      await first.close();
      clock.offsetMs = 25 * HOURS;
      const second = await startAirline({ dbPath, servicing }, { clock });
      try {
        const store = second.app.get(AirlineStore);
        const [segment] = store.getOrder(held.orderId)!.content!.segments;
        expect([store.getOrder(held.orderId)?.status, store.sold(segment!.inventoryKey, segment!.rbd)]).toEqual([
          'expired',
          0,
        ]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
