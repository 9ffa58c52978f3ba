/**
 * OrderCancel (issue 11): void within 24 h, cancellation fees per price class afterwards,
 * ExpectedRefundAmount, seats back to inventory, the cancelled status through OrderRetrieve and
 * the GET, a second cancel, other agencies' and unknown orders, and simulator faults. Every
 * answer is checked against the XSD of its root.
 */
import { add, currencyScale, subtract } from '../../src/common/decimal';
import type { AirlineClock } from '../../src/airline/airline.ports';
import { AirlineStore } from '../../src/airline/store/airline.store';
import {
  type Money,
  type OrderCancelRs,
  cancellationOf,
  decodeOrderCancelRs,
  decodeOrderViewRs,
  encodeOrderCancelRq,
  ndcRootName,
} from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';
import {
  NDC_TYPE_UTF8,
  type RunningAirline,
  armFault,
  clearFaults,
  createToken,
  eventually,
  postXml,
  startAirline,
  postOrderWithin,
} from './airline-harness';
import { AGENCY, NdcClient, ONE_ADULT, type PricedRs, common, inDays, selectAll, withIndividuals } from './ndc-client';

/** The service clock, moved forward by the tests (e.g. past the 24-hour void window). */
class MovableClock implements AirlineClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const HOURS = 3_600_000;

