import { add, currencyScale, equals, times } from '../../../src/common/decimal';
import type { AirShoppingRs, Offer } from '../../../src/ndc/ndc.model';
import { sequentialIds } from '../../../src/airline/world/ids';
import { loadWorld } from '../../../src/airline/world/world';
import { calendarRq, dayRq, FakeClock, MemoryInventory, MemoryResponseStore, ndcErrorOf } from './world.fixture';
import { groupPassengers, ShoppingService } from '../../../src/airline/shopping/shopping.service';
import type { StoredOffer } from '../../../src/airline/shopping/shopping.types';

const world = loadWorld();

function setup() {
  const store = new MemoryResponseStore();
  const inventory = new MemoryInventory();
  const clock = new FakeClock(new Date('2026-11-21T06:00:00.000Z'));
  const service = new ShoppingService(world, store, inventory, clock, sequentialIds());
  return { store, inventory, clock, service };
}

function day(rs: AirShoppingRs) {
  if (rs.kind !== 'day') throw new Error(`expected a day response, got ${JSON.stringify(rs)}`);
  return rs;
}

/** An offer's price class and total, then each item's `base + taxes = total`. */
function prices(o: Offer): (string | undefined)[] {
  return [
    o.flightsOverview[0].priceClassRef,
    o.totalPrice!.value,
    ...o.offerItems.map(
      (i) => `${i.priceDetail.base!.value} + ${i.priceDetail.taxes!.value} = ${i.priceDetail.total!.value}`,
    ),
  ];
}

/** The passengers of each item of an offer. */
function itemPassengers(o: Offer): string[] {
  return o.offerItems.map((i) => i.fareDetails[0].passengerRefs.join(' '));
}

/** A PriceCalendar entry, in full. */
function calendarEntry(date: string, originDestinationRef: string, value: string, augPointRef: string) {
  return {
    dates: [{ date, originDestinationRef }],
    totalPrice: { value, currency: 'GBP' },
    augPointRefs: [augPointRef],
  };
}

