import type { OfferPriceRs, Passenger, SelectedOffer } from '../../../src/ndc/ndc.model';
import { loadWorld } from '../../../src/airline/world/world';
import { dayRq, FAMILY, ndcErrorOf, offerPriceRq, pricingServices, selection } from './world.fixture';

const world = loadWorld();
const ADT = [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }];

function setup() {
  const s = pricingServices(world);
  s.tokens.add({
    id: 'TOK-OLD',
    brand: 'MASTERCARD',
    funding: 'credit',
    maskedNumber: '555555******4444',
    expiresAt: '2026-11-21T05:59:59.000Z',
  });
  return s;
}

/** Shops LGW-OSL 12-01 / OSL-LGW 12-08 (offers O1..O3 outbound, O4..O6 return) and selects ECONOMY both ways. */
function shopRoundTrip(s: ReturnType<typeof setup>, passengers: Passenger[] = FAMILY): SelectedOffer[] {
  const rs = s.shopping.shop(
    dayRq(
      [
        ['LGW', 'OSL', '2026-12-01'],
        ['OSL', 'LGW', '2026-12-08'],
      ],
      passengers,
    ),
  );
  if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
  const byId = new Map(rs.airlineOffers[0].offers.map((o) => [o.offerId, o]));
  return ['SR0001-O1', 'SR0001-O4'].map((id) => selection(rs.shoppingResponseId, byId.get(id)!));
}

function ok(rs: OfferPriceRs) {
  if (rs.kind !== 'success') throw new Error(`expected success, got ${JSON.stringify(rs)}`);
  return rs;
}

const items = (rs: OfferPriceRs) =>
  ok(rs).pricedOffer.offerItems.map((i) => [
    i.offerItemId,
    i.priceDetail.base!.value,
    i.priceDetail.taxes!.value,
    i.priceDetail.total!.value,
  ]);

const withBirthdates = (dates: Record<string, string>): Passenger[] =>
  FAMILY.map((p) =>
    dates[p.passengerId] ? { ...p, individual: { surname: 'Smith', birthdate: dates[p.passengerId] } } : p,
  );

