/**
 * Price relations of the spec and the fare rules (promotion, corporate) as
 * seen over HTTP. Every XML response is validated against the XSD.
 */
import { add, compare, multiply, subtract, times } from '../../src/common/decimal';
import type { Offer, OfferItem } from '../../src/ndc';
import { type RunningAirline, startAirline } from './airline-harness';
import { type DayRs, FAMILY, NdcClient, daySearchXml, inDays, selectAll, withIndividuals } from './ndc-client';

describe('airline price relations and fare rules', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  const legs = [
    { from: 'LGW', to: 'OSL', date: inDays(21) },
    { from: 'OSL', to: 'LGW', date: inDays(28) },
  ];

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
  });

  afterAll(async () => {
    await airline.close();
  });

  async function day(qualifier?: Parameters<typeof daySearchXml>[3]): Promise<DayRs> {
    const rs = await c.shop(daySearchXml(legs, FAMILY, 'AGENCY01', qualifier));
    if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
    return rs;
  }

  const offersOf = (rs: DayRs) => rs.airlineOffers.flatMap((g) => g.offers);
  const paxOf = (item: OfferItem) => [...new Set(item.services.flatMap((s) => s.passengerRefs))];
  const keyOf = (o: Offer) => o.flightsOverview.map((f) => `${f.flightKey}/${f.priceClassRef}`).join(' ');
  const ptcOf = (item: OfferItem) => paxOf(item)[0].slice(5, 8);
  /** `value` is `base` x `factor` up to one cent (the domain rounds from unrounded fares). */
  const discounted = (value: string, base: string, factor: string) => {
    const diff = subtract(value, multiply(base, factor, 4), 4);
    return compare(diff.replace('-', ''), '0.01') <= 0;
  };

  it('day search: total = base + taxes per item; offer total = sum over items and passengers', async () => {
    const rs = await day();
    expect(offersOf(rs).length).toBeGreaterThanOrEqual(4);
    for (const offer of offersOf(rs)) {
      const lines: string[] = [];
      for (const item of offer.offerItems) {
        const d = item.priceDetail;
        expect(d.total!.value).toBe(add(2, d.base!.value, d.taxes!.value));
        for (const fd of item.fareDetails) {
          expect(fd.total!.value).toBe(add(2, fd.base.value, fd.taxes!.value));
        }
        lines.push(times(d.total!.value, paxOf(item).length, 2));
      }
      expect(offer.totalPrice?.value).toBe(add(2, ...lines));
      // Every passenger is in exactly one item.
      expect(offer.offerItems.flatMap(paxOf).sort()).toEqual(FAMILY.map((p) => p.passengerId).sort());
    }
  });

  it('priced round trip: one item per passenger and direction, totals add up', async () => {
    const rs = await day();
    const out = offersOf(rs).find((o) => o.flightsOverview[0].odRef === 'OD__LGW_OSL')!;
    const back = offersOf(rs).find((o) => o.flightsOverview[0].odRef === 'OD__OSL_LGW')!;
    const priced = await c.price(
      [selectAll(rs, out.offerId), selectAll(rs, back.offerId)],
      withIndividuals(FAMILY, false),
    );
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    const po = priced.pricedOffer;
    expect(po.offerItems).toHaveLength(8);
    for (const item of po.offerItems) {
      expect(paxOf(item)).toHaveLength(1);
      expect(item.priceDetail.total!.value).toBe(add(2, item.priceDetail.base!.value, item.priceDetail.taxes!.value));
    }
    expect(po.total?.value).toBe(add(2, ...po.offerItems.map((i) => i.priceDetail.total!.value)));
    expect(po.taxes?.value).toBe(add(2, ...po.offerItems.map((i) => i.priceDetail.taxes!.value)));
  });

  it('PROMO10 takes 10% off base fares, taxes unchanged; an unknown code gives public fares and Warning 760', async () => {
    const pub = await day();
    const promo = await day({ promotionCodes: ['PROMO10'] });
    const unknown = await day({ promotionCodes: ['NOPE99'] });
    expect(promo.warnings ?? []).toEqual([]);
    expect(unknown.warnings?.map((w) => w.code)).toEqual(['760']);
    const byKey = new Map(offersOf(pub).map((o) => [keyOf(o), o]));
    for (const offer of offersOf(promo)) {
      const base = byKey.get(keyOf(offer))!;
      for (const item of offer.offerItems) {
        const ref = base.offerItems.find((i) => ptcOf(i) === ptcOf(item))!;
        expect(compare(item.priceDetail.base!.value, ref.priceDetail.base!.value)).toBe(-1);
        expect(discounted(item.priceDetail.base!.value, ref.priceDetail.base!.value, '0.9')).toBe(true);
        expect(item.priceDetail.taxes!.value).toBe(ref.priceDetail.taxes!.value);
      }
    }
    expect(offersOf(unknown).map((o) => o.totalPrice)).toEqual(offersOf(pub).map((o) => o.totalPrice));
  });

  it('corporate CORP01: 15% off FLEX and PLUS base fares, Economy public; a wrong account gives Warning 761', async () => {
    const pub = await day();
    const corp = await day({ specialFare: { airlineId: 'ZZ', account: 'CORP01' } });
    const wrong = await day({ specialFare: { airlineId: 'ZZ', account: 'CORP99' } });
    expect(wrong.warnings?.map((w) => w.code)).toEqual(['761']);
    const byKey = new Map(offersOf(pub).map((o) => [keyOf(o), o]));
    const classes = new Set<string>();
    for (const offer of offersOf(corp)) {
      const pc = offer.flightsOverview[0].priceClassRef ?? '';
      classes.add(pc);
      const base = byKey.get(keyOf(offer))!;
      for (const item of offer.offerItems) {
        const ref = base.offerItems.find((i) => ptcOf(i) === ptcOf(item))!;
        const ok =
          pc === 'PC__ECONOMY'
            ? item.priceDetail.base!.value === ref.priceDetail.base!.value
            : discounted(item.priceDetail.base!.value, ref.priceDetail.base!.value, '0.85');
        expect(`${pc} ${ptcOf(item)} ${ok}`).toBe(`${pc} ${ptcOf(item)} true`);
      }
    }
    expect(classes).toEqual(new Set(['PC__ECONOMY', 'PC__FLEX', 'PC__PLUS']));
  });
});
