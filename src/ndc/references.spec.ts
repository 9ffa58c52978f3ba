import { decodeAirShoppingRs, encodeAirShoppingRs } from './air-shopping-rs.codec';
import { airShoppingErrorRs, calendarRoundTripRs, dayRoundTripRs } from './fixtures/air-shopping-rs.fixtures';
import { roundTripPriceRq } from './fixtures/offer-price-rq.fixtures';
import { offerPriceRs, offerPriceWithSurchargeRs } from './fixtures/offer-price-rs.fixtures';
import { familyOrderCreateRq } from './fixtures/order-create-rq.fixtures';
import { orderViewRs } from './fixtures/order-view-rs.fixtures';
import { changeOffersRs, refundQuoteRs } from './fixtures/order-reshop.fixtures';
import { cancelledFlightNotif, retimeNotif } from './fixtures/order-change-notif.fixtures';
import type { OrderReshopRs } from './servicing.model';
import type { AirShoppingRs, OfferPriceRs, OrderViewRs } from './ndc.model';
import { checkReferences } from './references';

type Day = Extract<AirShoppingRs, { kind: 'day' }>;
const clone = <T>(x: T): T => structuredClone(x);

describe('checkReferences', () => {
  it.each([
    ['day AirShoppingRS', dayRoundTripRs],
    ['calendar AirShoppingRS', calendarRoundTripRs],
    ['AirShoppingRS error', airShoppingErrorRs],
    ['OfferPriceRS', offerPriceRs],
    ['OfferPriceRS with CCF2', offerPriceWithSurchargeRs],
    ['OrderViewRS', orderViewRs],
    ['OfferPriceRQ', roundTripPriceRq],
    ['OrderCreateRQ', familyOrderCreateRq],
  ] as const)('finds nothing wrong in the %s fixture', (_name, msg) => {
    expect(checkReferences(msg)).toEqual([]);
  });

  it('reports a PassengerRef and a SegmentRef that point nowhere in a decoded AirShoppingRS', () => {
    const xml = encodeAirShoppingRs(dayRoundTripRs)
      .replace('<PassengerRefs>PAX__INF01</PassengerRefs>', '<PassengerRefs>PAX__INF09</PassengerRefs>')
      .replace(
        '<SegmentReferences>SEG__JFK_DUB_0160 SEG__DUB_LHR_0161</SegmentReferences>',
        '<SegmentReferences>SEG__JFK_DUB_0160 SEG__NOWHERE</SegmentReferences>',
      );
    expect(checkReferences(decodeAirShoppingRs(xml))).toEqual([
      { path: 'dataLists.flights[1].segmentRefs[1]', message: 'SEG__NOWHERE points to no FlightSegment' },
      {
        path: 'airlineOffers[0].offers[0].offerItems[2].services[0].passengerRefs[0]',
        message: 'PAX__INF09 points to no Passenger',
      },
    ]);
  });

  it('reports every kind of dangling reference of an offer and the data lists', () => {
    const msg = clone(dayRoundTripRs) as Day;
    const offer = msg.airlineOffers[0].offers[1];
    offer.flightsOverview[0] = { odRef: 'OD__X', priceClassRef: 'PC__X', flightKey: 'FL__X' };
    offer.offerItems[0].services[1].serviceDefinitionRef = { ref: 'SD__X', segmentRefs: ['SEG__X'] };
    offer.offerItems[0].fareDetails[0].fareComponents[0].priceClassRef = 'PC__Y';
    offer.offerItems[0].fareDetails[0].fareComponents[0].segmentRefs = { segmentKeys: ['SEG__Y'] };
    offer.offerItems[1].services[0].flightRefs = ['FL__Y'];
    msg.dataLists.serviceDefinitions![3].baggageAllowanceRef = 'BAG__X';
    msg.dataLists.serviceDefinitions![0].bundleRefs = ['SD__Y'];
    msg.dataLists.originDestinations![0].flightRefs = ['FL__Z'];
    msg.dataLists.priceClasses![0].classesOfService![0].segmentRefs = ['SEG__Z'];
    msg.dataLists.flightSegments![0].departure.refs = ['CTRY_XX'];
    msg.dataLists.passengers = [
      ...msg.dataLists.passengers!,
      { passengerId: 'PAX__ADT01', ptc: 'ADT', contactInfoRef: 'CTC__X' },
    ];
    expect(checkReferences(msg)).toEqual([
      { path: 'dataLists.passengers[4]', message: 'duplicate Passenger id PAX__ADT01' },
      { path: 'dataLists.passengers[4].contactInfoRef', message: 'CTC__X points to no ContactInformation' },
      { path: 'dataLists.flightSegments[0].departure.refs[0]', message: 'CTRY_XX points to no Metadata' },
      { path: 'dataLists.originDestinations[0].flightRefs[0]', message: 'FL__Z points to no Flight' },
      {
        path: 'dataLists.priceClasses[0].classesOfService[0].segmentRefs[0]',
        message: 'SEG__Z points to no FlightSegment',
      },
      { path: 'dataLists.serviceDefinitions[0].bundleRefs[0]', message: 'SD__Y points to no ServiceDefinition' },
      { path: 'dataLists.serviceDefinitions[3].baggageAllowanceRef', message: 'BAG__X points to no BaggageAllowance' },
      { path: 'airlineOffers[0].offers[1].flightsOverview[0].flightKey', message: 'FL__X points to no Flight' },
      { path: 'airlineOffers[0].offers[1].flightsOverview[0].odRef', message: 'OD__X points to no OriginDestination' },
      { path: 'airlineOffers[0].offers[1].flightsOverview[0].priceClassRef', message: 'PC__X points to no PriceClass' },
      {
        path: 'airlineOffers[0].offers[1].offerItems[0].services[1].serviceDefinitionRef.ref',
        message: 'SD__X points to no ServiceDefinition',
      },
      {
        path: 'airlineOffers[0].offers[1].offerItems[0].services[1].serviceDefinitionRef.segmentRefs[0]',
        message: 'SEG__X points to no FlightSegment',
      },
      {
        path: 'airlineOffers[0].offers[1].offerItems[0].fareDetails[0].fareComponents[0].priceClassRef',
        message: 'PC__Y points to no PriceClass',
      },
      {
        path: 'airlineOffers[0].offers[1].offerItems[0].fareDetails[0].fareComponents[0].segmentRefs.segmentKeys[0]',
        message: 'SEG__Y points to no FlightSegment',
      },
      {
        path: 'airlineOffers[0].offers[1].offerItems[1].services[0].flightRefs[0]',
        message: 'FL__Y points to no Flight',
      },
    ]);
  });

  it('reports calendar refs to unknown origin/destinations and journey AugPoints', () => {
    const msg = clone(calendarRoundTripRs) as Extract<AirShoppingRs, { kind: 'calendar' }>;
    msg.airlineOffers[1].priceCalendar[0].dates[0].originDestinationRef = 'OD__AMS_LHR';
    msg.airlineOffers[1].priceCalendar[2].augPointRefs = ['JRN__NONE'];
    expect(checkReferences(msg)).toEqual([
      {
        path: 'airlineOffers[1].priceCalendar[0].dates[0].originDestinationRef',
        message: 'OD__AMS_LHR points to no OriginDestination',
      },
      { path: 'airlineOffers[1].priceCalendar[2].augPointRefs[0]', message: 'JRN__NONE points to no Metadata' },
    ]);
  });

  it('reports a CCF2 item whose service definition is missing from the OfferPriceRS', () => {
    const msg = clone(offerPriceWithSurchargeRs) as Extract<OfferPriceRs, { kind: 'success' }>;
    delete msg.dataLists.serviceDefinitions;
    expect(checkReferences(msg)).toEqual([
      {
        path: 'pricedOffer.offerItems[8].services[0].serviceDefinitionRef.ref',
        message: 'SD__CCF2 points to no ServiceDefinition',
      },
    ]);
  });

  it('reports dangling PassengerRef, SegmentRef and ServiceDefinitionRef of order items', () => {
    const msg = clone(orderViewRs) as Extract<OrderViewRs, { kind: 'success' }>;
    const items = msg.orders[0].orderItems;
    items[1].services[0].passengerRef = 'PAX__ADT07';
    items[5].services[1].segmentRef = 'SEG__GONE';
    items[8].services[0].serviceDefinitionRef = 'SD__CCF3';
    expect(checkReferences(msg)).toEqual([
      { path: 'orders[0].orderItems[1].services[0].passengerRef', message: 'PAX__ADT07 points to no Passenger' },
      { path: 'orders[0].orderItems[5].services[1].segmentRef', message: 'SEG__GONE points to no FlightSegment' },
      {
        path: 'orders[0].orderItems[8].services[0].serviceDefinitionRef',
        message: 'SD__CCF3 points to no ServiceDefinition',
      },
    ]);
  });

  it('checks requests: OfferPriceRQ passenger refs and OrderCreateRQ contact refs', () => {
    const rq = clone(roundTripPriceRq);
    rq.offers[0].offerItems[0].passengerRefs = [...rq.offers[0].offerItems[0].passengerRefs, 'PAX__ZZZ'];
    const n = rq.offers[0].offerItems[0].passengerRefs.length - 1;
    expect(checkReferences(rq)).toEqual([
      { path: `offers[0].offerItems[0].passengerRefs[${n}]`, message: 'PAX__ZZZ points to no Passenger' },
    ]);

    const oc = clone(familyOrderCreateRq);
    oc.passengers[0] = { ...oc.passengers[0], contactInfoRef: 'CTC__NOPE' };
    expect(checkReferences(oc)).toEqual([
      { path: 'passengers[0].contactInfoRef', message: 'CTC__NOPE points to no ContactInformation' },
    ]);
  });

  it('checks OrderReshopRS offers (new flights and items) and OrderChangeNotif orders against their lists', () => {
    for (const msg of [changeOffersRs, refundQuoteRs, retimeNotif, cancelledFlightNotif])
      expect(checkReferences(msg)).toEqual([]);
    const rs = clone(changeOffersRs) as Extract<OrderReshopRs, { kind: 'success' }>;
    if (rs.result.kind !== 'offers') throw new Error('expected offers');
    rs.result.offers[0]!.flightsOverview[0]!.priceClassRef = 'PC__FLEX';
    rs.result.offers[0]!.addItems[1]!.services[0]!.flightRefs = ['FL__GONE'];
    expect(checkReferences(rs)).toEqual([
      { path: 'result.offers[0].flightsOverview[0].priceClassRef', message: 'PC__FLEX points to no PriceClass' },
      { path: 'result.offers[0].addItems[1].services[0].flightRefs[0]', message: 'FL__GONE points to no Flight' },
    ]);
    const notif = clone(retimeNotif);
    notif.order.orderItems[0]!.services[0]!.segmentRef = 'SEG__GONE';
    expect(checkReferences(notif)).toEqual([
      { path: 'order.orderItems[0].services[0].segmentRef', message: 'SEG__GONE points to no FlightSegment' },
    ]);
  });
});
