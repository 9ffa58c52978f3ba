import { decodeError, goldenRequestHead, xsdRoundTrip } from '../../test/support/ndc';
import { expectValidXsd } from '../../test/support/xsd';
import {
  extrasPriceRq,
  orderSeatAvailabilityRq,
  orderServiceListRq,
  seatAvailabilityRq,
  seatAvailabilityRs,
  serviceListErrorRs,
  serviceListRq,
  serviceListRs,
} from './fixtures/extras.fixtures';
import { orderViewRs } from './fixtures/order-view-rs.fixtures';
import { decodeOfferPriceRq, encodeOfferPriceRq } from './offer-price-rq.codec';
import { decodeOrderViewRs, encodeOrderViewRs } from './order-view-rs.codec';
import { decodeSeatAvailabilityRq, encodeSeatAvailabilityRq } from './seat-availability-rq.codec';
import { decodeSeatAvailabilityRs, encodeSeatAvailabilityRs } from './seat-availability-rs.codec';
import { decodeServiceListRq, encodeServiceListRq } from './service-list-rq.codec';
import { decodeServiceListRs, encodeServiceListRs } from './service-list-rs.codec';
import type { OrderViewRs } from './ndc.model';
import type { SeatAvailabilityRs } from './extras.model';

describe('ServiceListRQ codec', () => {
  it('encodes schema-valid XML (golden) that decodes to the same model', () => {
    const { xml, back } = xsdRoundTrip(serviceListRq, encodeServiceListRq, decodeServiceListRq, 'ServiceListRQ');
    expect(back).toStrictEqual(serviceListRq);
    expect(xml).toBe(
      goldenRequestHead('ServiceListRQ') +
        '<ShoppingResponseID><ResponseID>SR-20261121-0001</ResponseID></ShoppingResponseID>' +
        '<Query><Offers><Offer><OfferID Owner="XS">OFFER__OUT_PC__LIGHT</OfferID><OfferItemIDs>' +
        '<OfferItemID Owner="XS">OI__OUT_ADT</OfferItemID><OfferItemID Owner="XS">OI__OUT_CHD</OfferItemID>' +
        '</OfferItemIDs></Offer></Offers></Query>' +
        '<DataLists><PassengerList><Passenger PassengerID="PAX__ADT01"><PTC>ADT</PTC></Passenger>' +
        '<Passenger PassengerID="PAX__ADT02"><PTC>ADT</PTC></Passenger><Passenger PassengerID="PAX__CHD01"><PTC>CHD</PTC></Passenger>' +
        '<Passenger PassengerID="PAX__INF01"><PTC>INF</PTC></Passenger></PassengerList></DataLists></ServiceListRQ>',
    );
  });

  it('names the path of an offer without OfferItemID and of an OfferID without Owner', () => {
    const xml = encodeServiceListRq(serviceListRq);
    const noItems = decodeError(() =>
      decodeServiceListRq(xml.replace(/<OfferItemIDs>.*<\/OfferItemIDs>/, '<OfferItemIDs/>')),
    );
    expect([noItems.code, noItems.path]).toStrictEqual([
      'MISSING',
      '/ServiceListRQ/Query/Offers/Offer[1]/OfferItemIDs/OfferItemID',
    ]);
    const noOwner = decodeError(() => decodeServiceListRq(xml.replace('<OfferID Owner="XS">', '<OfferID>')));
    expect([noOwner.code, noOwner.path]).toStrictEqual([
      'MISSING',
      '/ServiceListRQ/Query/Offers/Offer[1]/OfferID/@Owner',
    ]);
  });

  it('asks for the services of an existing order: Query/OrderID with its Owner (golden), not with offers', () => {
    const { xml, back } = xsdRoundTrip(orderServiceListRq, encodeServiceListRq, decodeServiceListRq, 'ServiceListRQ');
    expect(back).toStrictEqual(orderServiceListRq);
    expect(xml).toBe(
      goldenRequestHead('ServiceListRQ') + '<Query><OrderID Owner="XS">ORD-9K2Q7X</OrderID></Query></ServiceListRQ>',
    );
    expect(() => encodeServiceListRq({ ...orderServiceListRq, offers: serviceListRq.offers })).toThrow(
      'ServiceListRQ: Query names offers or an order, not both (XSD choice)',
    );
    const noOwner = decodeError(() => decodeServiceListRq(xml.replace(' Owner="XS"', '')));
    expect([noOwner.code, noOwner.path]).toStrictEqual(['MISSING', '/ServiceListRQ/Query/OrderID/@Owner']);
  });

  it('decodes the query forms it does not model (by OriginDestination) as offers []', () => {
    const xml = encodeServiceListRq(serviceListRq).replace(/<Query>.*<\/Query>/, '');
    expect(decodeServiceListRq(xml).offers).toStrictEqual([]);
  });
});