describe('ShoppingService day search', () => {
  it('prices a round trip ADT, ADT, CHD, INF exactly (UK tax waived for CHD and INF from LGW)', () => {
    const { service, store } = setup();
    const rs = day(
      service.shop(
        dayRq([
          ['LGW', 'OSL', '2026-12-01'],
          ['OSL', 'LGW', '2026-12-08'],
        ]),
      ),
    );
    expect(rs.shoppingResponseId).toBe('SR0001');
    expect(rs.transactionIdentifier).toBe('TX1');
    expect(rs.correlationId).toBe('CORR1');
    expect(rs.timeStamp).toBe('2026-11-21T06:00:00.000+00:00');
    const offers = rs.airlineOffers[0].offers;
    for (const o of offers) expect(itemPassengers(o)).toEqual(['PAX__ADT01 PAX__ADT02', 'PAX__CHD01', 'PAX__INF01']);
    expect(offers.map(prices)).toEqual([
      ['PC__ECONOMY', '158.67', '46.55 + 13.00 = 59.55', '34.91 + 0.00 = 34.91', '4.66 + 0.00 = 4.66'],
      ['PC__PLUS', '294.05', '94.05 + 13.00 = 107.05', '70.54 + 0.00 = 70.54', '9.41 + 0.00 = 9.41'],
      ['PC__FLEX', '456.50', '151.05 + 13.00 = 164.05', '113.29 + 0.00 = 113.29', '15.11 + 0.00 = 15.11'],
      ['PC__ECONOMY', '158.67', '46.55 + 6.50 = 53.05', '34.91 + 6.50 = 41.41', '4.66 + 6.50 = 11.16'],
      ['PC__PLUS', '294.05', '94.05 + 6.50 = 100.55', '70.54 + 6.50 = 77.04', '9.41 + 6.50 = 15.91'],
      ['PC__FLEX', '456.50', '151.05 + 6.50 = 157.55', '113.29 + 6.50 = 119.79', '15.11 + 6.50 = 21.61'],
    ]);
    expect(offers.map((o) => o.offerId)).toEqual([
      'SR0001-O1',
      'SR0001-O2',
      'SR0001-O3',
      'SR0001-O4',
      'SR0001-O5',
      'SR0001-O6',
    ]);
    expect(offers[0].flightsOverview).toEqual([
      { odRef: 'OD__LGW_OSL', priceClassRef: 'PC__ECONOMY', flightKey: 'FLT__ZZ101_20261201' },
    ]);
    expect(offers[3].flightsOverview).toEqual([
      { odRef: 'OD__OSL_LGW', priceClassRef: 'PC__ECONOMY', flightKey: 'FLT__ZZ102_20261208' },
    ]);

    // PLUS carries the bundle service on its segments; FareComponents name RBD and segment.
    const plusItem = offers[1].offerItems[0];
    expect(plusItem.services).toEqual([
      {
        serviceId: 'SR0001-O2-I1-S1',
        passengerRefs: ['PAX__ADT01', 'PAX__ADT02'],
        flightRefs: ['FLT__ZZ101_20261201'],
      },
      {
        serviceId: 'SR0001-O2-I1-S2',
        passengerRefs: ['PAX__ADT01', 'PAX__ADT02'],
        serviceDefinitionRef: { ref: 'SD__BNDL_PLUS', segmentRefs: ['SEG__ZZ101_20261201'] },
      },
    ]);
    expect(plusItem.fareDetails[0].fareComponents).toEqual([
      {
        rbd: 'K',
        cabinTypeCode: 'M',
        cabinTypeName: 'ECONOMY',
        priceClassRef: 'PC__PLUS',
        segmentRefs: { onPoint: 'LGW', offPoint: 'OSL', segmentKeys: ['SEG__ZZ101_20261201'] },
      },
    ]);

    // DataLists and Metadata.
    expect(rs.dataLists.passengers).toHaveLength(4);
    expect(rs.dataLists.flightSegments?.[0]).toEqual({
      segmentKey: 'SEG__ZZ101_20261201',
      departure: {
        airportCode: 'LGW',
        date: '2026-12-01',
        time: '07:00',
        airportName: 'London Gatwick Airport',
        refs: ['CTRY__GB', 'CITY__LON'],
      },
      arrival: {
        airportCode: 'OSL',
        date: '2026-12-01',
        time: '10:00',
        airportName: 'Oslo Airport Gardermoen',
        refs: ['CTRY__NO', 'CITY__OSL'],
      },
      marketingCarrier: { airlineId: 'ZZ', flightNumber: '101' },
      operatingCarrier: { airlineId: 'ZZ', flightNumber: '101' },
      aircraftCode: '32N',
      duration: 'PT2H',
    });
    expect(rs.dataLists.originDestinations).toEqual([
      {
        originDestinationKey: 'OD__LGW_OSL',
        departureCode: 'LGW',
        arrivalCode: 'OSL',
        flightRefs: ['FLT__ZZ101_20261201'],
      },
      {
        originDestinationKey: 'OD__OSL_LGW',
        departureCode: 'OSL',
        arrivalCode: 'LGW',
        flightRefs: ['FLT__ZZ102_20261208'],
      },
    ]);
    expect(rs.dataLists.priceClasses?.[0]).toEqual({
      priceClassId: 'PC__ECONOMY',
      name: 'Economy',
      code: 'ECONOMY',
      classesOfService: [
        { segmentRefs: ['SEG__ZZ101_20261201'], code: 'O', seatsLeft: 4 },
        { segmentRefs: ['SEG__ZZ102_20261208'], code: 'O', seatsLeft: 4 },
      ],
    });
    expect(rs.dataLists.serviceDefinitions?.map((d) => d.serviceDefinitionId)).toEqual([
      'SD__BNDL_PLUS',
      'SD__SPML_STANDARD',
      'SD__XST',
      'SD__YN',
    ]);
    expect(rs.dataLists.serviceDefinitions?.[3]).toEqual({
      serviceDefinitionId: 'SD__YN',
      name: 'Checked baggage',
      encodingCode: 'YN1',
      descriptions: ['Two checked bags of up to 23 kg each'],
      baggageAllowanceRef: 'BA__CHECKED2',
    });
    expect(rs.dataLists.baggageAllowances?.[0].pieceAllowance?.measurements).toEqual([
      { quantity: 1, maximumWeight: { value: '23', uom: 'K' }, applicableBag: 'YN1' },
      { quantity: 1, maximumWeight: { value: '23', uom: 'K' }, applicableBag: 'YN2' },
    ]);
    expect(rs.metadata.countries).toEqual([
      { key: 'CTRY__GB', icaoCode: 'EG', name: 'United Kingdom' },
      { key: 'CTRY__NO', icaoCode: 'EN', name: 'Norway' },
    ]);
    expect(rs.metadata.cities?.map((c) => c.code)).toEqual(['LON', 'OSL']);
    expect(rs.metadata.languages?.map((l) => l.codeIso)).toEqual(['EN', 'NO', 'ES']);

    // The response is saved with a 30-minute expiry and what OfferPrice needs.
    const saved = store.getShopping('SR0001')!;
    expect(saved.expiresAt).toBe('2026-11-21T06:30:00.000Z');
    expect(saved.currency).toBe('GBP');
    expect(saved.agencyId).toBe('AGENCY01');
    expect(saved.offers['SR0001-O4'] as StoredOffer).toEqual({
      offerId: 'SR0001-O4',
      direction: 1,
      odKey: 'OD__OSL_LGW',
      from: 'OSL',
      to: 'LGW',
      date: '2026-12-08',
      flights: ['102'],
      flightKey: 'FLT__ZZ102_20261208',
      priceClass: 'ECONOMY',
      items: [
        { offerItemId: 'SR0001-O4-I1', passengerRefs: ['PAX__ADT01', 'PAX__ADT02'] },
        { offerItemId: 'SR0001-O4-I2', passengerRefs: ['PAX__CHD01'] },
        { offerItemId: 'SR0001-O4-I3', passengerRefs: ['PAX__INF01'] },
      ],
    });
  });

  it('offers the LGW-BCN connection via OSL with both segments priced and a transfer journey', () => {
    const { service } = setup();
    const rs = day(service.shop(dayRq([['LGW', 'BCN', '2026-12-01']], [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }])));
    const eco = rs.airlineOffers[0].offers[0];
    // (49 + 59) x 0.95 base; UK 13.00 + Norway 6.50 taxes.
    expect(itemPassengers(eco)).toEqual(['PAX__ADT01']);
    expect(prices(eco)).toEqual(['PC__ECONOMY', '122.10', '102.60 + 19.50 = 122.10']);
    expect(eco.flightsOverview[0].flightKey).toBe('FLT__ZZ101_ZZ301_20261201');
    expect(rs.dataLists.flights?.[0]).toEqual({
      flightKey: 'FLT__ZZ101_ZZ301_20261201',
      journeyTime: 'PT7H15M',
      segmentRefs: ['SEG__ZZ101_20261201', 'SEG__ZZ301_20261201'],
    });
    expect(rs.metadata.journeys).toEqual([{ key: 'JOURNEY__TRANSFER', transfer: true }]);
  });

  it('converts with the fixed exchange table and rounds to minor units (EUR, NOK)', () => {
    const { service } = setup();
    const adt = [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }];
    const eur = day(service.shop(dayRq([['LGW', 'OSL', '2026-12-01']], adt, { currency: 'EUR' })));
    expect(itemPassengers(eur.airlineOffers[0].offers[0])).toEqual(['PAX__ADT01']);
    expect(prices(eur.airlineOffers[0].offers[0])).toEqual(['PC__ECONOMY', '68.48', '53.53 + 14.95 = 68.48']);
    expect(eur.airlineOffers[0].offers[0].totalPrice).toEqual({ value: '68.48', currency: 'EUR' });
    const nok = day(service.shop(dayRq([['LGW', 'OSL', '2026-12-01']], adt, { currency: 'NOK' })));
    expect(itemPassengers(nok.airlineOffers[0].offers[0])).toEqual(['PAX__ADT01']);
    expect(prices(nok.airlineOffers[0].offers[0])).toEqual(['PC__ECONOMY', '797.97', '623.77 + 174.20 = 797.97']);
  });

  it('refuses an unsupported currency', () => {
    const { service } = setup();
    const rq = dayRq([['LGW', 'OSL', '2026-12-01']], undefined, { currency: 'JPY' });
    expect(ndcErrorOf(() => service.shop(rq))).toMatchObject({
      code: '702',
      shortText: 'Currency not supported',
      status: 'Complete',
    });
  });

  it('PROMO10 takes 10% off base fares only; an unknown code gives public fares and a Warning', () => {
    const { service } = setup();
    const promo = day(
      service.shop(dayRq([['LGW', 'OSL', '2026-12-01']], undefined, { qualifier: { promotionCodes: ['PROMO10'] } })),
    );
    expect(itemPassengers(promo.airlineOffers[0].offers[0])).toEqual([
      'PAX__ADT01 PAX__ADT02',
      'PAX__CHD01',
      'PAX__INF01',
    ]);
    expect(prices(promo.airlineOffers[0].offers[0]).slice(2)).toEqual([
      '41.89 + 13.00 = 54.89',
      '31.42 + 0.00 = 31.42',
      '4.19 + 0.00 = 4.19',
    ]);
    expect(promo.warnings).toBeUndefined();
    const unknown = day(
      service.shop(dayRq([['LGW', 'OSL', '2026-12-01']], undefined, { qualifier: { promotionCodes: ['PROMO99'] } })),
    );
    expect(unknown.airlineOffers[0].offers[0].totalPrice!.value).toBe('158.67');
    expect(unknown.warnings).toEqual([
      {
        code: '760',
        shortText: 'Promotion code not recognised',
        text: 'Promotion code PROMO99 is not valid; public fares apply',
      },
    ]);
  });

  it('corporate CORP01 takes 15% off FLEX and PLUS base fares; a wrong account gives public fares and a Warning', () => {
    const { service } = setup();
    const adt = [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }];
    const corp = day(
      service.shop(
        dayRq([['LGW', 'OSL', '2026-12-01']], adt, {
          qualifier: { specialFare: { airlineId: 'ZZ', account: 'CORP01' } },
        }),
      ),
    );
    expect(
      corp.airlineOffers[0].offers.map((o) => [
        o.flightsOverview[0].priceClassRef,
        o.offerItems[0].priceDetail.base!.value,
      ]),
    ).toEqual([
      ['PC__ECONOMY', '46.55'],
      ['PC__PLUS', '79.94'],
      ['PC__FLEX', '128.39'],
    ]);
    expect(corp.warnings).toBeUndefined();
    const wrong = day(
      service.shop(
        dayRq([['LGW', 'OSL', '2026-12-01']], adt, {
          qualifier: { specialFare: { airlineId: 'ZZ', account: 'CORP99' } },
        }),
      ),
    );
    expect(wrong.airlineOffers[0].offers[2].offerItems[0].priceDetail.base!.value).toBe('151.05');
    expect(wrong.warnings).toEqual([
      {
        code: '761',
        shortText: 'Corporate account not recognised',
        text: 'Corporate agreement ZZ/CORP99 is not valid; public fares apply',
      },
    ]);
    const otherAirline = day(
      service.shop(
        dayRq([['LGW', 'OSL', '2026-12-01']], adt, {
          qualifier: { specialFare: { airlineId: 'XX', account: 'CORP01' } },
        }),
      ),
    );
    expect(otherAirline.warnings?.[0].code).toBe('761');
  });

  it('moves to the next booking class when the cheapest bucket cannot seat the party', () => {
    const { service, inventory } = setup();
    inventory.setSold('ZZ101/2026-12-01', 'O', 2); // 2 of 4 left, 3 seats needed (the infant takes none)
    const rs = day(service.shop(dayRq([['LGW', 'OSL', '2026-12-01']])));
    const eco = rs.airlineOffers[0].offers[0];
    expect(eco.offerItems[0].fareDetails[0].fareComponents[0].rbd).toBe('N');
    expect(eco.offerItems[0].priceDetail.base!.value).toBe('65.55'); // 69 x 0.95
    expect(rs.dataLists.priceClasses?.[0].classesOfService).toEqual([
      { segmentRefs: ['SEG__ZZ101_20261201'], code: 'N', seatsLeft: 8 },
    ]);
  });

  it('omits a price class that is sold out and answers NO_OFFERS when nothing is left', () => {
    const { service, inventory } = setup();
    for (const pc of world.priceClasses)
      pc.rbds.forEach((rbd, i) => inventory.setSold('ZZ201/2026-12-01', rbd, pc.capacity[i]));
    expect(ndcErrorOf(() => service.shop(dayRq([['LGW', 'JFK', '2026-12-01']])))).toEqual({
      code: '710',
      shortText: 'No availability',
      status: 'Complete',
      text: 'No availability from LGW to JFK on 2026-12-01',
    });
    inventory.setSold('ZZ201/2026-12-01', 'Y', 19);
    const oneLeft = day(
      service.shop(dayRq([['LGW', 'JFK', '2026-12-01']], [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }])),
    );
    expect(oneLeft.airlineOffers[0].offers.map((o) => o.flightsOverview[0].priceClassRef)).toEqual(['PC__FLEX']);
  });

  it('has no flights in the past, today included, nor 365 days ahead', () => {
    const { service } = setup();
    expect(ndcErrorOf(() => service.shop(dayRq([['LGW', 'OSL', '2026-11-20']])))).toMatchObject({ code: '710' });
    expect(day(service.shop(dayRq([['LGW', 'OSL', '2026-11-21']]))).airlineOffers[0].offers).toHaveLength(3);
    expect(day(service.shop(dayRq([['LGW', 'OSL', '2027-11-20']]))).airlineOffers[0].offers).toHaveLength(3);
    expect(ndcErrorOf(() => service.shop(dayRq([['LGW', 'OSL', '2027-11-21']])))).toMatchObject({ code: '710' });
    // Open jaws: back to another airport of the city, or from another airport altogether.
    const openJaws: [string, string, string][][] = [
      [
        ['LGW', 'BCN', '2026-12-01'],
        ['BCN', 'LON', '2026-12-05'],
      ],
      [
        ['LGW', 'JFK', '2026-12-01'],
        ['OSL', 'BCN', '2026-12-05'],
      ],
    ];
    for (const legs of openJaws) expect(service.shop(dayRq(legs)).kind).toBe('day');
    expect(ndcErrorOf(() => service.shop(dayRq([['LGW', 'XXX', '2026-12-01']])))).toMatchObject({
      code: '701',
      text: 'Unknown airport or city code XXX',
    });
    expect(ndcErrorOf(() => service.shop(dayRq([['LGW', 'OSL', '2026-02-30']])))).toMatchObject({ code: '701' });
    expect(
      ndcErrorOf(() =>
        service.shop(dayRq([['LGW', 'OSL', '2026-12-01']], [{ passengerId: 'PAX__INF01', ptc: 'INF' }])),
      ),
    ).toMatchObject({ code: '701' });
  });

  it('keeps the price relations exactly over many generated searches', () => {
    const { service, inventory } = setup();
    const routes = ['LGW-OSL', 'OSL-LGW', 'LGW-JFK', 'JFK-LGW', 'OSL-BCN', 'BCN-OSL', 'LGW-BCN', 'BCN-LGW'].map(
      (route) => route.split('-') as [string, string],
    );
    const currencies = ['GBP', 'EUR', 'NOK', 'USD'];
    const ptcs = ['ADT', 'CHD', 'INF'];
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let checked = 0;
    for (let run = 0; run < 150; run++) {
      const [from, to] = routes[rnd(routes.length)];
      const date = `2027-0${1 + rnd(9)}-1${rnd(10)}`;
      const pax = [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }];
      for (let i = rnd(4); i > 0; i--) {
        const ptc = ptcs[rnd(3)];
        if (ptc === 'INF' && pax.filter((p) => p.ptc === 'INF').length >= pax.filter((p) => p.ptc === 'ADT').length)
          continue;
        pax.push({ passengerId: `PAX__${ptc}0${pax.length + 1}`, ptc });
      }
      const currency = currencies[rnd(4)];
      if (rnd(3) === 0) inventory.setSold(`ZZ${from === 'LGW' && to === 'JFK' ? '201' : '101'}/${date}`, 'O', rnd(5));
      const qualifier =
        rnd(2) === 0 ? { promotionCodes: ['PROMO10'] } : { specialFare: { airlineId: 'ZZ', account: 'CORP01' } };
      const rs = day(service.shop(dayRq([[from, to, date]], pax, { currency, qualifier })));
      const scale = currencyScale(currency);
      for (const offer of rs.airlineOffers[0].offers) {
        expect(offer.totalPrice?.currency).toBe(currency);
        const sum = add(
          scale,
          ...offer.offerItems.map((i) =>
            times(i.priceDetail.total!.value, i.fareDetails[0].passengerRefs.length, scale),
          ),
        );
        expect(offer.totalPrice?.value).toBe(sum);
        const refs = offer.offerItems.flatMap((i) => i.fareDetails[0].passengerRefs).sort();
        expect(refs).toEqual(pax.map((p) => p.passengerId).sort());
        for (const item of offer.offerItems) {
          const d = item.priceDetail;
          expect(equals(d.total!.value, add(scale, d.base!.value, d.taxes!.value))).toBe(true);
          expect(item.fareDetails[0]).toMatchObject({ total: d.total, base: d.base, taxes: d.taxes });
          expect(d.total!.value).toMatch(scale === 2 ? /^\d+\.\d{2}$/ : /^\d+$/);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
  });
});

