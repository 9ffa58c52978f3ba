/** The fault simulator (/_sim/faults): every mode, listing and clearing, disabled in production. */
import { decodeAirShoppingRs, decodeOrderViewRs } from '../../src/ndc';
import {
  AUTH,
  type RunningAirline,
  clearFaults,
  createToken,
  eventually,
  http,
  postJson,
  postXml,
  startAirline,
  tokenRequest,
  postOrderWithin,
} from './airline-harness';
import { NdcClient, ONE_ADULT, calendarXml, checkXml, daySearchXml, inDays, pricedOffer } from './ndc-client';

describe('airline fault simulator', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  const search = () => calendarXml([{ from: 'LGW', to: 'OSL', date: inDays(20) }], 1);
  const arm = (body: unknown) => postJson(airline.url, '/_sim/faults', body, { Authorization: AUTH });

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
  });

  afterEach(async () => {
    await clearFaults(airline.url);
  });

  afterAll(async () => {
    await airline.close();
  });

  it('arms, lists and clears faults', async () => {
    const res = await arm({ operation: 'AirShopping', mode: 'delay', count: 2, delayMs: 5 });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text).armed).toEqual({ operation: 'AirShopping', mode: 'delay', remaining: 2, delayMs: 5 });
    const list = await http(`${airline.url}/_sim/faults`, { headers: { Authorization: AUTH } });
    expect(JSON.parse(list.text)).toEqual({
      faults: [{ operation: 'AirShopping', mode: 'delay', remaining: 2, delayMs: 5 }],
    });
    expect(
      (await http(`${airline.url}/_sim/faults`, { method: 'DELETE', headers: { Authorization: AUTH } })).status,
    ).toBe(204);
    expect(JSON.parse((await http(`${airline.url}/_sim/faults`, { headers: { Authorization: AUTH } })).text)).toEqual({
      faults: [],
    });
  });

  it('refuses invalid fault definitions with 400', async () => {
    const res = await arm({ operation: 'Refund', mode: 'http500', count: 1 });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).description).toMatch(/^Bad Request: operation /);
    expect((await arm({ operation: 'Token', mode: 'explode' })).status).toBe(400);
  });

  it('http500 fails the next N calls, then the operation works again', async () => {
    await arm({ operation: 'AirShopping', mode: 'http500', count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await postXml(airline.url, '/retail/offers', search())).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('commit-then-500 answers a plain 500 without the gzip encoding of the committed answer (regression)', async () => {
    await arm({ operation: 'AirShopping', mode: 'commit-then-500', count: 1 });
    const res = await postXml(airline.url, '/retail/offers', search(), { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(500);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe('Internal Server Error (simulated fault)');
  });

  it('faults of one operation do not touch another', async () => {
    await arm({ operation: 'OfferPrice', mode: 'http500', count: 1 });
    expect((await postXml(airline.url, '/retail/offers', search())).status).toBe(200);
    expect(
      JSON.parse((await http(`${airline.url}/_sim/faults`, { headers: { Authorization: AUTH } })).text).faults,
    ).toHaveLength(1);
  });

  it('reset drops the connection without an answer (Token)', async () => {
    await arm({ operation: 'Token', mode: 'reset', count: 1 });
    await expect(postJson(airline.url, '/payment/tokens', tokenRequest('4111111111111111'))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
    expect((await postJson(airline.url, '/payment/tokens', tokenRequest('4111111111111111'))).status).toBe(201);
  });

  it('delay holds the answer for delayMs', async () => {
    await arm({ operation: 'AirShopping', mode: 'delay', count: 1, delayMs: 400 });
    const started = Date.now();
    const res = await postXml(airline.url, '/retail/offers', search());
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('commit-then-500 creates the order, then answers 500', async () => {
    const token = await createToken(airline.url, '4000056655665556');
    const { shoppingResponseId, priced, passengers } = await pricedOffer(c);
    await arm({ operation: 'OrderCreate', mode: 'commit-then-500', count: 1 });
    const res = await postXml(airline.url, '/retail/orders', c.orderCreateXml(priced, token, passengers));
    expect(res.status).toBe(500);
    const found = await c.getOrders(shoppingResponseId, 'AGENCY01');
    expect(checkXml(found)).toBe('OrderViewRS');
    const rs = decodeOrderViewRs(found.text);
    expect(rs.kind === 'success' && rs.orders).toHaveLength(1);
  });

  it('commit-then-timeout creates the order and withholds the answer past the client timeout', async () => {
    const token = await createToken(airline.url, '4000056655665556');
    const { shoppingResponseId, priced, passengers } = await pricedOffer(c, { date: inDays(46) });
    await arm({ operation: 'OrderCreate', mode: 'commit-then-timeout', count: 1 });
    const outcome = await postOrderWithin(airline.url, c.orderCreateXml(priced, token, passengers), 1500);
    expect(outcome).toBe('timed out');
    // The order exists although the client never saw the answer; exactly one.
    let orders = 0;
    await eventually(async () => {
      const rs = decodeOrderViewRs((await c.getOrders(shoppingResponseId, 'AGENCY01')).text);
      orders = rs.kind === 'success' ? rs.orders.length : 0;
      return orders > 0;
    });
    expect(orders).toBe(1);
  });

  it('commit-then-timeout with a short delayMs answers after it', async () => {
    await arm({ operation: 'AirShopping', mode: 'commit-then-timeout', count: 1, delayMs: 300 });
    const started = Date.now();
    const res = await postXml(airline.url, '/retail/offers', search());
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('commit-then-timeout withholds an NDC error answer as it does any answer', async () => {
    await arm({ operation: 'AirShopping', mode: 'commit-then-timeout', count: 1, delayMs: 300 });
    const started = Date.now();
    const res = await postXml(
      airline.url,
      '/retail/offers',
      daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(-2) }]),
    );
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const rs = decodeAirShoppingRs(res.text);
    expect(rs.kind === 'error' && rs.errors.map((e) => e.code)).toEqual(['710']);
  });

  it('commit-then-500 answers 500 also when the work ended in an NDC error', async () => {
    await arm({ operation: 'AirShopping', mode: 'commit-then-500', count: 1 });
    const res = await postXml(
      airline.url,
      '/retail/offers',
      daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(-2) }]),
    );
    expect([res.status, res.text]).toEqual([500, 'Internal Server Error (simulated fault)']);
  });

  it('OrderRetrieve faults apply to the GET of orders too', async () => {
    await arm({ operation: 'OrderRetrieve', mode: 'http500', count: 1 });
    expect((await c.getOrders('SR-X', 'AGENCY01')).status).toBe(500);
    expect((await c.getOrders('SR-X', 'AGENCY01')).status).toBe(200);
  });

  it('needs the airline Basic credentials (401 without, or with wrong ones)', async () => {
    const body = { operation: 'AirShopping', mode: 'http500', count: 1 };
    expect((await postJson(airline.url, '/_sim/faults', body)).status).toBe(401);
    const wrong = `Basic ${Buffer.from('agency:wrong').toString('base64')}`;
    expect((await postJson(airline.url, '/_sim/faults', body, { Authorization: wrong })).status).toBe(401);
    expect((await http(`${airline.url}/_sim/faults`)).status).toBe(401);
    expect((await http(`${airline.url}/_sim/faults`, { method: 'DELETE' })).status).toBe(401);
    // Nothing was armed: the search works.
    expect((await postXml(airline.url, '/retail/offers', search())).status).toBe(200);
  });

  it('a fault armed for agency A never hits agency B', async () => {
    const res = await arm({ operation: 'AirShopping', mode: 'http500', count: 2, agencyId: 'AGENCY-A' });
    expect(JSON.parse(res.text).armed).toEqual({
      operation: 'AirShopping',
      mode: 'http500',
      remaining: 2,
      delayMs: 0,
      agencyId: 'AGENCY-A',
    });
    const dayFor = (agency: string) => daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(21) }], ONE_ADULT, agency);
    for (let i = 0; i < 3; i++)
      expect((await postXml(airline.url, '/retail/offers', dayFor('AGENCY-B'))).status).toBe(200);
    expect(
      JSON.parse((await http(`${airline.url}/_sim/faults`, { headers: { Authorization: AUTH } })).text).faults[0]
        .remaining,
    ).toBe(2);
    expect((await postXml(airline.url, '/retail/offers', dayFor('AGENCY-A'))).status).toBe(500);
    expect((await postXml(airline.url, '/retail/offers', dayFor('AGENCY-B'))).status).toBe(200);
    expect((await postXml(airline.url, '/retail/offers', dayFor('AGENCY-A'))).status).toBe(500);
    expect((await postXml(airline.url, '/retail/offers', dayFor('AGENCY-A'))).status).toBe(200);
  });

  it('agency-scoped faults match agencyID of the GET and of the token JSON', async () => {
    await arm({ operation: 'OrderRetrieve', mode: 'http500', count: 1, agencyId: 'AGENCY-A' });
    expect((await c.getOrders('SR-X', 'AGENCY-B')).status).toBe(200);
    expect((await c.getOrders('SR-X', 'AGENCY-A')).status).toBe(500);
    await arm({ operation: 'Token', mode: 'http500', count: 1, agencyId: 'AGENCY-A' });
    expect((await postJson(airline.url, '/payment/tokens', tokenRequest('4111111111111111'))).status).toBe(201);
    expect(
      (await postJson(airline.url, '/payment/tokens', { ...tokenRequest('4111111111111111'), agencyID: 'AGENCY-B' }))
        .status,
    ).toBe(201);
    expect(
      (await postJson(airline.url, '/payment/tokens', { ...tokenRequest('4111111111111111'), agencyID: 'AGENCY-A' }))
        .status,
    ).toBe(500);
  });

  it('is disabled (404) when NODE_ENV=production', async () => {
    const prod = await startAirline({ production: true });
    try {
      const res = await postJson(
        prod.url,
        '/_sim/faults',
        { operation: 'Token', mode: 'http500', count: 1 },
        { Authorization: AUTH },
      );
      expect(res.status).toBe(404);
      expect((await postJson(prod.url, '/payment/tokens', tokenRequest('4111111111111111'))).status).toBe(201);
    } finally {
      await prod.close();
    }
  });
});
