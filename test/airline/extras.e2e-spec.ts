/**
 * Extras at the embedded airline over real HTTP: ServiceList and SeatAvailability, OfferPrice with
 * selected bags and seats (locked to the TransactionIdentifier, warning 281 for a seat someone
 * else holds), OrderCreate selling each seat at most once, also to many concurrent buyers. Every
 * XML response is checked against its 17.2 XSD.
 */
import { add } from '../../src/common/decimal';
import {
  type OfferPriceRs,
  type SeatAvailabilityRs,
  type SeatMapSeat,
  type SelectedOffer,
  type SelectedOfferItem,
  type ServiceListRs,
  decodeSeatAvailabilityRs,
  decodeServiceListRs,
  encodeOfferPriceRq,
  encodeSeatAvailabilityRq,
  encodeServiceListRq,
} from '../../src/ndc';
import type { ALaCarteOfferItem } from '../../src/ndc/extras.model';
import { NdcBusinessError, NdcHttpClient } from '../../src/ndc-client';
import { type RunningAirline, createToken, ndcClientConfig, postXml, startAirline } from './airline-harness';
import {
  AGENCY,
  FAMILY,
  NdcClient,
  type DayRs,
  type PricedRs,
  checkXml,
  cheapest,
  common,
  inDays,
  selectAll,
  withIndividuals,
} from './ndc-client';

type Services = Extract<ServiceListRs, { kind: 'success' }>;
type SeatMaps = Extract<SeatAvailabilityRs, { kind: 'success' }>;

/** A debit card: no CCF2 surcharge, so the priced total is what is paid. */
const DEBIT = '4000056655665556';

async function serviceList(base: string, rs: DayRs, offer: SelectedOffer): Promise<ServiceListRs> {
  const xml = encodeServiceListRq({
    ...common(),
    shoppingResponseId: rs.shoppingResponseId,
    offers: [{ offerId: offer.offerId, owner: offer.owner, offerItemIds: offer.offerItems.map((i) => i.offerItemId) }],
    passengers: FAMILY,
  });
  const res = await postXml(base, '/retail/services', xml);
  expect(res.status).toBe(200);
  expect(checkXml(res)).toBe('ServiceListRS');
  return decodeServiceListRs(res.text);
}

async function seatMap(
  base: string,
  offer: SelectedOffer,
  tx = 'TX-0001',
  agencyId = AGENCY,
): Promise<SeatAvailabilityRs> {
  const xml = encodeSeatAvailabilityRq({
    ...common(agencyId),
    transactionIdentifier: tx,
    offer: {
      offerId: offer.offerId,
      owner: offer.owner,
      responseId: offer.responseId,
      segmentIds: [],
      passengerIds: [],
    },
    passengers: FAMILY,
  });
  const res = await postXml(base, '/retail/availability/seat', xml);
  expect(res.status).toBe(200);
  expect(checkXml(res)).toBe('SeatAvailabilityRS');
  return decodeSeatAvailabilityRs(res.text);
}

async function price(
  c: NdcClient,
  offer: SelectedOffer,
  extras: SelectedOfferItem[],
  opts: { tx?: string; agencyId?: string; passengers?: typeof FAMILY } = {},
): Promise<OfferPriceRs> {
  const alc: SelectedOffer = {
    offerId: `ALC__${offer.responseId}`,
    owner: 'ZZ',
    responseId: offer.responseId,
    offerItems: extras,
  };
  return c.priceXml(
    encodeOfferPriceRq({
      ...common(opts.agencyId),
      transactionIdentifier: opts.tx ?? 'TX-0001',
      offers: extras.length ? [offer, alc] : [offer],
      passengers: withIndividuals(opts.passengers ?? FAMILY, false),
    }),
  );
}

function success<T extends { kind: string }>(rs: T): Extract<T, { kind: 'success' }> {
  if (rs.kind !== 'success') throw new Error(`expected success, got ${JSON.stringify(rs)}`);
  return rs as Extract<T, { kind: 'success' }>;
}