describe('airline OrderCancel', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  let store: AirlineStore;
  const clock = new MovableClock();

  beforeAll(async () => {
    airline = await startAirline({}, { clock });
    c = new NdcClient(airline.url);
    store = airline.app.get(AirlineStore);
  });

  afterEach(async () => {
    clock.offsetMs = 0;
    await clearFaults(airline.url);
  });

  afterAll(() => airline.close());

  /** Books one adult LGW-OSL in `priceClass` on `date` with a debit card; returns the order id, total and priced offer. */
  async function book(
    date: string,
    priceClass = 'ECONOMY',
  ): Promise<{ orderId: string; total: Money; priced: PricedRs }> {
    const rs = await c.day([{ from: 'LGW', to: 'OSL', date }], ONE_ADULT);
    const offer = rs.airlineOffers
      .flatMap((g) => g.offers)
      .find((o) => o.flightsOverview[0].priceClassRef === `PC__${priceClass}`);
    if (!offer) throw new Error(`no ${priceClass} offer`);
    const priced = await c.price([selectAll(rs, offer.offerId)], withIndividuals(ONE_ADULT, false));
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const token = await createToken(airline.url, '4000056655665556');
    const created = await c.orderCreate(priced, token, ONE_ADULT);
    if (created.kind !== 'success') throw new Error(JSON.stringify(created));
    return { orderId: created.orders[0].orderId, total: created.orders[0].totalOrderPrice! as Money, priced };
  }

  async function cancel(
    orderId: string,
    opts: { agencyId?: string; expected?: Money; owner?: string } = {},
  ): Promise<OrderCancelRs> {
    const xml = encodeOrderCancelRq({
      ...common(opts.agencyId ?? AGENCY),
      order: { orderId, owner: opts.owner ?? 'ZZ' },
      ...(opts.expected ? { expectedRefundAmount: opts.expected } : {}),
    });
    expectValidXsd(xml, 'OrderCancelRQ');
    const res = await postXml(airline.url, '/retail/orders', xml);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(NDC_TYPE_UTF8);
    expect(ndcRootName(res.text)).toBe('OrderCancelRS');
    expectValidXsd(res.text, 'OrderCancelRS');
    const rs = decodeOrderCancelRs(res.text);
    expect([rs.transactionIdentifier, rs.correlationId]).toEqual(['TX-0001', 'CORR-0001']);
    return rs;
  }

  const errorCode = (rs: OrderCancelRs) => (rs.kind === 'error' ? rs.errors[0].code : 'success');
  const soldFor = (priced: PricedRs) => {
    const seg = store.responses.getPricing(priced.shoppingResponseId!)!.segments[0];
    return store.inventory.sold(seg.inventoryKey, seg.rbd);
  };

  it('within 24 hours: a void refunding everything, seats back, the order reads back cancelled', async () => {
    const { orderId, total, priced } = await book(inDays(70));
    expect(soldFor(priced)).toBe(1);
    clock.offsetMs = 23 * HOURS;
    const rs = await cancel(orderId);
    expect(rs).toMatchObject({
      kind: 'success',
      cancellations: [{ orderReference: orderId, cancellationFee: { value: '0.00', currency: 'GBP' }, refund: total }],
    });
    expect(soldFor(priced)).toBe(0);
    const retrieved = await c.retrieve(orderId);
    expect(retrieved.kind === 'success' && retrieved.orders[0].statusCode).toBe('XX');
    // The cancelled order names its fee and refund (PenaltyList), for a client whose answer was lost.
    expect(retrieved.kind === 'success' && cancellationOf(retrieved.dataLists)).toEqual({
      fee: { value: '0.00', currency: 'GBP' },
      refund: total,
    });
    const got = decodeOrderViewRs((await c.getOrders(priced.shoppingResponseId!, AGENCY)).text);
    expect(got.kind === 'success' && got.orders[0].statusCode).toBe('XX');
  });

  it('regression: the ETag of GET /retail/orders follows the order, not the echoed ids or the time stamp', async () => {
    const { orderId, priced } = await book(inDays(69));
    const id = priced.shoppingResponseId!;
    const first = await c.getOrders(id, AGENCY, { 'X-TransactionIdentifier': 'TX-A', 'X-Correlation-Id': 'CORR-A' });
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    clock.offsetMs = 2 * HOURS;
    // Another time stamp and no echo headers at all: the order has not changed, so 304.
    const unchanged = await c.getOrders(id, AGENCY, { 'If-None-Match': etag });
    expect(unchanged.status).toBe(304);
    const plain = await c.getOrders(id, AGENCY);
    expect(plain.headers.etag).toBe(etag);
    const plainRs = decodeOrderViewRs(plain.text);
    expect([plainRs.transactionIdentifier, plainRs.correlationId]).toEqual([undefined, undefined]);
    expect((await cancel(orderId)).kind).toBe('success');
    const cancelled = await c.getOrders(id, AGENCY, { 'If-None-Match': etag });
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.etag).not.toBe(etag);
    expect(cancelled.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  });

  it('a second cancel gets 770 "already cancelled" and refunds nothing more', async () => {
    const { orderId } = await book(inDays(71));
    expect((await cancel(orderId)).kind).toBe('success');
    const first = store.orders.getOrder(orderId)!.cancellation;
    const again = await cancel(orderId);
    expect(errorCode(again)).toBe('770');
    expect(again.kind === 'error' && again.errors[0].shortText).toBe('Order already cancelled');
    expect(store.orders.getOrder(orderId)!.cancellation).toEqual(first);
  });

  it('after 24 hours, Economy (the cheapest class) refunds the taxes only', async () => {
    const { orderId, total, priced } = await book(inDays(72), 'ECONOMY');
    clock.offsetMs = 25 * HOURS;
    const taxes = priced.pricedOffer.offerItems.map((i) => i.priceDetail.taxes!.value);
    const refund = add(currencyScale('GBP'), ...taxes);
    const rs = await cancel(orderId);
    expect(rs).toMatchObject({
      kind: 'success',
      cancellations: [
        {
          orderReference: orderId,
          refund: { value: refund, currency: 'GBP' },
          cancellationFee: { value: subtract(total.value, refund, 2), currency: 'GBP' },
        },
      ],
    });
  });

  it('after 24 hours, Economy Plus pays a fee of 40.00 GBP per passenger and journey', async () => {
    const { orderId, total } = await book(inDays(73), 'PLUS');
    clock.offsetMs = 25 * HOURS;
    const rs = await cancel(orderId);
    expect(rs).toMatchObject({
      kind: 'success',
      cancellations: [
        {
          cancellationFee: { value: '40.00', currency: 'GBP' },
          refund: { value: subtract(total.value, '40.00', 2), currency: 'GBP' },
        },
      ],
    });
  });

  it('an ExpectedRefundAmount above the refund is refused with 771 and the order stays live', async () => {
    const { orderId, total, priced } = await book(inDays(74), 'ECONOMY');
    clock.offsetMs = 25 * HOURS;
    const refused = await cancel(orderId, { expected: total });
    expect(errorCode(refused)).toBe('771');
    expect(refused.kind === 'error' && refused.errors[0].text).toMatch(/less than the ExpectedRefundAmount/);
    expect(soldFor(priced)).toBe(1);
    const retrieved = await c.retrieve(orderId);
    expect(retrieved.kind === 'success' && retrieved.orders[0].statusCode).toBe('OK');
    const taxes = add(2, ...priced.pricedOffer.offerItems.map((i) => i.priceDetail.taxes!.value));
    expect((await cancel(orderId, { expected: { value: taxes, currency: 'GBP' } })).kind).toBe('success');
  });

  it("another agency's order, another owner and an unknown order: 913", async () => {
    const { orderId } = await book(inDays(75));
    expect(errorCode(await cancel(orderId, { agencyId: 'OTHER01' }))).toBe('913');
    expect(errorCode(await cancel(orderId, { owner: 'XY' }))).toBe('913');
    expect(errorCode(await cancel('ZZ-ORD-00000000000000000000'))).toBe('913');
    const retrieved = await c.retrieve(orderId);
    expect(retrieved.kind === 'success' && retrieved.orders[0].statusCode).toBe('OK');
  });

  it('an OrderCancelRQ without Query/Order (schema-valid) gets a 701 naming it', async () => {
    const xml = encodeOrderCancelRq({ ...common(), bookingReferences: [{ id: 'ABC234', airlineId: 'ZZ' }] });
    expectValidXsd(xml, 'OrderCancelRQ');
    const res = await postXml(airline.url, '/retail/orders', xml);
    expect(res.status).toBe(200);
    expectValidXsd(res.text, 'OrderCancelRS');
    const rs = decodeOrderCancelRs(res.text);
    expect(rs.kind === 'error' && [rs.errors[0].code, rs.errors[0].text]).toEqual([
      '701',
      expect.stringContaining('Query/Order'),
    ]);
  });

  it('simulator faults apply to OrderCancel: commit-then-timeout cancels and withholds the answer', async () => {
    const { orderId, priced } = await book(inDays(76));
    expect((await armFault(airline.url, 'OrderCancel', 'commit-then-timeout', 1, 60_000)).status).toBe(201);
    const xml = encodeOrderCancelRq({ ...common(), order: { orderId, owner: 'ZZ' } });
    const outcome = await postOrderWithin(airline.url, xml, 300);
    expect(outcome).toBe('timed out');
    await eventually(async () => {
      const rs = await c.retrieve(orderId);
      return rs.kind === 'success' && rs.orders[0].statusCode === 'XX';
    });
    expect(soldFor(priced)).toBe(0);
    expect(errorCode(await cancel(orderId))).toBe('770');
  });
});
