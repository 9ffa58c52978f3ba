/**
 * Issue 8, "answer every valid request": every XSD-valid request gets an NDC answer of its
 * route's root (200, with Errors when the airline cannot serve it); 400 only for what is not a
 * valid message; the request ids echoed in every answer; orders found by any response id of
 * their chain; the late-commit and lookup-by-pricing-id-only faults; SOAP 1.1 / 1.2 bindings;
 * a configured extension namespace.
 */
import {
  decodeAirShoppingRs,
  decodeOrderViewRs,
  encodeOrderCreateRq,
  ndcRootName,
  unwrapSoap,
  SOAP11_NS,
  SOAP12_NS,
  wrapInBinding,
} from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';
import { xsdInstance } from '../ndc/xsd-instance';
import {
  AUTH,
  type RunningAirline,
  armFault,
  clearFaults,
  createToken,
  eventually,
  http,
  postXml,
  startAirline,
  postOrderWithin,
} from './airline-harness';
import {
  AGENCY,
  FAMILY,
  NdcClient,
  type PricedRs,
  calendarXml,
  cheapest,
  checkXml,
  daySearchXml,
  inDays,
  selectAll,
  withIndividuals,
} from './ndc-client';

const ROUTES = [
  ['AirShoppingRQ', '/retail/offers', 'AirShoppingRS', ['TravelAgencySender', 'OriginDestinations']],
  [
    'AirShoppingRQ',
    '/retail/offers',
    'AirShoppingRS',
    ['TravelAgencySender', 'Affinity', 'AirportCityDeparture', 'AirportCityArrival'],
  ],
  ['AirShoppingRQ', '/retail/offers', 'AirShoppingRS', []],
  ['OfferPriceRQ', '/retail/offerPrices', 'OfferPriceRS', ['TravelAgencySender']],
  ['OfferPriceRQ', '/retail/offerPrices', 'OfferPriceRS', []],
  ['OrderCreateRQ', '/retail/orders', 'OrderViewRS', ['TravelAgencySender', 'Offer']],
  ['OrderCreateRQ', '/retail/orders', 'OrderViewRS', []],
  ['OrderRetrieveRQ', '/retail/orders', 'OrderViewRS', ['TravelAgencySender', 'OrderID']],
  ['OrderRetrieveRQ', '/retail/orders', 'OrderViewRS', []],
  ['OrderCancelRQ', '/retail/orders', 'OrderCancelRS', ['TravelAgencySender']],
  ['OrderCancelRQ', '/retail/orders', 'OrderCancelRS', []],
] as const;