describe('ShoppingService calendar search', () => {
  it('gives the lowest adult price per date, one-way, omitting dates without flights', () => {
    const { service, store } = setup();
    const rs = service.shop(calendarRq([['LGW', 'OSL', '2026-11-22', 2, 2]]));
    if (rs.kind !== 'calendar') throw new Error(JSON.stringify(rs));
    // 2026-11-20 is in the past; 11-21 Sat 1.05, 11-22 Sun 1.10, 11-23 Mon 1.00, 11-24 Tue 0.95.
    expect(rs.airlineOffers).toEqual([
      {
        priceCalendar: [
          calendarEntry('2026-11-21', 'OD__LGW_OSL', '64.45', 'JOURNEY__DIRECT'),
          calendarEntry('2026-11-22', 'OD__LGW_OSL', '66.90', 'JOURNEY__DIRECT'),
          calendarEntry('2026-11-23', 'OD__LGW_OSL', '62.00', 'JOURNEY__DIRECT'),
          calendarEntry('2026-11-24', 'OD__LGW_OSL', '59.55', 'JOURNEY__DIRECT'),
        ],
      },
    ]);
    expect(rs.dataLists).toEqual({
      originDestinations: [{ originDestinationKey: 'OD__LGW_OSL', departureCode: 'LGW', arrivalCode: 'OSL' }],
    });
    expect(rs.metadata.journeys).toEqual([{ key: 'JOURNEY__DIRECT', transfer: false }]);
    expect(store.shopping.size).toBe(0);
  });

  it('gives one group per direction for a round trip, with the transfer journey flagged, in the requested currency', () => {
    const { service, inventory } = setup();
    inventory.setSold('ZZ301/2026-12-02', 'O', 4); // OSL-BCN sold out in O on 12-02: N (79) instead
    const rs = service.shop(
      calendarRq(
        [
          ['LON', 'BCN', '2026-12-02', 1, 1],
          ['BCN', 'LGW', '2026-12-09', 0, 1],
        ],
        { currency: 'EUR' },
      ),
    );
    if (rs.kind !== 'calendar') throw new Error(JSON.stringify(rs));
    const flat = rs.airlineOffers.map((g) =>
      g.priceCalendar.map((e) => [
        e.dates[0].date,
        e.dates[0].originDestinationRef,
        e.totalPrice.value,
        e.augPointRefs?.[0],
      ]),
    );
    // 12-01 Tue: (46.55 + 56.05 GBP) -> 53.53 + 64.46 EUR, taxes 14.95 + 7.48.
    // 12-02 Wed: O on ZZ101 (46.55) + N on ZZ301 (79 x 0.95 = 75.05) -> 53.53 + 86.31.
    // 12-03 Thu (x 1.00): 56.35 + 67.85; return 12-09 Wed: 64.46 + 53.53, taxes Spain 5.18 + Norway 7.48.
    expect(flat).toEqual([
      [
        ['2026-12-01', 'OD__LON_BCN', '140.42', 'JOURNEY__TRANSFER'],
        ['2026-12-02', 'OD__LON_BCN', '162.27', 'JOURNEY__TRANSFER'],
        ['2026-12-03', 'OD__LON_BCN', '146.63', 'JOURNEY__TRANSFER'],
      ],
      [
        ['2026-12-09', 'OD__BCN_LGW', '130.65', 'JOURNEY__TRANSFER'],
        ['2026-12-10', 'OD__BCN_LGW', '136.86', 'JOURNEY__TRANSFER'],
      ],
    ]);
    expect(rs.metadata.journeys).toEqual([{ key: 'JOURNEY__TRANSFER', transfer: true }]);
  });

  it('answers NO_OFFERS when no date of a direction has flights, and refuses windows over 31 days', () => {
    const { service } = setup();
    expect(ndcErrorOf(() => service.shop(calendarRq([['LGW', 'OSL', '2026-11-10', 3, 3]])))).toMatchObject({
      code: '710',
      text: 'No availability from LGW to OSL between 2026-11-07 and 2026-11-13',
    });
    expect(ndcErrorOf(() => service.shop(calendarRq([['LGW', 'OSL', '2026-12-10', 32, 0]])))).toMatchObject({
      code: '701',
    });
  });
});

describe('groupPassengers', () => {
  it('groups passengers of the same type and price; every other passenger gets its own item', () => {
    const a = { base: '10.00', taxes: '1.00', total: '11.00' };
    const b = { base: '10.00', taxes: '0.00', total: '10.00' };
    expect(
      groupPassengers([
        { passengerId: 'P1', ptc: 'ADT', price: a },
        { passengerId: 'P2', ptc: 'ADT', price: b },
        { passengerId: 'P3', ptc: 'ADT', price: a },
        { passengerId: 'P4', ptc: 'CHD', price: a },
      ]),
    ).toEqual([
      { ptc: 'ADT', passengerRefs: ['P1', 'P3'], price: a },
      { ptc: 'ADT', passengerRefs: ['P2'], price: b },
      { ptc: 'CHD', passengerRefs: ['P4'], price: a },
    ]);
  });
});
