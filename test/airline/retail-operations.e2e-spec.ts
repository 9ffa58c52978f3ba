/**
 * The registry of NDC operations and the one error exit, over the real HTTP server: a root a path
 * does not take is refused naming it, in every binding, and nothing changes; every error answer
 * carries the time of its answer and the request's ids; the GET of orders answers a WHATWG
 * `fetch` client's conditional request with 304.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  NDC_NS,
  type NdcBinding,
  bindingContentType,
  decodeAirShoppingRs,
  decodeOrderViewRs,
  detectBinding,
  unwrapSoap,
  wrapInBinding,
} from '../../src/ndc';
import { formatLocalTimestamp } from '../../src/airline/http/ndc-messages';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { expectValidXsd } from '../support/xsd';
import {
  AUTH,
  NDC_TYPE,
  NDC_TYPE_UTF8,
  type RunningAirline,
  createToken,
  http,
  postXml,
  startAirline,
} from './airline-harness';
import {
  AGENCY,
  FAMILY,
  NdcClient,
  type PricedRs,
  type ViewRs,
  cheapest,
  daySearchXml,
  inDays,
  selectAll,
  withIndividuals,
} from './ndc-client';

describe('retail operations: the registry and the error exit', () => {
  // Every answer of this airline is stamped at this instant.
  const now = new Date();
  const TIMESTAMP = formatLocalTimestamp(now);
  let airline: RunningAirline;
  let c: NdcClient;
  let priced: PricedRs;
  let token: string;
  let order: ViewRs;
  let shoppingResponseId: string;

  beforeAll(async () => {
    airline = await startAirline({}, { clock: { now: () => now } });
    c = new NdcClient(airline.url);
    const rs = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(33) }]);
    if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
    shoppingResponseId = rs.shoppingResponseId;
    token = await createToken(airline.url, '4000056655665556');
    const price = await c.price([selectAll(rs, cheapest(rs, 'OD__LGW_OSL'))], withIndividuals(FAMILY, false), {
      token,
    });
    if (price.kind !== 'success') throw new Error(JSON.stringify(price));
    priced = price;
    const created = await c.orderCreate(priced, token, FAMILY);
    if (created.kind !== 'success') throw new Error(JSON.stringify(created));
    order = created;
  });

  afterAll(() => airline.close());

  /** Seats sold on the order's flights, by inventory key and booking class. */
  function soldSeats(): number[] {
    const store = airline.app.get(AirlineStore);
    const segments = store.responses.getPricing(priced.shoppingResponseId!)!.segments;
    return segments.map((s) => store.inventory.sold(s.inventoryKey, s.rbd));
  }

  async function etagOfOrders(): Promise<string> {
    const res = await c.getOrders(shoppingResponseId, AGENCY);
    expect(res.status).toBe(200);
    return res.headers.etag as string;
  }

  describe('a root the path does not take is refused, naming it, and never served by another operation', () => {
    // An NDC message this airline sends (to agencies), never serves.
    const notif = () =>
      `<OrderChangeNotif xmlns="${NDC_NS}" Version="17.2" TransactionIdentifier="TX-RESHOP" CorrelationID="CORR-RESHOP">` +
      `<Document/><Query><Order OrderID="${order.orders[0].orderId}" Owner="ZZ"/></Query>` +
      `</OrderChangeNotif>`;
    const foo = () =>
      `<FooRQ xmlns="${NDC_NS}" Version="17.2" TransactionIdentifier="TX-RESHOP" CorrelationID="CORR-RESHOP"><Document/></FooRQ>`;
    const ORDER_ROOTS = 'OrderCreateRQ, OrderRetrieveRQ, OrderCancelRQ, OrderReshopRQ, OrderChangeRQ, CustomerInputRS';

    const bodies: Record<string, () => string> = { OrderChangeNotif: notif, FooRQ: foo };

    it.each<[string, NdcBinding]>([
      ['OrderChangeNotif', 'plain'],
      ['OrderChangeNotif', 'soap11'],
      ['OrderChangeNotif', 'soap12'],
      ['OrderChangeNotif', 'ndcexchange'],
      ['FooRQ', 'plain'],
      ['FooRQ', 'soap11'],
    ])(
      'regression: %s at POST /retail/orders (%s): 400, NDC error 701 naming it, in the envelope',
      async (root, binding) => {
        const etag = await etagOfOrders();
        const sold = soldSeats();
        const res = await postXml(
          airline.url,
          '/retail/orders',
          wrapInBinding(bodies[root]!(), binding, { sellerId: AGENCY }),
          {
            'Content-Type': bindingContentType(binding, NDC_TYPE_UTF8),
          },
        );
        expect([res.status, res.headers['content-type'], detectBinding(res.text)]).toEqual([
          400,
          bindingContentType(binding, NDC_TYPE_UTF8),
          binding,
        ]);
        expectValidXsd(unwrapSoap(res.text).text, 'OrderViewRS');
        expect(decodeOrderViewRs(res.text)).toEqual({
          target: 'Test',
          version: '17.2',
          timeStamp: TIMESTAMP,
          transactionIdentifier: 'TX-RESHOP',
          correlationId: 'CORR-RESHOP',
          kind: 'error',
          errors: [
            {
              code: '701',
              shortText: 'Invalid request',
              status: 'Complete',
              text: `${root} is not served at /retail/orders; send ${ORDER_ROOTS}`,
            },
          ],
        });
        // Nothing changed: the order is the same (its ETag too) and so are the seats sold.
        expect((await c.getOrders(shoppingResponseId, AGENCY, { 'If-None-Match': etag })).status).toBe(304);
        expect(soldSeats()).toEqual(sold);
      },
    );

    it('each path takes its own roots: an OrderCreateRQ at /retail/offers is refused in AirShoppingRS', async () => {
      const res = await postXml(airline.url, '/retail/offers', c.orderCreateXml(priced, token, FAMILY));
      expect(res.status).toBe(400);
      expectValidXsd(res.text, 'AirShoppingRS');
      const rs = decodeAirShoppingRs(res.text);
      expect(rs.kind === 'error' && rs.errors).toEqual([
        {
          code: '701',
          shortText: 'Invalid request',
          status: 'Complete',
          text: 'OrderCreateRQ is not served at /retail/offers; send AirShoppingRQ',
        },
      ]);
    });
  });

  describe('every error leaves by one door: stamped with the time of its answer, echoing the request', () => {
    it('an OrderCreateRQ refused by the pricing check (740)', async () => {
      const shop = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(34) }]);
      if (shop.kind !== 'day') throw new Error(JSON.stringify(shop));
      const selection = selectAll(shop, cheapest(shop, 'OD__LGW_OSL'));
      const fresh = await c.price([selection], withIndividuals(FAMILY, false), { token });
      if (fresh.kind !== 'success') throw new Error(JSON.stringify(fresh));
      const xml = c.orderCreateXml(fresh, token, FAMILY, AGENCY, { value: '1.00', currency: 'GBP' });
      const res = await postXml(airline.url, '/retail/orders', xml);
      expect(res.status).toBe(200);
      expectValidXsd(res.text, 'OrderViewRS');
      const rs = decodeOrderViewRs(res.text);
      expect(rs).toMatchObject({
        timeStamp: TIMESTAMP,
        transactionIdentifier: 'TX-0001',
        correlationId: 'CORR-0001',
        kind: 'error',
        errors: [{ code: '740', shortText: 'Price mismatch' }],
      });
    });

    it('an AirShoppingRQ with nothing to sell (710)', async () => {
      const res = await postXml(
        airline.url,
        '/retail/offers',
        daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(-3) }]),
      );
      expect(res.status).toBe(200);
      expectValidXsd(res.text, 'AirShoppingRS');
      expect(decodeAirShoppingRs(res.text)).toMatchObject({
        timeStamp: TIMESTAMP,
        transactionIdentifier: 'TX-0001',
        correlationId: 'CORR-0001',
        kind: 'error',
        errors: [{ code: '710', shortText: 'No availability' }],
      });
    });
  });

  describe('conditional GET of orders', () => {
    const url = () => `${airline.url}/retail/orders?shoppingResponseId=${shoppingResponseId}&agencyID=${AGENCY}`;

    it("regression: Node's fetch (Cache-Control: no-cache with If-None-Match, as the Fetch standard says) gets 304", async () => {
      const etag = await etagOfOrders();
      const seen: IncomingHttpHeaders[] = [];
      const server = airline.app.getHttpServer();
      const record = (req: { headers: IncomingHttpHeaders }) => seen.push(req.headers);
      server.on('request', record);
      try {
        const res = await fetch(url(), { headers: { Authorization: AUTH, Accept: NDC_TYPE, 'If-None-Match': etag } });
        expect([res.status, res.headers.get('etag'), await res.text()]).toEqual([304, etag, '']);
      } finally {
        server.off('request', record);
      }
      // What made Express's req.fresh say stale: the request directive for caches.
      expect(seen.map((h) => [h['if-none-match'], h['cache-control']])).toEqual([[etag, 'no-cache']]);
      const changed = await fetch(url(), { headers: { Authorization: AUTH, 'If-None-Match': 'W/"another"' } });
      expect(changed.status).toBe(200);
      expect(decodeOrderViewRs(await changed.text()).kind).toBe('success');
    });

    it("regression: curl -H 'If-None-Match: <etag>' -H 'Cache-Control: no-cache' gets 304", async () => {
      const etag = await etagOfOrders();
      const res = await http(url(), {
        headers: { Authorization: AUTH, 'If-None-Match': etag, 'Cache-Control': 'no-cache' },
      });
      expect([res.status, res.headers.etag, res.raw.length]).toEqual([304, etag, 0]);
    });

    it.each([
      ['a list holding the tag', (etag: string) => `"another", ${etag}`, 304],
      ['the tag without W/ (weak comparison)', (etag: string) => etag.replace(/^W\//, ''), 304],
      ['*', () => '*', 304],
      ['another tag', () => 'W/"another", "more"', 200],
    ])('If-None-Match with %s', async (_what, field, status) => {
      const etag = await etagOfOrders();
      const res = await http(url(), { headers: { Authorization: AUTH, 'If-None-Match': field(etag) } });
      expect(res.status).toBe(status);
    });
  });
});