describe('airline: answer every valid request', () => {
  let airline: RunningAirline;
  let c: NdcClient;

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
  });

  afterEach(() => clearFaults(airline.url));

  afterAll(() => airline.close());

  const cases = ROUTES.flatMap(([rq, path, rs, prefer]) =>
    (['minimal', 'wide'] as const).map((mode) => [rq, mode, prefer.join('+') || 'shortest', path, rs, prefer] as const),
  );

  it.each(cases)(
    'an XSD-valid %s (%s, %s) gets HTTP 200 and an NDC answer of the route root',
    async (rq, mode, _form, path, rs, prefer) => {
      const xml = xsdInstance(rq, mode, prefer);
      expectValidXsd(xml, rq);
      const res = await postXml(airline.url, path, xml);
      expect(res.status).toBe(200);
      expect(checkXml(res)).toBe(rs);
    },
  );

  it('a valid message the airline cannot serve: 200 with Errors naming the problem (unknown airport)', async () => {
    const res = await postXml(
      airline.url,
      '/retail/offers',
      daySearchXml([{ from: 'LGW', to: 'XXX', date: inDays(10) }]),
    );
    expect(res.status).toBe(200);
    const rs = decodeAirShoppingRs(res.text);
    expect(rs.kind === 'error' && rs.errors[0].code).toBe('701');
  });

  it('an OrderCreateRQ with two flight Offers (XSD-valid): 200 OrderViewRS with Errors 723 naming the second Offer', async () => {
    const offer = (id: string) => ({
      offerId: id,
      owner: 'ZZ',
      responseId: 'PR-UNKNOWN',
      totalOfferPrice: { value: '100.00', currency: 'GBP' },
      offerItems: [{ offerItemId: `${id}_I1`, passengerRefs: ['PAX1'] }],
    });
    const xml = encodeOrderCreateRq({
      target: 'Test',
      version: '17.2',
      party: { agencyId: AGENCY },
      offers: [offer('OFFER_OUT'), offer('OFFER_RET')],
      payments: [{ type: 'CC', voucherNumber: 'tok_x', amount: { value: '200.00', currency: 'GBP' } }],
      passengers: [{ passengerId: 'PAX1', ptc: 'ADT' }],
      contacts: [],
    });
    expectValidXsd(xml, 'OrderCreateRQ');
    const res = await postXml(airline.url, '/retail/orders', xml);
    expect(res.status).toBe(200);
    const rs = decodeOrderViewRs(res.text);
    if (rs.kind !== 'error') throw new Error('expected the error form');
    expect(rs.errors).toStrictEqual([
      {
        code: '723',
        shortText: 'One offer per order',
        status: 'Complete',
        text:
          'The request names 2 flight Offers (Query/Order/Offer[2] is OFFER_RET); an order is created from one priced offer: ' +
          'price every direction in one OfferPriceRQ and order its PricedOffer',
      },
    ]);
  });

  it('a 400 echoes TransactionIdentifier and CorrelationID of the body it could not decode', async () => {
    const body = `<AirShoppingRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2" Version="17.2" TransactionIdentifier="TX-400" CorrelationID="CORR-400"><Bogus/></AirShoppingRQ>`;
    const res = await postXml(airline.url, '/retail/offers', body);
    expect(res.status).toBe(400);
    expect(checkXml(res)).toBe('AirShoppingRS');
    const rs = decodeAirShoppingRs(res.text);
    expect([rs.transactionIdentifier, rs.correlationId]).toEqual(['TX-400', 'CORR-400']);
  });

  it('a 415 and a 413 echo the ids of the X-TransactionIdentifier / X-Correlation-Id headers', async () => {
    const headers = { 'X-TransactionIdentifier': 'TX-H', 'X-Correlation-Id': 'CORR-H' };
    const unsupported = await postXml(
      airline.url,
      '/retail/offers',
      calendarXml([{ from: 'LGW', to: 'OSL', date: inDays(20) }]),
      {
        ...headers,
        'Content-Type': 'application/json',
      },
    );
    expect(unsupported.status).toBe(415);
    expect(decodeAirShoppingRs(unsupported.text)).toMatchObject({
      transactionIdentifier: 'TX-H',
      correlationId: 'CORR-H',
    });
    const small = await startAirline({ maxBodyBytes: 2048 });
    try {
      const big = await postXml(small.url, '/retail/offers', `<!-- ${'x'.repeat(4096)} -->`, headers);
      expect(big.status).toBe(413);
      expect(decodeAirShoppingRs(big.text)).toMatchObject({ transactionIdentifier: 'TX-H', correlationId: 'CORR-H' });
    } finally {
      await small.close();
    }
  });

  /** Shops, prices without and with a credit card token; returns both pricings and the token. */
  async function chain(
    date: string,
  ): Promise<{ shoppingResponseId: string; first: PricedRs; second: PricedRs; token: string }> {
    const rs = await c.day([{ from: 'LGW', to: 'OSL', date }], FAMILY);
    const selection = selectAll(rs, cheapest(rs, 'OD__LGW_OSL'));
    const first = await c.price([selection], withIndividuals(FAMILY, false));
    const token = await createToken(airline.url, '4111111111111111');
    const second = await c.price([selection], withIndividuals(FAMILY, false), { token });
    if (first.kind !== 'success' || second.kind !== 'success') throw new Error('pricing failed');
    return { shoppingResponseId: rs.shoppingResponseId, first, second, token };
  }

  const ordersBy = async (id: string): Promise<string[]> => {
    const rs = decodeOrderViewRs((await c.getOrders(id, AGENCY)).text);
    return rs.kind === 'success' ? rs.orders.map((o) => o.orderId) : rs.errors.map((e) => e.code ?? '');
  };

  it('GET /retail/orders finds an order by any response id of its chain', async () => {
    const { shoppingResponseId, first, second, token } = await chain(inDays(61));
    const created = await c.orderCreate(second, token, FAMILY);
    if (created.kind !== 'success') throw new Error(JSON.stringify(created));
    const orderId = created.orders[0].orderId;
    expect(await ordersBy(shoppingResponseId)).toEqual([orderId]);
    expect(await ordersBy(first.shoppingResponseId!)).toEqual([orderId]);
    expect(await ordersBy(second.shoppingResponseId!)).toEqual([orderId]);
    expect(await ordersBy('PR-UNKNOWN')).toEqual(['913']);
  });

  it('lookup-by-pricing-id-only: while armed, only the pricing id named in OrderCreateRQ finds the order', async () => {
    const { shoppingResponseId, first, second, token } = await chain(inDays(62));
    const created = await c.orderCreate(second, token, FAMILY);
    if (created.kind !== 'success') throw new Error(JSON.stringify(created));
    expect((await armFault(airline.url, 'OrderRetrieve', 'lookup-by-pricing-id-only', 3)).status).toBe(201);
    expect(await ordersBy(shoppingResponseId)).toEqual(['913']);
    expect(await ordersBy(first.shoppingResponseId!)).toEqual(['913']);
    expect(await ordersBy(second.shoppingResponseId!)).toEqual([created.orders[0].orderId]);
    // Used up: every id of the chain finds it again.
    expect(await ordersBy(shoppingResponseId)).toEqual([created.orders[0].orderId]);
  });

  it('late-commit: the answer is withheld past the client timeout and the order appears only delayMs after the request', async () => {
    const { second, token } = await chain(inDays(63));
    expect((await armFault(airline.url, 'OrderCreate', 'late-commit', 1, 1500)).status).toBe(201);
    const outcome = await postOrderWithin(airline.url, c.orderCreateXml(second, token, FAMILY), 200);
    expect(outcome).toBe('timed out');
    // Not committed yet: a lookup now finds nothing.
    expect(await ordersBy(second.shoppingResponseId!)).toEqual(['913']);
    let found: string[] = [];
    await eventually(async () => {
      found = await ordersBy(second.shoppingResponseId!);
      return found[0] !== '913';
    }, 20_000);
    expect(found).toHaveLength(1);
  });

  it.each([
    ['soap11', SOAP11_NS, 'text/xml; charset=utf-8', { SOAPAction: '"AirShoppingRQ"' }],
    ['soap12', SOAP12_NS, 'application/soap+xml; charset=utf-8', {}],
  ] as const)('NDC inside a %s envelope is answered in the same binding', async (binding, ns, contentType, extra) => {
    const rq = wrapInBinding(daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(12) }]), binding);
    const res = await http(`${airline.url}/retail/offers`, {
      method: 'POST',
      headers: {
        Authorization: AUTH,
        'Content-Type': `${contentType}${binding === 'soap12' ? '; action="AirShoppingRQ"' : ''}`,
        ...extra,
      },
      body: rq,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(contentType);
    expect(res.text).toContain(`xmlns:${binding === 'soap11' ? 'soap' : 'env'}="${ns}"`);
    expect(ndcRootName(res.text)).toBe('AirShoppingRS');
    expectValidXsd(unwrapSoap(res.text).text, 'AirShoppingRS');
    const rs = decodeAirShoppingRs(res.text);
    expect(rs.kind).toBe('day');
    expect(rs.transactionIdentifier).toBe('TX-0001');
    // A broken message in an envelope: 400 in the same envelope.
    const bad = await http(`${airline.url}/retail/offers`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': contentType, ...extra },
      body: wrapInBinding(
        '<AirShoppingRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2" Version="17.2"><Bogus/></AirShoppingRQ>',
        binding,
      ),
    });
    expect([bad.status, bad.headers['content-type']]).toEqual([400, contentType]);
    expect(decodeAirShoppingRs(bad.text).kind).toBe('error');
  });
});

describe('airline with another dialect (AIRLINE_MEDIA_VENDOR, AIRLINE_EXTENSION_NAMESPACE)', () => {
  it('answers in its media type and writes extension elements in its namespace', async () => {
    const airline = await startAirline({
      mediaVendor: 'othervendor',
      extensionNamespace: 'urn:example:other-vendor:ext',
    });
    try {
      const type = 'application/vnd.othervendor.ndc.v17.2+xml;charset=UTF-8';
      const res = await postXml(
        airline.url,
        '/retail/offers',
        daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(14) }]),
        {
          'Content-Type': type,
          Accept: type,
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.text).toContain('xmlns:ns2="urn:example:other-vendor:ext"');
      expect(res.text).not.toContain('http://www.ndc-saga.dev/schema/ndc-ext/17.2');
      expectValidXsd(res.text, 'AirShoppingRS');
      expect(decodeAirShoppingRs(res.text, { extensionNamespace: 'urn:example:other-vendor:ext' }).kind).toBe('day');
    } finally {
      await airline.close();
    }
  });
});