describe('ServiceListRS codec', () => {
  it('round-trips the à-la-carte offer, valid against the XSD', () => {
    const { xml, back } = xsdRoundTrip(serviceListRs, encodeServiceListRs, decodeServiceListRs, 'ServiceListRS');
    expect(back).toStrictEqual(serviceListRs);
    expect(xml).toContain(
      '<ALaCarteOffer OfferID="ALC__SR-20261121-0001" Owner="XS"><ALaCarteOfferItem OfferItemID="ALC__YN1_ADT_OUT">' +
        '<Eligibility><PassengerRefs>PAX__ADT01 PAX__ADT02</PassengerRefs><SegmentRefs>SEG__LHR_JFK_0101</SegmentRefs>' +
        '<PriceClassRefs>PC__LIGHT</PriceClassRefs></Eligibility>' +
        '<UnitPriceDetail><TotalAmount><SimpleCurrencyPrice Code="GBP">35.00</SimpleCurrencyPrice></TotalAmount></UnitPriceDetail>' +
        '<Service ServiceID="SRV__YN1_ADT_OUT"><ServiceDefinitionRef>SD__YN1</ServiceDefinitionRef></Service></ALaCarteOfferItem>',
    );
  });

  it('round-trips the error form', () => {
    const { back } = xsdRoundTrip(serviceListErrorRs, encodeServiceListRs, decodeServiceListRs, 'ServiceListRS');
    expect(back).toStrictEqual(serviceListErrorRs);
  });

  it('reads a unit price in DetailCurrencyPrice, and names an item without ServiceDefinitionRef', () => {
    const xml = encodeServiceListRs(serviceListRs);
    const detail = xml.replace(
      '<SimpleCurrencyPrice Code="GBP">35.00</SimpleCurrencyPrice>',
      '<DetailCurrencyPrice><Total Code="GBP">35.00</Total></DetailCurrencyPrice>',
    );
    expectValidXsd(detail, 'ServiceListRS');
    expect(decodeServiceListRs(detail)).toStrictEqual(serviceListRs);
    const err = decodeError(() =>
      decodeServiceListRs(
        xml.replace(
          '<ServiceDefinitionRef>SD__YN1</ServiceDefinitionRef></Service></ALaCarteOfferItem>',
          '</Service></ALaCarteOfferItem>',
        ),
      ),
    );
    expect([err.code, err.path]).toStrictEqual([
      'MISSING',
      '/ServiceListRS/ALaCarteOffer/ALaCarteOfferItem[1]/Service/ServiceDefinitionRef',
    ]);
  });
});