/** The seats of the first segment's map with their labels. */
function seatsOf(map: SeatMaps): (SeatMapSeat & { label: string; row: number; exit: boolean })[] {
  return map.seatMaps[0].cabins[0].rows.flatMap((r) =>
    r.seats.map((s) => ({
      ...s,
      label: `${r.number}${s.column}`,
      row: r.number,
      exit: r.characteristics.includes('E'),
    })),
  );
}

function seatPick(
  map: SeatMaps,
  seat: { row: number; column: string; offerItemRefs: string[] },
  paxId: string,
  ptc: string,
): SelectedOfferItem {
  const item = map.aLaCarteOffer!.offerItems.find(
    (i) => seat.offerItemRefs.includes(i.offerItemId) && i.offerItemId.includes(`-${ptc}-`),
  )!;
  return {
    offerItemId: item.offerItemId,
    passengerRefs: [paxId],
    aLaCarteSelection: { quantity: 1, segmentId: map.seatMaps[0].segmentRef },
    seatSelection: { row: seat.row, column: seat.column },
  };
}

describe('airline extras', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  let rs: DayRs;
  let offer: SelectedOffer;

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
    rs = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(30) }]);
    offer = selectAll(rs, cheapest(rs, 'OD__LGW_OSL'));
  });

  afterAll(async () => {
    await airline.close();
  });

  it('ServiceList: bags for adults and the child, not for the infant on a lap; a baby meal only for the infant', async () => {
    const list = success(await serviceList(airline.url, rs, offer)) as Services;
    const items = list.aLaCarteOffer!.offerItems;
    const byCode = (code: string) => items.filter((i) => i.serviceDefinitionRef === `SD__${code}`);
    expect(byCode('YN1').map((i) => [i.passengerRefs, i.unitPrice])).toStrictEqual([
      [['PAX__ADT01', 'PAX__ADT02'], { value: '35.00', currency: 'GBP' }],
      [['PAX__CHD01'], { value: '35.00', currency: 'GBP' }],
    ]);
    expect(byCode('SPML_BBML').map((i) => i.passengerRefs)).toStrictEqual([['PAX__INF01']]);
    expect(
      items.some((i) => i.passengerRefs.includes('PAX__INF01') && i.serviceDefinitionRef !== 'SD__SPML_BBML'),
    ).toBe(false);
    expect(list.dataLists.serviceDefinitions!.map((d) => d.serviceDefinitionId)).toContain('SD__YN1');
  });

  it('ServiceList without Query/Offers is refused with 701 naming it', async () => {
    const xml = encodeServiceListRq({
      ...common(),
      shoppingResponseId: rs.shoppingResponseId,
      offers: [],
      passengers: FAMILY,
    });
    const res = await postXml(airline.url, '/retail/services', xml);
    checkXml(res);
    const back = decodeServiceListRs(res.text);
    expect(back.kind === 'error' && back.errors[0]).toMatchObject({
      code: '701',
      text: expect.stringContaining('Query/Offers/Offer'),
    });
  });

  it('SeatAvailability: a seat map with exit rows blocked for infants, every seat free and priced by zone', async () => {
    const map = success(await seatMap(airline.url, offer)) as SeatMaps;
    const seats = seatsOf(map);
    expect(seats.length).toBeGreaterThan(100);
    expect(seats.every((s) => s.status === 'F' && s.offerItemRefs.length === 2)).toBe(true);
    const exit = seats.filter((s) => s.exit);
    expect(exit.length).toBeGreaterThan(0);
    expect(exit.every((s) => s.characteristics.includes('1A') && s.offerItemRefs[0].startsWith('ALC-XST_ZONE3-'))).toBe(
      true,
    );
    const zone3 = map.aLaCarteOffer!.offerItems.find((i: ALaCarteOfferItem) =>
      i.offerItemId.startsWith('ALC-XST_ZONE3-ADT-'),
    )!;
    expect(zone3.unitPrice).toStrictEqual({ value: '18.00', currency: 'GBP' });
    expect(zone3.passengerRefs).toStrictEqual(['PAX__ADT01', 'PAX__ADT02']);
  });

  describe('a bag and two seats priced, a seat held by another transaction, ordered', () => {
    let map: SeatMaps;
    let priced: PricedRs;
    let seatA: ReturnType<typeof seatsOf>[number];
    let seatB: ReturnType<typeof seatsOf>[number];

    it('prices the extras into the offer, totals exact', async () => {
      map = success(await seatMap(airline.url, offer)) as SeatMaps;
      const free = seatsOf(map).filter((s) => !s.exit && s.row > 20);
      [seatA, seatB] = [free[0], free[1]];
      const list = success(await serviceList(airline.url, rs, offer)) as Services;
      const yn1 = list.aLaCarteOffer!.offerItems.find((i) => i.serviceDefinitionRef === 'SD__YN1')!;
      const base = success(await price(c, offer, []));
      priced = success(
        await price(c, offer, [
          { offerItemId: yn1.offerItemId, passengerRefs: ['PAX__ADT01'], aLaCarteSelection: { quantity: 1 } },
          seatPick(map, seatA, 'PAX__ADT02', 'ADT'),
          seatPick(map, seatB, 'PAX__CHD01', 'CHD'),
        ]),
      ) as PricedRs;
      expect(priced.warnings).toBeUndefined();
      const extras = priced.pricedOffer.offerItems.filter((i) => i.offerItemId.startsWith('ALC-'));
      expect(extras.map((i) => [i.offerItemId.split('-')[1], i.priceDetail.total!.value])).toStrictEqual([
        ['YN1', '35.00'],
        ['XST_ZONE4', '6.00'],
        ['XST_ZONE4', '6.00'],
      ]);
      expect(extras[1].services[0].selectedSeat).toMatchObject({ row: seatA.row, column: seatA.column });
      expect(priced.pricedOffer.total!.value).toBe(add(2, base.pricedOffer.total!.value, '47.00'));
    });

    it('another transaction sees the locked seats occupied and gets 281 for one; the rest is priced', async () => {
      const rs2 = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(30) }], FAMILY, 'AGENCY02');
      const offer2 = selectAll(rs2, cheapest(rs2, 'OD__LGW_OSL'));
      const map2 = success(await seatMap(airline.url, offer2, 'TX-OTHER', 'AGENCY02')) as SeatMaps;
      const status = (label: string) => seatsOf(map2).find((s) => s.label === label)!.status;
      expect([status(seatA.label), status(seatB.label)]).toStrictEqual(['O', 'O']);
      const free2 = seatsOf(map2).find((s) => s.status === 'F' && !s.exit)!;
      const lost = seatsOf(map2).find((s) => s.label === seatA.label)!;
      const got = success(
        await price(
          c,
          offer2,
          [seatPick(map2, lost, 'PAX__ADT02', 'ADT'), seatPick(map2, free2, 'PAX__CHD01', 'CHD')],
          {
            tx: 'TX-OTHER',
            agencyId: 'AGENCY02',
          },
        ),
      );
      expect(got.warnings).toStrictEqual([
        { code: '281', shortText: 'Seat not available', text: `Unable to request seat ${seatA.label}` },
      ]);
      const seatItems = got.pricedOffer.offerItems.filter((i) => i.services[0].selectedSeat);
      expect(seatItems.map((i) => i.services[0].selectedSeat!.column)).toStrictEqual([free2.column]);
    });

    it('refuses an exit-row seat for the adult holding the infant with 281', async () => {
      const exit = seatsOf(map).find((s) => s.exit)!;
      const got = success(await price(c, offer, [seatPick(map, exit, 'PAX__ADT01', 'ADT')], { tx: 'TX-0003' }));
      expect(got.warnings?.map((w) => [w.code, w.text])).toStrictEqual([
        ['281', `Unable to request seat ${exit.label}`],
      ]);
      expect(got.pricedOffer.offerItems.some((i) => i.offerItemId.startsWith('ALC-'))).toBe(false);
    });

    it('orders the extras: OrderViewRS shows each against passenger and segment, total exact', async () => {
      // The lap-holder pricing above superseded ours: price the extras again in our transaction.
      const list = success(await serviceList(airline.url, rs, offer)) as Services;
      const yn1 = list.aLaCarteOffer!.offerItems.find((i) => i.serviceDefinitionRef === 'SD__YN1')!;
      priced = success(
        await price(c, offer, [
          { offerItemId: yn1.offerItemId, passengerRefs: ['PAX__ADT01'], aLaCarteSelection: { quantity: 1 } },
          seatPick(map, seatA, 'PAX__ADT02', 'ADT'),
          seatPick(map, seatB, 'PAX__CHD01', 'CHD'),
        ]),
      ) as PricedRs;
      expect(priced.warnings).toBeUndefined();
      const token = await createToken(airline.url, DEBIT);
      const view = await c.orderCreate(priced, token, FAMILY);
      if (view.kind !== 'success') throw new Error(JSON.stringify(view));
      const [order] = view.orders;
      expect(order.totalOrderPrice).toStrictEqual(priced.pricedOffer.total);
      const services = order.orderItems.flatMap((i) => i.services);
      const seg = map.seatMaps[0].segmentRef;
      expect(services.filter((s) => s.selectedSeat)).toStrictEqual([
        expect.objectContaining({
          passengerRef: 'PAX__ADT02',
          selectedSeat: expect.objectContaining({ row: seatA.row, column: seatA.column, segmentRef: seg }),
        }),
        expect.objectContaining({
          passengerRef: 'PAX__CHD01',
          selectedSeat: expect.objectContaining({ row: seatB.row, column: seatB.column, segmentRef: seg }),
        }),
      ]);
      expect(services.filter((s) => s.serviceDefinitionRef === 'SD__YN1').map((s) => s.passengerRef)).toStrictEqual([
        'PAX__ADT01',
      ]);
      const sum = add(2, ...order.orderItems.flatMap((i) => [i.base.value, i.taxes!.value]));
      expect(sum).toBe(order.totalOrderPrice!.value);
      const after = success(await seatMap(airline.url, offer)) as SeatMaps;
      expect(seatsOf(after).find((s) => s.label === seatA.label)!.status).toBe('O');
    });
  });

  it('refuses a seat outside its zone (701) and an unknown à-la-carte item (720)', async () => {
    const map = success(await seatMap(airline.url, offer)) as SeatMaps;
    const seat = seatsOf(map).find((s) => !s.exit && s.row > 20)!;
    const pick = seatPick(map, seat, 'PAX__ADT02', 'ADT');
    const wrongZone = await price(c, offer, [
      { ...pick, offerItemId: pick.offerItemId.replace('XST_ZONE4', 'XST_ZONE3') },
    ]);
    expect(wrongZone.kind === 'error' && wrongZone.errors[0].code).toBe('701');
    const unknown = await price(c, offer, [{ offerItemId: 'ALC-NOPE-ADT-SEG__X', passengerRefs: ['PAX__ADT01'] }]);
    expect(unknown.kind === 'error' && unknown.errors[0].code).toBe('720');
  });
});

