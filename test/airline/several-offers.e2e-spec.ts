/**
 * Several offers per request at the embedded airline over real HTTP: a flight offer priced and
 * ordered with à-la-carte offers of their own responses (a bag from ServiceListRS, a seat from
 * SeatAvailabilityRS, each sent as a separate `Offer`), offers of another owner or response
 * refused with NDC errors naming them, and the same through the real client (`NdcHttpClient` and
 * the booking's `orderCreateRq`). Every XML answer of the raw requests is checked against its XSD.
 */
import type { AirlineClock } from '../../src/airline/airline.ports';
import { add } from '../../src/common/decimal';
import {
  type OfferPriceRs,
  type OrderOffer,
  type OrderViewRs,
  type SelectedOffer,
  encodeOfferPriceRq,
  encodeOrderCreateRq,
} from '../../src/ndc';
import { NdcBusinessError, NdcHttpClient } from '../../src/ndc-client';
import type { IntentPassenger } from '../../src/booking/booking.model';
import { type NdcContext, offerPriceRq, orderCreateRq } from '../../src/booking/intent-to-ndc';
import { type RunningAirline, createToken, ndcClientConfig, startAirline } from './airline-harness';
import {
  NdcClient,
  type DayRs,
  type PricedRs,
  cheapest,
  common,
  inDays,
  selectAll,
  withIndividuals,
} from './ndc-client';

class MovableClock implements AirlineClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** A debit card: no CCF2 surcharge. */
const DEBIT = '4000056655665556';
const ADULTS = [
  { passengerId: 'PAX__ADT01', ptc: 'ADT' },
  { passengerId: 'PAX__ADT02', ptc: 'ADT' },
];

/** A bag for ADT01 (ServiceListRS) and a seat for ADT02 (SeatAvailabilityRS), each its own offer with its unit price. */
interface Extras {
  bag: SelectedOffer;
  bagPrice: string;
  seat: SelectedOffer;
  seatPrice: string;
  seatLabel: { row: number; column: string };
}

async function extrasFor(client: NdcHttpClient, sel: SelectedOffer, agencyId = 'AGENCY01'): Promise<Extras> {
  const list = await client.serviceList({
    ...common(agencyId),
    shoppingResponseId: sel.responseId,
    offers: [{ offerId: sel.offerId, owner: sel.owner, offerItemIds: sel.offerItems.map((i) => i.offerItemId) }],
    passengers: ADULTS,
  });
  const bag = list.aLaCarteOffer!.offerItems.find((i) => i.serviceDefinitionRef === 'SD__YN1')!;
  const map = await client.seatAvailability({
    ...common(agencyId),
    offer: { offerId: sel.offerId, owner: sel.owner, responseId: sel.responseId, segmentIds: [], passengerIds: [] },
    passengers: ADULTS,
  });
  const row = map.seatMaps[0].cabins[0].rows.find((r) => r.number > 20 && !r.characteristics.includes('E'))!;
  const free = row.seats.find((s) => s.status === 'F')!;
  const item = map.aLaCarteOffer!.offerItems.find((i) => free.offerItemRefs.includes(i.offerItemId))!;
  return {
    bag: {
      offerId: list.aLaCarteOffer!.offerId,
      owner: list.aLaCarteOffer!.owner,
      responseId: list.shoppingResponseId!,
      offerItems: [{ offerItemId: bag.offerItemId, passengerRefs: ['PAX__ADT01'], aLaCarteSelection: { quantity: 1 } }],
    },
    bagPrice: bag.unitPrice!.value,
    seat: {
      offerId: map.aLaCarteOffer!.offerId,
      owner: map.aLaCarteOffer!.owner,
      responseId: map.shoppingResponseId!,
      offerItems: [
        {
          offerItemId: item.offerItemId,
          passengerRefs: ['PAX__ADT02'],
          aLaCarteSelection: { quantity: 1, segmentId: map.seatMaps[0].segmentRef },
          seatSelection: { row: row.number, column: free.column },
        },
      ],
    },
    seatPrice: item.unitPrice!.value,
    seatLabel: { row: row.number, column: free.column },
  };
}

function errorOf(rs: OfferPriceRs | OrderViewRs): [string, string] {
  if (rs.kind !== 'error') throw new Error(`expected NDC errors, got ${JSON.stringify(rs).slice(0, 300)}`);
  return [rs.errors[0].code ?? '', rs.errors[0].text ?? ''];
}

function success<T extends { kind: string }>(rs: T): Extract<T, { kind: 'success' }> {
  if (rs.kind !== 'success') throw new Error(`expected success, got ${JSON.stringify(rs)}`);
  return rs as Extract<T, { kind: 'success' }>;
}

/** The à-la-carte offer as an OrderCreateRQ `Offer`, with its TotalOfferPrice. */
function orderOffer(o: SelectedOffer, total: string): OrderOffer {
  return { ...o, totalOfferPrice: { value: total, currency: 'GBP' } };
}

