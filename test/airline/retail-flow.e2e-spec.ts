/**
 * The whole retail flow over real HTTP: shop, price, tokenise, reprice with
 * the card, order, retrieve (by OrderID and by shopping response id). Every
 * XML response is validated against the NDC 17.2 XSDs (NdcClient.checkXml).
 */
import { add } from '../../src/common/decimal';
import { decodeOrderViewRs } from '../../src/ndc';
import { type RunningAirline, createToken, startAirline } from './airline-harness';
import {
  AGENCY,
  FAMILY,
  NdcClient,
  type PricedRs,
  type ViewRs,
  checkXml,
  cheapest,
  inDays,
  selectAll,
  withIndividuals,
} from './ndc-client';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

describe('airline retail flow', () => {
  let airline: RunningAirline;
  let c: NdcClient;

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
  });

  afterAll(async () => {
    await airline.close();
  });

  function success<T extends { kind: string }>(rs: T, kind: string): asserts rs is T {
    if (rs.kind !== kind) throw new Error(`expected ${kind}, got ${JSON.stringify(rs)}`);
  }

  describe('one way, ADT ADT CHD INF, credit card repriced with the token', () => {
    let shoppingResponseId: string;
    let repriced: PricedRs;
    let token: string;
    let order: ViewRs;

    it('day search, price, reprice with a credit card token adds CCF2', async () => {
      const rs = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(30) }]);
      expect(rs.transactionIdentifier).toBe('TX-0001');
      expect(rs.correlationId).toBe('CORR-0001');
      expect(rs.timeStamp).toMatch(TIMESTAMP);
      shoppingResponseId = rs.shoppingResponseId;
      const selection = selectAll(rs, cheapest(rs, 'OD__LGW_OSL'));
      const priced = await c.price([selection], withIndividuals(FAMILY, false));
      success(priced, 'success');
      if (priced.kind !== 'success') return;
      expect(priced.pricedOffer.offerItems.some((i) => i.offerItemId.endsWith('-CCF2'))).toBe(false);

      token = await createToken(airline.url, '4111111111111111');
      const again = await c.price([selection], withIndividuals(FAMILY, false), { token });
      if (again.kind !== 'success') throw new Error(JSON.stringify(again));
      repriced = again;
      const ccf2 = again.pricedOffer.offerItems.find((i) => i.services.some((s) => s.serviceId === 'SERVICE__CCF2'));
      expect(ccf2).toBeDefined();
      expect(ccf2!.priceDetail.taxes!.value).toBe('0.00');
      expect(ccf2!.services[0].serviceDefinitionRef?.ref).toBe('SD__CCF2');
      // Surcharge included in the total: total = previous total + the CCF2 base.
      expect(again.pricedOffer.total).toEqual({
        value: add(2, priced.pricedOffer.total!.value, ccf2!.priceDetail.base!.value),
        currency: 'GBP',
      });
    });

    it('creates the order from the token-bearing pricing', async () => {
      const rs = await c.orderCreate(repriced, token, FAMILY);
      if (rs.kind !== 'success') throw new Error(JSON.stringify(rs));
      order = rs;
      expect(rs.transactionIdentifier).toBe('TX-0001');
      const o = rs.orders[0];
      expect(rs.orders).toHaveLength(1);
      expect(o.owner).toBe('ZZ');
      expect(o.statusCode).toBe('OK');
      expect(o.bookingReferences).toHaveLength(1);
      expect(o.bookingReferences[0].id).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
      expect(o.bookingReferences[0].airlineId).toBe('ZZ');
      expect(o.webAddressId).toBe(`https://book.example-airline.test/manage/${o.bookingReferences[0].id}`);
      expect(o.totalOrderPrice).toEqual(repriced.pricedOffer.total);
      expect(o.payments).toEqual([{ type: 'CC', amount: repriced.pricedOffer.total, voucherNumber: token }]);
      expect(o.orderItems.map((i) => i.orderItemId).sort()).toEqual(
        repriced.pricedOffer.offerItems.map((i) => i.offerItemId).sort(),
      );
      expect(rs.commission?.currency).toBe('GBP');
      expect(rs.dataLists.passengers).toEqual(withIndividuals(FAMILY));
      expect(rs.dataLists.contacts?.[0].contactId).toBe('CTC__1');
    });

    it('retrieves the order by OrderID', async () => {
      const rs = await c.retrieve(order.orders[0].orderId);
      if (rs.kind !== 'success') throw new Error(JSON.stringify(rs));
      expect(rs.orders).toEqual(order.orders);
      expect(rs.dataLists.passengers).toEqual(order.dataLists.passengers);
    });

    it('GET by shoppingResponseId: ETag, 304 on If-None-Match, ids echoed from headers', async () => {
      const res = await c.getOrders(shoppingResponseId, AGENCY, {
        'X-TransactionIdentifier': 'TX-GET',
        'X-Correlation-Id': 'CORR-GET',
      });
      expect(res.status).toBe(200);
      expect(checkXml(res)).toBe('OrderViewRS');
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      const rs = decodeOrderViewRs(res.text);
      if (rs.kind !== 'success') throw new Error(res.text);
      expect(rs.orders[0].orderId).toBe(order.orders[0].orderId);
      expect([rs.transactionIdentifier, rs.correlationId]).toEqual(['TX-GET', 'CORR-GET']);
      const again = await c.getOrders(shoppingResponseId, AGENCY, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.raw.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      const other = await c.getOrders(shoppingResponseId, AGENCY, { 'If-None-Match': 'W/"something-else"' });
      expect(other.status).toBe(200);
    });

    it('GET refuses an X-TransactionIdentifier longer than the 32 characters the response root can carry', async () => {
      const res = await c.getOrders(shoppingResponseId, AGENCY, {
        'X-TransactionIdentifier': '123e4567-e89b-12d3-a456-426614174000',
      });
      expect(res.status).toBe(400);
      expect(checkXml(res)).toBe('OrderViewRS');
      const rs = decodeOrderViewRs(res.text);
      if (rs.kind !== 'error') throw new Error(res.text);
      expect(rs.transactionIdentifier).toBeUndefined();
      expect(rs.errors.map((e) => [e.code, e.text])).toEqual([
        ['701', 'header X-TransactionIdentifier must be 1 to 32 characters, got 36'],
      ]);
    });

    it('913 for an unknown order and for another agency, by OrderID and by GET', async () => {
      const notFound = {
        code: '913',
        shortText: 'Item/data not found or data not existing in processing host',
        status: 'Complete',
        text: 'Order not found',
      };
      for (const rs of [await c.retrieve('ZZ-ORD-NOPE'), await c.retrieve(order.orders[0].orderId, 'OTHER01')]) {
        expect(rs.kind).toBe('error');
        if (rs.kind === 'error') expect(rs.errors).toEqual([notFound]);
      }
      for (const [sid, agency] of [
        ['SR-UNKNOWN', AGENCY],
        [shoppingResponseId, 'OTHER01'],
      ]) {
        const res = await c.getOrders(sid, agency);
        expect(res.status).toBe(200);
        expect(checkXml(res)).toBe('OrderViewRS');
        expect(res.text).toContain('<Document');
        expect(res.headers.etag).toBeUndefined();
        const rs = decodeOrderViewRs(res.text);
        expect(rs.kind === 'error' && rs.errors).toEqual([notFound]);
      }
    });

    it('GET without its query parameters is a 400 OrderViewRS error', async () => {
      const res = await c.getOrders('', '');
      expect(res.status).toBe(400);
      expect(checkXml(res)).toBe('OrderViewRS');
      const rs = decodeOrderViewRs(res.text);
      expect(rs.kind === 'error' && rs.errors[0].text).toBe('missing query parameter shoppingResponseId and agencyID');
    });

    it('repeating the same OrderCreate returns the same order, not a second one', async () => {
      const rs = await c.orderCreate(repriced, token, FAMILY);
      expect(rs.kind === 'success' && rs.orders[0].orderId).toBe(order.orders[0].orderId);
    });
  });

  it('round trip, debit card without reprice: one PricedOffer, order OK', async () => {
    const rs = await c.day([
      { from: 'LGW', to: 'OSL', date: inDays(40) },
      { from: 'OSL', to: 'LGW', date: inDays(47) },
    ]);
    const offers = [selectAll(rs, cheapest(rs, 'OD__LGW_OSL')), selectAll(rs, cheapest(rs, 'OD__OSL_LGW'))];
    const priced = await c.price(offers, withIndividuals(FAMILY, false));
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    expect(priced.pricedOffer.flightsOverview.map((f) => f.odRef)).toEqual(['OD__LGW_OSL', 'OD__OSL_LGW']);
    // One item per passenger and direction.
    expect(priced.pricedOffer.offerItems).toHaveLength(8);
    const token = await createToken(airline.url, '4000056655665556');
    const order = await c.orderCreate(priced, token, FAMILY);
    if (order.kind !== 'success') throw new Error(JSON.stringify(order));
    expect(order.orders[0].totalOrderPrice).toEqual(priced.pricedOffer.total);
  });

  it('a surcharge card without the token-bearing reprice is a price mismatch (740)', async () => {
    const rs = await c.day([{ from: 'LGW', to: 'JFK', date: inDays(50) }], [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }]);
    const priced = await c.price(
      [selectAll(rs, cheapest(rs, 'OD__LGW_JFK'))],
      [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }],
    );
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const token = await createToken(airline.url, '5555555555554444');
    const order = await c.orderCreate(priced, token, [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }]);
    expect(order.kind).toBe('error');
    if (order.kind === 'error') {
      expect(order.errors).toHaveLength(1);
      expect(order.errors[0].code).toBe('740');
      expect(order.errors[0].text).toContain('surcharge');
    }
  });

  it('UK departure with a child: OfferPriceRQ without birthdates names the missing data (730)', async () => {
    const rs = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(60) }]);
    const priced = await c.price([selectAll(rs, cheapest(rs, 'OD__LGW_OSL'))], FAMILY);
    expect(priced.kind).toBe('error');
    if (priced.kind === 'error') {
      expect(priced.errors[0].code).toBe('730');
      expect(priced.errors[0].text).toMatch(/Birthdate/);
    }
  });

  it('calendar search one way and round trip', async () => {
    for (const legs of [
      [{ from: 'LGW', to: 'OSL', date: inDays(20) }],
      [
        { from: 'LGW', to: 'OSL', date: inDays(20) },
        { from: 'OSL', to: 'LGW', date: inDays(27) },
      ],
    ]) {
      const { calendarXml } = await import('./ndc-client');
      const rs = await c.shop(calendarXml(legs, 2));
      if (rs.kind !== 'calendar') throw new Error(JSON.stringify(rs));
      expect(rs.airlineOffers).toHaveLength(legs.length);
      for (const group of rs.airlineOffers) expect(group.priceCalendar).toHaveLength(5);
    }
  });

  it('OrderCreate refuses unknown tokens, missing names and missing contacts with NDC errors', async () => {
    const { encodeOrderCreateRq } = await import('../../src/ndc');
    const { pricedOffer, ONE_ADULT } = await import('./ndc-client');
    const { priced } = await pricedOffer(c, { date: inDays(90) });
    const token = await createToken(airline.url, '4000056655665556');
    const base = c.orderCreateModel(priced, token, ONE_ADULT);
    const codeOf = async (model: typeof base) => {
      const rs = await c.orderXml(encodeOrderCreateRq(model));
      return rs.kind === 'error' ? `${rs.errors[0].code} ${rs.errors[0].shortText}` : 'success';
    };
    expect(
      await codeOf({ ...base, payments: [{ ...base.payments[0], voucherNumber: 'tok_unknownunknownunknownunk' }] }),
    ).toBe('752 Card token not found');
    expect(
      await codeOf({
        ...base,
        passengers: base.passengers.map((p) => ({ ...p, individual: { surname: 'Smith' } })),
      }),
    ).toBe('731 Passenger data missing');
    expect(
      await codeOf({
        ...base,
        passengers: base.passengers.map((p) => ({ ...p, contactInfoRef: 'CTC__9' })),
      }),
    ).toBe('732 Contact data missing');
    // The clean request still works afterwards (nothing was sold by the refused ones).
    expect(await codeOf(base)).toBe('success');
  });

  it('OrderCreate with an expired token is refused (751)', async () => {
    let now = new Date();
    const clocked = await startAirline({}, { clock: { now: () => now } });
    try {
      const cc = new NdcClient(clocked.url);
      const { pricedOffer, ONE_ADULT } = await import('./ndc-client');
      const { postJson, tokenRequest } = await import('./airline-harness');
      const { priced } = await pricedOffer(cc, { date: inDays(91) });
      // A token that lives one minute; the pricing response lives 30.
      const body = tokenRequest('4000056655665556', now);
      body.expiryDateTimeUTC = new Date(now.getTime() + 60_000).toISOString().slice(0, 19);
      const { id } = JSON.parse((await postJson(clocked.url, '/payment/tokens', body)).text) as { id: string };
      now = new Date(now.getTime() + 120_000);
      const rs = await cc.orderCreate(priced, id, ONE_ADULT);
      expect(rs.kind === 'error' && rs.errors[0].code).toBe('751');
    } finally {
      await clocked.close();
    }
  });
});
