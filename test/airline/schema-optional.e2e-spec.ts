/**
 * Schema-valid requests that leave out an element the airline needs (issue 18): the PTC of a
 * passenger (optional in PassengerType), a SecurePaymentAlert's URLs and a pre-authenticated
 * result's ECI (each optional in SecurePaymentAlertType). Each request is XSD-valid and decodes;
 * the airline answers 200 with an NDC `Errors` 701 naming the element, books and holds nothing,
 * and serves the same request once the element is there.
 */
import { AirlineStore } from '../../src/airline/store/airline.store';
import { decodeAirShoppingRs, encodeOrderCreateRq, type OrderCreateRq } from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';
import { type RunningAirline, createToken, postXml, startAirline } from './airline-harness';
import { FAMILY, NdcClient, checkXml, daySearchXml, inDays, pricedOffer } from './ndc-client';

const SPA = 'OrderCreateParameters/Alerts/Alert/SecurePaymentAlert';

/** The single 701 of an NDC error answer, as `[code, text]`. */
function only701(errors: { code?: string; text: string }[] | undefined): [string | undefined, string] {
  expect(errors).toHaveLength(1);
  return [errors![0].code, errors![0].text];
}

describe('airline: a schema-valid request without an element it needs', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  let store: AirlineStore;
  let day = 140;

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
    store = airline.app.get(AirlineStore);
  });

  /** Seats sold (or held) on the segments of the offer `rq` orders. */
  function seatsSold(rq: OrderCreateRq): number {
    const segments = store.responses.getPricing(rq.offers[0].responseId)!.segments;
    return segments.reduce((n, s) => n + store.inventory.sold(s.inventoryKey, s.rbd), 0);
  }

  afterAll(() => airline.close());

  /** A priced one-way offer on a fresh day and the OrderCreateRQ paying it with a new token of `card`. */
  async function orderFor(card: string): Promise<OrderCreateRq> {
    const token = await createToken(airline.url, card);
    const { priced, passengers } = await pricedOffer(c, { date: inDays(day++), token });
    return c.orderCreateModel(priced, token, passengers);
  }

  /** Posts `rq` (checked against the XSD first); the OrderViewRS error's `[code, text]`. No seat may be sold or held. */
  async function orderError(rq: OrderCreateRq): Promise<[string | undefined, string]> {
    const xml = encodeOrderCreateRq(rq);
    expectValidXsd(xml, 'OrderCreateRQ');
    const before = seatsSold(rq);
    const rs = await c.orderXml(xml);
    if (rs.kind !== 'error') throw new Error(`expected NDC Errors, got ${JSON.stringify(rs)}`);
    expect(seatsSold(rq)).toBe(before);
    return only701(rs.errors);
  }

  it('AirShoppingRQ with a passenger without PTC: 200 AirShoppingRS, 701 naming the PTC', async () => {
    const xml = daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(30) }], FAMILY).replace(
      '<Passenger PassengerID="PAX__CHD01"><PTC>CHD</PTC>',
      '<Passenger PassengerID="PAX__CHD01">',
    );
    expectValidXsd(xml, 'AirShoppingRQ');
    const res = await postXml(airline.url, '/retail/offers', xml);
    expect(res.status).toBe(200);
    expect(checkXml(res)).toBe('AirShoppingRS');
    const rs = decodeAirShoppingRs(res.text);
    expect(only701(rs.kind === 'error' ? rs.errors : undefined)).toStrictEqual([
      '701',
      "the message has no PassengerList/Passenger[@PassengerID='PAX__CHD01']/PTC, which this operation needs (PassengerList/Passenger[@PassengerID='PAX__CHD01']/PTC)",
    ]);
  });

  it('OrderCreateRQ with a passenger without PTC: 701 naming it, nothing booked; with the PTC the order is made', async () => {
    const rq = await orderFor('4111111111111111');
    const [first, ...others] = rq.passengers;
    const { ptc: _ptc, ...withoutPtc } = first;
    expect(await orderError({ ...rq, passengers: [withoutPtc, ...others] })).toStrictEqual([
      '701',
      "the message has no PassengerList/Passenger[@PassengerID='PAX__ADT01']/PTC, which this operation needs (PassengerList/Passenger[@PassengerID='PAX__ADT01']/PTC)",
    ]);
    expect((await c.orderXml(encodeOrderCreateRq(rq))).kind).toBe('success');
  });

  it('OrderCreateRQ for a 3-D Secure card whose SecurePaymentAlert has no URLs: 701 naming TermURL, no challenge', async () => {
    const rq = await orderFor('4000000000003220');
    const { failUrl: _f, termUrl: _t, ...deviceOnly } = rq.securePayment!;
    expect(await orderError({ ...rq, securePayment: deviceOnly })).toStrictEqual([
      '701',
      `the message has no ${SPA}/URLs/TermURL, which this operation needs (${SPA}/URLs/TermURL)`,
    ]);
    // The complete request gets its challenge.
    const res = await postXml(airline.url, '/retail/orders', encodeOrderCreateRq(rq));
    expect(checkXml(res)).toBe('CustomerInputRQ');
  });

  it('OrderCreateRQ with a pre-authenticated result without ECI: 701 naming it, nothing charged', async () => {
    const rq = await orderFor('4000000000003220');
    const authentication = { transactionId: '5b1f0c2e-77aa-4c1d', cavv: 'AAABCZIhcQAAAABZlyFxAAAAAAA=', status: 'Y' };
    expect(await orderError({ ...rq, securePayment: { ...rq.securePayment!, authentication } })).toStrictEqual([
      '701',
      `the message has no ${SPA}/ProcessingInfos/ProcessingInfo/ECI, which this operation needs (${SPA}/ProcessingInfos/ProcessingInfo/ECI)`,
    ]);
    const complete = {
      ...rq,
      securePayment: { ...rq.securePayment!, authentication: { ...authentication, eci: '05' } },
    };
    expect((await c.orderXml(encodeOrderCreateRq(complete))).kind).toBe('success');
  });
});