describe('OfferPriceService', () => {
  it('merges a round trip into one PricedOffer with one item per passenger and direction; age decides the UK tax', () => {
    const s = setup();
    const selected = shopRoundTrip(s);
    const pax = withBirthdates({
      PAX__ADT01: '1980-01-01',
      PAX__ADT02: '2011-06-01',
      PAX__CHD01: '2016-05-05',
      PAX__INF01: '2026-01-01',
    });
    const rs = ok(s.pricing.price(offerPriceRq(selected, pax)));
    expect(rs.shoppingResponseId).toBe('PR0002');
    expect(rs.pricedOffer.offerId).toBe('SR0001-O1_SR0001-O4');
    expect(rs.pricedOffer.owner).toBe('ZZ');
    expect(rs.pricedOffer.flightsOverview).toEqual([
      { odRef: 'OD__LGW_OSL', priceClassRef: 'PC__ECONOMY', flightKey: 'FLT__ZZ101_20261201' },
      { odRef: 'OD__OSL_LGW', priceClassRef: 'PC__ECONOMY', flightKey: 'FLT__ZZ102_20261208' },
    ]);
    // PAX__ADT02 is 15 on 2026-12-01: exempt from the UK tax like the child and the infant.
    expect(items(rs)).toEqual([
      ['SR0001-O1-PAX__ADT01', '46.55', '13.00', '59.55'],
      ['SR0001-O1-PAX__ADT02', '46.55', '0.00', '46.55'],
      ['SR0001-O1-PAX__CHD01', '34.91', '0.00', '34.91'],
      ['SR0001-O1-PAX__INF01', '4.66', '0.00', '4.66'],
      ['SR0001-O4-PAX__ADT01', '46.55', '6.50', '53.05'],
      ['SR0001-O4-PAX__ADT02', '46.55', '6.50', '53.05'],
      ['SR0001-O4-PAX__CHD01', '34.91', '6.50', '41.41'],
      ['SR0001-O4-PAX__INF01', '4.66', '6.50', '11.16'],
    ]);
    expect(rs.pricedOffer.total).toEqual({ value: '304.34', currency: 'GBP' });
    expect(rs.pricedOffer.taxes).toEqual({ value: '39.00', currency: 'GBP' });
    expect(rs.dataLists.flightSegments?.map((f) => [f.segmentKey, f.classOfService])).toEqual([
      ['SEG__ZZ101_20261201', 'O'],
      ['SEG__ZZ102_20261208', 'O'],
    ]);
    expect(rs.dataLists.passengers).toEqual(pax);
    const saved = s.store.getPricing('PR0002')!;
    expect(saved).toMatchObject({
      shoppingResponseId: 'SR0001',
      agencyId: 'AGENCY01',
      createdAt: '2026-11-21T06:00:00.000Z',
      expiresAt: '2026-11-21T06:30:00.000Z',
      requestedOfferIds: ['SR0001-O1', 'SR0001-O4'],
      segments: [
        { inventoryKey: 'ZZ101/2026-12-01', rbd: 'O', seats: 3 },
        { inventoryKey: 'ZZ102/2026-12-08', rbd: 'O', seats: 3 },
      ],
    });
    expect(saved.tokenId).toBeUndefined();
    expect(s.store.latestPricingFor('SR0001-O1_SR0001-O4')).toBe('PR0002');
  });

  it('a child aged 16 on the departure date pays the UK tax', () => {
    const s = setup();
    const pax = withBirthdates({
      PAX__ADT01: '1980-01-01',
      PAX__ADT02: '1981-01-01',
      PAX__CHD01: '2010-11-30',
      PAX__INF01: '2026-01-01',
    });
    const rs = s.pricing.price(offerPriceRq(shopRoundTrip(s), pax));
    expect(items(rs)[2]).toEqual(['SR0001-O1-PAX__CHD01', '34.91', '13.00', '47.91']);
  });

  it('answers BIRTHDATE_REQUIRED naming every passenger without a Birthdate when a child departs from the UK', () => {
    const s = setup();
    const pax = withBirthdates({ PAX__ADT02: '1981-01-01', PAX__CHD01: '2016-05-05' });
    expect(ndcErrorOf(() => s.pricing.price(offerPriceRq(shopRoundTrip(s), pax)))).toEqual({
      code: '730',
      shortText: 'Birthdate required',
      status: 'Complete',
      text: 'Individual/Birthdate is required for every passenger when a child or infant departs from the United Kingdom; missing for PAX__ADT01, PAX__INF01',
    });
    expect(s.store.pricing.size).toBe(0);
  });

  it('needs no birthdates for adults only, nor for children not departing from the UK', () => {
    const s = setup();
    expect(s.pricing.price(offerPriceRq(shopRoundTrip(s, ADT), ADT)).kind).toBe('success');
    const rs = s.shopping.shop(
      dayRq([['OSL', 'BCN', '2026-12-01']], [ADT[0], { passengerId: 'PAX__CHD01', ptc: 'CHD' }]),
    );
    if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
    const offer = rs.airlineOffers[0].offers[0];
    const sel = [selection(rs.shoppingResponseId, offer)];
    expect(s.pricing.price(offerPriceRq(sel, [ADT[0], { passengerId: 'PAX__CHD01', ptc: 'CHD' }])).kind).toBe(
      'success',
    );
  });

  it('adds the CCF2 item for a credit card (2% of the total, zero taxes) and nothing for a debit card', () => {
    const s = setup();
    const selected = shopRoundTrip(s, ADT);
    const first = ok(s.pricing.price(offerPriceRq(selected, ADT)));
    expect(first.pricedOffer.total?.value).toBe('112.60');
    // Token-bearing reprice referencing the first OfferPriceRS and its PricedOffer.
    const reprice = selection(first.shoppingResponseId!, first.pricedOffer);
    const credit = ok(s.pricing.price(offerPriceRq([reprice], ADT, { token: 'TOK-CREDIT' })));
    expect(credit.pricedOffer.offerId).toBe('SR0001-O1_SR0001-O4');
    expect(credit.pricedOffer.total).toEqual({ value: '114.85', currency: 'GBP' });
    expect(credit.pricedOffer.taxes).toEqual({ value: '19.50', currency: 'GBP' });
    const ccf2 = credit.pricedOffer.offerItems[2];
    expect(ccf2).toEqual({
      offerItemId: 'SR0001-O1_SR0001-O4-CCF2',
      priceDetail: {
        total: { value: '2.25', currency: 'GBP' },
        base: { value: '2.25', currency: 'GBP' },
        taxes: { value: '0.00', currency: 'GBP' },
      },
      services: [
        { serviceId: 'SERVICE__CCF2', passengerRefs: ['PAX__ADT01'], serviceDefinitionRef: { ref: 'SD__CCF2' } },
      ],
      fareDetails: [],
    });
    expect(credit.dataLists.serviceDefinitions).toEqual([
      {
        serviceDefinitionId: 'SD__CCF2',
        name: 'Credit card fee',
        encodingCode: 'CCF2',
        descriptions: ['credit card fee'],
      },
    ]);
    const saved = s.store.getPricing(credit.shoppingResponseId!)!;
    expect(saved).toMatchObject({
      tokenId: 'TOK-CREDIT',
      surcharge: { value: '2.25', currency: 'GBP' },
      shoppingResponseId: 'SR0001',
    });
    expect(s.store.latestPricingFor('SR0001-O1_SR0001-O4')).toBe(credit.shoppingResponseId);

    const debit = ok(s.pricing.price(offerPriceRq(selected, ADT, { token: 'TOK-DEBIT' })));
    expect(debit.pricedOffer.total?.value).toBe('112.60');
    expect(debit.pricedOffer.offerItems).toHaveLength(2);
    expect(s.store.getPricing(debit.shoppingResponseId!)).toMatchObject({ tokenId: 'TOK-DEBIT' });
    expect(s.store.getPricing(debit.shoppingResponseId!)!.surcharge).toBeUndefined();
  });

  it('refuses unknown and expired card tokens', () => {
    const s = setup();
    const selected = shopRoundTrip(s, ADT);
    expect(ndcErrorOf(() => s.pricing.price(offerPriceRq(selected, ADT, { token: 'TOK-NOPE' })))).toMatchObject({
      code: '752',
      text: 'Card token TOK-NOPE not found',
    });
    expect(ndcErrorOf(() => s.pricing.price(offerPriceRq(selected, ADT, { token: 'TOK-OLD' })))).toMatchObject({
      code: '751',
      text: 'Card token TOK-OLD expired at 2026-11-21T05:59:59.000Z',
    });
  });

  it('refuses an expired shopping response, unknown ids and mismatched passengers', () => {
    const s = setup();
    const selected = shopRoundTrip(s, ADT);
    const err = (call: () => OfferPriceRs) => {
      const e = ndcErrorOf(call);
      return [e.code, e.text];
    };
    expect(err(() => s.pricing.price(offerPriceRq([{ ...selected[0], responseId: 'SR9999' }], ADT)))).toEqual([
      '720',
      'ResponseID SR9999 not found',
    ]);
    expect(err(() => s.pricing.price(offerPriceRq([{ ...selected[0], offerId: 'SR0001-O9' }], ADT)))).toEqual([
      '720',
      'Offer SR0001-O9 not found in response SR0001',
    ]);
    expect(
      err(() =>
        s.pricing.price(
          offerPriceRq([{ ...selected[0], offerItems: [{ offerItemId: 'X', passengerRefs: ['PAX__ADT01'] }] }], ADT),
        ),
      ),
    ).toEqual(['720', 'OfferItem X not found in offer SR0001-O1']);
    expect(err(() => s.pricing.price(offerPriceRq([{ ...selected[0], offerItems: [] }], ADT)))).toEqual([
      '722',
      'Offer SR0001-O1: every passenger must be selected exactly once; not so for PAX__ADT01',
    ]);
    expect(
      err(() => s.pricing.price(offerPriceRq(selected, [...ADT, { passengerId: 'PAX__ADT02', ptc: 'ADT' }]))),
    ).toEqual(['722', 'Passengers PAX__ADT01/ADT PAX__ADT02/ADT do not match the shopped passengers PAX__ADT01/ADT']);
    expect(
      err(() => s.pricing.price({ ...offerPriceRq(selected, ADT), party: { name: 'Other', agencyId: 'AGENCY02' } })),
    ).toEqual(['720', 'ResponseID SR0001 not found']);
    s.clock.advanceMinutes(30);
    expect(err(() => s.pricing.price(offerPriceRq(selected, ADT)))).toEqual([
      '721',
      'Shopping response SR0001 expired at 2026-11-21T06:30:00.000Z; shop again',
    ]);
  });

  it('prices from current inventory: a bucket sold since shopping moves the price up', () => {
    const s = setup();
    const selected = shopRoundTrip(s, ADT);
    s.inventory.setSold('ZZ101/2026-12-01', 'O', 4);
    const rs = ok(s.pricing.price(offerPriceRq(selected, ADT)));
    expect(items(rs)[0]).toEqual(['SR0001-O1-PAX__ADT01', '65.55', '13.00', '78.55']);
    expect(rs.dataLists.flightSegments?.[0].classOfService).toBe('N');
    expect(rs.pricedOffer.offerItems[0].fareDetails[0].fareComponents[0].rbd).toBe('N');
    for (const rbd of ['N', 'M', 'L']) s.inventory.setSold('ZZ101/2026-12-01', rbd, 99);
    expect(ndcErrorOf(() => s.pricing.price(offerPriceRq(selected, ADT)))).toMatchObject({ code: '711' });
  });

  it('keeps the promotion of the shopping request and lets the OfferPriceRQ qualifier replace it', () => {
    const s = setup();
    const rs = s.shopping.shop(
      dayRq([['LGW', 'OSL', '2026-12-01']], ADT, { qualifier: { promotionCodes: ['PROMO10'] } }),
    );
    if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
    const o = rs.airlineOffers[0].offers[2]; // FLEX
    const sel = [
      {
        offerId: o.offerId,
        owner: 'ZZ',
        responseId: rs.shoppingResponseId,
        offerItems: [{ offerItemId: o.offerItems[0].offerItemId, passengerRefs: ['PAX__ADT01'] }],
      },
    ];
    expect(items(s.pricing.price(offerPriceRq(sel, ADT)))).toEqual([
      ['SR0001-O3-PAX__ADT01', '135.94', '13.00', '148.94'],
    ]);
    const corp = s.pricing.price(
      offerPriceRq(sel, ADT, { qualifier: { specialFare: { airlineId: 'ZZ', account: 'CORP01' } } }),
    );
    expect(items(corp)).toEqual([['SR0001-O3-PAX__ADT01', '128.39', '13.00', '141.39']]);
    const unknown = s.pricing.price(offerPriceRq(sel, ADT, { qualifier: { promotionCodes: ['NOPE'] } }));
    expect(items(unknown)).toEqual([['SR0001-O3-PAX__ADT01', '151.05', '13.00', '164.05']]);
    expect(ok(unknown).warnings).toEqual([
      {
        code: '760',
        shortText: 'Promotion code not recognised',
        text: 'Promotion code NOPE is not valid; public fares apply',
      },
    ]);
  });
});