describe('airline extras: many buyers of one seat', () => {
  let airline: RunningAirline;

  beforeAll(async () => {
    // Locks of 1 ms: every buyer gets the seat priced, so only the sale itself can keep them apart.
    airline = await startAirline({ seatLockMs: 1 });
  });

  afterAll(async () => {
    await airline.close();
  });

  it('sells the seat to exactly one of the concurrent orders; the others get 711 naming it', async () => {
    const c = new NdcClient(airline.url);
    const buyers = 6;
    const orders: { priced: PricedRs; token: string; agency: string }[] = [];
    let label = '';
    for (let n = 0; n < buyers; n++) {
      const agency = `AGENCY1${n}`;
      const one = [FAMILY[0]];
      const day = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(40) }], one, agency);
      const sel = selectAll(day, cheapest(day, 'OD__LGW_OSL'));
      const map = success(await seatMap(airline.url, sel, `TX-B${n}`, agency)) as SeatMaps;
      const seat = seatsOf(map).find((s) => !s.exit && s.row > 20)!;
      label = seat.label;
      const priced = success(
        await price(c, sel, [seatPick(map, seat, 'PAX__ADT01', 'ADT')], {
          tx: `TX-B${n}`,
          agencyId: agency,
          passengers: one,
        }),
      ) as PricedRs;
      expect(priced.warnings).toBeUndefined();
      orders.push({ priced, token: await createToken(airline.url, DEBIT), agency });
    }
    const views = await Promise.all(orders.map((o) => c.orderCreate(o.priced, o.token, [FAMILY[0]], o.agency)));
    expect(views.filter((v) => v.kind === 'success')).toHaveLength(1);
    const refused = views.filter((v) => v.kind === 'error');
    expect(refused).toHaveLength(buyers - 1);
    for (const v of refused) {
      expect(v.kind === 'error' && v.errors[0]).toMatchObject({
        code: '711',
        text: expect.stringContaining(`Seat ${label} `),
      });
    }
  });
});