describe('several offers per request (airline over HTTP)', () => {
  let airline: RunningAirline;
  let client: NdcHttpClient;
  let c: NdcClient;
  let day: DayRs;
  let sel: SelectedOffer;

  const clock = new MovableClock();

  beforeAll(async () => {
    airline = await startAirline({}, { clock });
    client = new NdcHttpClient(ndcClientConfig(airline));
    c = new NdcClient(airline.url);
    day = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(25) }], ADULTS);
    sel = selectAll(day, cheapest(day, 'OD__LGW_OSL'));
  });

  afterAll(async () => {
    client.close();
    await airline.close();
  });

  const price = (offers: SelectedOffer[], tx = 'TX-SEV1') =>
    c.priceXml(
      encodeOfferPriceRq({
        ...common(),
        transactionIdentifier: tx,
        offers,
        passengers: withIndividuals(ADULTS, false),
      }),
    );

  it('prices a flight offer with a bag offer and a seat offer sent as separate Offers: one PricedOffer, total the exact sum', async () => {
    const x = await extrasFor(client, sel);
    const flight = success(await price([sel], 'TX-SEV0'));
    const priced = success(await price([sel, x.bag, x.seat]));
    const extras = priced.pricedOffer.offerItems.filter((i) => i.offerItemId.startsWith('ALC-'));
    expect(extras.map((i) => [i.offerItemId, i.priceDetail.total!.value])).toStrictEqual([
      [`${x.bag.offerItems[0].offerItemId}-PAX__ADT01`, x.bagPrice],
      [`${x.seat.offerItems[0].offerItemId}-PAX__ADT02`, x.seatPrice],
    ]);
    expect(extras[1].services[0].selectedSeat).toMatchObject(x.seatLabel);
    expect(priced.pricedOffer.total).toStrictEqual({
      value: add(2, flight.pricedOffer.total!.value, x.bagPrice, x.seatPrice),
      currency: 'GBP',
    });
  });

  it('orders the priced flight offer with the à-la-carte offers of their own responses: total exact, the items in the order', async () => {
    const x = await extrasFor(client, sel);
    const priced = success(await price([sel], 'TX-SEV2')) as PricedRs;
    const model = c.orderCreateModel(priced, await createToken(airline.url, DEBIT), ADULTS);
    const total = add(2, priced.pricedOffer.total!.value, x.bagPrice, x.seatPrice);
    const view = success(
      await c.orderXml(
        encodeOrderCreateRq({
          ...model,
          transactionIdentifier: 'TX-SEV2',
          offers: [...model.offers, orderOffer(x.bag, x.bagPrice), orderOffer(x.seat, x.seatPrice)],
          payments: [{ ...model.payments[0], amount: { value: total, currency: 'GBP' } }],
        }),
      ),
    );
    const [order] = view.orders;
    expect(order.totalOrderPrice).toStrictEqual({ value: total, currency: 'GBP' });
    const services = order.orderItems.flatMap((i) => i.services);
    expect(services.filter((s) => s.serviceDefinitionRef === 'SD__YN1').map((s) => s.passengerRef)).toStrictEqual([
      'PAX__ADT01',
    ]);
    expect(services.filter((s) => s.selectedSeat)).toStrictEqual([
      expect.objectContaining({ passengerRef: 'PAX__ADT02', selectedSeat: expect.objectContaining(x.seatLabel) }),
    ]);
    expect(add(2, ...order.orderItems.flatMap((i) => [i.base.value, i.taxes!.value]))).toBe(total);
    expect(view.dataLists.serviceDefinitions?.map((d) => d.serviceDefinitionId)).toEqual(
      expect.arrayContaining(['SD__YN1']),
    );
    // The seat is sold: another transaction sees it occupied.
    const after = await client.seatAvailability({
      ...common(),
      transactionIdentifier: 'TX-OTHER',
      offer: { offerId: sel.offerId, owner: 'ZZ', responseId: sel.responseId, segmentIds: [], passengerIds: [] },
      passengers: ADULTS,
    });
    const row = after.seatMaps[0].cabins[0].rows.find((r) => r.number === x.seatLabel.row)!;
    expect(row.seats.find((s) => s.column === x.seatLabel.column)!.status).toBe('O');
    // Cancelled after the void window: the cheapest class (ECONOMY) refunds the fares' taxes
    // only, and the extras (taxes 0) nothing: the refund is the sum of the items' taxes.
    clock.offsetMs = 25 * 3_600_000;
    try {
      const cancel = await client.orderCancel({ ...common(), order: { orderId: order.orderId, owner: 'ZZ' } });
      const taxes = add(2, ...order.orderItems.map((i) => i.taxes!.value));
      expect(cancel.cancellations[0].refund).toStrictEqual({ value: taxes, currency: 'GBP' });
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('refuses an à-la-carte offer of another owner (724) or of another or unknown response (725, 720), naming it', async () => {
    const x = await extrasFor(client, sel);
    const other = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(26) }], ADULTS);
    const foreign = { ...x.seat, owner: 'XX' };
    expect(errorOf(await price([sel, x.bag, foreign]))).toStrictEqual([
      '724',
      `Offer ${x.seat.offerId} is owned by XX, not by ZZ`,
    ]);
    const elsewhere = { ...x.bag, responseId: other.shoppingResponseId };
    expect(errorOf(await price([sel, elsewhere]))).toStrictEqual([
      '725',
      `Offer ${x.bag.offerId} comes from response ${other.shoppingResponseId}, not from ${sel.responseId} of the flight offers`,
    ]);
    expect(errorOf(await price([sel, { ...x.bag, responseId: 'SR-NOPE' }]))).toStrictEqual([
      '720',
      `Offer ${x.bag.offerId}: ResponseID SR-NOPE not found`,
    ]);
    expect(errorOf(await price([{ ...sel, owner: 'XX' }]))).toStrictEqual([
      '724',
      `Offer ${sel.offerId} is owned by XX, not by ZZ`,
    ]);

    const priced = success(await price([sel], 'TX-SEV3')) as PricedRs;
    const model = c.orderCreateModel(priced, await createToken(airline.url, DEBIT), ADULTS);
    const order = (offer: OrderOffer) =>
      c.orderXml(encodeOrderCreateRq({ ...model, offers: [...model.offers, offer] }));
    expect(errorOf(await order(orderOffer(foreign, x.seatPrice)))).toStrictEqual([
      '724',
      `Offer ${x.seat.offerId} is owned by XX, not by ZZ`,
    ]);
    expect(errorOf(await order(orderOffer(elsewhere, x.bagPrice)))).toStrictEqual([
      '725',
      `Offer ${x.bag.offerId} comes from response ${other.shoppingResponseId}, not from ${sel.responseId} of the flight offers`,
    ]);
    expect(errorOf(await order(orderOffer(x.bag, '1.00')))).toStrictEqual([
      '740',
      `TotalOfferPrice 1.00 GBP of Offer ${x.bag.offerId} differs from the sum of its items ${x.bagPrice} GBP`,
    ]);
  });

  it('the client: prices with several offers and orders the priced offer with à-la-carte offers, paying the sum', async () => {
    const x = await extrasFor(client, sel);
    const passengers: IntentPassenger[] = ['John', 'Anna'].map((givenName) => ({
      type: 'ADT',
      title: 'MR',
      givenName,
      surname: 'Smith',
      birthdate: '1984-06-02',
      contactId: 'CTC__1',
    }));
    const ctx: NdcContext = {
      correlationId: 'several-offers-client',
      agency: { id: 'AGENCY01', name: 'Saga Travel' },
      pointOfSale: 'GB',
      currency: 'GBP',
      language: 'EN',
      passengers,
      contacts: [{ id: 'CTC__1', emails: ['john.smith@example.com'], phones: [] }],
    };
    const stamp = {
      target: 'Test',
      timeStamp: new Date().toISOString().slice(0, 19) + 'Z',
      transactionIdentifier: 'TX-SEV4',
    };
    const all = await client.offerPrice(offerPriceRq(ctx, stamp, [sel, x.bag, x.seat]));
    const flight = await client.offerPrice(offerPriceRq(ctx, stamp, [sel]));
    const sum = add(2, flight.pricedOffer.total!.value, x.bagPrice, x.seatPrice);
    expect(all.pricedOffer.total!.value).toBe(sum);
    const token = await createToken(airline.url, DEBIT);
    const rq = orderCreateRq(
      ctx,
      stamp,
      {
        responseId: flight.shoppingResponseId!,
        offerId: flight.pricedOffer.offerId,
        owner: flight.pricedOffer.owner,
        total: { value: flight.pricedOffer.total!.value, currency: 'GBP' },
        offerItems: flight.pricedOffer.offerItems.map((i) => ({
          offerItemId: i.offerItemId,
          passengerRefs: i.services[0].passengerRefs,
        })),
        aLaCarte: [
          { ...x.bag, total: { value: x.bagPrice, currency: 'GBP' } },
          { ...x.seat, total: { value: x.seatPrice, currency: 'GBP' } },
        ],
      },
      token,
      {
        failUrl: 'https://agency.example/fail',
        termUrl: 'https://agency.example/done',
        ipAddress: '203.0.113.17',
        userAgent: 'Mozilla/5.0',
      },
    );
    expect(rq.offers.map((o) => o.offerId)).toStrictEqual([flight.pricedOffer.offerId, x.bag.offerId, x.seat.offerId]);
    const answer = await client.orderCreate(rq);
    if (!('rs' in answer)) throw new Error('unexpected 3-D Secure challenge');
    expect(answer.rs.orders[0].totalOrderPrice).toStrictEqual({ value: sum, currency: 'GBP' });
    expect(rq.payments[0].amount).toStrictEqual({ value: sum, currency: 'GBP' });
    // A foreign à-la-carte offer is the airline's NDC error, thrown as NdcBusinessError naming it.
    const refused = client.offerPrice(offerPriceRq(ctx, stamp, [sel, { ...x.bag, owner: 'XX' }]));
    await expect(refused).rejects.toBeInstanceOf(NdcBusinessError);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining(`Offer ${x.bag.offerId} is owned by XX`),
    });
  });
});