describe('SeatAvailabilityRQ codec', () => {
  it('encodes schema-valid XML (golden) that decodes to the same model', () => {
    const { xml, back } = xsdRoundTrip(
      seatAvailabilityRq,
      encodeSeatAvailabilityRq,
      decodeSeatAvailabilityRq,
      'SeatAvailabilityRQ',
    );
    expect(back).toStrictEqual(seatAvailabilityRq);
    expect(xml).toContain(
      '</Party><ShoppingResponseID><ResponseID>SR-20261121-0001</ResponseID></ShoppingResponseID>' +
        '<Query><Offer OfferID="OFFER__OUT_PC__LIGHT" Owner="XS" ResponseID="SR-20261121-0001">' +
        '<SegmentID>SEG__LHR_JFK_0101</SegmentID><SegmentID>SEG__JFK_DUB_0160</SegmentID>' +
        '<PassengerID>PAX__ADT01</PassengerID><PassengerID>PAX__CHD01</PassengerID></Offer></Query><DataLists>',
    );
  });

  it('names a missing ResponseID; decodes a query by FlightSegment without an offer', () => {
    const xml = encodeSeatAvailabilityRq(seatAvailabilityRq);
    const err = decodeError(() => decodeSeatAvailabilityRq(xml.replace(' ResponseID="SR-20261121-0001">', '>')));
    expect([err.code, err.path]).toStrictEqual(['MISSING', '/SeatAvailabilityRQ/Query/Offer/@ResponseID']);
    const bySegment = xml.replace(
      /<Query>.*<\/Query>/,
      '<Query><FlightSegment><AirlineID>XS</AirlineID><Departure><AirportCode>LHR</AirportCode><Date>2027-03-10</Date></Departure>' +
        '<Arrival><AirportCode>JFK</AirportCode></Arrival><FlightNumber>101</FlightNumber></FlightSegment></Query>',
    );
    expect(decodeSeatAvailabilityRq(bySegment).offer).toBeUndefined();
    expect(decodeSeatAvailabilityRq(bySegment).order).toBeUndefined();
  });

  it('asks for the seats of an existing order: Query/Order with PassengerIDs then SegmentIDs (golden), not with an offer', () => {
    const { xml, back } = xsdRoundTrip(
      orderSeatAvailabilityRq,
      encodeSeatAvailabilityRq,
      decodeSeatAvailabilityRq,
      'SeatAvailabilityRQ',
    );
    expect(back).toStrictEqual(orderSeatAvailabilityRq);
    expect(xml).toBe(
      goldenRequestHead('SeatAvailabilityRQ') +
        '<Query><Order OrderID="ORD-9K2Q7X" Owner="XS"><PassengerID>PAX__ADT01</PassengerID><PassengerID>PAX__ADT02</PassengerID>' +
        '<SegmentID>SEG__LHR_JFK_0101</SegmentID></Order></Query></SeatAvailabilityRQ>',
    );
    expect(() => encodeSeatAvailabilityRq({ ...orderSeatAvailabilityRq, offer: seatAvailabilityRq.offer })).toThrow(
      'SeatAvailabilityRQ: Query names an offer or an order, not both (XSD choice)',
    );
    const wholeOrder = xml.replace(/<PassengerID>.*<\/SegmentID>/, '');
    expect(decodeSeatAvailabilityRq(wholeOrder).order).toStrictEqual({
      orderId: 'ORD-9K2Q7X',
      owner: 'XS',
      passengerIds: [],
      segmentIds: [],
    });
  });
});

describe('SeatAvailabilityRS codec', () => {
  it('round-trips a seat map with exit row, statuses, characteristics and zone prices, valid against the XSD', () => {
    const { xml, back } = xsdRoundTrip(
      seatAvailabilityRs,
      encodeSeatAvailabilityRs,
      decodeSeatAvailabilityRs,
      'SeatAvailabilityRS',
    );
    expect(back).toStrictEqual(seatAvailabilityRs);
    expect(xml).toContain(
      '<SeatMap><SegmentRef>SEG__LHR_JFK_0101</SegmentRef><Cabin><CabinType><Name>Economy</Name><Code>M</Code></CabinType>' +
        '<CabinLayout><Columns Position="W">A</Columns><Columns Position="C">B</Columns><Columns Position="A">C</Columns>' +
        '<Rows><First>12</First><Last>30</Last></Rows><ExitRowPosition><RowPosition><First>12</First><Last>12</Last></RowPosition></ExitRowPosition></CabinLayout>' +
        '<Row><Number>12</Number><RowCharacteristics><Code>E</Code></RowCharacteristics>' +
        '<Seat><Column>A</Column><SeatStatus>F</SeatStatus><SeatCharacteristics><Code>W</Code><Code>E</Code><Code>L</Code><Code>1A</Code></SeatCharacteristics>' +
        '<OfferItemRefs>ALC__XST_ZONE3_OUT</OfferItemRefs></Seat>',
    );
  });

  it('refuses to encode a response without seat maps (the XSD requires one)', () => {
    const success = seatAvailabilityRs as Extract<SeatAvailabilityRs, { kind: 'success' }>;
    const empty: SeatAvailabilityRs = { ...success, seatMaps: [] };
    expect(() => encodeSeatAvailabilityRs(empty)).toThrow('at least one SeatMap');
  });

  it('reads an exit-row range as its rows, and names a row without Number', () => {
    const xml = encodeSeatAvailabilityRs(seatAvailabilityRs);
    const range = xml.replace(
      '<RowPosition><First>12</First><Last>12</Last>',
      '<RowPosition><First>12</First><Last>13</Last>',
    );
    const ok = decodeSeatAvailabilityRs(range);
    expect(ok.kind === 'success' && ok.seatMaps[0].cabins[0].exitRows).toStrictEqual([12, 13]);
    const err = decodeError(() => decodeSeatAvailabilityRs(xml.replace('<Number>30</Number>', '')));
    expect([err.code, err.path]).toStrictEqual(['MISSING', '/SeatAvailabilityRS/SeatMap[1]/Cabin[1]/Row[2]/Number']);
  });
});