describe('NdcHttpClient: serviceList, seatAvailability and offerPrice with extras', () => {
  let airline: RunningAirline;
  let client: NdcHttpClient;

  beforeAll(async () => {
    airline = await startAirline();
    client = new NdcHttpClient(ndcClientConfig(airline));
  });

  afterAll(async () => {
    client.close();
    await airline.close();
  });

  it('lists extras, reads the seat map, prices a bag and a seat; an unknown offer is an NdcBusinessError', async () => {
    const c = new NdcClient(airline.url);
    const day = await c.day([{ from: 'LGW', to: 'OSL', date: inDays(20) }]);
    const sel = selectAll(day, cheapest(day, 'OD__LGW_OSL'));
    const list = await client.serviceList({
      ...common(),
      shoppingResponseId: day.shoppingResponseId,
      offers: [{ offerId: sel.offerId, owner: 'ZZ', offerItemIds: sel.offerItems.map((i) => i.offerItemId) }],
      passengers: FAMILY,
    });
    const bag = list.aLaCarteOffer!.offerItems.find((i) => i.serviceDefinitionRef === 'SD__YN1')!;
    const map = await client.seatAvailability({
      ...common(),
      offer: { offerId: sel.offerId, owner: 'ZZ', responseId: sel.responseId, segmentIds: [], passengerIds: [] },
      passengers: FAMILY,
    });
    const seat = seatsOf(map).find((s) => !s.exit && s.row > 20)!;
    const priced = await client.offerPrice({
      ...common(),
      offers: [
        sel,
        {
          offerId: list.aLaCarteOffer!.offerId,
          owner: 'ZZ',
          responseId: sel.responseId,
          offerItems: [
            { offerItemId: bag.offerItemId, passengerRefs: ['PAX__ADT01'], aLaCarteSelection: { quantity: 1 } },
            seatPick(map, seat, 'PAX__ADT02', 'ADT'),
          ],
        },
      ],
      passengers: withIndividuals(FAMILY, false),
    });
    expect(priced.pricedOffer.offerItems.filter((i) => i.offerItemId.startsWith('ALC-'))).toHaveLength(2);
    await expect(
      client.seatAvailability({
        ...common(),
        offer: { offerId: 'NOPE', owner: 'ZZ', responseId: sel.responseId, segmentIds: [], passengerIds: [] },
        passengers: FAMILY,
      }),
    ).rejects.toBeInstanceOf(NdcBusinessError);
  });
});
