/**
 * The AirShopping response cache answers repeated identical searches exactly
 * as a fresh search would: own ShoppingResponseID, own header, priceable, and
 * never across a seat sale.
 */
import { ShoppingCache } from '../../src/airline/http/shopping-cache';
import { decodeAirShoppingRs } from '../../src/ndc';
import { type RunningAirline, createToken, postXml, startAirline } from './airline-harness';
import { ONE_ADULT, NdcClient, checkXml, daySearchXml, inDays, selectAll, cheapest, withIndividuals } from './ndc-client';

describe('airline shopping cache', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  const legs = [
    { from: 'LGW', to: 'OSL', date: inDays(33) },
    { from: 'OSL', to: 'LGW', date: inDays(40) },
  ];

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
  });

  afterAll(async () => {
    await airline.close();
  });

  /** The response with its ShoppingResponseID and header replaced by placeholders. */
  function normalise(xml: string, responseId: string): string {
    return xml
      .split(responseId)
      .join('RID')
      .replace(/TimeStamp="[^"]*"/, 'TimeStamp="T"');
  }

  it('a repeated search gets a new ShoppingResponseID and otherwise the same answer', async () => {
    const cache = airline.app.get(ShoppingCache);
    const first = await postXml(airline.url, '/retail/offers', daySearchXml(legs, ONE_ADULT));
    const hits = cache.hits;
    const xml2 = daySearchXml(legs, ONE_ADULT).replace('TransactionIdentifier="TX-0001"', 'TransactionIdentifier="TX-&amp;2"');
    const second = await postXml(airline.url, '/retail/offers', xml2);
    expect(cache.hits).toBe(hits + 1);
    checkXml(first);
    checkXml(second);
    const a = decodeAirShoppingRs(first.text);
    const b = decodeAirShoppingRs(second.text);
    if (a.kind !== 'day' || b.kind !== 'day') throw new Error('day search failed');
    expect(b.shoppingResponseId).not.toBe(a.shoppingResponseId);
    expect(b.transactionIdentifier).toBe('TX-&2');
    expect(normalise(second.text, b.shoppingResponseId).replace('TX-&amp;2', 'TX-0001')).toBe(normalise(first.text, a.shoppingResponseId));
    // Both responses can be priced.
    for (const rs of [a, b]) {
      const priced = await c.price([selectAll(rs, cheapest(rs, 'OD__LGW_OSL'))], withIndividuals(ONE_ADULT, false));
      expect(priced.kind).toBe('success');
    }
  });

  it('omits TransactionIdentifier and CorrelationID when a repeated request has none', async () => {
    await postXml(airline.url, '/retail/offers', daySearchXml(legs, ONE_ADULT));
    const bare = daySearchXml(legs, ONE_ADULT).replace(' TransactionIdentifier="TX-0001"', '').replace(' CorrelationID="CORR-0001"', '');
    const hits = airline.app.get(ShoppingCache).hits;
    const res = await postXml(airline.url, '/retail/offers', bare);
    expect(airline.app.get(ShoppingCache).hits).toBe(hits + 1);
    checkXml(res);
    const rs = decodeAirShoppingRs(res.text);
    expect([rs.transactionIdentifier, rs.correlationId]).toEqual([undefined, undefined]);
  });

  it('a seat sale invalidates remembered searches (SeatsLeft changes)', async () => {
    const search = daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(34) }], ONE_ADULT);
    const before = decodeAirShoppingRs((await postXml(airline.url, '/retail/offers', search)).text);
    if (before.kind !== 'day') throw new Error('day search failed');
    const offerId = cheapest(before, 'OD__LGW_OSL');
    const priced = await c.price([selectAll(before, offerId)], withIndividuals(ONE_ADULT, false));
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const token = await createToken(airline.url, '4000056655665556');
    expect((await c.orderCreate(priced, token, ONE_ADULT)).kind).toBe('success');
    const hits = airline.app.get(ShoppingCache).hits;
    const after = decodeAirShoppingRs((await postXml(airline.url, '/retail/offers', search)).text);
    expect(airline.app.get(ShoppingCache).hits).toBe(hits);
    if (after.kind !== 'day') throw new Error('day search failed');
    const seats = (rs: typeof before) =>
      (rs.dataLists.priceClasses ?? []).flatMap((pc) => (pc.classesOfService ?? []).map((cos) => cos.seatsLeft ?? 0)).reduce((x, y) => x + y, 0);
    expect(seats(after)).toBe(seats(before) - 1);
  });
});