describe('OfferPriceRQ with selected extras', () => {
  it('writes ALaCarteSelection and SeatSelection per item, valid against the XSD, and reads them back', () => {
    const { xml, back } = xsdRoundTrip(extrasPriceRq, encodeOfferPriceRq, decodeOfferPriceRq, 'OfferPriceRQ');
    expect(back).toStrictEqual(extrasPriceRq);
    expect(xml).toContain(
      '<OfferItem OfferItemID="ALC__XST_ZONE3_OUT"><PassengerRefs>PAX__CHD01</PassengerRefs>' +
        '<ALaCarteSelection><Quantity>1</Quantity><SegmentID>SEG__LHR_JFK_0101</SegmentID></ALaCarteSelection>' +
        '<SeatSelection><Row>12</Row><Column>C</Column></SeatSelection></OfferItem>',
    );
  });

  it('names a seat selection without Column', () => {
    const xml = encodeOfferPriceRq(extrasPriceRq).replace('<Column>C</Column>', '');
    const err = decodeError(() => decodeOfferPriceRq(xml));
    expect([err.code, err.path]).toStrictEqual([
      'MISSING',
      '/OfferPriceRQ/Query/Offer[2]/OfferItem[3]/SeatSelection/Column',
    ]);
  });
});

describe('OrderViewRS with seats', () => {
  it('writes a seat service as SelectedSeat (row, column, segment, definition) and reads it back', () => {
    if (orderViewRs.kind !== 'success') throw new Error('fixture');
    const [order] = orderViewRs.orders;
    const withSeat: OrderViewRs = {
      ...orderViewRs,
      orders: [
        {
          ...order,
          orderItems: order.orderItems.map((it, i) =>
            i === 0
              ? {
                  ...it,
                  services: [
                    ...it.services,
                    {
                      serviceId: 'SRV__SEAT_12A',
                      passengerRef: 'PAX__ADT01',
                      selectedSeat: {
                        row: 12,
                        column: 'A',
                        segmentRef: 'SEG__LHR_JFK_0101',
                        serviceDefinitionRef: 'SD__XST-1',
                      },
                    },
                  ],
                }
              : it,
          ),
        },
      ],
    };
    const { xml, back } = xsdRoundTrip(withSeat, encodeOrderViewRs, decodeOrderViewRs, 'OrderViewRS');
    expect(back).toStrictEqual(withSeat);
    expect(xml).toContain(
      '<Service ServiceID="SRV__SEAT_12A"><PassengerRef>PAX__ADT01</PassengerRef><SelectedSeat><Seat><Row>12</Row><Column>A</Column></Seat>' +
        '<SegmentRef>SEG__LHR_JFK_0101</SegmentRef><ServiceDefinitionRef>SD__XST-1</ServiceDefinitionRef></SelectedSeat></Service>',
    );
  });
});
